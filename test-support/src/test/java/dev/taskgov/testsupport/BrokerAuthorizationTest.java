package dev.taskgov.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.TopicCatalog.Names;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.service.support.Topics;
import dev.taskgov.service.support.auth.AuditRecords;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The broker itself refuses what a principal may not do (docs/security.md, "Kafka"): the test broker is the local
 * runtime's ({@code SecureBroker}, grants of core's {@link KafkaAccess}), so these refusals are the runtime's.
 */
class BrokerAuthorizationTest {

    private static final String TEAM_A = "team-a";
    private static final String TEAM_B = "team-b";
    /** A team whose name is a prefix of another's: its grant must not reach the other's topic. */
    private static final String TEAM_T1 = "t1";
    private static final String TEAM_T10 = "t10";
    /** A team that only this class's audit test uses, so that the refusals it finds on the audit topic are its own. */
    private static final String TEAM_AUDITED = "team-audited";

    @BeforeAll
    static void teams() {
        SharedKafka.addTeams(TEAM_A, TEAM_B, TEAM_T1, TEAM_T10, TEAM_AUDITED);
    }

    @Test
    void aTeamWritesItsOwnSubmissionTopic() throws Exception {
        RecordMetadata written = send(KafkaAccess.teamPrincipal(TEAM_A), submissionTopic(TEAM_A));
        assertThat(written.topic()).isEqualTo("taskgov.workload.submitted.team-a");
    }

    @Test
    void aTeamCannotWriteAnotherTeamsSubmissionTopic() {
        assertRefused(KafkaAccess.teamPrincipal(TEAM_A), submissionTopic(TEAM_B));
        assertRefused(KafkaAccess.teamPrincipal(TEAM_T1), submissionTopic(TEAM_T10));
    }

    @Test
    void aTeamWritesItsOwnReadinessTopicOnlyAndTheJobWatcherTheSharedOne() throws Exception {
        String own = KafkaAccess.podsReadyTopic(Names.WORKLOAD_PODS_READY, TEAM_A);
        assertThat(send(KafkaAccess.teamPrincipal(TEAM_A), own).topic()).isEqualTo("taskgov.workload.pods-ready.team-a");
        assertRefused(KafkaAccess.teamPrincipal(TEAM_A), KafkaAccess.podsReadyTopic(Names.WORKLOAD_PODS_READY, TEAM_B));
        assertRefused(KafkaAccess.teamPrincipal(TEAM_T1), KafkaAccess.podsReadyTopic(Names.WORKLOAD_PODS_READY, TEAM_T10));
        assertRefused(KafkaAccess.teamPrincipal(TEAM_A), Names.WORKLOAD_PODS_READY);
        assertThat(send(KafkaAccess.JOB_WATCHER, Names.WORKLOAD_PODS_READY).topic()).isEqualTo(Names.WORKLOAD_PODS_READY);
    }

    @Test
    void aTeamCannotWriteDecisionsNorTheSharedSubmissionTopic() {
        String team = KafkaAccess.teamPrincipal(TEAM_A);
        assertRefused(team, Names.WORKLOAD_ADMITTED);
        assertRefused(team, Names.WORKLOAD_PREEMPTED);
        assertRefused(team, Names.WORKLOAD_STATUS);
        assertRefused(team, Names.WORKLOAD_SUBMITTED);
    }

    @Test
    void onlyAdmissionServiceWritesAdmissionsAndOnlyPreemptionServiceWritesPreemptions() throws Exception {
        assertThat(send(KafkaAccess.ADMISSION_SERVICE, Names.WORKLOAD_ADMITTED).topic()).isEqualTo(Names.WORKLOAD_ADMITTED);
        assertThat(send(KafkaAccess.PREEMPTION_SERVICE, Names.WORKLOAD_PREEMPTED).topic()).isEqualTo(Names.WORKLOAD_PREEMPTED);
        // admission-service hands its own evictions without a preemptor (NodeFailure, QuotaRemoved) to
        // preemption-service on the requests topic, which only it writes; it may not publish them itself
        assertThat(send(KafkaAccess.ADMISSION_SERVICE, Names.PREEMPTION_REQUESTED).topic()).isEqualTo(Names.PREEMPTION_REQUESTED);
        for (String other : KafkaAccess.SERVICES) {
            if (!other.equals(KafkaAccess.ADMISSION_SERVICE)) {
                assertRefused(other, Names.WORKLOAD_ADMITTED);
                assertRefused(other, Names.PREEMPTION_REQUESTED);
            }
            if (!other.equals(KafkaAccess.PREEMPTION_SERVICE)) assertRefused(other, Names.WORKLOAD_PREEMPTED);
        }
        assertRefused(KafkaAccess.teamPrincipal(TEAM_A), Names.PREEMPTION_REQUESTED);
    }

