package dev.taskgov.quota.rules;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.quota.config.QuotaServiceConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one instance of each type offers, for ratio defaults: a built-in table of common HyperPod
 * instance types, overridden by configuration, and completed with types learned from the
 * allocatable of nodes seen on the topology topic (for types neither table nor config knows).
 */
@ApplicationScoped
public class InstanceTypeCatalog {

    private static final Map<String, Resources> BUILT_IN = builtIn();

    @Inject
    QuotaServiceConfig config;

    @Inject
    ClusterCapacity capacity;

    /**
     * Totals per instance type: configuration first, then the built-in table, then learned nodes.
     *
     * @param named the instance types a request names, by the path of the member that names them: one that only the
     *              nodes tell of is answered only once the topology topic has been read to its end (else
     *              {@code ServiceUnavailable} naming the member), since before that it may be unknown, or its totals
     *              those of a smaller node seen first
     */
    public Map<String, Resources> totals(Map<String, String> named) {
        Map<String, Resources> fixed = new TreeMap<>(BUILT_IN);
        config.quota().instanceTypes().forEach((name, t) -> fixed.put(name,
                Resources.of(t.accelerators(), Math.round(t.vcpu() * 1000), Math.round(t.memoryGib() * 1024))));
        named.forEach((path, type) -> {
            if (!fixed.containsKey(type)) {
                capacity.requireComplete(path, "what instance type '" + type + "' is (only the cluster's nodes tell)");
            }
        });
        Map<String, Resources> out = new TreeMap<>(capacity.learnedInstanceTotals());
        out.putAll(fixed);
        return out;
    }

    private static Map<String, Resources> builtIn() {
        Map<String, Resources> m = new HashMap<>();
        put(m, 8, 192, 2048, "ml.p5.48xlarge", "ml.p5e.48xlarge", "ml.p5en.48xlarge");
        put(m, 8, 96, 1152, "ml.p4d.24xlarge", "ml.p4de.24xlarge");
        put(m, 1, 4, 16, "ml.g5.xlarge", "ml.g6.xlarge");
        put(m, 1, 8, 32, "ml.g5.2xlarge", "ml.g6.2xlarge");
        put(m, 1, 16, 64, "ml.g5.4xlarge", "ml.g6.4xlarge");
        put(m, 1, 32, 128, "ml.g5.8xlarge", "ml.g6.8xlarge");
        put(m, 4, 48, 192, "ml.g5.12xlarge", "ml.g6.12xlarge");
        put(m, 1, 64, 256, "ml.g5.16xlarge", "ml.g6.16xlarge");
        put(m, 4, 96, 384, "ml.g5.24xlarge", "ml.g6.24xlarge");
        put(m, 8, 192, 768, "ml.g5.48xlarge", "ml.g6.48xlarge");
        put(m, 16, 128, 512, "ml.trn1.32xlarge", "ml.trn1n.32xlarge");
        put(m, 16, 192, 2048, "ml.trn2.48xlarge");
        put(m, 12, 192, 768, "ml.inf2.48xlarge");
        put(m, 0, 4, 8, "ml.c5.xlarge");
        put(m, 0, 8, 16, "ml.c5.2xlarge");
        put(m, 0, 16, 32, "ml.c5.4xlarge");
        put(m, 0, 36, 72, "ml.c5.9xlarge");
        put(m, 0, 72, 144, "ml.c5.18xlarge");
        put(m, 0, 4, 16, "ml.m5.xlarge");
        put(m, 0, 8, 32, "ml.m5.2xlarge");
        put(m, 0, 16, 64, "ml.m5.4xlarge");
        put(m, 0, 48, 192, "ml.m5.12xlarge");
        put(m, 0, 96, 384, "ml.m5.24xlarge");
        put(m, 0, 2, 4, "ml.t3.medium");
        put(m, 0, 4, 16, "ml.t3.xlarge");
        return Map.copyOf(m);
    }

    private static void put(Map<String, Resources> m, long accelerators, long vcpu, long memoryGiB, String... names) {
        for (String n : names) {
            m.put(n, Resources.of(accelerators, vcpu * 1000, memoryGiB * 1024));
        }
    }
}
