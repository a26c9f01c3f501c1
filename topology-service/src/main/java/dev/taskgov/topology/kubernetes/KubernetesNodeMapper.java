package dev.taskgov.topology.kubernetes;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns a Kubernetes Node into a taskgov {@link Node}: the EC2 instance from {@code spec.providerID},
 * the instance type label, allocatable accelerators / CPU / memory / MIG partitions, and readiness (Ready
 * condition True and not cordoned). Only the topology level labels are carried over.
 */
public final class KubernetesNodeMapper {

    public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
    public static final String LEGACY_INSTANCE_TYPE_LABEL = "beta.kubernetes.io/instance-type";
    /** Extended resources that count as accelerators. */
    public static final List<String> ACCELERATOR_RESOURCES = List.of("nvidia.com/gpu", "aws.amazon.com/neuron");
    public static final String UNKNOWN_INSTANCE_TYPE = "unknown";
    /**
     * The prefix of the extended resources the NVIDIA device plugin advertises for MIG partitions
     * ({@code nvidia.com/mig-1g.10gb}); the rest of the name after {@code nvidia.com/} is the profile. A GPU
     * in MIG mode is advertised only as its partitions, not also in {@code nvidia.com/gpu}.
     */
    public static final String MIG_RESOURCE_PREFIX = "nvidia.com/mig-";

    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);

    private KubernetesNodeMapper() {
    }

    public static Node toNode(io.fabric8.kubernetes.api.model.Node k8s) {
        String name = k8s.getMetadata().getName();
        Map<String, String> k8sLabels = k8s.getMetadata().getLabels() == null ? Map.of() : k8s.getMetadata().getLabels();
        Map<String, String> labels = new TreeMap<>();
        for (String level : TopologyLevels.ALL) {
            String v = k8sLabels.get(level);
            if (v != null) labels.put(level, v);
        }
        labels.putIfAbsent(TopologyLevels.HOSTNAME, name);
        String instanceType = Optional.ofNullable(k8sLabels.get(INSTANCE_TYPE_LABEL))
                .or(() -> Optional.ofNullable(k8sLabels.get(LEGACY_INSTANCE_TYPE_LABEL)))
                .orElse(UNKNOWN_INSTANCE_TYPE);
        String providerId = k8s.getSpec() == null ? null : k8s.getSpec().getProviderID();
        return new Node(name, instanceIdOf(providerId).orElse(null), instanceType, labels, allocatable(k8s), isReady(k8s));
    }

    /** The instance id at the end of an AWS provider id ({@code aws:///us-west-2a/i-0abc} → {@code i-0abc}). */
    public static Optional<String> instanceIdOf(String providerId) {
        if (providerId == null || !providerId.startsWith("aws://")) {
            return Optional.empty();
        }
        String last = providerId.substring(providerId.lastIndexOf('/') + 1);
        return last.startsWith("i-") ? Optional.of(last) : Optional.empty();
    }

    /** Ready for taskgov: the Ready condition is True and the node is not cordoned. */
    public static boolean isReady(io.fabric8.kubernetes.api.model.Node k8s) {
        if (k8s.getSpec() != null && Boolean.TRUE.equals(k8s.getSpec().getUnschedulable())) {
            return false;
        }
        if (k8s.getStatus() == null || k8s.getStatus().getConditions() == null) {
            return false;
        }
        for (NodeCondition c : k8s.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    public static Resources allocatable(io.fabric8.kubernetes.api.model.Node k8s) {
        Map<String, Quantity> alloc = k8s.getStatus() == null || k8s.getStatus().getAllocatable() == null
                ? Map.of() : k8s.getStatus().getAllocatable();
        long accelerators = 0;
        for (String r : ACCELERATOR_RESOURCES) {
            accelerators += amount(alloc.get(r)).setScale(0, RoundingMode.FLOOR).longValueExact();
        }
        long milliVcpu = amount(alloc.get("cpu")).multiply(BigDecimal.valueOf(1000)).setScale(0, RoundingMode.FLOOR).longValueExact();
        long memoryMiB = amount(alloc.get("memory")).divide(MIB, 0, RoundingMode.FLOOR).longValueExact();
        Map<String, Long> partitions = new TreeMap<>();
        alloc.forEach((resource, q) -> {
            if (resource.startsWith(MIG_RESOURCE_PREFIX)) {
                partitions.put(resource.substring("nvidia.com/".length()), amount(q).setScale(0, RoundingMode.FLOOR).longValueExact());
            }
        });
        return new Resources(accelerators, milliVcpu, memoryMiB, partitions);
    }

    private static BigDecimal amount(Quantity q) {
        if (q == null) {
            return BigDecimal.ZERO;
        }
        BigDecimal v = q.getNumericalAmount();
        return v.signum() < 0 ? BigDecimal.ZERO : v;
    }
}
