package dev.taskgov.quota.rules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.AwsApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The quota rules quota-service applies: reading a CreateComputeQuota/UpdateComputeQuota body into
 * an {@link EffectiveQuota} (seed 002 ratio defaults, SageMaker validation) and seed 001's rule that
 * quotas of an instance type sum to at most the cluster's capacity. The one place to switch to the
 * core model's implementation of the same rules.
 */
@ApplicationScoped
public class QuotaRules {

    /** {@code ComputeQuotaTarget.TeamName}. */
    public static final Pattern TEAM_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9]){0,39}");
    private static final String RESOURCES = "ComputeQuotaConfig.ComputeQuotaResources";
    private static final Set<String> RESOURCE_MEMBERS =
            Set.of("InstanceType", "Count", "Accelerators", "VCpu", "MemoryInGiB", "AcceleratorPartition");

    @Inject
    InstanceTypeCatalog catalog;

    /**
     * Reads the quota parts of a request body ({@code ComputeQuotaConfig}, {@code ComputeQuotaTarget},
     * {@code ActivationState}).
     *
     * @throws AwsApiException a validation error naming every wrong field and its rule
     */
    public EffectiveQuota fromRequest(JsonNode body) {
        Map<String, Resources> types = catalog.totals();
        List<String> v = new ArrayList<>();
        JsonNode target = body.path("ComputeQuotaTarget");
        only(target, "ComputeQuotaTarget", Set.of("TeamName", "FairShareWeight"), v);
        String team = text(target.get("TeamName"));
        if (team == null) {
            v.add("ComputeQuotaTarget.TeamName: is required");
        } else if (!TEAM_NAME.matcher(team).matches()) {
            v.add("ComputeQuotaTarget.TeamName: must match " + TEAM_NAME.pattern() + ", was '" + team + "'");
        }
        int weight = intField(target.get("FairShareWeight"), "ComputeQuotaTarget.FairShareWeight", 0, 0, 100, v);

        JsonNode config = body.path("ComputeQuotaConfig");
        only(config, "ComputeQuotaConfig", Set.of("ComputeQuotaResources", "ResourceSharingConfig", "PreemptTeamTasks"), v);
        Map<String, Resources> nominal = new TreeMap<>();
        JsonNode resources = config.get("ComputeQuotaResources");
        if (resources != null && !resources.isNull()) {
            if (!resources.isArray()) {
                v.add(RESOURCES + ": must be a list");
            } else {
                for (int i = 0; i < resources.size(); i++) {
                    readResource(resources.get(i), RESOURCES + "[" + i + "]", types, nominal, v);
                }
            }
        }
        JsonNode sharing = config.path("ResourceSharingConfig");
        only(sharing, "ComputeQuotaConfig.ResourceSharingConfig", Set.of("Strategy", "BorrowLimit"), v);
        String strategy = oneOf(sharing.get("Strategy"), "ComputeQuotaConfig.ResourceSharingConfig.Strategy",
                List.of("LendAndBorrow", "Lend", "DontLend"), v);
        int borrowLimit = intField(sharing.get("BorrowLimit"), "ComputeQuotaConfig.ResourceSharingConfig.BorrowLimit",
                50, 0, 10000, v);
        String preempt = oneOf(config.get("PreemptTeamTasks"), "ComputeQuotaConfig.PreemptTeamTasks",
                List.of("LowerPriority", "Never"), v);
        String activation = oneOf(body.get("ActivationState"), "ActivationState", List.of("Enabled", "Disabled"), v);
        if (!v.isEmpty()) {
            throw AwsApiException.validation(String.join("; ", v));
        }
        return new EffectiveQuota(team, nominal, strategy, borrowLimit, preempt, weight, activation.equals("Enabled"));
    }

    /**
     * Every instance type and resource whose enabled quotas (their nominal amounts) sum to more
     * than the capacity (an instance type without ready nodes has capacity zero).
     */
    public List<CapacityExcess> excesses(Collection<Map<String, Resources>> activeNominals,
                                         Map<String, Resources> capacity) {
        Map<String, Resources> sums = new TreeMap<>();
        for (Map<String, Resources> nominal : activeNominals) {
            nominal.forEach((type, amount) -> sums.merge(type, amount, Resources::plus));
        }
        List<CapacityExcess> out = new ArrayList<>();
        sums.forEach((type, sum) -> {
            Resources cap = capacity.getOrDefault(type, Resources.ZERO);
            for (ResourceName r : ResourceName.values()) {
                if (sum.get(r) > cap.get(r)) {
                    out.add(new CapacityExcess(type, r, sum.get(r), cap.get(r)));
                }
            }
        });
        return out;
    }

    /**
     * Reads a {@code SchedulerConfig} member into its effective form: every priority class with
     * its weight, and {@code FairShare} (default {@code Disabled}).
     *
     * @throws AwsApiException a validation error naming every wrong field and its rule
     */
    public com.fasterxml.jackson.databind.node.ObjectNode schedulerConfig(JsonNode config, String path) {
        List<String> v = new ArrayList<>();
        only(config, path, Set.of("PriorityClasses", "FairShare"), v);
        var out = dev.taskgov.quota.api.AwsJson.object();
        var classes = out.putArray("PriorityClasses");
        JsonNode list = config.get("PriorityClasses");
        Set<String> names = new java.util.HashSet<>();
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                v.add(path + ".PriorityClasses: must be a list");
            } else {
                for (int i = 0; i < list.size(); i++) {
                    String at = path + ".PriorityClasses[" + i + "]";
                    JsonNode c = list.get(i);
                    if (!c.isObject()) {
                        v.add(at + ": must be an object");
                        continue;
                    }
                    only(c, at, Set.of("Name", "Weight"), v);
                    String name = text(c.get("Name"));
                    if (name == null) {
                        v.add(at + ".Name: is required");
                    } else if (!TEAM_NAME.matcher(name).matches()) {
                        v.add(at + ".Name: must match " + TEAM_NAME.pattern() + ", was '" + name + "'");
                    } else if (!names.add(name)) {
                        v.add(at + ".Name: priority class '" + name + "' is given twice");
                    }
                    JsonNode w = c.get("Weight");
                    if (w == null || w.isNull()) {
                        v.add(at + ".Weight: is required");
                    } else {
                        int weight = intField(w, at + ".Weight", 0, 0, 100, v);
                        var pc = classes.addObject();
                        pc.put("Name", name);
                        pc.put("Weight", weight);
                    }
                }
            }
        }
        out.put("FairShare", oneOf(config.get("FairShare"), path + ".FairShare", List.of("Disabled", "Enabled"), v));
        if (!v.isEmpty()) {
            throw AwsApiException.validation(String.join("; ", v));
        }
        return out;
    }

    private static void readResource(JsonNode r, String path, Map<String, Resources> types,
                                     Map<String, Resources> nominal, List<String> v) {
        if (r == null || !r.isObject()) {
            v.add(path + ": must be an object");
            return;
        }
        int before = v.size();
        for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (name.equals("AcceleratorPartition")) {
                v.add(path + ".AcceleratorPartition: accelerator partitions are not supported");
            } else if (!RESOURCE_MEMBERS.contains(name) && !RESOURCE_MEMBERS.contains(upperFirst(name))) {
                v.add(path + "." + name + ": unknown member" + hint(name, RESOURCE_MEMBERS));
            }
        }
        String typeName = text(r.get("InstanceType"));
        if (typeName == null) {
            v.add(path + ".InstanceType: is required");
            return;
        }
        Resources type = types.get(typeName);
        if (type == null) {
            v.add(path + ".InstanceType: unknown instance type '" + typeName + "' (configure it under taskgov.quota.instance-types or let the topology topic report a node of it)");
            return;
        }
        if (nominal.containsKey(typeName)) {
            v.add(path + ".InstanceType: instance type '" + typeName + "' is given twice");
            return;
        }
        BigDecimal count = decimal(r, "Count", path, v);
        BigDecimal acc = decimal(r, "Accelerators", path, v);
        BigDecimal vcpu = decimal(r, "VCpu", path, v);
        BigDecimal mem = decimal(r, "MemoryInGiB", path, v);
        if (count != null && count.stripTrailingZeros().scale() > 0) {
            v.add(path + ".Count: must be a whole number of instances, was " + count.toPlainString());
        }
        if (acc != null && acc.stripTrailingZeros().scale() > 0) {
            v.add(path + ".Accelerators: must be a whole number, was " + acc.toPlainString());
        }
        if (count == null && acc == null && vcpu == null && mem == null) {
            v.add(path + ": give Count or at least one of Accelerators, VCpu, MemoryInGiB");
        }
        if (acc != null && acc.signum() > 0 && type.accelerators() == 0 && (vcpu == null || mem == null)) {
            v.add(path + ".Accelerators: instance type '" + typeName + "' has no accelerators to derive vCPU and memory from");
        }
        if (v.size() > before) {
            return;
        }
        Resources base = count == null ? Resources.ZERO : type.times(count.longValueExact());
        long accStored = acc != null ? acc.longValueExact() : base.accelerators();
        long vcpuStored = vcpu != null ? stored(ResourceName.VCPU, vcpu)
                : acc != null ? ratio(acc.longValueExact(), type.milliVcpu(), type.accelerators()) : base.milliVcpu();
        long memStored = mem != null ? stored(ResourceName.MEMORY, mem)
                : acc != null ? ratio(acc.longValueExact(), type.memoryMiB(), type.accelerators()) : base.memoryMiB();
        nominal.put(typeName, Resources.of(accStored, vcpuStored, memStored));
    }

    private static long ratio(long accelerators, long instanceAmount, long instanceAccelerators) {
        if (instanceAccelerators == 0) {
            return 0;
        }
        return BigInteger.valueOf(accelerators).multiply(BigInteger.valueOf(instanceAmount))
                .divide(BigInteger.valueOf(instanceAccelerators)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    }

    private static long stored(ResourceName name, BigDecimal apiAmount) {
        return apiAmount.multiply(BigDecimal.valueOf(name.unitsPerJsonUnit())).setScale(0, RoundingMode.FLOOR)
                .min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue();
    }

    /** A number, or a numeric string as the AWS documentation's examples write them; "vCpu" is read as "VCpu". */
    private static BigDecimal decimal(JsonNode parent, String field, String path, List<String> v) {
        JsonNode n = parent.get(field);
        if (n == null) {
            n = parent.get(Character.toLowerCase(field.charAt(0)) + field.substring(1));
        }
        if (n == null || n.isNull()) {
            return null;
        }
        BigDecimal d = null;
        try {
            d = n.isNumber() ? n.decimalValue() : n.isTextual() ? new BigDecimal(n.asText().trim()) : null;
        } catch (NumberFormatException e) {
            // reported below
        }
        if (d == null) {
            v.add(path + "." + field + ": must be a number, was " + n);
            return null;
        }
        if (d.signum() < 0) {
            v.add(path + "." + field + ": must not be negative, was " + d.toPlainString());
            return null;
        }
        return d;
    }

    private static int intField(JsonNode n, String path, int dflt, int min, int max, List<String> v) {
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            v.add(path + ": must be a whole number in " + min + ".." + max + ", was " + n);
            return dflt;
        }
        if (n.intValue() < min || n.intValue() > max) {
            v.add(path + ": must be in " + min + ".." + max + ", was " + n.intValue());
            return dflt;
        }
        return n.intValue();
    }

    /** The value, one of {@code allowed}; the first allowed value is the default. */
    private static String oneOf(JsonNode n, String path, List<String> allowed, List<String> v) {
        String s = text(n);
        if (s == null) {
            return allowed.get(0);
        }
        if (!allowed.contains(s)) {
            v.add(path + ": must be one of " + allowed + ", was '" + s + "'");
            return allowed.get(0);
        }
        return s;
    }

    private static void only(JsonNode object, String path, Set<String> known, List<String> v) {
        if (object == null || !object.isObject()) {
            if (object != null && !object.isMissingNode() && !object.isNull()) {
                v.add(path + ": must be an object");
            }
            return;
        }
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) {
                v.add(path + "." + name + ": unknown member" + hint(name, known));
            }
        }
    }

    private static String hint(String name, Set<String> known) {
        return known.stream().filter(k -> k.equalsIgnoreCase(name)).findFirst().map(k -> " (did you mean " + k + "?)")
                .orElse(" (known: " + new java.util.TreeSet<>(known) + ")");
    }

    private static String upperFirst(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? null : n.asText();
    }
}
