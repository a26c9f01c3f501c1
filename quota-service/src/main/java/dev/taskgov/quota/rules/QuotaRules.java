package dev.taskgov.quota.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.ComputeQuotaTranslator;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.SchedulerConfigTranslator;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.AwsApiException;
import dev.taskgov.quota.api.AwsJson;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The quota rules as quota-service applies them. The rules themselves are core's, the same the deciders read the
 * published records with ({@link ComputeQuotaTranslator} for the SageMaker value rules, {@link ComputeQuotas#fromRequest}
 * for seed 002's ratio defaults, {@link ComputeQuotas#checkCapacity} for seed 001's capacity rule,
 * {@link SchedulerConfigTranslator});
 * this class adds what belongs to the wire protocol: members the API does not define (with a hint
 * for a wrong case), unsupported accelerator partitions, a resource entry without any amount.
 */
@ApplicationScoped
public class QuotaRules {

    private static final String RESOURCES = "ComputeQuotaConfig.ComputeQuotaResources";
    private static final String SHARING = "ComputeQuotaConfig.ResourceSharingConfig";
    private static final Set<String> RESOURCE_MEMBERS =
            Set.of("InstanceType", "Count", "Accelerators", "VCpu", "MemoryInGiB", "AcceleratorPartition");

    /** {@code ComputeQuotaResourceConfigList} and {@code AbsoluteBorrowLimitResourceList}: at most 15 entries. */
    private static final int MAX_RESOURCE_ENTRIES = 15;
    /** The model's maximum of {@code Count}, {@code Accelerators}, {@code VCpu} and {@code MemoryInGiB}. */
    private static final java.math.BigDecimal MAX_AMOUNT = java.math.BigDecimal.valueOf(10_000_000);
    /** {@code PriorityClassList}: at most 10 classes. */
    private static final int MAX_PRIORITY_CLASSES = 10;
    /** {@code SchedulerConfig.FairShare} when a request omits it (API reference: "Default is Enabled"). */
    public static final String DEFAULT_FAIR_SHARE = "Enabled";

    @Inject
    InstanceTypeCatalog catalog;

    /**
     * Reads the quota parts of a request body ({@code ComputeQuotaConfig}, {@code ComputeQuotaTarget},
     * {@code ActivationState}).
     *
     * @throws AwsApiException a validation error naming every wrong field and its rule
     */
    public EffectiveQuota fromRequest(JsonNode body) {
        List<String> v = new ArrayList<>();
        JsonNode target = body.path("ComputeQuotaTarget");
        only(target, "ComputeQuotaTarget", Set.of("TeamName", "FairShareWeight"), v);
        JsonNode config = body.path("ComputeQuotaConfig");
        only(config, "ComputeQuotaConfig", Set.of("ComputeQuotaResources", "ResourceSharingConfig", "PreemptTeamTasks"), v);
        JsonNode sharing = config.path("ResourceSharingConfig");
        only(sharing, SHARING, Set.of("Strategy", "BorrowLimit", "AbsoluteBorrowLimits"), v);
        if (sharing.isObject() && !sharing.hasNonNull("Strategy")) {
            v.add(SHARING + ".Strategy: is required (one of LendAndBorrow, Lend, DontLend)");
        }
        checkResourceList(config.path("ComputeQuotaResources"), RESOURCES, v);
        checkResourceList(sharing.path("AbsoluteBorrowLimits"), SHARING + ".AbsoluteBorrowLimits", v);
        TeamQuota quota = null;
        try {
            Map<String, InstanceType> types = new TreeMap<>();
            Map<String, String> named = namedInstanceTypes(config.path("ComputeQuotaResources"), RESOURCES, new TreeMap<>());
            namedInstanceTypes(sharing.path("AbsoluteBorrowLimits"), SHARING + ".AbsoluteBorrowLimits", named);
            catalog.totals(named).forEach((name, totals) -> types.put(name, new InstanceType(name, totals)));
            quota = ComputeQuotaTranslator.translate(EventCodec.bytes(body), types).orThrow();
        } catch (ValidationException e) {
            e.violations().forEach(x -> v.add(x.toString()));
        }
        if (!v.isEmpty()) {
            throw AwsApiException.validation(String.join("; ", v));
        }
        return new EffectiveQuota(quota.team(), quota.nominal(), quota.strategy().name(), quota.borrowLimitPercent(),
                quota.absoluteBorrowLimits(), quota.preemptTeamTasks().name(), quota.fairShareWeight(), quota.active());
    }

    /** Adds the instance types a resource list names, by the path of each {@code InstanceType} member. */
    private static Map<String, String> namedInstanceTypes(JsonNode list, String path, Map<String, String> named) {
        for (int i = 0; i < list.size(); i++) {
            JsonNode type = list.path(i).path("InstanceType");
            if (type.isTextual()) named.put(path + "[" + i + "].InstanceType", type.asText());
        }
        return named;
    }

    /**
     * Seed 001's rule for the instance types of one quota: the broken rules (empty when the enabled
     * quotas of those types fit the capacity). Other instance types are left out, so that an
     * over-commit elsewhere (a node gone) does not block an unrelated change.
     */
    public List<String> capacityViolations(Collection<Map<String, Resources>> enabledNominals,
                                           Map<String, Resources> capacity, Set<String> instanceTypes) {
        List<TeamQuota> quotas = new ArrayList<>();
        int i = 0;
        for (Map<String, Resources> nominal : enabledNominals) {
            Map<String, Resources> relevant = new TreeMap<>(nominal);
            relevant.keySet().retainAll(instanceTypes);
            quotas.add(TeamQuota.of("quota-" + i++, relevant));
        }
        return ComputeQuotas.checkCapacity(quotas, capacity).stream().map(Violation::rule).toList();
    }

    /**
     * Reads a {@code SchedulerConfig} member into its effective form: every priority class with
     * its weight, {@code FairShare} (default {@code Enabled}, as the API reference says) and
     * {@code IdleResourceSharing} (no documented default; omitted reads as {@code Disabled}, the
     * behaviour before the member existed: only what teams lend is borrowed).
     *
     * @throws AwsApiException a validation error naming every wrong field and its rule
     */
    public ObjectNode schedulerConfig(JsonNode config, String path) {
        List<String> v = new ArrayList<>();
        only(config, path, Set.of("PriorityClasses", "FairShare", "IdleResourceSharing"), v);
        JsonNode list = config.path("PriorityClasses");
        if (list.size() > MAX_PRIORITY_CLASSES) {
            v.add(path + ".PriorityClasses: at most " + MAX_PRIORITY_CLASSES + " classes, was " + list.size());
        }
        for (int i = 0; i < list.size(); i++) {
            only(list.get(i), path + ".PriorityClasses[" + i + "]", Set.of("Name", "Weight"), v);
        }
        SchedulerConfig parsed = null;
        try {
            ObjectNode withDefaults = config.deepCopy();
            if (!withDefaults.hasNonNull("FairShare")) {
                withDefaults.put("FairShare", DEFAULT_FAIR_SHARE);
            }
            ObjectNode wrapped = AwsJson.object();
            wrapped.set(path, withDefaults);
            parsed = SchedulerConfigTranslator.translate(EventCodec.bytes(wrapped)).orThrow();
        } catch (ValidationException e) {
            e.violations().forEach(x -> v.add(x.toString()));
        }
        if (!v.isEmpty()) {
            throw AwsApiException.validation(String.join("; ", v));
        }
        ObjectNode out = AwsJson.object();
        ArrayNode classes = out.putArray("PriorityClasses");
        parsed.priorityClasses().forEach((name, weight) -> {
            ObjectNode c = classes.addObject();
            c.put("Name", name);
            c.put("Weight", weight);
        });
        out.put("FairShare", parsed.fairShare() ? "Enabled" : "Disabled");
        out.put("IdleResourceSharing", parsed.idleResourceSharing() ? "Enabled" : "Disabled");
        return out;
    }

    private static void checkResourceList(JsonNode list, String path, List<String> v) {
        if (list.isMissingNode() || list.isNull()) {
            return;
        }
        if (!list.isArray()) {
            v.add(path + ": must be a list");
            return;
        }
        if (list.size() > MAX_RESOURCE_ENTRIES) {
            v.add(path + ": at most " + MAX_RESOURCE_ENTRIES + " entries, was " + list.size());
        }
        for (int i = 0; i < list.size(); i++) {
            checkResourceMembers(list.get(i), path + "[" + i + "]", v);
        }
    }

    /**
     * The wire shape of one {@code ComputeQuotaResourceConfig}, as the service model defines it:
     * members are case-sensitive ({@code vCpu} is unknown, as the aws CLI and the SDKs refuse it)
     * and amounts are JSON numbers (a quoted {@code "16"} is refused like the aws CLI's "Invalid
     * type for parameter"). The core model reads the documentation's looser spelling for scenario files.
     */
    private static void checkResourceMembers(JsonNode r, String path, List<String> v) {
        if (r == null || !r.isObject()) {
            return;
        }
        for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!RESOURCE_MEMBERS.contains(name)) {
                v.add(path + "." + name + ": unknown member" + hint(name, RESOURCE_MEMBERS));
            }
        }
        for (String amount : List.of("Count", "Accelerators", "VCpu", "MemoryInGiB")) {
            JsonNode n = r.get(amount);
            if (n != null && !n.isNull() && !n.isNumber()) {
                v.add(path + "." + amount + ": must be a JSON number, was " + n);
            } else if (n != null && n.isNumber() && n.decimalValue().compareTo(MAX_AMOUNT) > 0) {
                v.add(path + "." + amount + ": must be at most " + MAX_AMOUNT + ", was " + n);
            }
        }
        JsonNode partition = r.get("AcceleratorPartition");
        if (partition != null && partition.isObject()) {
            // The shape (AcceleratorPartitionConfig) here; the profile and the count's range in core's ComputeQuotas.
            only(partition, path + ".AcceleratorPartition", Set.of("Type", "Count"), v);
            JsonNode type = partition.get("Type");
            if (type != null && !type.isNull() && !type.isTextual()) {
                v.add(path + ".AcceleratorPartition.Type: must be a JSON string, was " + type);
            }
            JsonNode count = partition.get("Count");
            if (count != null && !count.isNull() && !count.isNumber()) {
                v.add(path + ".AcceleratorPartition.Count: must be a JSON number, was " + count);
            }
        }
        if (!r.hasNonNull("Count") && !r.hasNonNull("Accelerators") && !r.hasNonNull("VCpu") && !r.hasNonNull("MemoryInGiB")
                && !r.hasNonNull("AcceleratorPartition")) {
            v.add(path + ": give Count or at least one of Accelerators, VCpu, MemoryInGiB, AcceleratorPartition");
        }
    }

    private static void only(JsonNode object, String path, Set<String> known, List<String> v) {
        if (object == null || object.isMissingNode() || object.isNull()) {
            return;
        }
        if (!object.isObject()) {
            v.add(path + ": must be an object");
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
                .orElse(" (known: " + new TreeSet<>(known) + ")");
    }

}
