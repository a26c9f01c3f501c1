package dev.taskgov.quota.computequota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.rules.EffectiveQuota;
import dev.taskgov.quota.rules.Units;

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
        writeResources(config.putArray("ComputeQuotaResources"), requested.path("ComputeQuotaResources"), quota.nominal());
        ObjectNode sharing = config.putObject("ResourceSharingConfig");
        sharing.put("Strategy", quota.strategy());
        sharing.put("BorrowLimit", quota.borrowLimit());
        JsonNode absolute = requested.path("ResourceSharingConfig").path("AbsoluteBorrowLimits");
        if (absolute.isArray()) {
            writeResources(sharing.putArray("AbsoluteBorrowLimits"), absolute, quota.absoluteBorrowLimits());
        }
        config.put("PreemptTeamTasks", quota.preemptTeamTasks());
        return config;
    }

    /** Each requested ComputeQuotaResourceConfig in request order, with every amount written out (ratio defaults applied). */
    private static void writeResources(ArrayNode out, JsonNode requested, Map<String, Resources> effective) {
        for (JsonNode r : requested) {
            String type = r.path("InstanceType").asText();
            Resources amount = effective.get(type);
            ObjectNode entry = out.addObject();
            entry.put("InstanceType", type);
            if (r.hasNonNull("Count")) {
                entry.put("Count", r.get("Count").decimalValue().intValueExact());
            }
            entry.put("Accelerators", amount.accelerators());
            entry.put("VCpu", Units.toApi(ResourceName.VCPU, amount.milliVcpu()));
            entry.put("MemoryInGiB", Units.toApi(ResourceName.MEMORY, amount.memoryMiB()));
            JsonNode partition = r.path("AcceleratorPartition");
            if (partition.hasNonNull("Type")) {
                // The requested profile with its effective count (a Count of 0 is kept, as requested).
                String profile = partition.get("Type").asText();
                entry.putObject("AcceleratorPartition").put("Type", profile).put("Count", amount.partition(profile));
            }
        }
    }

    /**
     * Stored units per instance type: {"ml.p5.48xlarge": {"accelerators": 8, "milliVcpu": 192000, "memoryMiB": 2097152}},
     * with {@code "partitions": {"mig-1g.10gb": 7}} when the amount has accelerator partitions.
     */
    static String writeStoredAmounts(Map<String, Resources> amounts) {
        ObjectNode out = AwsJson.object();
        new TreeMap<>(amounts).forEach((type, r) -> {
            ObjectNode entry = out.putObject(type);
            entry.put("accelerators", r.accelerators());
            entry.put("milliVcpu", r.milliVcpu());
            entry.put("memoryMiB", r.memoryMiB());
            if (!r.partitions().isEmpty()) {
                ObjectNode partitions = entry.putObject("partitions");
                r.partitions().forEach(partitions::put);
            }
        });
        return AwsJson.write(out);
    }

    static Map<String, Resources> readNominal(String json) {
        Map<String, Resources> out = new TreeMap<>();
        AwsJson.parse(json).fields().forEachRemaining(f -> {
            Map<String, Long> partitions = new TreeMap<>();
            f.getValue().path("partitions").fields().forEachRemaining(p -> partitions.put(p.getKey(), p.getValue().asLong()));
            out.put(f.getKey(), new Resources(f.getValue().path("accelerators").asLong(), f.getValue().path("milliVcpu").asLong(),
                    f.getValue().path("memoryMiB").asLong(), partitions));
        });
        return out;
    }
}
