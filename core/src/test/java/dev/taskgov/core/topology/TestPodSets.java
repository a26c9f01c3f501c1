package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/** Fluent builders of pod sets and expected results for topology tests. */
final class TestPodSets {

    private TestPodSets() {
    }

    static Builder pods(String name, int count) {
        return new Builder(name, count);
    }

    static final class Builder {
        private final String name;
        private final int count;
        private String instanceType = TestCluster.P5;
        private long accelerators;
        private long milliVcpu;
        private long memoryMiB;
        private TopologyRequest topology = TopologyRequest.NONE;
        private final java.util.Map<String, String> nodeSelector = new java.util.HashMap<>();

        private Builder(String name, int count) {
            this.name = name;
            this.count = count;
        }

        Builder gpus(long n) {
            accelerators = n;
            return this;
        }

        Builder vcpu(long vcpu) {
            milliVcpu = vcpu * 1000;
            return this;
        }

        Builder memoryGiB(long gib) {
            memoryMiB = gib * 1024;
            return this;
        }

        Builder type(String instanceType) {
            this.instanceType = instanceType;
            return this;
        }

        Builder required(String level) {
            topology = TopologyRequest.required(level);
            return this;
        }

        Builder preferred(String level) {
            topology = TopologyRequest.preferred(level);
            return this;
        }

        /** Adds a label the pods' nodes must carry with this value. */
        Builder selector(String label, String value) {
            nodeSelector.put(label, value);
            return this;
        }

        PodSetRequest build() {
            return new PodSetRequest(name, count, instanceType, Resources.of(accelerators, milliVcpu, memoryMiB), topology,
                    nodeSelector);
        }
    }

    static List<PodSetRequest> workload(Builder... podSets) {
        return Arrays.stream(podSets).map(Builder::build).toList();
    }

    static PlacementResult placed(PodSetPlacement... podSets) {
        return new PlacementResult.Placed(new Placement(List.of(podSets)));
    }

    /** An expected pod set placement; {@code nodeCounts} alternate node name and pod count. */
    static PodSetPlacement at(String name, PodSetPlacement.Domain domain, Object... nodeCounts) {
        return at(name, TestCluster.P5, domain, nodeCounts);
    }

    static PodSetPlacement at(String name, String instanceType, PodSetPlacement.Domain domain, Object... nodeCounts) {
        TreeMap<String, Integer> m = new TreeMap<>();
        for (int i = 0; i < nodeCounts.length; i += 2) {
            m.put((String) nodeCounts[i], (Integer) nodeCounts[i + 1]);
        }
        return new PodSetPlacement(name, instanceType, domain, m);
    }

    static PodSetPlacement.Domain domain(String level, String value) {
        return new PodSetPlacement.Domain(level, value);
    }

    static PlacementResult noFit(String podSet, int fitting, int count) {
        return new PlacementResult.NoFit(podSet, fitting, "allows to fit only " + fitting + " out of " + count + " pods");
    }

    /** A no-fit of a pod set with a node selector, written as {@code {label=value}}. */
    static PlacementResult noFit(String podSet, int fitting, int count, String selector) {
        return new PlacementResult.NoFit(podSet, fitting, "allows to fit only " + fitting + " out of " + count
                + " pods on the nodes matching nodeSelector " + selector);
    }
}
