package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.DeciderTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A topic the decider writes may accept smaller record batches ({@code max.message.bytes}) than its producers would
 * send (256 KiB): the decider reads the limits as it starts and keeps its batches within the smallest. Kafka's
 * producer would split a refused batch into batches of the same size again and again, until the transaction timed
 * out, and the partition would stall.
 */
class WrittenTopicLimitTest {

    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");
    /** Far below a turn's admissions (hundreds of records of several hundred bytes), above any one record. */
    private static final int SMALL_LIMIT = 20_000;

    @Test
    void topicsThatAcceptSmallerBatchesThanTheProducersDefaultGetEveryRecordOfALargeTurn() throws Exception {
        try (LiveCluster c = new LiveCluster("small-batches")) {
            // 50 nodes of 8 accelerators: 400 workloads of one pod are admitted together
            Fixtures.cluster(c, 50, Map.of("team-a", 400L));
            try (Admin admin = Admin.create(c.client)) {
                ConfigEntry limit = new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(SMALL_LIMIT));
                Map<ConfigResource, Collection<AlterConfigOp>> alter = new HashMap<>();
                for (String topic : List.of(c.topics.admitted(), c.topics.status(), c.topics.changelog())) {
                    alter.put(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                            List.of(new AlterConfigOp(limit, AlterConfigOp.OpType.SET)));
                }
                admin.incrementalAlterConfigs(alter).all().get(30, TimeUnit.SECONDS);
            }
            AdmissionDecider decider = c.startDecider(Clock.systemUTC());
            int home = c.homePartition(c.topics.submitted());
            for (int i = 0; i < 400; i++) {
                c.publishRaw(c.topics.submitted(), home, "w-" + i, EventCodec.bytes(Fixtures.workload("w-" + i, "team-a", 1,
                        T0.plusMillis(i))));
            }
            await().atMost(Duration.ofMinutes(2)).until(() -> c.readAll(c.topics.admitted()).size() == 400);
            c.awaitQuiet(decider);
            assertThat(c.readAll(c.topics.admitted())).hasSize(400);
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }

    /** Each topic the decider writes is one whose limit its login may read (a grant of core's {@link KafkaAccess}). */
    @Test
    void everyTopicTheDeciderWritesIsOneItsLoginMayReadTheLimitOf() {
        DeciderTopics topics = DeciderTopics.defaults(TopicCatalog.ADMISSION_CHANGELOG);
        List<String> describable = KafkaAccess.serviceGrants(TopicCatalog.Topic::defaultName).stream()
                .filter(g -> g.principal().equals(KafkaAccess.ADMISSION_SERVICE)
                        && g.operation() == KafkaAccess.Operation.DESCRIBE_CONFIGS)
                .map(KafkaAccess.Grant::name).toList();
        assertThat(describable).containsExactlyInAnyOrderElementsOf(
                AdmissionDecider.writtenTopics(topics, TopicCatalog.Names.AUDIT));
    }
}
