package dev.taskgov.quota.rules;

import dev.taskgov.core.resources.ResourceName;

/**
 * Quotas of one instance type summing to more than the cluster holds of one resource.
 *
 * @param instanceType the instance type
 * @param resource     the resource over capacity
 * @param quotaSum     the sum of the quotas, stored units
 * @param capacity     the allocatable of ready nodes, stored units
 */
public record CapacityExcess(String instanceType, ResourceName resource, long quotaSum, long capacity) {

    /** E.g. "quota sum 64 accelerators of ml.p5.48xlarge exceeds cluster capacity 48". */
    public String message() {
        return "quota sum " + Units.format(resource, quotaSum) + " of " + instanceType
                + " exceeds cluster capacity " + Units.format(resource, capacity);
    }
}
