package dev.taskgov.core.model;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Turns SageMaker {@code CreateComputeQuota}/{@code UpdateComputeQuota} request bodies into
 * {@link TeamQuota}s, with the defaults of seed 002 and the SageMaker validation rules, and checks
 * that quotas fit the cluster.
 */
public final class ComputeQuotas {

    /** {@code ComputeQuotaTarget.TeamName} pattern of the SageMaker API. */
    public static final Pattern TEAM_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9]){0,39}");

    private static final String RESOURCES = "ComputeQuotaConfig.ComputeQuotaResources";
    private static final String ABSOLUTE_BORROW_LIMITS = "ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits";

    private ComputeQuotas() {
    }

    /**
     * Reads a CreateComputeQuota body.
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
     *       the same defaults, per instance type;</li>
     *   <li>defaults: Strategy LendAndBorrow, BorrowLimit 50, PreemptTeamTasks LowerPriority,
     *       FairShareWeight 0, ActivationState Enabled.</li>
     * </ul>
     *
     * @throws ValidationException naming each wrong field and its rule
     */
    public static TeamQuota fromRequest(JsonNode body, Map<String, InstanceType> instanceTypes) {
        List<Violation> v = new ArrayList<>();
        if (body == null || !body.isObject()) {
            throw new ValidationException("$", "must be a JSON object");
        }
        JsonNode target = body.path("ComputeQuotaTarget");
        String team = text(target.get("TeamName"));
        if (team == null) {
            v.add(new Violation("ComputeQuotaTarget.TeamName", "is required"));
        } else if (!TEAM_NAME.matcher(team).matches()) {
            v.add(new Violation("ComputeQuotaTarget.TeamName",
                    "must match " + TEAM_NAME.pattern() + " (lower-case letters, digits and '-', at most 41 characters), was '" + team + "'"));
        }
        int weight = intField(target, "FairShareWeight", "ComputeQuotaTarget.FairShareWeight", 0, 0, 100, v);

        JsonNode config = body.path("ComputeQuotaConfig");
        Map<String, Resources> nominal = readResources(config.get("ComputeQuotaResources"), RESOURCES, instanceTypes, v);
        JsonNode sharing = config.path("ResourceSharingConfig");
        Map<String, Resources> absoluteBorrowLimits = readResources(sharing.get("AbsoluteBorrowLimits"), ABSOLUTE_BORROW_LIMITS,
                instanceTypes, v);
        SharingStrategy strategy = enumField(sharing.get("Strategy"), "ComputeQuotaConfig.ResourceSharingConfig.Strategy",
                SharingStrategy.class, SharingStrategy.LendAndBorrow, v);
        int borrowLimit = intField(sharing, "BorrowLimit", "ComputeQuotaConfig.ResourceSharingConfig.BorrowLimit",
                TeamQuota.DEFAULT_BORROW_LIMIT, 0, 10000, v);
        PreemptTeamTasks preempt = enumField(config.get("PreemptTeamTasks"), "ComputeQuotaConfig.PreemptTeamTasks",
                PreemptTeamTasks.class, PreemptTeamTasks.LowerPriority, v);
        String activation = text(body.get("ActivationState"));
        boolean active = true;
        if (activation != null) {
            if (activation.equals("Disabled")) {
                active = false;
            } else if (!activation.equals("Enabled")) {
                v.add(new Violation("ActivationState", "must be Enabled or Disabled, was '" + activation + "'"));
            }
        }
        if (!v.isEmpty()) {
            throw new ValidationException(v);
        }
        return new TeamQuota(team, text(body.get("Name")), nominal, strategy, borrowLimit, preempt, weight, active,
                absoluteBorrowLimits);
    }

    /** A list of ComputeQuotaResourceConfig by instance type, with the ratio defaults (empty when absent). */
    private static Map<String, Resources> readResources(JsonNode list, String path, Map<String, InstanceType> instanceTypes,
                                                        List<Violation> v) {
        Map<String, Resources> out = new TreeMap<>();
        if (list == null || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            v.add(new Violation(path, "must be a list"));
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            readResource(list.get(i), path + "[" + i + "]", instanceTypes, out, v);
        }
        return out;
    }

    private static void readResource(JsonNode r, String path, Map<String, InstanceType> instanceTypes,
                                     Map<String, Resources> nominal, List<Violation> v) {
        if (r == null || !r.isObject()) {
            v.add(new Violation(path, "must be an object"));
            return;
        }
        String typeName = text(r.get("InstanceType"));
        if (typeName == null) {
            v.add(new Violation(path + ".InstanceType", "is required"));
            return;
        }
        InstanceType type = instanceTypes.get(typeName);
        if (type == null) {
            v.add(new Violation(path + ".InstanceType", "unknown instance type '" + typeName + "'"));
            return;
        }
        if (nominal.containsKey(typeName)) {
            v.add(new Violation(path + ".InstanceType", "instance type '" + typeName + "' is given twice"));
            return;
        }
        int before = v.size();
        BigDecimal count = decimal(r, "Count", path, v);
        BigDecimal acc = decimal(r, "Accelerators", path, v);
        BigDecimal vcpu = decimal(r, "VCpu", path, v);
        BigDecimal mem = decimal(r, "MemoryInGiB", path, v);
        if (v.size() > before) {
            return;
        }
        if (count != null && count.stripTrailingZeros().scale() > 0) {
            v.add(new Violation(path + ".Count", "must be a whole number of instances, was " + count.toPlainString()));
            return;
        }
        if (acc != null && acc.stripTrailingZeros().scale() > 0) {
            v.add(new Violation(path + ".Accelerators", "must be a whole number, was " + acc.toPlainString()));
            return;
        }
        Resources cap = type.capacity();
        Resources base = count == null ? Resources.ZERO : cap.times(count.longValueExact());
        long accStored = acc != null ? acc.longValueExact() : base.accelerators();
        long vcpuStored;
        long memStored;
        if (acc != null && cap.accelerators() == 0 && acc.signum() > 0 && (vcpu == null || mem == null)) {
            v.add(new Violation(path + ".Accelerators", "instance type '" + typeName + "' has no accelerators"));
            return;
        }
        vcpuStored = vcpu != null ? stored(ResourceName.VCPU, vcpu)
                : acc != null ? ratio(acc.longValueExact(), cap.milliVcpu(), cap.accelerators())
                : mem != null ? ratio(stored(ResourceName.MEMORY, mem), cap.milliVcpu(), cap.memoryMiB()) : base.milliVcpu();
        memStored = mem != null ? stored(ResourceName.MEMORY, mem)
                : acc != null ? ratio(acc.longValueExact(), cap.memoryMiB(), cap.accelerators())
                : vcpu != null ? ratio(vcpuStored, cap.memoryMiB(), cap.milliVcpu()) : base.memoryMiB();
        Map<String, Long> partitions = readPartition(r, path, typeName, v);
        if (partitions == null) {
            return;
        }
        nominal.put(typeName, new Resources(accStored, vcpuStored, memStored, partitions));
    }

    /**
     * {@code AcceleratorPartition: {Type, Count}}: {@code Count} partitions of the MIG profile {@code Type}, a
     * resource of its own ({@code partitions.<Type>}) with no ratio defaults; the profile must be one the
     * instance type offers ({@link AcceleratorPartitions}).
     *
     * @return the partitions (empty when the member is absent), or null after adding a violation
     */
    private static Map<String, Long> readPartition(JsonNode r, String path, String instanceType, List<Violation> v) {
        JsonNode p = r.get("AcceleratorPartition");
        String member = path + ".AcceleratorPartition";
        if (p == null || p.isNull()) {
            return Map.of();
        }
        if (!p.isObject()) {
            v.add(new Violation(member, "must be an object {Type, Count}, was " + p));
            return null;
        }
        int before = v.size();
        String type = text(p.get("Type"));
        if (type == null) {
            v.add(new Violation(member + ".Type", "is required"));
        } else {
            AcceleratorPartitions.problem(instanceType, type).ifPresent(problem -> v.add(new Violation(member + ".Type", problem)));
        }
        JsonNode c = p.get("Count");
        long count = 0;
        if (c == null || c.isNull()) {
            v.add(new Violation(member + ".Count", "is required"));
        } else if (!c.isIntegralNumber() && !(c.isTextual() && c.asText().trim().matches("\\d{1,9}"))) {
            v.add(new Violation(member + ".Count", "must be a whole number in 0.." + AcceleratorPartitions.MAX_COUNT + ", was " + c));
        } else {
            BigInteger n = c.isTextual() ? new BigInteger(c.asText().trim()) : c.bigIntegerValue();
            if (n.signum() < 0 || n.compareTo(BigInteger.valueOf(AcceleratorPartitions.MAX_COUNT)) > 0) {
                v.add(new Violation(member + ".Count", "must be in 0.." + AcceleratorPartitions.MAX_COUNT + ", was " + n));
            } else {
                count = n.longValue();
            }
        }
        return v.size() > before ? null : Map.of(type, count);
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

    /** Reads a number (or a numeric string, as the AWS examples write them); the case of the first letter is ignored. */
    private static BigDecimal decimal(JsonNode parent, String field, String path, List<Violation> v) {
        JsonNode n = parent.get(field);
        if (n == null) {
            n = parent.get(Character.toLowerCase(field.charAt(0)) + field.substring(1));
        }
        if (n == null || n.isNull()) {
            return null;
        }
        BigDecimal d;
        try {
            d = n.isNumber() ? n.decimalValue() : n.isTextual() ? new BigDecimal(n.asText().trim()) : null;
        } catch (NumberFormatException e) {
            d = null;
        }
        if (d == null) {
            v.add(new Violation(path + "." + field, "must be a number, was " + n));
            return null;
        }
        if (d.signum() < 0) {
            v.add(new Violation(path + "." + field, "must not be negative, was " + d.toPlainString()));
            return null;
        }
        return d;
    }

    private static int intField(JsonNode parent, String field, String path, int dflt, int min, int max, List<Violation> v) {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.canConvertToInt() || !(n.isIntegralNumber() || n.isTextual() && n.asText().matches("-?\\d+"))) {
            v.add(new Violation(path, "must be a whole number in " + min + ".." + max + ", was " + n));
            return dflt;
        }
        int value = n.isTextual() ? Integer.parseInt(n.asText()) : n.intValue();
        if (value < min || value > max) {
            v.add(new Violation(path, "must be in " + min + ".." + max + ", was " + value));
            return dflt;
        }
        return value;
    }

    private static <E extends Enum<E>> E enumField(JsonNode n, String path, Class<E> type, E dflt, List<Violation> v) {
        String s = text(n);
        if (s == null) {
            return dflt;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(s)) {
                return e;
            }
        }
        v.add(new Violation(path, "must be one of " + java.util.Arrays.toString(type.getEnumConstants()) + ", was '" + s + "'"));
        return dflt;
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
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
