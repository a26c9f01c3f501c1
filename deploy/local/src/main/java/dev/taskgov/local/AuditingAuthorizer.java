package dev.taskgov.local;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.service.support.auth.AuditRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KRaft's {@link StandardAuthorizer}, deciding exactly as it does, that also puts the broker's refusals on the audit
 * topic, so that {@code taskgov audit} shows a principal's refused Kafka accesses beside its refused HTTP requests.
 *
 * <p>Only denials Kafka itself marks as worth reporting ({@link Action#logIfDenied()}) are recorded: a metadata
 * request's silent filtering of the topics a client may not see is not an attempt at access. Deciding must never
 * wait on the audit: refusals go to a bounded queue (when it is full they are counted, logged and dropped) that a
 * daemon thread, started at the first refusal (so after the broker is up), sends as the services do
 * ({@link AuditRecords}) with a producer logged in as the administrator, a super user, whose own requests are
 * therefore never refused and cannot feed back into the audit.
 *
 * <p>An access the ACLs allowed is remembered ({@link Grant}) and allowed again without the look-up until the ACLs
 * change: every fetch authorizes each topic it reads again, and the look-ups were about a fifth of the broker's
 * request threads' CPU under load. The authorizer's own rates ({@code authorization-request-rate-per-minute} and
 * {@code authorization-allowed-rate-per-minute}) therefore count the look-ups made, not every access allowed;
 * refusals are all counted, logged and audited, as none is remembered.
 *
 * <p>Configuration (written by {@link SecureBroker}): {@value #BOOTSTRAP}, {@value #CREDENTIALS_FILE} (holding the
 * administrator's password) and {@value #TOPIC}.
 */
public class AuditingAuthorizer extends StandardAuthorizer {

    static final String BOOTSTRAP = "taskgov.audit.bootstrap.servers";
    static final String CREDENTIALS_FILE = "taskgov.audit.credentials.file";
    static final String TOPIC = "taskgov.audit.topic";
    /** The {@code service} of the audit records, and the end of their CloudEvents source. */
    static final String SERVICE = "kafka-broker";
    static final int QUEUE_CAPACITY = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(AuditingAuthorizer.class);

    private final BlockingQueue<AuditEvent> pending = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private volatile String bootstrap;
    private volatile String credentialsFile;
    private volatile String topic;
    private volatile Thread publisher;
    private volatile boolean closed;

    @Override
    public void configure(Map<String, ?> configs) {
        super.configure(configs);
        aclsChanged(); // the super users may have changed
        bootstrap = text(configs.get(BOOTSTRAP));
        credentialsFile = text(configs.get(CREDENTIALS_FILE));
        topic = text(configs.get(TOPIC));
        if (bootstrap == null || credentialsFile == null || topic == null) {
            LOG.warn("{}, {} or {} is not set: the broker's refusals are not sent to the audit topic", BOOTSTRAP,
                    CREDENTIALS_FILE, TOPIC);
        }
    }

    @Override
    public List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions) {
        long generation = aclGeneration.get();
        List<Grant> grants = Grant.of(context, actions);
        if (allRemembered(grants, generation)) return Collections.nCopies(actions.size(), AuthorizationResult.ALLOWED);
        List<AuthorizationResult> results = super.authorize(context, actions);
        for (int i = 0; i < actions.size(); i++) {
            Action action = actions.get(i);
            if (results.get(i) == AuthorizationResult.ALLOWED) {
                remember(grants.get(i), generation);
            } else if (action.logIfDenied() && !KafkaAccess.ADMIN.equals(context.principal().getName())) {
                record(refusal(context, action, Instant.now()));
            }
        }
        return results;
    }

    // ------------------------------------------------------------------ grants remembered

    /** One access as the ACLs decide it: who (principal and host), which operation, on which resource. */
    record Grant(String principalType, String principal, String host, AclOperation operation, ResourceType resourceType,
                 String resource, PatternType patternType) {
        /** The grants a request's actions ask for, in their order. */
        static List<Grant> of(AuthorizableRequestContext context, List<Action> actions) {
            String type = context.principal().getPrincipalType();
            String principal = context.principal().getName();
            String host = context.clientAddress() == null ? "" : context.clientAddress().getHostAddress();
            List<Grant> grants = new ArrayList<>(actions.size());
            for (Action a : actions) {
                grants.add(new Grant(type, principal, host, a.operation(), a.resourcePattern().resourceType(),
                        a.resourcePattern().name(), a.resourcePattern().patternType()));
            }
            return grants;
        }
    }

    /**
     * Accesses allowed, each with the ACLs' generation it was decided on: one is taken only while that generation
     * stands, so a change of the ACLs (any: added, removed, a snapshot loaded) forgets every grant at once, including
     * one decided while the change was made (it carries the generation read before the look-up). Denials are never
     * remembered: each is decided, logged and audited as it comes.
     */
    private final Map<Grant, Long> granted = new ConcurrentHashMap<>();
    private final AtomicLong aclGeneration = new AtomicLong();
    /** More grants than any platform's principals and topics make: past it they are forgotten, then remembered again. */
    static final int GRANTS_KEPT = 50_000;

    private boolean allRemembered(List<Grant> grants, long generation) {
        for (Grant grant : grants) {
            Long decided = granted.get(grant);
            if (decided == null || decided != generation) return false;
        }
        return true;
    }

    private void remember(Grant grant, long generation) {
        if (granted.size() >= GRANTS_KEPT) granted.clear();
        granted.put(grant, generation);
    }

    /** The ACLs changed: every grant remembered so far is decided again. */
    private void aclsChanged() {
        aclGeneration.incrementAndGet();
        granted.clear();
    }

    @Override
    public void addAcl(Uuid id, StandardAcl acl) {
        super.addAcl(id, acl);
        aclsChanged();
    }

    @Override
    public void removeAcl(Uuid id) {
        super.removeAcl(id);
        aclsChanged();
    }

    @Override
    public void loadSnapshot(Map<Uuid, StandardAcl> acls) {
        super.loadSnapshot(acls);
        aclsChanged();
    }

    @Override
    public void completeInitialLoad() {
        super.completeInitialLoad();
        aclsChanged();
    }

    @Override
    public void completeInitialLoad(Exception e) {
        super.completeInitialLoad(e);
        aclsChanged();
    }

    /** The audit record of one refused action: who, which operation on which resource, and from where. */
    static AuditEvent refusal(AuthorizableRequestContext context, Action action, Instant at) {
        String resource = action.resourcePattern().resourceType() + " " + action.resourcePattern().name();
        String request = ApiKeys.hasId(context.requestType()) ? ApiKeys.forId(context.requestType()).name
                : "request type " + context.requestType();
        String why = "the broker's ACLs do not allow " + context.principal() + " " + action.operation() + " on "
                + resource + " (a " + request + " request from client '" + context.clientId() + "' at "
                + context.clientAddress().getHostAddress() + ")";
        return AuditEvent.of(at, SERVICE, context.principal().getName(), "Kafka " + action.operation(), resource,
                AuditEvent.refused("Denied", why), null, null);
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    private void record(AuditEvent event) {
        if (closed || bootstrap == null || credentialsFile == null || topic == null) return;
        if (!pending.offer(event)) {
            long count = dropped.incrementAndGet();
            if (count == 1 || count % 1000 == 0) {
                LOG.warn("audit queue full ({} records): {} broker refusals dropped so far, this one: {}",
                        QUEUE_CAPACITY, count, event.toJson());
            }
            return;
        }
        if (publisher == null) startPublisher();
    }

    private synchronized void startPublisher() {
        if (publisher != null || closed) return;
        publisher = new Thread(this::publish, "taskgov-audit-publisher");
        publisher.setDaemon(true);
        publisher.start();
    }

    /** Sends the queued refusals until the authorizer closes. */
    private void publish() {
        KafkaProducer<String, String> producer;
        try {
            producer = producer();
        } catch (RuntimeException | IOException e) {
            LOG.error("no audit publisher: broker refusals are not sent to {}", topic, e);
            return;
        }
        try {
            while (!closed) {
                AuditEvent event;
                try {
                    event = pending.take();
                } catch (InterruptedException stop) {
                    break;
                }
                ProducerRecord<String, String> record = AuditRecords.record(topic, SERVICE, event);
                producer.send(record, (meta, failure) -> {
                    if (failure != null) {
                        LOG.error("audit record not sent to {} ({}): {}", topic, failure.getMessage(), record.value());
                    }
                });
            }
        } catch (RuntimeException e) {
            LOG.error("the audit publisher stopped: broker refusals are no longer sent to {}", topic, e);
        } finally {
            // Cleared so that closing waits (briefly) for the records already handed to the producer.
            Thread.interrupted();
            producer.close(Duration.ofSeconds(5));
        }
    }

    private KafkaProducer<String, String> producer() throws IOException {
        Properties credentials = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(credentialsFile), StandardCharsets.UTF_8)) {
            credentials.load(in);
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.putAll(KafkaAccess.clientProperties(KafkaAccess.ADMIN, credentials.getProperty(KafkaAccess.ADMIN)));
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "taskgov-audit-publisher");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    @Override
    public void close() throws IOException {
        closed = true;
        Thread running = publisher;
        if (running != null) {
            running.interrupt();
            try {
                running.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!pending.isEmpty()) LOG.warn("{} broker refusals not sent to the audit topic at shutdown", pending.size());
        super.close();
    }
}
