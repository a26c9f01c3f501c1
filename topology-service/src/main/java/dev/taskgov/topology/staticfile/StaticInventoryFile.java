package dev.taskgov.topology.staticfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.topology.Node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A node inventory file, JSON or YAML ({@code .yaml}/{@code .yml}), shaped like a scenario's
 * {@code cluster}: {@code {"instanceTypes": {type: {accelerators, vcpu, memoryGiB}}, "nodes": [{name,
 * instanceId?, instanceType, labels, allocatable?, ready?}]}}. A node's {@code allocatable} replaces
 * its instance type's capacity per resource given.
 */
public final class StaticInventoryFile {

    private StaticInventoryFile() {
    }

    /**
     * @throws IllegalArgumentException naming the JSON path and the rule when the file is not a valid inventory
     * @throws IOException              when it cannot be read
     */
    public static List<Node> load(Path file) throws IOException {
        String name = file.getFileName().toString().toLowerCase();
        ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml") ? new ObjectMapper(new YAMLFactory()) : EventCodec.mapper();
        JsonNode root;
        try {
            root = mapper.readTree(Files.readAllBytes(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not valid " + (mapper.getFactory() instanceof YAMLFactory ? "YAML" : "JSON")
                    + ": " + e.getOriginalMessage(), e);
        }
        return parse(root);
    }

    /** Parses an already read inventory tree. */
    public static List<Node> parse(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("$ must be an object with instanceTypes and nodes");
        }
        Map<String, InstanceType> types = new TreeMap<>();
        JsonNode typesNode = root.get("instanceTypes");
        if (typesNode != null && !typesNode.isNull()) {
            if (!typesNode.isObject()) {
                throw new IllegalArgumentException("$.instanceTypes must be an object keyed by instance type");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = typesNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = "$.instanceTypes." + e.getKey();
                ResourceAmounts capacity = read(e.getValue(), path, ResourceAmounts.class);
                try {
                    types.put(e.getKey(), new InstanceType(e.getKey(), capacity.toResources()));
                } catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException(path + ": " + ex.getMessage(), ex);
                }
            }
        }
        JsonNode nodesNode = root.get("nodes");
        if (nodesNode == null || !nodesNode.isArray()) {
            throw new IllegalArgumentException("$.nodes is required and must be an array");
        }
        List<Node> nodes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < nodesNode.size(); i++) {
            String path = "$.nodes[" + i + "]";
            Node node;
            try {
                node = read(nodesNode.get(i), path, NodeRecord.class).toValidNode(types);
            } catch (IllegalArgumentException e) {
                throw e.getMessage().startsWith(path) ? e : new IllegalArgumentException(path + ": " + e.getMessage(), e);
            }
            if (!types.isEmpty() && !types.containsKey(node.instanceType()) && !nodesNode.get(i).has("allocatable")) {
                throw new IllegalArgumentException(path + ".instanceType " + node.instanceType()
                        + " is not in $.instanceTypes and the node has no allocatable");
            }
            if (!names.add(node.name())) {
                throw new IllegalArgumentException(path + ".name " + node.name() + " appears twice");
            }
            nodes.add(node);
        }
        return nodes;
    }

    /** One part of the file read by the one codec; the error names the path from the file's root. */
    private static <T> T read(JsonNode node, String path, Class<T> type) {
        if (node == null || !node.isObject()) throw new IllegalArgumentException(path + " must be an object");
        try {
            return EventCodec.read(node, type);
        } catch (EventCodec.EventFormatException e) {
            throw new IllegalArgumentException(path + e.path().substring(1) + ": " + e.problem(), e);
        }
    }
}
