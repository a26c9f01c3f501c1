package dev.taskgov.quota.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * The quota rules as quota-service applies them. The rules themselves are the core model's
 * ({@link ComputeQuotas#fromRequest} for seed 002's ratio defaults and the SageMaker value rules,
 * {@link ComputeQuotas#checkCapacity} for seed 001's capacity rule, {@link SchedulerConfig#fromRequest});
 * this class adds what belongs to the wire protocol: members the API does not define (with a hint
 * for a wrong case), unsupported accelerator partitions, a resource entry without any amount.
 */
@ApplicationScoped
public class QuotaRules {

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
        List<String> v = new ArrayList<>();
        JsonNode target = body.path("ComputeQuotaTarget");
        only(target, "ComputeQuotaTarget", Set.of("TeamName", "FairShareWeight"), v);
        JsonNode config = body.path("ComputeQuotaConfig");
        only(config, "ComputeQuotaConfig", Set.of("ComputeQuotaResources", "ResourceSharingConfig", "PreemptTeamTasks"), v);
        only(config.path("ResourceSharingConfig"), "ComputeQuotaConfig.ResourceSharingConfig", Set.of("Strategy", "BorrowLimit"), v);
        JsonNode resources = config.path("ComputeQuotaResources");
        for (int i = 0; i < resources.size(); i++) {
            checkResourceMembers(resources.get(i), RESOURCES + "[" + i + "]", v);
        }
        TeamQuota quota = null;
        try {
            Map<String, InstanceType> types = new TreeMap<>();
            catalog.totals().forEach((name, totals) -> types.put(name, new InstanceType(name, totals)));
            quota = ComputeQuotas.fromRequest(body, types);
        } catch (ValidationException e) {
            e.violations().forEach(x -> v.add(x.toString()));
        }
        if (!v.isEmpty()) {
            throw AwsApiException.validation(String.join("; ", v));
        }
        return new EffectiveQuota(quota.team(), quota.nominal(), quota.strategy().name(), quota.borrowLimitPercent(),
                quota.preemptTeamTasks().name(), quota.fairShareWeight(), quota.active());
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
     * its weight, and {@code FairShare} (default {@code Disabled}).
     *
     * @throws AwsApiException a validation error naming every wrong field and its rule
     */
    public ObjectNode schedulerConfig(JsonNode config, String path) {
        List<String> v = new ArrayList<>();
        only(config, path, Set.of("PriorityClasses", "FairShare"), v);
        JsonNode list = config.path("PriorityClasses");
        for (int i = 0; i < list.size(); i++) {
            only(list.get(i), path + ".PriorityClasses[" + i + "]", Set.of("Name", "Weight"), v);
        }
        SchedulerConfig parsed = null;
        try {
            ObjectNode wrapped = AwsJson.object();
            wrapped.set(path, config);
            parsed = SchedulerConfig.fromRequest(wrapped);
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
        return out;
    }

    private static void checkResourceMembers(JsonNode r, String path, List<String> v) {
        if (r == null || !r.isObject()) {
            return;
        }
        for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (name.equals("AcceleratorPartition")) {
                v.add(path + ".AcceleratorPartition: accelerator partitions are not supported");
            } else if (!RESOURCE_MEMBERS.contains(name) && !RESOURCE_MEMBERS.contains(upperFirst(name))) {
                // the core reads "vCpu" as "VCpu" (the documentation's spelling); anything else is unknown
                v.add(path + "." + name + ": unknown member" + hint(name, RESOURCE_MEMBERS));
            }
        }
        if (!has(r, "Count") && !has(r, "Accelerators") && !has(r, "VCpu") && !has(r, "MemoryInGiB")) {
            v.add(path + ": give Count or at least one of Accelerators, VCpu, MemoryInGiB");
        }
    }

    private static boolean has(JsonNode r, String member) {
        return r.hasNonNull(member) || r.hasNonNull(Character.toLowerCase(member.charAt(0)) + member.substring(1));
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

    private static String upperFirst(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
