package dev.taskgov.core.model;

import java.math.BigDecimal;
import java.util.List;

/**
 * A SageMaker {@code CreateComputeQuota} / {@code DescribeComputeQuota} body as typed values, before its amounts are
 * resolved against instance capacities ({@link ComputeQuotas#fromRequest}); defaults are applied already. Made by
 * {@code dev.taskgov.core.events.ComputeQuotaTranslator}, which refuses a body that breaks a rule of its own.
 *
 * @param name                 {@code Name}, optional
 * @param team                 {@code ComputeQuotaTarget.TeamName}
 * @param fairShareWeight      {@code ComputeQuotaTarget.FairShareWeight} (default 0)
 * @param resources            {@code ComputeQuotaConfig.ComputeQuotaResources}, in the order given
 * @param strategy             {@code ResourceSharingConfig.Strategy} (default LendAndBorrow)
 * @param borrowLimit          {@code ResourceSharingConfig.BorrowLimit}, percent (default 50)
 * @param absoluteBorrowLimits {@code ResourceSharingConfig.AbsoluteBorrowLimits}, in the order given
 * @param preemptTeamTasks     {@code ComputeQuotaConfig.PreemptTeamTasks} (default LowerPriority)
 * @param active               {@code ActivationState} Enabled (the default)
 */
public record ComputeQuotaRequest(String name, String team, int fairShareWeight, List<ResourceRequest> resources,
                                  SharingStrategy strategy, int borrowLimit, List<ResourceRequest> absoluteBorrowLimits,
                                  PreemptTeamTasks preemptTeamTasks, boolean active) {

    public ComputeQuotaRequest {
        resources = List.copyOf(resources);
        absoluteBorrowLimits = List.copyOf(absoluteBorrowLimits);
    }

    /**
     * One {@code ComputeQuotaResourceConfig}: the amounts as given (null: not given), each a non-negative number,
     * {@code Count} and {@code Accelerators} whole. The ratio defaults for what is not given depend on the instance
     * type's capacity and are applied when the quota is resolved.
     */
    public record ResourceRequest(String instanceType, BigDecimal count, BigDecimal accelerators, BigDecimal vcpu,
                                  BigDecimal memoryInGiB, PartitionRequest partition) {

        public ResourceRequest(String instanceType, BigDecimal count, BigDecimal accelerators, BigDecimal vcpu,
                               BigDecimal memoryInGiB) {
            this(instanceType, count, accelerators, vcpu, memoryInGiB, null);
        }
    }

    /**
     * {@code AcceleratorPartition: {Type, Count}}: {@code count} partitions of the MIG profile {@code type}, one the
     * instance type offers ({@link AcceleratorPartitions}); a resource of its own with no ratio defaults.
     */
    public record PartitionRequest(String type, long count) {
    }
}
