package dev.taskgov.local;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.apache.kafka.server.authorizer.AuthorizationResult.ALLOWED;
import static org.apache.kafka.server.authorizer.AuthorizationResult.DENIED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The authorizer decides as KRaft's {@code StandardAuthorizer} does also when it answers from the grants it
 * remembers: a change of the ACLs (removed, added, a snapshot) is decided on at the next request, and a grant to one
 * principal, host or topic is not another's.
 */
class AuditingAuthorizerTest {

    private static final Uuid READ_ORDERS = Uuid.randomUuid();
    private final AuditingAuthorizer authorizer = new AuditingAuthorizer();

    @BeforeEach
    void setUp() {
        authorizer.withPluginMetrics(new PluginMetricsImpl(new Metrics(), Map.of()));
        authorizer.configure(Map.of("super.users", "User:taskgov-admin"));
        authorizer.loadSnapshot(Map.of(READ_ORDERS, readAcl("team.a", "orders")));
        authorizer.completeInitialLoad();
    }

    @Test
    void aGrantRemovedIsRefusedAtTheNextRequestAndAddedBackIsAllowedAgain() {
        assertThat(read("team.a", "10.0.0.1", "orders")).isEqualTo(ALLOWED);
        assertThat(read("team.a", "10.0.0.1", "orders")).as("remembered").isEqualTo(ALLOWED);

        authorizer.removeAcl(READ_ORDERS);
        assertThat(read("team.a", "10.0.0.1", "orders")).isEqualTo(DENIED);

        authorizer.addAcl(Uuid.randomUuid(), readAcl("team.a", "orders"));
        assertThat(read("team.a", "10.0.0.1", "orders")).isEqualTo(ALLOWED);
    }

    @Test
    void aSnapshotWithoutTheGrantReplacesWhatWasRemembered() {
        assertThat(read("team.a", "10.0.0.1", "orders")).isEqualTo(ALLOWED);
        authorizer.loadSnapshot(Map.of(Uuid.randomUuid(), readAcl("team.b", "orders")));
        assertThat(read("team.a", "10.0.0.1", "orders")).isEqualTo(DENIED);
        assertThat(read("team.b", "10.0.0.1", "orders")).isEqualTo(ALLOWED);
    }

    @Test
    void aGrantIsItsPrincipalsTopicsAndOperationsOnly() {
        assertThat(read("team.a", "10.0.0.1", "orders")).isEqualTo(ALLOWED);
        assertThat(read("team.b", "10.0.0.1", "orders")).as("another principal").isEqualTo(DENIED);
        assertThat(read("team.a", "10.0.0.1", "payments")).as("another topic").isEqualTo(DENIED);
        assertThat(authorizer.authorize(context("team.a", "10.0.0.1"), List.of(action(AclOperation.WRITE, "orders"))))
                .as("another operation").containsExactly(DENIED);
        assertThat(authorizer.authorize(context("team.a", "10.0.0.1"),
                List.of(action(AclOperation.READ, "orders"), action(AclOperation.READ, "payments"))))
                .as("a request of two topics, one granted").containsExactly(ALLOWED, DENIED);
    }

    @Test
    void aGrantToOneHostIsNotAnothers() {
        authorizer.loadSnapshot(Map.of(Uuid.randomUuid(), new StandardAcl(ResourceType.TOPIC, "orders", PatternType.LITERAL,
                "User:team.a", "10.0.0.1", AclOperation.READ, AclPermissionType.ALLOW)));
        assertThat(read("team.a", "10.0.0.1", "orders")).isEqualTo(ALLOWED);
        assertThat(read("team.a", "10.0.0.2", "orders")).isEqualTo(DENIED);
    }

    private AuthorizationResult read(String principal, String host, String topic) {
        return authorizer.authorize(context(principal, host), List.of(action(AclOperation.READ, topic))).get(0);
    }

    private static StandardAcl readAcl(String principal, String topic) {
        return new StandardAcl(ResourceType.TOPIC, topic, PatternType.LITERAL, "User:" + principal, "*",
                AclOperation.READ, AclPermissionType.ALLOW);
    }

    private static Action action(AclOperation operation, String topic) {
        return new Action(operation, new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), 1, true, true);
    }

    private static AuthorizableRequestContext context(String principal, String host) {
        return new AuthorizableRequestContext() {
            @Override
            public String listenerName() {
                return "SASL_PLAINTEXT";
            }

            @Override
            public SecurityProtocol securityProtocol() {
                return SecurityProtocol.SASL_PLAINTEXT;
            }

            @Override
            public KafkaPrincipal principal() {
                return new KafkaPrincipal(KafkaPrincipal.USER_TYPE, principal);
            }

            @Override
            public InetAddress clientAddress() {
                try {
                    return InetAddress.getByName(host);
                } catch (java.net.UnknownHostException e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public int requestType() {
                return ApiKeys.FETCH.id;
            }

            @Override
            public int requestVersion() {
                return 17;
            }

            @Override
            public String clientId() {
                return "test";
            }

            @Override
            public int correlationId() {
                return 1;
            }
        };
    }
}