    /**
     * A broker provisioned before a right was taken away from a service (admission-service wrote the preempted topic
     * until its evictions went through preemption-service) loses that ACL at the next provisioning (each start).
     */
    @Test
    void provisioningDeletesAServiceGrantNoLongerDeclared() throws Exception {
        List<AclBinding> old = List.of(AclOperation.WRITE, AclOperation.DESCRIBE).stream().map(op -> new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, Names.WORKLOAD_PREEMPTED, PatternType.LITERAL),
                new AccessControlEntry("User:" + KafkaAccess.ADMISSION_SERVICE, "*", op, AclPermissionType.ALLOW))).toList();
        try (Admin admin = Admin.create(SharedKafka.adminClientProperties())) {
            admin.createAcls(old).all().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(send(KafkaAccess.ADMISSION_SERVICE, Names.WORKLOAD_PREEMPTED).topic()).isEqualTo(Names.WORKLOAD_PREEMPTED));

            SharedKafka.addTeams(TEAM_A); // provisions again, as each start of the local runtime does

            assertThat(admin.describeAcls(old.get(0).toFilter()).values().get(30, TimeUnit.SECONDS)).isEmpty();
            // DESCRIBE stays: admission-service reads the topic
            assertThat(admin.describeAcls(old.get(1).toFilter()).values().get(30, TimeUnit.SECONDS)).hasSize(1);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertRefused(KafkaAccess.ADMISSION_SERVICE, Names.WORKLOAD_PREEMPTED));
        }
    }

    @Test
    void onlyQuotaServiceWritesAccessKeysAndOnlyTheHttpServicesWriteTheAudit() throws Exception {
        assertThat(send(KafkaAccess.QUOTA_SERVICE, Names.CREDENTIALS).topic()).isEqualTo(Names.CREDENTIALS);
        List<String> http = List.of(KafkaAccess.QUOTA_SERVICE, KafkaAccess.ADMISSION_SERVICE, KafkaAccess.TOPOLOGY_SERVICE);
        for (String service : http) {
            assertThat(send(service, Names.AUDIT).topic()).isEqualTo(Names.AUDIT);
        }
        for (String other : KafkaAccess.SERVICES) {
            if (!other.equals(KafkaAccess.QUOTA_SERVICE)) assertRefused(other, Names.CREDENTIALS);
            if (!http.contains(other)) assertRefused(other, Names.AUDIT);
        }
        assertRefused(KafkaAccess.teamPrincipal(TEAM_A), Names.CREDENTIALS);
        assertRefused(KafkaAccess.teamPrincipal(TEAM_A), Names.AUDIT);
    }

    /**
     * The deciders read the record-batch limit of each topic they write (their producers' batches must fit it, see
     * TransactionalLoop); a principal without that grant may not read a topic's settings.
     */
    @Test
    void theDecidersReadTheLimitsOfTheTopicsTheyWriteAndNobodyElseDoes() {
        List<String> admissionWrites = List.of(Names.WORKLOAD_ADMITTED, Names.WORKLOAD_STATUS, Names.PREEMPTION_REQUESTED,
                Names.ADMISSION_CHANGELOG, Names.DEADLETTER, Names.WORKLOAD_SUBMITTED, Names.WORKLOAD_FINISHED,
                Names.WORKLOAD_PODS_READY, Names.AUDIT);
        List<String> preemptionWrites = List.of(Names.WORKLOAD_PREEMPTED, Names.WORKLOAD_STATUS,
                Names.PREEMPTION_CHANGELOG, Names.DEADLETTER);
        // the deciders create their changelogs as they start; none runs here
        Topics.ensure(login(KafkaAccess.ADMIN), List.of(
                Topics.Spec.of(TopicCatalog.ADMISSION_CHANGELOG, Names.ADMISSION_CHANGELOG),
                Topics.Spec.of(TopicCatalog.PREEMPTION_CHANGELOG, Names.PREEMPTION_CHANGELOG)));
        assertThat(Topics.largestBatchAccepted(login(KafkaAccess.ADMISSION_SERVICE), admissionWrites, 30_000)).isPositive();
        assertThat(Topics.largestBatchAccepted(login(KafkaAccess.PREEMPTION_SERVICE), preemptionWrites, 30_000)).isPositive();
        for (String principal : List.of(KafkaAccess.teamPrincipal(TEAM_A), KafkaAccess.JOB_WATCHER, KafkaAccess.QUOTA_SERVICE)) {
            assertThatThrownBy(() -> Topics.largestBatchAccepted(login(principal), List.of(Names.WORKLOAD_ADMITTED), 30_000))
                    .as(principal).isInstanceOf(IllegalStateException.class)
                    .hasRootCauseInstanceOf(TopicAuthorizationException.class);
        }
        // preemption-service may not read the limits of what only admission-service writes
        assertThatThrownBy(() -> Topics.largestBatchAccepted(login(KafkaAccess.PREEMPTION_SERVICE),
                List.of(Names.WORKLOAD_ADMITTED), 30_000)).hasRootCauseInstanceOf(TopicAuthorizationException.class);
    }

    private static Properties login(String principal) {
        Properties props = new Properties();
        props.putAll(SharedKafka.clientProperties(principal));
        return props;
    }

    @Test
    void theJobWatcherSubmitsForAnyTeamButDecidesNothing() throws Exception {
        assertThat(send(KafkaAccess.JOB_WATCHER, Names.WORKLOAD_SUBMITTED).topic()).isEqualTo(Names.WORKLOAD_SUBMITTED);
        assertThat(send(KafkaAccess.JOB_WATCHER, submissionTopic(TEAM_B)).topic()).isEqualTo(submissionTopic(TEAM_B));
        assertRefused(KafkaAccess.JOB_WATCHER, Names.QUOTA);
    }

    /**
     * A producer first asks for the topic's metadata: a team that may not even describe another team's topic is
     * refused there (DESCRIBE, in a Metadata request); a principal that may describe but not write a topic is
     * refused at the write itself (WRITE, in a Produce request). Both refusals reach the audit topic.
     */
    @Test
    void theBrokersRefusalsAreOnTheAuditTopic() {
        String team = KafkaAccess.teamPrincipal(TEAM_AUDITED);
        assertRefused(team, submissionTopic(TEAM_B));
        assertRefused(team, Names.WORKLOAD_ADMITTED);
        assertRefused(KafkaAccess.QUOTA_SERVICE, Names.TOPOLOGY);

        Map<String, Object> props = new HashMap<>(SharedKafka.clientProperties(KafkaAccess.ADMIN));
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<AuditEvent> refusals = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                if (consumer.assignment().isEmpty()) {
                    List<TopicPartition> partitions = consumer.partitionsFor(Names.AUDIT).stream()
                            .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
                    consumer.assign(partitions);
                    consumer.seekToBeginning(partitions);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    AuditEvent event = AuditEvent.fromJson(record.value());
                    if (!"kafka-broker".equals(event.service())) continue;
                    assertThat(CloudEventHeaders.read(record.headers())).get()
                            .satisfies(ce -> assertThat(ce.type()).isEqualTo(AuditRecords.TYPE));
                    refusals.add(event);
                }
                assertThat(refusals).extracting(AuditEvent::principal, AuditEvent::operation, AuditEvent::target).contains(
                        tuple(team, "Kafka DESCRIBE", "TOPIC " + submissionTopic(TEAM_B)),
                        tuple(team, "Kafka DESCRIBE", "TOPIC " + Names.WORKLOAD_ADMITTED),
                        tuple(KafkaAccess.QUOTA_SERVICE, "Kafka WRITE", "TOPIC " + Names.TOPOLOGY));
            });
        }
        assertThat(refusals).filteredOn(event -> event.principal().equals(team)).allSatisfy(event -> assertThat(event.outcome())
                .startsWith("Refused: Denied: ").contains("User:" + team, "a Metadata request"));
        assertThat(refusals).filteredOn(event -> event.operation().equals("Kafka WRITE")).isNotEmpty().allSatisfy(event ->
                assertThat(event.outcome()).startsWith("Refused: Denied: ").contains("User:" + event.principal(), "a Produce request"));
        assertThat(refusals).extracting(AuditEvent::principal).doesNotContain(KafkaAccess.ADMIN);
    }

    @Test
    void aClientWithoutSaslCannotConnect() {
        Map<String, Object> plain = new HashMap<>();
        plain.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers());
        plain.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        plain.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        try (Admin admin = Admin.create(plain)) {
            assertThatThrownBy(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        Map<String, Object> props = new HashMap<>(SharedKafka.clientProperties(KafkaAccess.teamPrincipal(TEAM_A)));
        props.putAll(KafkaAccess.clientProperties(KafkaAccess.teamPrincipal(TEAM_A), "not-the-password"));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        try (Admin admin = Admin.create(props)) {
            assertThatThrownBy(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    private static String submissionTopic(String team) {
        return KafkaAccess.submissionTopic(Names.WORKLOAD_SUBMITTED, team);
    }

    private static void assertRefused(String principal, String topic) {
        assertThatThrownBy(() -> send(principal, topic))
                .as("%s writing %s", principal, topic)
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    private static RecordMetadata send(String principal, String topic) throws Exception {
        Map<String, Object> props = new HashMap<>(SharedKafka.clientProperties(principal));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            return producer.send(new ProducerRecord<>(topic, "key", "{}")).get(30, TimeUnit.SECONDS);
        }
    }
}
