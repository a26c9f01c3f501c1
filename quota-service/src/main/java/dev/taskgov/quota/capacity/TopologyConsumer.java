package dev.taskgov.quota.capacity;

import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.view.ClusterInputsByCluster;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.EventValues;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.util.List;

/**
 * Learns the governed clusters and their capacity from the compacted topology topic (key =
 * {@code <ClusterArn>#<node name>}, value = the node record of the wire contract, tombstone = node gone; key =
 * {@code <ClusterArn>}: the cluster's declaration; a bare node name: the unnamed cluster). Every instance reads the topic from the start
 * (its own consumer group), so it always knows every node. A record that cannot be read is refused
 * and goes to the dead-letter topic with the reason ({@link QuotaDeadLetters}). Each handled record is told to
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

    private void apply(ConsumerRecord<String, String> record) {
        ClusterScopedKey key = ClusterScopedKey.parse(record.key());
        if (key.isDeclaration()) {
            if (record.value() != null) {
                ClusterDeclared d = EventValues.read(record.value(), ClusterDeclared.class);
                if (d.clusterArn() != null && !d.clusterArn().equals(key.cluster().value())) {
                    throw new IllegalArgumentException("clusterArn: the declaration names " + d.clusterArn() + " under the key " + key);
                }
            }
            capacity.declare(key.cluster(), record.value() != null);
            return;
        }
        if (record.value() == null) {
            capacity.remove(key.cluster(), key.name());
            return;
        }
        capacity.upsert(key.cluster(), parse(key, record.value()));
    }

    NodeCapacity parse(ClusterScopedKey key, String value) {
        NodeRecord n = EventValues.read(value, NodeRecord.class);
        // the record key names the node when the value does not
        NodeRecord named = n.name() != null ? n : new NodeRecord(key.name(), n.instanceId(), n.instanceType(), n.labels(),
                n.allocatable(), n.ready(), n.clusterArn());
        List<Violation> violations = named.violations();
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", violations.stream().map(Violation::toString).toList()));
        }
        ClusterInputsByCluster.nodeKeyProblem(key, named).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        Resources allocatable = n.allocatable() == null ? Resources.ZERO : n.allocatable().toResources();
        return new NodeCapacity(named.name(), n.instanceType(), allocatable, n.ready() == null || n.ready());
    }
}
