package dev.taskgov.core.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Accelerator partitions (NVIDIA Multi-Instance GPU profiles): the values the SageMaker API takes
 * for {@code AcceleratorPartition.Type}, and which of them each instance type's GPUs offer. A
 * profile {@code mig-<g>g.<m>gb} is g of the GPU's 7 compute slices with m GB of its memory; how
 * many fit on one GPU depends on the profile (seven {@code 1g}, three {@code 2g}, two {@code 3g}, one
 * {@code 4g} or {@code 7g}).
 */
public final class AcceleratorPartitions {

    /** {@code AcceleratorPartitionConfig.Type}'s valid values in the SageMaker API reference, in its order. */
    public static final List<String> TYPES = List.of(
            "mig-1g.5gb", "mig-1g.10gb", "mig-1g.18gb", "mig-1g.20gb", "mig-1g.23gb", "mig-1g.35gb", "mig-1g.45gb",
            "mig-1g.47gb", "mig-2g.10gb", "mig-2g.20gb", "mig-2g.35gb", "mig-2g.45gb", "mig-2g.47gb", "mig-3g.20gb",
            "mig-3g.40gb", "mig-3g.71gb", "mig-3g.90gb", "mig-3g.93gb", "mig-4g.20gb", "mig-4g.40gb", "mig-4g.71gb",
            "mig-4g.90gb", "mig-4g.93gb", "mig-7g.40gb", "mig-7g.80gb", "mig-7g.141gb", "mig-7g.180gb", "mig-7g.186gb");

    /** {@code AcceleratorPartitionConfig.Count}'s valid range in the SageMaker API reference. */
    public static final long MAX_COUNT = 10_000_000L;

    /**
     * The GPU of an instance type with MIG and the profiles it offers.
     *
     * @param gpu      the GPU model, as people name it
     * @param gpus     GPUs per instance
     * @param profiles the MIG profiles, smallest first
     */
    public record Offer(String gpu, int gpus, List<String> profiles) {
        /** How many partitions of a profile one GPU holds: 7 / the profile's compute slices (rounded down). */
        public static int perGpu(String profile) {
            int slices = Integer.parseInt(profile.substring("mig-".length(), profile.indexOf('g', "mig-".length())));
            return slices >= 4 ? 1 : 7 / slices;
        }
    }

    private static final Map<String, Offer> BY_INSTANCE_TYPE = table();

    private AcceleratorPartitions() {
    }

    private static Map<String, Offer> table() {
        Map<String, Offer> m = new TreeMap<>();
        Offer a100x40 = mig("NVIDIA A100 40GB", 8, 5, 10, 20, 40);
        Offer a100x80 = mig("NVIDIA A100 80GB", 8, 10, 20, 40, 80);
        Offer h100 = mig("NVIDIA H100 80GB", 8, 10, 20, 40, 80);
        Offer h200 = mig("NVIDIA H200 141GB", 8, 18, 35, 71, 141);
        Offer b200 = mig("NVIDIA B200 180GB", 8, 23, 45, 90, 180);
        Offer gb200 = mig("NVIDIA GB200 186GB", 4, 23, 47, 93, 186);
        m.put("ml.p4d.24xlarge", a100x40);
        m.put("ml.p4de.24xlarge", a100x80);
        m.put("ml.p5.48xlarge", h100);
        m.put("ml.p5e.48xlarge", h200);
        m.put("ml.p5en.48xlarge", h200);
        m.put("ml.p6-b200.48xlarge", b200);
        m.put("ml.p6e-gb200.36xlarge", gb200);
        return Map.copyOf(m);
    }

    /**
     * A GPU's MIG ladder, the same on every MIG GPU: one slice with the smallest memory share or a quarter of the
     * memory, two slices with a quarter, three or four with half, all seven with all of it (GB each).
     */
    private static Offer mig(String gpu, int gpus, int smallest, int quarter, int half, int whole) {
        return new Offer(gpu, gpus, List.of("mig-1g." + smallest + "gb", "mig-1g." + quarter + "gb", "mig-2g." + quarter + "gb",
                "mig-3g." + half + "gb", "mig-4g." + half + "gb", "mig-7g." + whole + "gb"));
    }

    /** The instance types that offer partitions, by name, with what they offer. */
    public static Map<String, Offer> offers() {
        return new TreeMap<>(BY_INSTANCE_TYPE);
    }

    /** What an instance type offers, or empty when its GPUs have no MIG (or it has none). */
    public static Optional<Offer> offer(String instanceType) {
        return Optional.ofNullable(BY_INSTANCE_TYPE.get(instanceType));
    }

    /**
     * Why {@code type} is not a partition type {@code instanceType} offers, or empty when it is: not one
     * of the API's values at all, or not one of that instance type's profiles.
     */
    public static Optional<String> problem(String instanceType, String type) {
        if (!TYPES.contains(type)) {
            return Optional.of("must be one of " + String.join(" | ", TYPES) + ", was '" + type + "'");
        }
        Offer offer = BY_INSTANCE_TYPE.get(instanceType);
        if (offer == null) {
            return Optional.of("instance type '" + instanceType + "' offers no accelerator partitions, was '" + type + "'");
        }
        if (!offer.profiles().contains(type)) {
            return Optional.of("instance type '" + instanceType + "' offers " + String.join(", ", offer.profiles())
                    + ", not '" + type + "'");
        }
        return Optional.empty();
    }
}
