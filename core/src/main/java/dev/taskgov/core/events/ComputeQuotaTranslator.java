package dev.taskgov.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.model.AcceleratorPartitions;
import dev.taskgov.core.model.ComputeQuotaRequest;
import dev.taskgov.core.model.ComputeQuotaRequest.ResourceRequest;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Violation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The translator of a compute quota record (a value of {@code taskgov.quota} under {@code <ClusterArn>#<team>}, a
 * {@code CreateComputeQuota} body, a scenario file's quota): the SageMaker-shaped JSON into a
 * {@link ComputeQuotaRequest} with the SageMaker defaults, or the rules it breaks, each naming its field. What depends
 * on the cluster's instance types (an unknown type, the ratio defaults) is left to {@link ComputeQuotas#fromRequest}.
 */
public final class ComputeQuotaTranslator {

    private static final String SUBJECT = "quota";
    private static final String RESOURCES = "ComputeQuotaConfig.ComputeQuotaResources";
    private static final String ABSOLUTE_BORROW_LIMITS = "ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits";

    private ComputeQuotaTranslator() {
    }

    /** Translates a record value (UTF-8 JSON). */
    public static Translation<ComputeQuotaRequest> translate(byte[] json) {
        return translate(json, null, Translation::translated);
    }

    /**
     * Translates a body and resolves it against these instance types ({@link ComputeQuotas#fromRequest}) in one go,
     * naming every broken rule in the body's order, those of the instance types included: for an API that answers a
     * request with all of them, and a file that is checked against its own cluster.
     */
    public static Translation<TeamQuota> translate(byte[] json, Map<String, InstanceType> instanceTypes) {
        return translate(json, instanceTypes, request -> {
            try {
                return Translation.translated(ComputeQuotas.fromRequest(request, instanceTypes));
            } catch (ValidationException e) {
                return Translation.invalid(SUBJECT, e.violations());
            }
        });
    }

    /** The body read ({@link #read}); {@code then} applied to the request when no rule is broken. */
    private static <T> Translation<T> translate(byte[] json, Map<String, InstanceType> instanceTypes,
                                                java.util.function.Function<ComputeQuotaRequest, Translation<T>> then) {
        JsonNode body;
        try {
            body = EventCodec.tree(json);
        } catch (EventCodec.EventFormatException e) {
            return unreadable(e);
        }
        List<Violation> v = new ArrayList<>();
        ComputeQuotaRequest request = read(body, instanceTypes, v);
        return v.isEmpty() ? then.apply(request) : Translation.invalid(SUBJECT, v);
    }

    private static <T> Translation<T> unreadable(EventCodec.EventFormatException e) {
        return new Translation.Refused<>(Translation.Kind.UNREADABLE, "unreadable " + SUBJECT, List.of(new Violation(e.path(), e.problem())));
    }

    /**
     * The body's typed values, the broken rules added to {@code v} (then the request is incomplete). With
     * {@code instanceTypes}, an entry of an unknown type, or asking accelerators of a type without any, is named where
     * it stands; without, those rules wait for the resolution.
     */
    private static ComputeQuotaRequest read(JsonNode body, Map<String, InstanceType> instanceTypes, List<Violation> v) {
        if (!body.isObject()) {
            v.add(new Violation("$", "must be a JSON object"));
            return null;
        }
        JsonNode target = body.path("ComputeQuotaTarget");
        String team = text(target.get("TeamName"));
        if (team == null) {
            v.add(new Violation("ComputeQuotaTarget.TeamName", "is required"));
        } else if (!ComputeQuotas.TEAM_NAME.matcher(team).matches()) {
            v.add(new Violation("ComputeQuotaTarget.TeamName", "must match " + ComputeQuotas.TEAM_NAME.pattern()
                    + " (lower-case letters, digits and '-', at most 41 characters), was '" + team + "'"));
        }
        int weight = intField(target, "FairShareWeight", "ComputeQuotaTarget.FairShareWeight", 0, 0, 100, v);

        JsonNode config = body.path("ComputeQuotaConfig");
        List<ResourceRequest> nominal = resources(config.get("ComputeQuotaResources"), RESOURCES, instanceTypes, v);
        JsonNode sharing = config.path("ResourceSharingConfig");
        List<ResourceRequest> absoluteBorrowLimits = resources(sharing.get("AbsoluteBorrowLimits"), ABSOLUTE_BORROW_LIMITS,
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
        return new ComputeQuotaRequest(text(body.get("Name")), team, weight, nominal, strategy, borrowLimit,
                absoluteBorrowLimits, preempt, active);
    }

    /** A list of ComputeQuotaResourceConfig (empty when absent). */
    private static List<ResourceRequest> resources(JsonNode list, String path, Map<String, InstanceType> instanceTypes,
                                                   List<Violation> v) {
        List<ResourceRequest> out = new ArrayList<>();
        if (list == null || list.isNull()) return out;
        if (!list.isArray()) {
            v.add(new Violation(path, "must be a list"));
            return out;
        }
        Set<String> types = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            ResourceRequest r = resource(list.get(i), path + "[" + i + "]", instanceTypes, types, v);
            if (r != null) {
                types.add(r.instanceType());
                out.add(r);
            }
        }
        return out;
    }

    private static ResourceRequest resource(JsonNode r, String path, Map<String, InstanceType> instanceTypes, Set<String> seen,
                                            List<Violation> v) {
        if (r == null || !r.isObject()) {
            v.add(new Violation(path, "must be an object"));
            return null;
        }
        String typeName = text(r.get("InstanceType"));
        if (typeName == null) {
            v.add(new Violation(path + ".InstanceType", "is required"));
            return null;
        }
        InstanceType type = instanceTypes == null ? null : instanceTypes.get(typeName);
        if (instanceTypes != null && type == null) {
            v.add(new Violation(path + ".InstanceType", "unknown instance type '" + typeName + "'"));
            return null;
        }
        if (seen.contains(typeName)) {
            v.add(new Violation(path + ".InstanceType", "instance type '" + typeName + "' is given twice"));
            return null;
        }
        int before = v.size();
        BigDecimal count = decimal(r, "Count", path, v);
        BigDecimal acc = decimal(r, "Accelerators", path, v);
        BigDecimal vcpu = decimal(r, "VCpu", path, v);
        BigDecimal mem = decimal(r, "MemoryInGiB", path, v);
        if (v.size() > before) return null;
        if (count != null && count.stripTrailingZeros().scale() > 0) {
            v.add(new Violation(path + ".Count", "must be a whole number of instances, was " + count.toPlainString()));
            return null;
        }
        if (acc != null && acc.stripTrailingZeros().scale() > 0) {
            v.add(new Violation(path + ".Accelerators", "must be a whole number, was " + acc.toPlainString()));
            return null;
        }
        if (type != null && ComputeQuotas.asksMissingAccelerators(type, acc, vcpu, mem)) {
            v.add(new Violation(path + ".Accelerators", ComputeQuotas.noAccelerators(type)));
            return null;
        }
        ComputeQuotaRequest.PartitionRequest partition = partition(r, path, typeName, v);
        if (v.size() > before) return null;
        return new ResourceRequest(typeName, count, acc, vcpu, mem, partition);
    }

    /**
     * {@code AcceleratorPartition: {Type, Count}}: {@code Count} partitions of the MIG profile {@code Type}, which
     * must be one the instance type offers ({@link AcceleratorPartitions}); null when the member is absent or after
     * adding a violation.
     */
    private static ComputeQuotaRequest.PartitionRequest partition(JsonNode r, String path, String instanceType, List<Violation> v) {
        JsonNode p = r.get("AcceleratorPartition");
        String member = path + ".AcceleratorPartition";
        if (p == null || p.isNull()) return null;
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
        return v.size() > before ? null : new ComputeQuotaRequest.PartitionRequest(type, count);
    }

    /** Reads a number (or a numeric string, as the AWS examples write them); the case of the first letter is ignored. */
    private static BigDecimal decimal(JsonNode parent, String field, String path, List<Violation> v) {
        JsonNode n = parent.get(field);
        if (n == null) n = parent.get(Character.toLowerCase(field.charAt(0)) + field.substring(1));
        if (n == null || n.isNull()) return null;
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
        if (n == null || n.isNull()) return dflt;
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
        if (s == null) return dflt;
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(s)) return e;
        }
        v.add(new Violation(path, "must be one of " + Arrays.toString(type.getEnumConstants()) + ", was '" + s + "'"));
        return dflt;
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }
}
