package dev.taskgov.core.events;

import dev.taskgov.core.cluster.ClusterArn;

/** What one {@code taskgov.topology} record says ({@link TopologyRecordTranslator}). */
public sealed interface TopologyChange {

    ClusterArn cluster();

    /** A node added or changed (key {@code <ClusterArn>#<node name>}); its name is the value's. */
    record NodeSet(ClusterArn cluster, NodeRecord node) implements TopologyChange {
    }

    /** A node gone (its tombstone), by the name its key gives. */
    record NodeRemoved(ClusterArn cluster, String name) implements TopologyChange {
    }

    /** The deployment governs the cluster (key {@code <ClusterArn>}). */
    record Declared(ClusterArn cluster, ClusterDeclared declaration) implements TopologyChange {
    }

    /** The deployment no longer governs the cluster (the declaration's tombstone). */
    record Undeclared(ClusterArn cluster) implements TopologyChange {
    }
}
