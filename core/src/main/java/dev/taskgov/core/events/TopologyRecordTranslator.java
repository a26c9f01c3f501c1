package dev.taskgov.core.events;

import dev.taskgov.core.cluster.ClusterScopedKey;

/**
 * The translator of a {@code taskgov.topology} record, key and value: key {@code <ClusterArn>#<node name>} with a
 * node ({@link NodeTranslator}) or its tombstone, key {@code <ClusterArn>} with the cluster's declaration or its
 * tombstone; a bare node name belongs to the unnamed cluster. The key is the authority on the cluster (a tombstone
 * has only its key), so a value naming another cluster is refused, not guessed at. Every reader of the topic uses
 * it, so a record is the same change, or the same refusal, everywhere.
 */
public final class TopologyRecordTranslator {

    private static final String KEYS = "<ClusterArn>#<node name>, or <ClusterArn> for a cluster";

    private TopologyRecordTranslator() {
    }

    public static Translation<TopologyChange> translate(String key, byte[] value) {
        var problem = ClusterScopedKey.problem(key);
        if (problem.isPresent()) return Translation.invalid("key", problem.get() + " (a topology record is keyed " + KEYS + ")");
        ClusterScopedKey k = ClusterScopedKey.parse(key);
        if (k.isDeclaration()) {
            if (value == null) return Translation.translated(new TopologyChange.Undeclared(k.cluster()));
            Translation<ClusterDeclared> read = EventCodec.translate(value, ClusterDeclared.class);
            if (read instanceof Translation.Translated<ClusterDeclared> t && t.value().clusterArn() != null
                    && !t.value().clusterArn().equals(k.cluster().value())) {
                return Translation.invalid("clusterArn", "the declaration names " + t.value().clusterArn() + " under the key " + k);
            }
            return read.map(d -> new TopologyChange.Declared(k.cluster(), d));
        }
        if (value == null) return Translation.translated(new TopologyChange.NodeRemoved(k.cluster(), k.name()));
        Translation<NodeRecord> read = NodeTranslator.translate(value);
        if (read instanceof Translation.Translated<NodeRecord> t && t.value().clusterArn() != null
                && !t.value().cluster().equals(k.cluster())) {
            return Translation.invalid("clusterArn", "the node names cluster " + t.value().clusterArn() + " but its key '" + k
                    + "' belongs to " + k.cluster() + " (key a node of a named cluster <ClusterArn>#<node name>)");
        }
        return read.map(n -> new TopologyChange.NodeSet(k.cluster(), n));
    }
}
