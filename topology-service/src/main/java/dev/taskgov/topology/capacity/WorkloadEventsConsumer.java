package dev.taskgov.topology.capacity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.UnreadableRecordException;
import dev.taskgov.topology.model.NodeRecordCodec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps free capacity current from the workload topics: per-pod requests from submissions, pods per
 * node from admissions, releases from finishes and preemptions. A record that does not parse is
 * refused with the field and the rule, and goes to the dead-letter topic ({@link TopologyDeadLetters}).
 */
@ApplicationScoped
public class WorkloadEventsConsumer {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Inject
    CapacityView view;

    @Incoming("workload-submitted")
    public void submitted(String value) {
        if (value == null) return;
        JsonNode root = parse(value, "workload submission");
        String id = requiredText(root, "workloadId");
        JsonNode podSets = requiredArray(root, "podSets");
        Map<String, Resources> requests = new HashMap<>();
        for (int i = 0; i < podSets.size(); i++) {
            String path = "$.podSets[" + i + "]";
            String name = requiredText(podSets.get(i), "name", path);
            requests.put(name, NodeRecordCodec.resourcesFromJson(podSets.get(i).get("requests"), path + ".requests", Resources.ZERO));
        }
        view.holds().submitted(id, requests);
        view.updateMeters();
    }

    @Incoming("workload-admitted")
    public void admitted(String value) {
        if (value == null) return;
        JsonNode root = parse(value, "workload admission");
        String id = requiredText(root, "workloadId");
        Instant admittedAt = optionalInstant(root, "admittedAt");
        JsonNode podSets = requiredArray(root, "podSets");
        List<WorkloadHolds.PodSetPlacement> placements = new ArrayList<>();
        for (int i = 0; i < podSets.size(); i++) {
            String path = "$.podSets[" + i + "]";
            JsonNode ps = podSets.get(i);
            String name = requiredText(ps, "name", path);
            Map<String, Integer> pods = new LinkedHashMap<>();
            JsonNode nodes = ps.get("nodes");
            if (nodes != null && !nodes.isNull()) {
                if (!nodes.isArray()) throw new IllegalArgumentException(path + ".nodes must be an array");
                for (int j = 0; j < nodes.size(); j++) {
                    String npath = path + ".nodes[" + j + "]";
                    String node = requiredText(nodes.get(j), "name", npath);
                    JsonNode count = nodes.get(j).get("count");
                    if (count == null || !count.canConvertToInt() || count.intValue() < 0) {
                        throw new IllegalArgumentException(npath + ".count must be a whole number >= 0");
                    }
                    pods.merge(node, count.intValue(), Integer::sum);
                }
            }
            placements.add(new WorkloadHolds.PodSetPlacement(name, pods));
        }
        view.holds().admitted(id, admittedAt, placements);
        view.updateMeters();
    }

    @Incoming("workload-finished")
    public void finished(String value) {
        if (value == null) return;
        JsonNode root = parse(value, "workload finish");
        view.holds().finished(requiredText(root, "workloadId"));
        view.updateMeters();
    }

    @Incoming("workload-preempted")
    public void preempted(String value) {
        if (value == null) return;
        JsonNode root = parse(value, "workload preemption");
        view.holds().preempted(requiredText(root, "workloadId"), optionalInstant(root, "preemptedAt"));
        view.updateMeters();
    }

    private static JsonNode parse(String value, String what) {
        try {
            JsonNode root = MAPPER.readTree(value);
            if (root == null || !root.isObject()) throw new UnreadableRecordException("$ of a " + what + " must be a JSON object");
            return root;
        } catch (JsonProcessingException e) {
            throw new UnreadableRecordException(what + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String requiredText(JsonNode node, String field) {
        return requiredText(node, field, "$");
    }

    private static String requiredText(JsonNode node, String field, String path) {
        JsonNode v = node == null ? null : node.get(field);
        if (v == null || !v.isTextual() || v.textValue().isBlank()) {
            throw new IllegalArgumentException(path + "." + field + " is required and must be a non-blank string");
        }
        return v.textValue();
    }

    private static JsonNode requiredArray(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isArray()) throw new IllegalArgumentException("$." + field + " is required and must be an array");
        return v;
    }

    private static Instant optionalInstant(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) return null;
        try {
            return Instant.parse(v.asText());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("$." + field + " must be an ISO-8601 instant such as 2026-11-30T10:00:00Z, was " + v.asText());
        }
    }
}
