package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;

import java.math.BigDecimal;

/**
 * Resource amounts in JSON units ({@code accelerators}, {@code vcpu}, {@code memoryGiB}); a
 * missing field is 0. Used for pod requests, node allocatable and borrowed amounts.
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

    /** From stored units; zero parts are left out. */
    public static ResourceAmounts of(Resources r) {
        return new ResourceAmounts(part(r, ResourceName.ACCELERATORS), part(r, ResourceName.VCPU), part(r, ResourceName.MEMORY));
    }

    private static BigDecimal part(Resources r, ResourceName name) {
        long v = r.get(name);
        return v == 0 ? null : new BigDecimal(Resources.formatScaled(v, name.unitsPerJsonUnit()));
    }
}
