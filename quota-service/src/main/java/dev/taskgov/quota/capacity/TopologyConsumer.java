package dev.taskgov.quota.capacity;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.TopologyChange;
import dev.taskgov.core.events.TopologyRecordTranslator;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.EventValues;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.nio.charset.StandardCharsets;

/**
 * Learns the governed clusters and their capacity from the compacted topology topic (key =
 * {@code <ClusterArn>#<node name>}, value = the node record of the wire contract, tombstone = node gone; key =
 * {@code <ClusterArn>}: the cluster's declaration; a bare node name: the unnamed cluster), read by
 * {@link TopologyRecordTranslator} as the deciders read it. Every instance reads the topic from the start
 * (its own consumer group), so it always knows every node. A record the translator refuses goes to the
 * dead-letter topic with the reason ({@link QuotaDeadLetters}). Each handled record is told to
 * {@link TopologyCatchUp}, which says when the view holds the whole topic as of the start.
 */
@ApplicationScoped
public class TopologyConsumer {

    @Inject
    ClusterCapacity capacity;

    @Inject
    TopologyCatchUp catchUp;

    @Incoming("topology")
    public void onNode(ConsumerRecord<String, String> record) {
        try {
            apply(record);
        } finally {
            // Refused or not, the view now holds what this record says: a refused one changes nothing.
            catchUp.handled(record.partition(), record.offset());
        }
    }

    /** Through the one translator of topology records; one it refuses goes to the dead-letter topic with its reason. */
    private void apply(ConsumerRecord<String, String> record) {
        byte[] value = record.value() == null ? null : record.value().getBytes(StandardCharsets.UTF_8);
        TopologyChange change = EventValues.orRefuse(TopologyRecordTranslator.translate(record.key(), value));
        if (change instanceof TopologyChange.Declared) {
            capacity.declare(change.cluster(), true);
        } else if (change instanceof TopologyChange.Undeclared) {
            capacity.declare(change.cluster(), false);
        } else if (change instanceof TopologyChange.NodeRemoved removed) {
            capacity.remove(change.cluster(), removed.name());
        } else if (change instanceof TopologyChange.NodeSet set) {
            NodeRecord n = set.node();
            Resources allocatable = n.allocatable() == null ? Resources.ZERO : n.allocatable().toResources();
            capacity.upsert(change.cluster(), new NodeCapacity(n.name(), n.instanceType(), allocatable, n.ready() == null || n.ready()));
        }
    }
}
