package dev.taskgov.quota.rules;

import dev.taskgov.core.resources.ResourceName;

import java.math.BigDecimal;

/** Conversions between stored units (accelerators, milli-vCPU, MiB) and the API's (vCPU, GiB). */
public final class Units {

    private Units() {
    }

    /** A stored amount of any resource (partitions are whole) in API units, exact. */
    public static BigDecimal toApi(dev.taskgov.core.resources.ResourceKey resource, long stored) {
        BigDecimal v = new BigDecimal(stored).divide(BigDecimal.valueOf(resource.unitsPerJsonUnit())).stripTrailingZeros();
        return v.scale() < 1 ? v.setScale(1) : v;
    }

    /** A stored amount in API units, exact (milli-vCPU / 1000, MiB / 1024 are finite decimals). */
    public static BigDecimal toApi(ResourceName resource, long stored) {
        BigDecimal v = new BigDecimal(stored).divide(BigDecimal.valueOf(resource.unitsPerJsonUnit())).stripTrailingZeros();
        return v.scale() < 1 ? v.setScale(1) : v;
    }
}
