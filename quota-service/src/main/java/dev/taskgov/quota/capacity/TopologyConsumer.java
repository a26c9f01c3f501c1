package dev.taskgov.quota.capacity;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.UnreadableRecordException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.util.List;

/**
 * Learns the cluster's capacity from the compacted topology topic (key = node name, value = the
 * node record of design.md, tombstone = node gone). Every instance reads the topic from the start
 * (its own consumer group), so it always knows every node. A record that cannot be read is refused
 * and goes to the dead-letter topic with the reason ({@link QuotaDeadLetters}).
 */
@ApplicationScoped
public class TopologyConsumer {

    @Inject
    ClusterCapacity capacity;

    @Incoming("topology")
    public void onNode(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            if (record.key() == null) {
                throw new IllegalArgumentException("tombstone without a key: no node to remove");
            }
            capacity.remove(record.key());
            return;
        }
        capacity.upsert(parse(record.key(), record.value()));
    }

    NodeCapacity parse(String key, String value) {
        NodeRecord n;
        try {
            n = EventCodec.read(value, NodeRecord.class);
        } catch (EventCodec.EventFormatException e) {
            throw new UnreadableRecordException("unreadable node record: " + e.getMessage(), e);
        }
        if (n == null) {
            throw new UnreadableRecordException("value must be a JSON object (a node record), was null");
        }
        // the record key names the node when the value does not
        String name = n.name() != null ? n.name() : key;
        NodeRecord named = new NodeRecord(name, n.instanceId(), n.instanceType(), n.labels(), n.allocatable(), n.ready());
        List<Violation> violations = named.violations();
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", violations.stream().map(Violation::toString).toList()));
        }
        Resources allocatable = n.allocatable() == null ? Resources.ZERO : n.allocatable().toResources();
        return new NodeCapacity(name, n.instanceType(), allocatable, n.ready() == null || n.ready());
    }
}
