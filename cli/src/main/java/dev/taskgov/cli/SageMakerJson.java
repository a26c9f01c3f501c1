package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaConfig;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaTarget;
import software.amazon.awssdk.services.sagemaker.model.PriorityClass;
import software.amazon.awssdk.services.sagemaker.model.ResourceSharingConfig;
import software.amazon.awssdk.services.sagemaker.model.SchedulerConfig;
import software.amazon.awssdk.services.sagemaker.model.Tag;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Between the SageMaker API's JSON shapes (PascalCase, as {@code aws sagemaker ... --cli-input-json}
 * takes them) and the AWS SDK's model: requests are read field by field with errors naming the field;
 * responses are written from the SDK's own field list.
 */
final class SageMakerJson {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SageMakerJson() {
    }

    /** {@code --cli-input-json}: {@code file://path}, a path, or the JSON itself. */
    static ObjectNode input(String value) {
        if (value == null) return NODES.objectNode();
        String text = value.strip();
        try {
            if (text.startsWith("file://")) text = Files.readString(Path.of(text.substring("file://".length())));
            else if (!text.startsWith("{")) text = Files.readString(Path.of(text));
        } catch (NoSuchFileException e) {
            throw CliException.invalid("--cli-input-json: no such file: " + e.getFile());
        } catch (IOException e) {
            throw CliException.invalid("--cli-input-json: cannot read: " + e.getMessage());
        }
        try {
            JsonNode n = EventCodec.mapper().readTree(text);
            if (!(n instanceof ObjectNode o)) throw CliException.invalid("--cli-input-json: must be a JSON object");
            return o;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw CliException.invalid("--cli-input-json: not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** An SDK response (or any model object) as the API's JSON. */
    static JsonNode toJson(Object value) {
        if (value == null) return NODES.nullNode();
        if (value instanceof SdkPojo pojo) {
            ObjectNode o = NODES.objectNode();
            for (SdkField<?> f : pojo.sdkFields()) {
                Object v = f.getValueOrDefault(pojo);
                if (v == null) continue;
                if (v instanceof Collection<?> c && c.isEmpty() && isAutoConstruct(c)) continue;
                o.set(f.locationName(), toJson(v));
            }
            return o;
        }
        if (value instanceof Collection<?> c) {
            ArrayNode a = NODES.arrayNode();
            c.forEach(v -> a.add(toJson(v)));
            return a;
        }
        if (value instanceof Map<?, ?> m) {
            ObjectNode o = NODES.objectNode();
            m.forEach((k, v) -> o.set(String.valueOf(k), toJson(v)));
            return o;
        }
        if (value instanceof Instant i) return NODES.textNode(i.toString());
        if (value instanceof Integer i) return NODES.numberNode(i);
        if (value instanceof Long l) return NODES.numberNode(l);
        if (value instanceof Float f) return NODES.numberNode(new java.math.BigDecimal(Float.toString(f)));
        if (value instanceof Double d) return NODES.numberNode(d);
        if (value instanceof Boolean b) return NODES.booleanNode(b);
        return NODES.textNode(value.toString());
    }

    private static boolean isAutoConstruct(Collection<?> c) {
        return c instanceof software.amazon.awssdk.core.util.SdkAutoConstructList<?>;
    }

    /**
     * Members of the current SageMaker API that the AWS SDK this client is built with does not model,
     * so it cannot send them: refused with the way to send them instead of being dropped.
     */
    private static final Map<String, String> NOT_IN_THIS_SDK = Map.of(
            "AbsoluteBorrowLimits", "aws sagemaker create-compute-quota / update-compute-quota --endpoint-url <quota-service>",
            "IdleResourceSharing", "aws sagemaker create-cluster-scheduler-config / update-cluster-scheduler-config --endpoint-url <quota-service>");

    /**
     * Refuses a member the operation's shape does not define, naming its path and the known members
     * (as the aws CLI does with --cli-input-json), instead of dropping it.
     */
    static void onlyKnown(JsonNode n, String path, String... known) {
        if (n == null || !n.isObject()) return;
        List<String> names = List.of(known);
        n.fieldNames().forEachRemaining(name -> {
            if (names.contains(name)) return;
            if (NOT_IN_THIS_SDK.containsKey(name)) {
                throw CliException.invalid(path + "." + name + ": quota-service accepts it, but the AWS SDK taskgov is built with"
                        + " cannot send it; use " + NOT_IN_THIS_SDK.get(name));
            }
            String hint = names.stream().filter(k -> k.equalsIgnoreCase(name)).findFirst().map(k -> " (did you mean " + k + "?)").orElse("");
            throw CliException.invalid(path + "." + name + ": unknown member" + hint + "; must be one of: " + String.join(", ", names));
        });
    }

    static ComputeQuotaConfig computeQuotaConfig(JsonNode n, String path) {
        if (n == null || n.isNull()) return null;
        object(n, path);
        onlyKnown(n, path, "ComputeQuotaResources", "ResourceSharingConfig", "PreemptTeamTasks");
        ComputeQuotaConfig.Builder b = ComputeQuotaConfig.builder();
        JsonNode resources = n.get("ComputeQuotaResources");
        if (resources != null) {
            if (!resources.isArray()) throw CliException.invalid(path + ".ComputeQuotaResources: must be a list");
            List<ComputeQuotaResourceConfig> list = new ArrayList<>();
            for (int i = 0; i < resources.size(); i++) {
                JsonNode r = resources.get(i);
                String p = path + ".ComputeQuotaResources[" + i + "]";
                object(r, p);
                onlyKnown(r, p, "InstanceType", "Count", "Accelerators", "VCpu", "MemoryInGiB");
                list.add(ComputeQuotaResourceConfig.builder()
                        .instanceType(text(r, "InstanceType", p))
                        .count(integer(r, "Count", p))
                        .accelerators(integer(r, "Accelerators", p))
                        .vCpu(decimal(r, "VCpu", p))
                        .memoryInGiB(decimal(r, "MemoryInGiB", p))
                        .build());
            }
            b.computeQuotaResources(list);
        }
        JsonNode sharing = n.get("ResourceSharingConfig");
        if (sharing != null && !sharing.isNull()) {
            String p = path + ".ResourceSharingConfig";
            object(sharing, p);
            onlyKnown(sharing, p, "Strategy", "BorrowLimit");
            b.resourceSharingConfig(ResourceSharingConfig.builder()
                    .strategy(text(sharing, "Strategy", p)).borrowLimit(integer(sharing, "BorrowLimit", p)).build());
        }
        b.preemptTeamTasks(text(n, "PreemptTeamTasks", path));
        return b.build();
    }

    static ComputeQuotaTarget computeQuotaTarget(JsonNode n, String path) {
        if (n == null || n.isNull()) return null;
        object(n, path);
        onlyKnown(n, path, "TeamName", "FairShareWeight");
        return ComputeQuotaTarget.builder().teamName(text(n, "TeamName", path)).fairShareWeight(integer(n, "FairShareWeight", path)).build();
    }

    static SchedulerConfig schedulerConfig(JsonNode n, String path) {
        if (n == null || n.isNull()) return null;
        object(n, path);
        onlyKnown(n, path, "PriorityClasses", "FairShare");
        SchedulerConfig.Builder b = SchedulerConfig.builder();
        JsonNode classes = n.get("PriorityClasses");
        if (classes != null) {
            if (!classes.isArray()) throw CliException.invalid(path + ".PriorityClasses: must be a list");
            List<PriorityClass> list = new ArrayList<>();
            for (int i = 0; i < classes.size(); i++) {
                String p = path + ".PriorityClasses[" + i + "]";
                object(classes.get(i), p);
                onlyKnown(classes.get(i), p, "Name", "Weight");
                list.add(PriorityClass.builder().name(text(classes.get(i), "Name", p)).weight(integer(classes.get(i), "Weight", p)).build());
            }
            b.priorityClasses(list);
        }
        return b.fairShare(text(n, "FairShare", path)).build();
    }

    static List<Tag> tags(JsonNode n, String path) {
        if (n == null || n.isNull()) return null;
        if (!n.isArray()) throw CliException.invalid(path + ": must be a list of {Key, Value}");
        List<Tag> tags = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            String p = path + "[" + i + "]";
            onlyKnown(n.get(i), p, "Key", "Value");
            tags.add(Tag.builder().key(text(n.get(i), "Key", p)).value(text(n.get(i), "Value", p)).build());
        }
        return tags;
    }

    static String text(JsonNode n, String field, String path) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) throw CliException.invalid(path + "." + field + ": must be a string, was " + v);
        return v.asText();
    }

    static Integer integer(JsonNode n, String field, String path) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isIntegralNumber() || !v.canConvertToInt()) throw CliException.invalid(path + "." + field + ": must be a whole number, was " + v);
        return v.asInt();
    }

    static Float decimal(JsonNode n, String field, String path) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isNumber()) throw CliException.invalid(path + "." + field + ": must be a number, was " + v);
        return v.floatValue();
    }

    private static void object(JsonNode n, String path) {
        if (n == null || !n.isObject()) throw CliException.invalid(path + ": must be an object");
    }
}
