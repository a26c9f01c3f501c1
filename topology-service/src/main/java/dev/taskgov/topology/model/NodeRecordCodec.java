package dev.taskgov.topology.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON of a {@code taskgov.topology} record value (design.md, "A topology record"):
 * {@code {"name","instanceId","instanceType","labels":{...},"allocatable":{"accelerators","vcpu","memoryGiB"},"ready"}}.
 * Amounts are in JSON units (whole accelerators, vCPUs, GiB). The only place this module maps
 * the record, so that moving to the core's event codec is a change to this class alone.
 */
public final class NodeRecordCodec {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private NodeRecordCodec() {
    }

    /** The record value for a node; labels in key order so that equal nodes give equal bytes. */
    public static String toJson(Node node) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("name", node.name());
        if (node.instanceId() == null) {
            root.putNull("instanceId");
        } else {
            root.put("instanceId", node.instanceId());
        }
        root.put("instanceType", node.instanceType());
        ObjectNode labels = root.putObject("labels");
        new TreeMap<>(node.labels()).forEach(labels::put);
        root.set("allocatable", resourcesToJson(node.allocatable()));
        root.put("ready", node.ready());
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write node record for " + node.name(), e);
        }
    }

    /** Resources as {@code {"accelerators":8,"vcpu":192,"memoryGiB":2048}} (JSON units, every resource present). */
    public static ObjectNode resourcesToJson(Resources resources) {
        ObjectNode out = MAPPER.createObjectNode();
        for (ResourceName r : ResourceName.values()) {
            out.put(r.jsonName(), jsonAmount(resources.get(r), r));
        }
        return out;
    }

    /** A stored amount in JSON units: a whole number when exact, else a decimal. */
    public static BigDecimal jsonAmount(long stored, ResourceName name) {
        BigDecimal value = BigDecimal.valueOf(stored).divide(BigDecimal.valueOf(name.unitsPerJsonUnit()));
        return value.stripTrailingZeros().scale() <= 0 ? value.setScale(0) : value.stripTrailingZeros();
    }

    /**
     * Reads a record value.
     *
     * @throws IllegalArgumentException naming the field and the rule when the value is not a node record
     */
    public static Node fromJson(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("node record is not valid JSON: " + e.getOriginalMessage(), e);
        }
        return fromTree(root, "$");
    }

    /** Reads a node object (record value or scenario-file node) at a JSON path, for error messages. */
    public static Node fromTree(JsonNode root, String path) {
        return fromTree(root, path, Map.of());
    }

    /**
     * Reads a node object; resources missing from {@code allocatable} come from the instance type's
     * capacity in {@code instanceTypes} (the scenario-file rule), else zero.
     */
    public static Node fromTree(JsonNode root, String path, Map<String, Resources> instanceTypes) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(path + " must be an object");
        }
        String name = requiredText(root, "name", path);
        String instanceType = requiredText(root, "instanceType", path);
        JsonNode idNode = root.get("instanceId");
        String instanceId = idNode == null || idNode.isNull() ? null : text(idNode, path + ".instanceId");
        Map<String, String> labels = new TreeMap<>();
        JsonNode labelsNode = root.get("labels");
        if (labelsNode != null && !labelsNode.isNull()) {
            if (!labelsNode.isObject()) {
                throw new IllegalArgumentException(path + ".labels must be an object of strings");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = labelsNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                labels.put(e.getKey(), text(e.getValue(), path + ".labels." + e.getKey()));
            }
        }
        Resources base = instanceTypes.getOrDefault(instanceType, Resources.ZERO);
        Resources allocatable = resourcesFromJson(root.get("allocatable"), path + ".allocatable", base);
        JsonNode readyNode = root.get("ready");
        boolean ready = true;
        if (readyNode != null && !readyNode.isNull()) {
            if (!readyNode.isBoolean()) {
                throw new IllegalArgumentException(path + ".ready must be true or false");
            }
            ready = readyNode.booleanValue();
        }
        return new Node(name, instanceId, instanceType, labels, allocatable, ready);
    }

    /** Resources in JSON units; each resource present replaces the one in {@code base}. */
    public static Resources resourcesFromJson(JsonNode node, String path, Resources base) {
        if (node == null || node.isNull()) {
            return base;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(path + " must be an object of accelerators, vcpu, memoryGiB");
        }
        Resources out = base;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ResourceName name = ResourceName.fromJsonName(e.getKey());
            String fieldPath = path + "." + e.getKey();
            if (name == null) {
                throw new IllegalArgumentException(fieldPath + " is not a resource; use accelerators, vcpu or memoryGiB");
            }
            if (!e.getValue().isNumber()) {
                throw new IllegalArgumentException(fieldPath + " must be a number");
            }
            BigDecimal value = e.getValue().decimalValue();
            if (value.signum() < 0) {
                throw new IllegalArgumentException(fieldPath + " must not be negative, was " + value.toPlainString());
            }
            Resources one = Resources.ofJsonUnits(
                    name == ResourceName.ACCELERATORS ? value : null,
                    name == ResourceName.VCPU ? value : null,
                    name == ResourceName.MEMORY ? value : null);
            out = out.with(name, one.get(name));
        }
        return out;
    }

    private static String requiredText(JsonNode root, String field, String path) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException(path + "." + field + " is required");
        }
        String s = text(v, path + "." + field);
        if (s.isBlank()) {
            throw new IllegalArgumentException(path + "." + field + " must not be blank");
        }
        return s;
    }

    private static String text(JsonNode v, String path) {
        if (!v.isTextual()) {
            throw new IllegalArgumentException(path + " must be a string");
        }
        return v.textValue();
    }
}
