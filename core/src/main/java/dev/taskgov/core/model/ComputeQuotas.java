package dev.taskgov.core.model;

import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Resolves translated SageMaker {@code CreateComputeQuota}/{@code UpdateComputeQuota} bodies
 * ({@link ComputeQuotaRequest}) into {@link TeamQuota}s against the instance types, with the ratio defaults of
 * seed 002, and checks that quotas fit the cluster.
 */
public final class ComputeQuotas {

    /** {@code ComputeQuotaTarget.TeamName} pattern of the SageMaker API. */
    public static final Pattern TEAM_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9]){0,39}");

    private static final String RESOURCES = "ComputeQuotaConfig.ComputeQuotaResources";
    private static final String ABSOLUTE_BORROW_LIMITS = "ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits";

    private ComputeQuotas() {
    }

    /**
     * Resolves a translated {@code CreateComputeQuota} body against the instance types (their capacities):
     * <ul>
     *   <li>{@code Count: n} = n whole instances of the type;</li>
     *   <li>only {@code Accelerators} given: vCPU and memory are the same fraction of the
     *       instance's totals, floor(Accelerators x instance vCPU / instance accelerators) in
     *       stored units (16 of 32 accelerators gives half the vCPU and half the memory);</li>
     *   <li>only {@code VCpu} given: memory is the same fraction of the instance's memory, and
     *       only {@code MemoryInGiB} given: vCPU likewise (the API reference); accelerators are 0;</li>
     *   <li>a resource neither given nor derived is 0;</li>
     *   <li>{@code AcceleratorPartition: {Type, Count}}: {@code Count} partitions of that MIG profile, a
     *       resource of its own, with no ratio defaults (docs/semantics.md, "Accelerator partitions");</li>
     *   <li>{@code ResourceSharingConfig.AbsoluteBorrowLimits}: the same resource entries, with
     *       the same defaults, per instance type.</li>
     * </ul>
     * The SageMaker defaults (Strategy LendAndBorrow, BorrowLimit 50, PreemptTeamTasks LowerPriority,
     * FairShareWeight 0, ActivationState Enabled) are the translator's
     * ({@code dev.taskgov.core.events.ComputeQuotaTranslator}).
     *
     * @throws ValidationException naming each entry whose instance type is unknown, or that asks a type without
     *                             accelerators for some
     */
    public static TeamQuota fromRequest(ComputeQuotaRequest request, Map<String, InstanceType> instanceTypes) {
        List<Violation> v = new ArrayList<>();
        Map<String, Resources> nominal = resolve(request.resources(), RESOURCES, instanceTypes, v);
        Map<String, Resources> absoluteBorrowLimits = resolve(request.absoluteBorrowLimits(), ABSOLUTE_BORROW_LIMITS,
                instanceTypes, v);
        if (!v.isEmpty()) {
            throw new ValidationException(v);
        }
        return new TeamQuota(request.team(), request.name(), nominal, request.strategy(), request.borrowLimit(),
                request.preemptTeamTasks(), request.fairShareWeight(), request.active(), absoluteBorrowLimits);
    }

    /** The entries by instance type, with the ratio defaults. */
    private static Map<String, Resources> resolve(List<ComputeQuotaRequest.ResourceRequest> entries, String path,
                                                  Map<String, InstanceType> instanceTypes, List<Violation> v) {
        Map<String, Resources> out = new TreeMap<>();
        for (int i = 0; i < entries.size(); i++) {
            ComputeQuotaRequest.ResourceRequest r = entries.get(i);
            String at = path + "[" + i + "]";
            InstanceType type = instanceTypes.get(r.instanceType());
            if (type == null) {
                v.add(new Violation(at + ".InstanceType", "unknown instance type '" + r.instanceType() + "'"));
                continue;
            }
            Resources amounts = resolve(r, at, type, v);
            if (amounts != null) out.put(r.instanceType(), amounts);
        }
        return out;
    }

    private static Resources resolve(ComputeQuotaRequest.ResourceRequest r, String path, InstanceType type, List<Violation> v) {
        BigDecimal count = r.count();
        BigDecimal acc = r.accelerators();
        BigDecimal vcpu = r.vcpu();
        BigDecimal mem = r.memoryInGiB();
        Resources cap = type.capacity();
        Resources base = count == null ? Resources.ZERO : cap.times(count.longValueExact());
        long accStored = acc != null ? acc.longValueExact() : base.accelerators();
        if (asksMissingAccelerators(type, acc, vcpu, mem)) {
            v.add(new Violation(path + ".Accelerators", noAccelerators(type)));
            return null;
        }
        long vcpuStored = vcpu != null ? stored(ResourceName.VCPU, vcpu)
                : acc != null ? ratio(acc.longValueExact(), cap.milliVcpu(), cap.accelerators())
                : mem != null ? ratio(stored(ResourceName.MEMORY, mem), cap.milliVcpu(), cap.memoryMiB()) : base.milliVcpu();
        long memStored = mem != null ? stored(ResourceName.MEMORY, mem)
                : acc != null ? ratio(acc.longValueExact(), cap.memoryMiB(), cap.accelerators())
                : vcpu != null ? ratio(vcpuStored, cap.memoryMiB(), cap.milliVcpu()) : base.memoryMiB();
        ComputeQuotaRequest.PartitionRequest partition = r.partition();
        return partition == null ? Resources.of(accStored, vcpuStored, memStored)
                : new Resources(accStored, vcpuStored, memStored, Map.of(partition.type(), partition.count()));
    }

    /**
     * Whether an entry asks accelerators of a type without any and leaves vCPU or memory to the ratio defaults, which
     * would divide by its zero accelerators.
     */
    public static boolean asksMissingAccelerators(InstanceType type, BigDecimal accelerators, BigDecimal vcpu, BigDecimal memoryGiB) {
        return accelerators != null && type.capacity().accelerators() == 0 && accelerators.signum() > 0
                && (vcpu == null || memoryGiB == null);
    }

    /** The rule {@link #asksMissingAccelerators} breaks. */
    public static String noAccelerators(InstanceType type) {
        return "instance type '" + type.name() + "' has no accelerators";
    }

    /** floor(given x instanceAmount / instanceGiven): the same fraction of another resource of the instance. */
    private static long ratio(long given, long instanceAmount, long instanceGiven) {
        if (instanceGiven == 0) {
            return 0;
        }
        return BigInteger.valueOf(given).multiply(BigInteger.valueOf(instanceAmount))
                .divide(BigInteger.valueOf(instanceGiven)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    }

    private static long stored(ResourceName name, BigDecimal jsonAmount) {
        BigDecimal s = jsonAmount.multiply(BigDecimal.valueOf(name.unitsPerJsonUnit())).setScale(0, RoundingMode.FLOOR);
        return s.min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue();
    }

    /** The capacity quotas are checked against: the allocatable of ready nodes, per instance type. */
    public static Map<String, Resources> clusterCapacity(Collection<Node> nodes) {
        Map<String, Resources> out = new TreeMap<>();
        for (Node n : nodes) {
            if (n.ready()) {
                out.merge(n.instanceType(), n.allocatable(), Resources::plus);
            }
        }
        return out;
    }

    /**
     * Checks seed 001's rule: per instance type and resource, the active quotas sum to at most the
     * cluster's capacity.
     *
     * @return one violation per instance type and resource over capacity (empty when all fit)
     */
    public static List<Violation> checkCapacity(Collection<TeamQuota> quotas, Map<String, Resources> capacity) {
        Map<String, Resources> sums = new TreeMap<>();
        for (TeamQuota q : quotas) {
            if (q.active()) {
                q.nominal().forEach((type, amount) -> sums.merge(type, amount, Resources::plus));
            }
        }
        List<Violation> out = new ArrayList<>();
        sums.forEach((type, sum) -> {
            Resources cap = capacity.getOrDefault(type, Resources.ZERO);
            for (ResourceKey r : sum.keys()) {
                if (sum.get(r) > cap.get(r)) {
                    out.add(new Violation(RESOURCES, "the quotas for " + type + " sum to "
                            + Amounts.of(r, sum.get(r)) + ", more than the cluster's "
                            + Amounts.of(r, cap.get(r)) + " on ready nodes"));
                }
            }
        });
        return out;
    }
}
