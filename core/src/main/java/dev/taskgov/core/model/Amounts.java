package dev.taskgov.core.model;

import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;

/** Formats stored amounts for messages, in JSON units ("4 accelerators", "16 vcpu", "64 GiB memory"). */
public final class Amounts {
    private Amounts() {
    }

    /** One resource amount, e.g. {@code "1 accelerator"}, {@code "0.5 vcpu"}, {@code "2 GiB memory"}. */
    public static String of(ResourceName r, long stored) {
        String n = Resources.formatScaled(stored, r.unitsPerJsonUnit());
        return switch (r) {
            case ACCELERATORS -> n + (stored == 1 ? " accelerator" : " accelerators");
            case VCPU -> n + " vcpu";
            case MEMORY -> n + " GiB memory";
        };
    }

    /** One resource amount, fixed or a partition type ({@code "2 mig-1g.10gb partitions"}). */
    public static String of(ResourceKey r, long stored) {
        if (!r.isPartition()) return of(r.name(), stored);
        return stored + " " + r.partition() + (stored == 1 ? " partition" : " partitions");
    }

    /** A count with its noun, singular for one: {@code count(1, "pod", "pods")} is {@code "1 pod"}, 0 or 2 plural. */
    public static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** The number alone, in JSON units ({@code 1500} milli-vCPU gives {@code "1.5"}). */
    public static String number(ResourceName r, long stored) {
        return Resources.formatScaled(stored, r.unitsPerJsonUnit());
    }

    /** The number alone, in JSON units; partitions are whole. */
    public static String number(ResourceKey r, long stored) {
        return Resources.formatScaled(stored, r.unitsPerJsonUnit());
    }

    /** "4 accelerators of ml.g5.8xlarge" style: every non-zero part of every instance type, or "nothing". */
    public static String byInstanceType(java.util.Map<String, Resources> amounts) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        amounts.forEach((type, r) -> {
            java.util.List<String> rs = new java.util.ArrayList<>();
            for (ResourceKey n : r.keys()) {
                if (r.get(n) > 0) rs.add(of(n, r.get(n)));
            }
            if (!rs.isEmpty()) parts.add(String.join(", ", rs) + " of " + type);
        });
        return parts.isEmpty() ? "nothing" : String.join("; ", parts);
    }
}
