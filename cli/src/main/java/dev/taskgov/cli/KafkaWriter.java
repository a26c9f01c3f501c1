package dev.taskgov.cli;

import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.client.support.ProducerPartitions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes taskgov events straight to their topics, with CloudEvents binary-mode headers. A write the broker does
 * not take for a passing reason (restarting, unreachable, a leader moving) is tried again with a growing pause
 * for up to {@code retryFor}, saying so on stderr, so that a pipeline such as {@code taskgov demo} goes on across
 * a broker restart; a write refused for good (a bad topic name, no authorization) fails at once. A record
 * written twice that way is one workload to admission-service (a workload id seen twice is one workload).
 */
final class KafkaWriter implements AutoCloseable {

    static final String SUBMITTED_TOPIC = TopicCatalog.Names.WORKLOAD_SUBMITTED;
    static final String FINISHED_TOPIC = TopicCatalog.Names.WORKLOAD_FINISHED;
    static final String PODS_READY_TOPIC = TopicCatalog.Names.WORKLOAD_PODS_READY;
    private static final String SOURCE = CloudEvents.source("cli");
    private static final java.util.regex.Pattern USERNAME = java.util.regex.Pattern.compile("username=\"([^\"]*)\"");

    private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(10);

    private final Properties client;
    private final String bootstrap;
    private final Clock clock;
    private final Duration retryFor;
    private final PrintWriter err;
    private KafkaProducer<String, String> producer;

    /**
     * @param retryFor how long one write may be retried in all (zero: not at all)
     * @param err      where each retry is announced
     */
    KafkaWriter(Properties client, Clock clock, Duration retryFor, PrintWriter err) {
        this.client = client;
        this.bootstrap = client.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        this.clock = clock;
        this.retryFor = retryFor;
        this.err = err;
        this.producer = newProducer();
    }

    private KafkaProducer<String, String> newProducer() {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "taskgov-cli");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /**
     * Where a submission for {@code team} goes: the team's own topic when this writer logs in as that team's
     * principal (a team may write only there: the broker's ACLs), else the shared topic (the administrator's login).
     */
    String submissionTopic(String team) {
        java.util.regex.Matcher login = USERNAME.matcher(client.getProperty("sasl.jaas.config", ""));
        String principal = login.find() ? login.group(1) : null;
        return team != null && principal != null && principal.equals(KafkaAccess.TEAM_PRINCIPAL_PREFIX + team)
                ? KafkaAccess.submissionTopic(SUBMITTED_TOPIC, team) : SUBMITTED_TOPIC;
    }

    /**
     * Sends one event keyed by {@code key} and waits for the broker's acknowledgement: to its named cluster's
     * partition when it names one ({@link ProducerPartitions#ofNamed}), else by the key.
     */
    void send(String topic, String key, Object event, String ceType) {
        RecordHeaders headers = new RecordHeaders();
        CloudEvents.write(headers::add, ceType, SOURCE, UUID.randomUUID().toString(), clock.instant(), key, true);
        String value = EventCodec.write(event);
        long started = System.nanoTime();
        long giveUpAt = started + retryFor.toNanos();
        Duration pause = FIRST_PAUSE;
        for (int attempt = 1; ; attempt++) {
            try {
                Integer partition = ProducerPartitions.ofNamed(producer, topic, event);
                producer.send(new ProducerRecord<>(topic, partition, key, value, headers)).get(20, TimeUnit.SECONDS);
                if (attempt > 1) announce("taskgov: wrote to Kafka topic " + topic + " at attempt " + attempt);
                return;
            } catch (ExecutionException | TimeoutException | org.apache.kafka.common.KafkaException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                boolean passing = cause instanceof RetriableException || cause instanceof TimeoutException;
                if (!passing || System.nanoTime() + pause.toNanos() > giveUpAt) {
                    String retried = passing && attempt > 1 ? " after " + attempt + " attempts in "
                            + Duration.ofNanos(System.nanoTime() - started).toSeconds() + "s (--kafka-retry " + retryFor.toSeconds() + "s)" : "";
                    boolean refused = cause instanceof org.apache.kafka.common.errors.AuthorizationException
                            || cause instanceof org.apache.kafka.common.errors.AuthenticationException;
                    throw new CliException(CliException.FAILED, "cannot write to Kafka topic " + topic + " at " + bootstrap
                            + " (" + cause.getMessage() + ")" + retried + (refused
                            ? "; the broker refuses this login there (--kafka-config / TASKGOV_KAFKA_CONFIG; a team writes only"
                                    + " its own topic " + SUBMITTED_TOPIC + ".<team>, docs/security.md)"
                            : "; is the broker up, or set --kafka-bootstrap / TASKGOV_KAFKA_BOOTSTRAP"), cause);
                }
                announce("taskgov: cannot write to Kafka topic " + topic + " at " + bootstrap + " yet (" + cause.getMessage()
                        + "); attempt " + attempt + ", retrying in " + pause.toSeconds() + "s (for up to "
                        + retryFor.toSeconds() + "s in all; --kafka-retry)");
                // A fresh producer: the failed one may hold an expired batch and a stale view of the cluster.
                producer.close(Duration.ZERO);
                pauseFor(pause);
                producer = newProducer();
                pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CliException.failed("interrupted");
            }
        }
    }

    private void announce(String line) {
        err.println(line);
        err.flush();
    }

    private static void pauseFor(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
