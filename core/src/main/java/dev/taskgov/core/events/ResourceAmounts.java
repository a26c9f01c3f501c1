package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;

import dev.taskgov.core.model.Violation;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Resource amounts in JSON units ({@code accelerators}, {@code vcpu}, {@code memoryGiB}, and
 * {@code partitions}: whole accelerator partitions per partition type, e.g.
 * {@code {"mig-1g.10gb": 1}}); a missing field is 0. Used for pod requests, node allocatable and
 * borrowed amounts. Any other field is refused: the resources are a closed set, and a misspelt one
 * ({@code "gpus"}) must not read as 0.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResourceAmounts(BigDecimal accelerators, BigDecimal vcpu, BigDecimal memoryGiB,
                              @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, BigDecimal> partitions) {

    @JsonCreator
    public ResourceAmounts {
        // Sorted for stable bytes; a TreeMap keeps null values so validation can name them.
        partitions = partitions == null || partitions.isEmpty() ? null : Collections.unmodifiableMap(new TreeMap<>(partitions));
    }

    /** Amounts without partitions. */
    public ResourceAmounts(BigDecimal accelerators, BigDecimal vcpu, BigDecimal memoryGiB) {
        this(accelerators, vcpu, memoryGiB, null);
    }

    /**
     * To stored units (vCPU and memory rounded down).
     *
     * @throws IllegalArgumentException when an amount is negative, or a partition amount not a whole number
     */
    public Resources toResources() {
        Resources r = Resources.ofJsonUnits(accelerators, vcpu, memoryGiB);
        return partitions == null ? r : r.withPartitions(storedPartitions());
    }

    /**
     * The rules the partitions break, each naming its field under {@code path} ({@code
     * podSets[0].requests.partitions.mig-1g.10gb}): a named type, a whole number, not negative.
     */
    public List<Violation> partitionViolations(String path) {
        List<Violation> v = new ArrayList<>();
        if (partitions == null) return v;
        partitions.forEach((type, n) -> {
            String field = path + "." + ResourceKey.PARTITIONS + "." + type;
            if (type.isBlank()) v.add(new Violation(path + "." + ResourceKey.PARTITIONS, "partition types must be named"));
            else if (n == null) v.add(new Violation(field, "must be a whole number of partitions, was null"));
            else if (n.signum() < 0) v.add(new Violation(field, "must not be negative, was " + n.toPlainString()));
            else if (n.stripTrailingZeros().scale() > 0) {
                v.add(new Violation(field, "must be a whole number of partitions, was " + n.toPlainString()));
            }
        });
        return v;
    }

    /** The partitions in whole units, by type (empty when none are given). */
    public Map<String, Long> storedPartitions() {
        Map<String, Long> out = new TreeMap<>();
        if (partitions == null) return out;
        partitions.forEach((type, n) -> {
            String field = ResourceKey.partition(type).jsonName();
            if (n == null) throw new IllegalArgumentException(field + " must be a number, was null");
            if (n.signum() < 0) throw new IllegalArgumentException(field + " must not be negative, was " + n.toPlainString());
            if (n.stripTrailingZeros().scale() > 0) {
                throw new IllegalArgumentException(field + " must be a whole number of partitions, was " + n.toPlainString());
            }
            out.put(type, n.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : n.longValueExact());
        });
        return out;
    }

    /** One part in JSON units, or null when absent. */
    public BigDecimal get(ResourceName name) {
        return switch (name) {
            case ACCELERATORS -> accelerators;
            case VCPU -> vcpu;
            case MEMORY -> memoryGiB;
        };
    }

    /** One part (fixed or a partition type) in JSON units, or null when absent. */
    public BigDecimal get(ResourceKey key) {
        if (!key.isPartition()) return get(key.name());
        return partitions == null ? null : partitions.get(key.partition());
    }

    /**
     * From stored units, every fixed part written (zeros too): for a node's allocatable, where a missing
     * part would mean "the instance type's capacity" to a reader of scenario-file rules. Partitions are
     * written when there are any.
     */
    public static ResourceAmounts full(Resources r) {
        return new ResourceAmounts(amount(r, ResourceName.ACCELERATORS), amount(r, ResourceName.VCPU),
                amount(r, ResourceName.MEMORY), partitions(r));
    }

    private static BigDecimal amount(Resources r, ResourceName name) {
        return new BigDecimal(Resources.formatScaled(r.get(name), name.unitsPerJsonUnit()));
    }

    /** From stored units; zero parts are left out. */
    public static ResourceAmounts of(Resources r) {
        return new ResourceAmounts(part(r, ResourceName.ACCELERATORS), part(r, ResourceName.VCPU),
                part(r, ResourceName.MEMORY), partitions(r));
    }

    private static Map<String, BigDecimal> partitions(Resources r) {
        if (r.partitions().isEmpty()) return null;
        Map<String, BigDecimal> out = new TreeMap<>();
        r.partitions().forEach((type, n) -> out.put(type, BigDecimal.valueOf(n)));
        return out;
    }

    private static BigDecimal part(Resources r, ResourceName name) {
        return r.get(name) == 0 ? null : amount(r, name);
    }
}
