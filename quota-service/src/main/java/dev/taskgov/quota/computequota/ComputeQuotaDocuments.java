package dev.taskgov.quota.computequota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.rules.EffectiveQuota;
import dev.taskgov.quota.rules.Units;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

/** Builds the DescribeComputeQuota document of a quota: every default filled in. */
final class ComputeQuotaDocuments {

    private ComputeQuotaDocuments() {
    }

    static ObjectNode describe(ComputeQuotaEntity e, String arn, String description, JsonNode request,
                               EffectiveQuota quota) {
        ObjectNode d = AwsJson.object();
        d.put("ComputeQuotaArn", arn);
        d.put("ComputeQuotaId", e.id);
        d.put("Name", e.name);
        if (description != null) {
            d.put("Description", description);
        }
        d.put("ComputeQuotaVersion", e.version);
        d.put("Status", e.status);
        d.put("ClusterArn", e.clusterArn);
        d.set("ComputeQuotaConfig", effectiveConfig(request.path("ComputeQuotaConfig"), quota));
        ObjectNode target = d.putObject("ComputeQuotaTarget");
        target.put("TeamName", quota.team());
        target.put("FairShareWeight", quota.fairShareWeight());
        d.put("ActivationState", e.activationState);
        d.put("CreationTime", AwsJson.epochSeconds(e.createdAt));
        d.put("LastModifiedTime", AwsJson.epochSeconds(e.lastModifiedAt));
        return d;
    }

    /** The request's ComputeQuotaConfig with ratio defaults and sharing defaults applied. */
    private static ObjectNode effectiveConfig(JsonNode requested, EffectiveQuota quota) {
        ObjectNode config = AwsJson.object();
        ArrayNode resources = config.putArray("ComputeQuotaResources");
        for (JsonNode r : requested.path("ComputeQuotaResources")) {
            String type = r.path("InstanceType").asText();
            Resources amount = quota.nominal().get(type);
            ObjectNode out = resources.addObject();
            out.put("InstanceType", type);
            JsonNode count = r.hasNonNull("Count") ? r.get("Count") : r.get("count");
            if (count != null && !count.isNull()) {
                out.put("Count", new BigDecimal(count.asText().trim()).intValueExact());
            }
            out.put("Accelerators", amount.accelerators());
            out.put("VCpu", Units.toApi(ResourceName.VCPU, amount.milliVcpu()));
            out.put("MemoryInGiB", Units.toApi(ResourceName.MEMORY, amount.memoryMiB()));
        }
        ObjectNode sharing = config.putObject("ResourceSharingConfig");
        sharing.put("Strategy", quota.strategy());
        sharing.put("BorrowLimit", quota.borrowLimit());
        config.put("PreemptTeamTasks", quota.preemptTeamTasks());
        return config;
    }

    /** Stored units per instance type: {"ml.p5.48xlarge": {"accelerators": 8, "milliVcpu": 192000, "memoryMiB": 2097152}}. */
    static String writeNominal(Map<String, Resources> nominal) {
        ObjectNode out = AwsJson.object();
        new TreeMap<>(nominal).forEach((type, r) -> {
            ObjectNode amounts = out.putObject(type);
            amounts.put("accelerators", r.accelerators());
            amounts.put("milliVcpu", r.milliVcpu());
            amounts.put("memoryMiB", r.memoryMiB());
        });
        return AwsJson.write(out);
    }

    static Map<String, Resources> readNominal(String json) {
        Map<String, Resources> out = new TreeMap<>();
        AwsJson.parse(json).fields().forEachRemaining(f -> out.put(f.getKey(), Resources.of(
                f.getValue().path("accelerators").asLong(), f.getValue().path("milliVcpu").asLong(),
                f.getValue().path("memoryMiB").asLong())));
        return out;
    }
}
