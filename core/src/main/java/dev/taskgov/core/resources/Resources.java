package dev.taskgov.core.resources;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongBinaryOperator;

/**
 * An immutable amount of accelerators, vCPU, memory and accelerator partitions, in storage units
 * (whole accelerators, milli-vCPU, MiB, whole partitions per partition type).
 *
 * <p>Edge cases, by design:
 * <ul>
 *   <li>A missing resource is zero; no component is ever negative (the constructor refuses a
 *       negative value, {@link #minus} stops at zero).</li>
 *   <li>Arithmetic saturates: {@link #plus} and {@link #times} stop at {@link Long#MAX_VALUE}
 *       instead of overflowing.</li>
 *   <li>{@link #fitsIn} is true when every component is at most the other's; zero fits in
 *       anything.</li>
 *   <li>{@link #countFitting} of a zero request is {@link Long#MAX_VALUE}: a pod that asks for
 *       nothing is not limited by capacity.</li>
 *   <li>Each accelerator partition type ({@code mig-1g.10gb}, ...) is a resource of its own: a type
 *       that is absent is zero, and a zero amount is never kept (so equal amounts are equal records).</li>
 * </ul>
 *
 * @param accelerators whole accelerator units
 * @param milliVcpu    vCPU in thousandths
 * @param memoryMiB    memory in MiB
 * @param partitions   whole accelerator partitions per partition type, sorted by type, no zero entries
 */
