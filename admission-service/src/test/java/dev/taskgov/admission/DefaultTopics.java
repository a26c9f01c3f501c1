package dev.taskgov.admission;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.QuotaRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;
import java.util.Properties;

/** Publishes quota and topology records on the default topic names, as quota- and topology-service would. */
final class DefaultTopics implements AutoCloseable {
    private final KafkaProducer<String, byte[]> producer;
    private final DeciderTopics topics = DeciderTopics.defaults(TopicCatalog.ADMISSION_CHANGELOG);

    DefaultTopics(Properties client) {
        producer = new KafkaProducer<>(client, new StringSerializer(), new ByteArraySerializer());
    }

    void cluster(int nodes, Map<String, Long> acceleratorsByTeam) {
        send(topics.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY,
                QuotaRecords.schedulerConfig(new SchedulerConfig(Map.of("training", 50, "inference", 90), false)));
        acceleratorsByTeam.forEach((team, acc) -> send(topics.quota(), team, QuotaRecords.effectiveQuota(
                TeamQuota.of(team, Map.of(Fixtures.TYPE, Resources.of(acc, acc * 12_000, acc * 144 * 1024))))));
        for (int i = 0; i < nodes; i++) {
            String name = "api-node-" + i;
            send(topics.topology(), name, new NodeRecord(name, "i-api-" + i, Fixtures.TYPE,
                    Map.of(TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_2, "nn-1-1", TopologyLevels.LAYER_3, "nn-1-1-1"),
                    ResourceAmounts.of(Fixtures.NODE), true));
        }
        producer.flush();
    }

    /**
     * A cluster of its own inside the shared one: {@code nodes} nodes of an instance type no other test uses, and
     * quotas of that type only, so what these teams use and borrow is theirs alone.
     */
    void clusterOfType(String type, String nodePrefix, int nodes, Map<String, Long> acceleratorsByTeam) {
        send(topics.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY,
                QuotaRecords.schedulerConfig(new SchedulerConfig(Map.of("training", 50, "inference", 90), false)));
        acceleratorsByTeam.forEach((team, acc) -> send(topics.quota(), team, QuotaRecords.effectiveQuota(
                TeamQuota.of(team, Map.of(type, Resources.of(acc, acc * 12_000, acc * 144 * 1024))))));
        for (int i = 0; i < nodes; i++) {
            String name = nodePrefix + i;
            send(topics.topology(), name, new NodeRecord(name, "i-" + name, type,
                    Map.of(TopologyLevels.LAYER_1, "nn-9", TopologyLevels.LAYER_2, "nn-9-1", TopologyLevels.LAYER_3, "nn-9-1-1"),
                    ResourceAmounts.of(Fixtures.NODE), true));
        }
        producer.flush();
    }

    /**
     * A cluster of its own whose GPUs are in MIG mode: {@code nodes} nodes of {@code type} offering {@code perNode}
     * partitions of {@code profile} and no whole accelerators, and quotas of that many partitions per team.
     */
    void migClusterOfType(String type, String nodePrefix, int nodes, String profile, long perNode, Map<String, Long> partitionsByTeam) {
        send(topics.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY,
                QuotaRecords.schedulerConfig(new SchedulerConfig(Map.of("training", 50, "inference", 90), false)));
        partitionsByTeam.forEach((team, count) -> send(topics.quota(), team, QuotaRecords.effectiveQuota(
                TeamQuota.of(team, Map.of(type, Resources.partition(profile, count))))));
        for (int i = 0; i < nodes; i++) {
            String name = nodePrefix + i;
            send(topics.topology(), name, new NodeRecord(name, "i-" + name, type,
                    Map.of(TopologyLevels.LAYER_1, "nn-8", TopologyLevels.LAYER_2, "nn-8-1", TopologyLevels.LAYER_3, "nn-8-1-1"),
                    ResourceAmounts.full(Resources.of(0, 96_000, 1152 * 1024).plus(Resources.partition(profile, perNode))), true));
        }
        producer.flush();
    }

    /** A pipeline's finish of a workload. */
    void finished(dev.taskgov.core.events.WorkloadFinished finished) {
        send(topics.finished(), finished.workloadId(), finished);
        producer.flush();
    }

    private void send(String topic, String key, Object value) {
        producer.send(new ProducerRecord<>(topic, key, EventCodec.bytes(value)));
    }

    @Override
    public void close() {
        producer.close();
    }
}
