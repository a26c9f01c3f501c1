package dev.taskgov.manifests;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.taskgov.core.events.ResourceAmounts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * A pod's requests as Kubernetes counts them for scheduling and quota, in taskgov's JSON units.
 *
 * <p>Per resource, exactly (on {@link Quantity#getNumericalAmount()}, no rounding on the way):
 * <ul>
 *   <li>a container's request is its {@code requests} entry, else its {@code limits} entry (the API
 *       server defaults a missing request to the limit), else 0;</li>
 *   <li>the pod's request is the larger of (the sum over {@code containers} plus the sum over sidecar
 *       init containers, those with {@code restartPolicy: Always}) and (the largest of each other init
 *       container plus the sidecars started before it), plus the pod's {@code overhead}.</li>
 * </ul>
 * Then, once per pod:
 * <ul>
 *   <li>accelerators are the sum of {@code nvidia.com/gpu}, {@code aws.amazon.com/neuron} and
 *       {@code aws.amazon.com/neurondevice}; each container's amount must be a whole number (Kubernetes
 *       refuses fractional extended resources), so no rounding is needed;</li>
 *   <li>each {@code nvidia.com/mig-<profile>} (a MIG partition, e.g. {@code nvidia.com/mig-1g.10gb}) is
 *       {@code partitions.mig-<profile>}, whole like accelerators;</li>
 *   <li>{@code cpu} is rounded <em>up</em> to a whole milli-vCPU and {@code memory} <em>up</em> to a whole
 *       MiB, taskgov's stored units (core rounds down when it stores, so rounding up here means a pod is
 *       never counted for less than it asks);</li>
 *   <li>a resource that comes to 0 is left out (null), as in a hand-written submission.</li>
 * </ul>
 * A negative or malformed quantity is refused with its path.
 */
public final class PodRequests {

    public static final List<String> ACCELERATOR_RESOURCES = List.of("nvidia.com/gpu", "aws.amazon.com/neuron", "aws.amazon.com/neurondevice");
    /** The extended resources of MIG partitions: {@code nvidia.com/mig-1g.10gb} is the partition {@code mig-1g.10gb}. */
    public static final String MIG_RESOURCE_PREFIX = "nvidia.com/mig-";

    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final BigDecimal MIB = BigDecimal.valueOf(1L << 20);
    private static final BigDecimal MIB_PER_GIB = BigDecimal.valueOf(1024);

    private PodRequests() {
    }

    /**
     * The per-pod requests of a pod spec ({@code path} locates it in the manifest, for messages); all
     * null for a null spec.
     */
    public static ResourceAmounts of(PodSpec spec, String path) {
        if (spec == null) return new ResourceAmounts(null, null, null);
        Map<String, BigDecimal> running = new HashMap<>();
        Map<String, BigDecimal> sidecars = new HashMap<>();
        Map<String, BigDecimal> initPeak = new HashMap<>();
        List<Container> initContainers = spec.getInitContainers() == null ? List.of() : spec.getInitContainers();
        for (int i = 0; i < initContainers.size(); i++) {
            Container c = initContainers.get(i);
            Map<String, BigDecimal> r = container(c, path + ".initContainers[" + i + "]");
            if ("Always".equals(c.getRestartPolicy())) {
                add(sidecars, r);
            } else {
                Map<String, BigDecimal> whileRunning = new HashMap<>(sidecars);
                add(whileRunning, r);
                whileRunning.forEach((name, v) -> initPeak.merge(name, v, BigDecimal::max));
            }
        }
        List<Container> containers = spec.getContainers() == null ? List.of() : spec.getContainers();
        for (int i = 0; i < containers.size(); i++) add(running, container(containers.get(i), path + ".containers[" + i + "]"));
        add(running, sidecars);
        initPeak.forEach((name, v) -> running.merge(name, v, BigDecimal::max));
        if (spec.getOverhead() != null) add(running, amounts(spec.getOverhead(), path + ".overhead"));

        BigDecimal accelerators = BigDecimal.ZERO;
        for (String name : ACCELERATOR_RESOURCES) accelerators = accelerators.add(running.getOrDefault(name, BigDecimal.ZERO));
        BigDecimal vcpu = running.getOrDefault("cpu", BigDecimal.ZERO).multiply(THOUSAND).setScale(0, RoundingMode.CEILING)
                .divide(THOUSAND);
        BigDecimal memoryGiB = running.getOrDefault("memory", BigDecimal.ZERO).divide(MIB, 0, RoundingMode.CEILING)
                .divide(MIB_PER_GIB);
        Map<String, BigDecimal> partitions = new TreeMap<>();
        running.forEach((name, v) -> {
            if (name.startsWith(MIG_RESOURCE_PREFIX) && v.signum() > 0) partitions.put(name.substring("nvidia.com/".length()), nonZero(v));
        });
        return new ResourceAmounts(nonZero(accelerators), nonZero(vcpu), nonZero(memoryGiB), partitions);
    }

    /** A container's requests, each defaulted to its limit. */
    private static Map<String, BigDecimal> container(Container c, String path) {
        Map<String, Quantity> requests = c.getResources() == null || c.getResources().getRequests() == null
                ? Map.of() : c.getResources().getRequests();
        Map<String, Quantity> limits = c.getResources() == null || c.getResources().getLimits() == null
                ? Map.of() : c.getResources().getLimits();
        Map<String, BigDecimal> out = amounts(limits, path + ".resources.limits");
        out.putAll(amounts(requests, path + ".resources.requests"));
        for (Map.Entry<String, BigDecimal> e : out.entrySet()) {
            String name = e.getKey();
            boolean accelerator = ACCELERATOR_RESOURCES.contains(name);
            if ((accelerator || name.startsWith(MIG_RESOURCE_PREFIX)) && e.getValue().stripTrailingZeros().scale() > 0) {
                String where = requests.containsKey(name) ? ".resources.requests." : ".resources.limits.";
                throw new InvalidManifestException("InvalidSpec", path + where + name + ": " + (accelerator ? "accelerators are whole devices"
                        : "MIG partitions are whole devices") + ", was " + e.getValue().toPlainString());
            }
        }
        return out;
    }

    private static Map<String, BigDecimal> amounts(Map<String, Quantity> quantities, String path) {
        Map<String, BigDecimal> out = new HashMap<>();
        quantities.forEach((name, q) -> {
            if (q == null) return;
            BigDecimal v;
            try {
                v = q.getNumericalAmount();
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new InvalidManifestException("InvalidSpec", path + "." + name + ": '" + q + "' is not a Kubernetes quantity (e.g. 4, 500m, 32Gi)");
            }
            if (v.signum() < 0) {
                throw new InvalidManifestException("InvalidSpec", path + "." + name + ": must not be negative, was " + q);
            }
            out.put(name, v);
        });
        return out;
    }

    private static void add(Map<String, BigDecimal> into, Map<String, BigDecimal> amounts) {
        amounts.forEach((name, v) -> into.merge(name, v, BigDecimal::add));
    }

    /** Null for zero; else without trailing zeros and never in exponent form ({@code 100}, not {@code 1E+2}). */
    private static BigDecimal nonZero(BigDecimal v) {
        if (v.signum() == 0) return null;
        BigDecimal s = v.stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }
}