public record Resources(long accelerators, long milliVcpu, long memoryMiB, Map<String, Long> partitions)
        implements Comparable<Resources> {

    private static final Map<String, Long> NO_PARTITIONS = Collections.emptySortedMap();

    /** Nothing at all. */
    public static final Resources ZERO = new Resources(0, 0, 0);

    /** The fixed resources, in their order: what every amount has, whatever its partitions. */
    private static final List<ResourceKey> FIXED = List.of(ResourceKey.ACCELERATORS, ResourceKey.VCPU,
            ResourceKey.MEMORY);

    public Resources {
        if (accelerators < 0 || milliVcpu < 0 || memoryMiB < 0) {
            throw new IllegalArgumentException("resource amounts must not be negative: accelerators="
                    + accelerators + ", milliVcpu=" + milliVcpu + ", memoryMiB=" + memoryMiB);
        }
        partitions = normalised(partitions);
    }

    /** Amounts without partitions. */
    public Resources(long accelerators, long milliVcpu, long memoryMiB) {
        this(accelerators, milliVcpu, memoryMiB, NO_PARTITIONS);
    }

    private static Map<String, Long> normalised(Map<String, Long> partitions) {
        if (partitions == null || partitions.isEmpty()) return NO_PARTITIONS;
        TreeMap<String, Long> m = new TreeMap<>();
        partitions.forEach((type, n) -> {
            if (type == null || type.isBlank()) throw new IllegalArgumentException("a partition type must be named");
            if (n == null || n < 0) {
                throw new IllegalArgumentException("partitions." + type + " must not be negative, was " + n);
            }
            if (n != 0) m.put(type, n);
        });
        return m.isEmpty() ? NO_PARTITIONS : Collections.unmodifiableSortedMap(m);
    }


    /** Amounts in storage units. */
    public static Resources of(long accelerators, long milliVcpu, long memoryMiB) {
        return new Resources(accelerators, milliVcpu, memoryMiB);
    }

    /** Only accelerators. */
    public static Resources accelerators(long accelerators) {
        return new Resources(accelerators, 0, 0);
    }

    /** Only accelerator partitions, whole units per partition type. */
    public static Resources partitions(Map<String, Long> partitions) {
        return new Resources(0, 0, 0, partitions);
    }

    /** Only {@code count} partitions of one type. */
    public static Resources partition(String type, long count) {
        return partitions(Map.of(type, count));
    }

    /** The whole partitions of one type (zero when absent). */
    public long partition(String type) {
        Long n = partitions.get(type);
        return n == null ? 0 : n;
    }

    /** A copy with the partitions replaced. */
    public Resources withPartitions(Map<String, Long> replacement) {
        return new Resources(accelerators, milliVcpu, memoryMiB, replacement);
    }

    /**
     * Amounts in the JSON units (accelerators, vCPUs, GiB); vCPU and memory may be fractional and
     * are rounded down to the storage unit.
     *
     * @throws IllegalArgumentException if a value is negative (the message names the field)
     */
    public static Resources ofJsonUnits(BigDecimal accelerators, BigDecimal vcpu, BigDecimal memoryGiB) {
        return new Resources(
                toStored(ResourceName.ACCELERATORS, accelerators),
                toStored(ResourceName.VCPU, vcpu),
                toStored(ResourceName.MEMORY, memoryGiB));
    }

    private static long toStored(ResourceName name, BigDecimal value) {
        if (value == null) {
            return 0;
        }
        if (value.signum() < 0) {
            throw new IllegalArgumentException(name.jsonName() + " must not be negative, was " + value.toPlainString());
        }
        BigDecimal stored = value.multiply(BigDecimal.valueOf(name.unitsPerJsonUnit())).setScale(0, RoundingMode.FLOOR);
        return stored.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : stored.longValue();
    }

    /** The amount of one resource, in storage units. */
    public long get(ResourceName name) {
        return switch (name) {
            case ACCELERATORS -> accelerators;
            case VCPU -> milliVcpu;
            case MEMORY -> memoryMiB;
        };
    }

    /** The amount of one resource (fixed or partition type), in storage units. */
    public long get(ResourceKey key) {
        return key.isPartition() ? partition(key.partition()) : get(key.name());
    }

    /** A copy with one resource replaced. */
    public Resources with(ResourceName name, long amount) {
        return switch (name) {
            case ACCELERATORS -> new Resources(amount, milliVcpu, memoryMiB, partitions);
            case VCPU -> new Resources(accelerators, amount, memoryMiB, partitions);
            case MEMORY -> new Resources(accelerators, milliVcpu, amount, partitions);
        };
    }

    /** A copy with one resource (fixed or partition type) replaced. */
    public Resources with(ResourceKey key, long amount) {
        if (!key.isPartition()) return with(key.name(), amount);
        TreeMap<String, Long> m = new TreeMap<>(partitions);
        m.put(key.partition(), amount);
        return new Resources(accelerators, milliVcpu, memoryMiB, m);
    }

    /**
     * The resources this amount speaks of, in order: the fixed ones always, then its partition types by name.
     * A loop "for every resource" over two amounts takes {@link #keys(Resources...)} of both.
     */
    public List<ResourceKey> keys() {
        return partitions.isEmpty() ? FIXED : keys(this);
    }

    /** The fixed resources, then every partition type any of the amounts has, by name (each once). */
    public static List<ResourceKey> keys(Resources... amounts) {
        boolean partitioned = false;
        for (Resources r : amounts) partitioned |= !r.partitions.isEmpty();
        // Amounts without partitions (nearly all) share one list: the quota checks of a walk ask for it per resource,
        // and walking a list is cheaper than a sorted set's iterator
        if (!partitioned) return FIXED;
        TreeSet<ResourceKey> out = new TreeSet<>(FIXED);
        for (Resources r : amounts) {
            for (String type : r.partitions.keySet()) out.add(ResourceKey.partition(type));
        }
        return List.copyOf(out);
    }

    /** Component-wise sum, saturating at {@link Long#MAX_VALUE}. */
    public Resources plus(Resources other) {
        return new Resources(satAdd(accelerators, other.accelerators), satAdd(milliVcpu, other.milliVcpu),
                satAdd(memoryMiB, other.memoryMiB), combine(partitions, other.partitions, Resources::satAdd));
    }

    /** Component-wise difference, never below zero. */
    public Resources minus(Resources other) {
        return new Resources(Math.max(0, accelerators - other.accelerators), Math.max(0, milliVcpu - other.milliVcpu),
                Math.max(0, memoryMiB - other.memoryMiB), combine(partitions, other.partitions, (a, b) -> Math.max(0, a - b)));
    }

    /** Each component multiplied by a non-negative factor, saturating. */
    public Resources times(long factor) {
        if (factor < 0) {
            throw new IllegalArgumentException("factor must not be negative, was " + factor);
        }
        return new Resources(satMul(accelerators, factor), satMul(milliVcpu, factor), satMul(memoryMiB, factor),
                combine(partitions, NO_PARTITIONS, (a, b) -> satMul(a, factor)));
    }

    /** Component-wise minimum. */
    public Resources min(Resources other) {
        return new Resources(Math.min(accelerators, other.accelerators), Math.min(milliVcpu, other.milliVcpu),
                Math.min(memoryMiB, other.memoryMiB), combine(partitions, other.partitions, Math::min));
    }

    /** Component-wise maximum. */
    public Resources max(Resources other) {
        return new Resources(Math.max(accelerators, other.accelerators), Math.max(milliVcpu, other.milliVcpu),
                Math.max(memoryMiB, other.memoryMiB), combine(partitions, other.partitions, Math::max));
    }

    /** Applies {@code op} to the amounts of every partition type of either side (an absent type is 0). */
    private static Map<String, Long> combine(Map<String, Long> a, Map<String, Long> b, LongBinaryOperator op) {
        if (a.isEmpty() && b.isEmpty()) return NO_PARTITIONS;
        TreeMap<String, Long> out = new TreeMap<>();
        a.forEach((type, n) -> out.put(type, op.applyAsLong(n, b.getOrDefault(type, 0L))));
        b.forEach((type, n) -> {
            if (!a.containsKey(type)) out.put(type, op.applyAsLong(0, n));
        });
        return out;
    }

    /** True when every component is at most the other's. */
    public boolean fitsIn(Resources capacity) {
        if (accelerators > capacity.accelerators || milliVcpu > capacity.milliVcpu || memoryMiB > capacity.memoryMiB) {
            return false;
        }
        for (Map.Entry<String, Long> e : partitions.entrySet()) {
            if (e.getValue() > capacity.partition(e.getKey())) return false;
        }
        return true;
    }

    /** True when every component is zero. */
    public boolean isZero() {
        return accelerators == 0 && milliVcpu == 0 && memoryMiB == 0 && partitions.isEmpty();
    }

    /**
     * How many copies of {@code perItem} fit in this amount: the minimum over the resources the
     * item asks for; {@link Long#MAX_VALUE} when it asks for nothing.
     */
    public long countFitting(Resources perItem) {
        long n = Long.MAX_VALUE;
        if (perItem.accelerators > 0) n = Math.min(n, accelerators / perItem.accelerators);
        if (perItem.milliVcpu > 0) n = Math.min(n, milliVcpu / perItem.milliVcpu);
        if (perItem.memoryMiB > 0) n = Math.min(n, memoryMiB / perItem.memoryMiB);
        for (Map.Entry<String, Long> e : perItem.partitions.entrySet()) {
            n = Math.min(n, partition(e.getKey()) / e.getValue());
        }
        return n;
    }

    /** The fixed resources with a non-zero amount, keyed by name, in storage units (partitions: {@link #partitions()}). */
    public Map<ResourceName, Long> nonZero() {
        Map<ResourceName, Long> out = new EnumMap<>(ResourceName.class);
        for (ResourceName r : ResourceName.values()) {
            if (get(r) != 0) out.put(r, get(r));
        }
        return out;
    }

    /**
     * Lexicographic order by accelerators, then vCPU, then memory, then partitions by type name. Not a
     * "fits in" order: use {@link #fitsIn} for capacity checks.
     */
    @Override
    public int compareTo(Resources o) {
        int c = Long.compare(accelerators, o.accelerators);
        if (c != 0) return c;
        c = Long.compare(milliVcpu, o.milliVcpu);
        if (c != 0) return c;
        c = Long.compare(memoryMiB, o.memoryMiB);
        if (c != 0 || partitions.isEmpty() && o.partitions.isEmpty()) return c;
        for (ResourceKey k : keys(this, o)) {
            if (!k.isPartition()) continue;
            c = Long.compare(get(k), o.get(k));
            if (c != 0) return c;
        }
        return 0;
    }

    /**
     * Human-readable amounts in JSON units, e.g. {@code "4 accelerators, 16 vcpu, 64 GiB, 2 mig-1g.10gb
     * partitions"}; zero parts omitted.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (accelerators != 0) sb.append(accelerators).append(accelerators == 1 ? " accelerator" : " accelerators");
        if (milliVcpu != 0) append(sb, formatScaled(milliVcpu, 1000) + " vcpu");
        if (memoryMiB != 0) append(sb, formatScaled(memoryMiB, 1024) + " GiB memory");
        partitions.forEach((type, n) -> append(sb, n + " " + type + (n == 1 ? " partition" : " partitions")));
        return sb.length() == 0 ? "nothing" : sb.toString();
    }

    private static void append(StringBuilder sb, String part) {
        if (sb.length() > 0) sb.append(", ");
        sb.append(part);
    }

    /** A stored amount in JSON units, without trailing zeros ({@code 1500 / 1000 -> "1.5"}). */
    public static String formatScaled(long stored, long unitsPerJsonUnit) {
        if (stored % unitsPerJsonUnit == 0) return Long.toString(stored / unitsPerJsonUnit); // the common case, without BigDecimal
        return BigDecimal.valueOf(stored).divide(BigDecimal.valueOf(unitsPerJsonUnit)).stripTrailingZeros().toPlainString();
    }

    private static long satAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    private static long satMul(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return (hi != 0 || lo < 0) ? Long.MAX_VALUE : lo;
    }
}
