package dev.taskgov.core.resources;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.EnumMap;
import java.util.Map;

/**
 * An immutable amount of accelerators, vCPU and memory, in storage units (whole accelerators,
 * milli-vCPU, MiB).
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
 * </ul>
 *
 * @param accelerators whole accelerator units
 * @param milliVcpu    vCPU in thousandths
 * @param memoryMiB    memory in MiB
 */
public record Resources(long accelerators, long milliVcpu, long memoryMiB) implements Comparable<Resources> {

    /** Nothing at all. */
    public static final Resources ZERO = new Resources(0, 0, 0);

    public Resources {
        if (accelerators < 0 || milliVcpu < 0 || memoryMiB < 0) {
            throw new IllegalArgumentException("resource amounts must not be negative: accelerators="
                    + accelerators + ", milliVcpu=" + milliVcpu + ", memoryMiB=" + memoryMiB);
        }
    }

    /** Amounts in storage units. */
    public static Resources of(long accelerators, long milliVcpu, long memoryMiB) {
        return new Resources(accelerators, milliVcpu, memoryMiB);
    }

    /** Only accelerators. */
    public static Resources accelerators(long accelerators) {
        return new Resources(accelerators, 0, 0);
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

    /** A copy with one resource replaced. */
    public Resources with(ResourceName name, long amount) {
        return switch (name) {
            case ACCELERATORS -> new Resources(amount, milliVcpu, memoryMiB);
            case VCPU -> new Resources(accelerators, amount, memoryMiB);
            case MEMORY -> new Resources(accelerators, milliVcpu, amount);
        };
    }

    /** Component-wise sum, saturating at {@link Long#MAX_VALUE}. */
    public Resources plus(Resources other) {
        return new Resources(satAdd(accelerators, other.accelerators), satAdd(milliVcpu, other.milliVcpu),
                satAdd(memoryMiB, other.memoryMiB));
    }

    /** Component-wise difference, never below zero. */
    public Resources minus(Resources other) {
        return new Resources(Math.max(0, accelerators - other.accelerators), Math.max(0, milliVcpu - other.milliVcpu),
                Math.max(0, memoryMiB - other.memoryMiB));
    }

    /** Each component multiplied by a non-negative factor, saturating. */
    public Resources times(long factor) {
        if (factor < 0) {
            throw new IllegalArgumentException("factor must not be negative, was " + factor);
        }
        return new Resources(satMul(accelerators, factor), satMul(milliVcpu, factor), satMul(memoryMiB, factor));
    }

    /** Component-wise minimum. */
    public Resources min(Resources other) {
        return new Resources(Math.min(accelerators, other.accelerators), Math.min(milliVcpu, other.milliVcpu),
                Math.min(memoryMiB, other.memoryMiB));
    }

    /** Component-wise maximum. */
    public Resources max(Resources other) {
        return new Resources(Math.max(accelerators, other.accelerators), Math.max(milliVcpu, other.milliVcpu),
                Math.max(memoryMiB, other.memoryMiB));
    }

    /** True when every component is at most the other's. */
    public boolean fitsIn(Resources capacity) {
        return accelerators <= capacity.accelerators && milliVcpu <= capacity.milliVcpu && memoryMiB <= capacity.memoryMiB;
    }

    /** True when every component is zero. */
    public boolean isZero() {
        return accelerators == 0 && milliVcpu == 0 && memoryMiB == 0;
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
        return n;
    }

    /** The resources with a non-zero amount, keyed by name, in storage units. */
    public Map<ResourceName, Long> nonZero() {
        Map<ResourceName, Long> out = new EnumMap<>(ResourceName.class);
        for (ResourceName r : ResourceName.values()) {
            if (get(r) != 0) out.put(r, get(r));
        }
        return out;
    }

    /**
     * Lexicographic order by accelerators, then vCPU, then memory. Not a "fits in" order: use
     * {@link #fitsIn} for capacity checks.
     */
    @Override
    public int compareTo(Resources o) {
        int c = Long.compare(accelerators, o.accelerators);
        if (c != 0) return c;
        c = Long.compare(milliVcpu, o.milliVcpu);
        return c != 0 ? c : Long.compare(memoryMiB, o.memoryMiB);
    }

    /** Human-readable amounts in JSON units, e.g. {@code "4 accelerators, 16 vcpu, 64 GiB"}; zero parts omitted. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (accelerators != 0) sb.append(accelerators).append(accelerators == 1 ? " accelerator" : " accelerators");
        if (milliVcpu != 0) append(sb, formatScaled(milliVcpu, 1000) + " vcpu");
        if (memoryMiB != 0) append(sb, formatScaled(memoryMiB, 1024) + " GiB memory");
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
