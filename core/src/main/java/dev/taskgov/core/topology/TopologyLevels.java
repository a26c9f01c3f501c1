package dev.taskgov.core.topology;

import java.util.List;

/** The network topology levels HyperPod labels nodes with, broadest first, then the host. */
public final class TopologyLevels {
    public static final String LAYER_1 = "topology.k8s.aws/network-node-layer-1";
    public static final String LAYER_2 = "topology.k8s.aws/network-node-layer-2";
    public static final String LAYER_3 = "topology.k8s.aws/network-node-layer-3";
    public static final String HOSTNAME = "kubernetes.io/hostname";

    /** All levels, broadest first; the last is the node itself. */
    public static final List<String> ALL = List.of(LAYER_1, LAYER_2, LAYER_3, HOSTNAME);

    private TopologyLevels() {
    }

    /** The index of a level in {@link #ALL}, or -1 when it is not a known level (or null). */
    public static int indexOf(String level) {
        return level == null ? -1 : ALL.indexOf(level);
    }

    public static boolean isKnown(String level) {
        return indexOf(level) >= 0;
    }
}
