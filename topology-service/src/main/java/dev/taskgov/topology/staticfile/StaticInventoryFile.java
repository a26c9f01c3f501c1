package dev.taskgov.topology.staticfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.topology.model.NodeRecordCodec;

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
        ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml") ? new ObjectMapper(new YAMLFactory()) : new ObjectMapper();
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
        Map<String, Resources> types = new TreeMap<>();
        JsonNode typesNode = root.get("instanceTypes");
        if (typesNode != null && !typesNode.isNull()) {
            if (!typesNode.isObject()) {
                throw new IllegalArgumentException("$.instanceTypes must be an object keyed by instance type");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = typesNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                types.put(e.getKey(), NodeRecordCodec.resourcesFromJson(e.getValue(), "$.instanceTypes." + e.getKey(), Resources.ZERO));
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
            Node node = NodeRecordCodec.fromTree(nodesNode.get(i), path, types);
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
}
