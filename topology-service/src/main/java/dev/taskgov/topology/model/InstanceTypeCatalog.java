package dev.taskgov.topology.model;

import dev.taskgov.core.resources.Resources;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Capacity per instance type, for nodes whose allocatable is not reported by Kubernetes (the EC2
 * source alone). Built-in entries for the accelerated HyperPod types, overridable by configuration.
 * EC2 reports {@code p5.48xlarge} where HyperPod says {@code ml.p5.48xlarge}: both are looked up.
 */
public final class InstanceTypeCatalog {

    private static final Map<String, Resources> BUILT_IN = Map.of(
            "ml.p5.48xlarge", gib(8, 192, 2048),
            "ml.p5e.48xlarge", gib(8, 192, 2048),
            "ml.p5en.48xlarge", gib(8, 192, 2048),
            "ml.p4d.24xlarge", gib(8, 96, 1152),
            "ml.p4de.24xlarge", gib(8, 96, 1152),
            "ml.trn1.32xlarge", gib(16, 128, 512),
            "ml.trn2.48xlarge", gib(16, 192, 2048),
            "ml.g5.8xlarge", gib(1, 32, 128),
            "ml.g6.8xlarge", gib(1, 32, 128));

    private final Map<String, Resources> capacities;

    public InstanceTypeCatalog(Map<String, Resources> overrides) {
        Map<String, Resources> all = new HashMap<>(BUILT_IN);
        all.putAll(overrides);
        this.capacities = Map.copyOf(all);
    }

    public static InstanceTypeCatalog builtIn() {
        return new InstanceTypeCatalog(Map.of());
    }

    /** The catalog name of an instance type: as given when known, else with the {@code ml.} prefix when that is known. */
    public String canonicalName(String instanceType) {
        if (capacities.containsKey(instanceType)) {
            return instanceType;
        }
        String prefixed = "ml." + instanceType;
        return capacities.containsKey(prefixed) ? prefixed : instanceType;
    }

    /** The capacity of one instance of the type, when known. */
    public Optional<Resources> capacity(String instanceType) {
        return Optional.ofNullable(capacities.get(canonicalName(instanceType)));
    }

    private static Resources gib(long accelerators, long vcpu, long memoryGiB) {
        return Resources.of(accelerators, vcpu * 1000, memoryGiB * 1024);
    }
}
