package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;

import java.math.BigDecimal;

/**
 * Resource amounts in JSON units ({@code accelerators}, {@code vcpu}, {@code memoryGiB}); a
 * missing field is 0. Used for pod requests, node allocatable and borrowed amounts. Any other field
 * is refused: the resources are a closed set, and a misspelt one ({@code "gpus"}) must not read as 0.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResourceAmounts(BigDecimal accelerators, BigDecimal vcpu, BigDecimal memoryGiB) {

    /**
     * To stored units (vCPU and memory rounded down).
     *
     * @throws IllegalArgumentException when an amount is negative
     */
    public Resources toResources() {
        return Resources.ofJsonUnits(accelerators, vcpu, memoryGiB);
    }

    /** One part in JSON units, or null when absent. */
    public BigDecimal get(ResourceName name) {
        return switch (name) {
            case ACCELERATORS -> accelerators;
            case VCPU -> vcpu;
            case MEMORY -> memoryGiB;
        };
    }

    /**
     * From stored units, every part written (zeros too): for a node's allocatable, where a missing
     * part would mean "the instance type's capacity" to a reader of scenario-file rules.
     */
    public static ResourceAmounts full(Resources r) {
        return new ResourceAmounts(amount(r, ResourceName.ACCELERATORS), amount(r, ResourceName.VCPU), amount(r, ResourceName.MEMORY));
    }

    private static BigDecimal amount(Resources r, ResourceName name) {
        return new BigDecimal(Resources.formatScaled(r.get(name), name.unitsPerJsonUnit()));
    }

    /** From stored units; zero parts are left out. */
    public static ResourceAmounts of(Resources r) {
        return new ResourceAmounts(part(r, ResourceName.ACCELERATORS), part(r, ResourceName.VCPU), part(r, ResourceName.MEMORY));
    }

    private static BigDecimal part(Resources r, ResourceName name) {
        return r.get(name) == 0 ? null : amount(r, name);
    }
}
