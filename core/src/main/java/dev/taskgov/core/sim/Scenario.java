package dev.taskgov.core.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.ComputeQuotaTranslator;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.SchedulerConfigTranslator;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A parsed, valid scenario file (see docs/semantics.md, "Scenario files").
 *
 * @param instanceTypes  by name
 * @param nodes          in file order, allocatable filled in from the instance types
 * @param quotas         the compute quotas, checked against the cluster's capacity
 * @param steps          the steps in order: submit, finish, node, removeNode, quota, deleteQuota,
 *                       schedulerConfig, expect
 */
public record Scenario(String name, String description, Map<String, InstanceType> instanceTypes, List<Node> nodes,
                       SchedulerConfig schedulerConfig, List<TeamQuota> quotas, List<Step> steps,
                       WaitForPodsReady waitForPodsReady) {

    /** Without gang admission. */
    public Scenario(String name, String description, Map<String, InstanceType> instanceTypes, List<Node> nodes,
                    SchedulerConfig schedulerConfig, List<TeamQuota> quotas, List<Step> steps) {
        this(name, description, instanceTypes, nodes, schedulerConfig, quotas, steps, null);
    }

    /** One step of a scenario; {@code index} is its position in {@code $.steps}. */
    public sealed interface Step {
        int index();
    }

    /** Submit a workload ({@code submittedAt} defaults to the step's virtual time). */
    public record Submit(int index, WorkloadSubmitted workload) implements Step {
    }

    /**
     * Finish a workload: {@code {"finish": "id"}} (Succeeded) or {@code {"finish": {"workloadId": "id",
     * "outcome": "Failed"}}}, the value of {@code taskgov.workload.finished}. A Failed finish of a running
     * workload with retries left ({@code taskgov.dev/max-retry}) queues it again instead.
     */
    public record Finish(int index, String workloadId, WorkloadFinished.Outcome outcome) implements Step {
        public Finish {
            if (outcome == null) outcome = WorkloadFinished.Outcome.Succeeded;
        }
    }

    /** Add a node or replace it (e.g. {@code "ready": false}: the node fails). */
    public record NodeChange(int index, Node node) implements Step {
    }

    /** A node leaves the cluster (a tombstone on {@code taskgov.topology}). */
    public record RemoveNode(int index, String nodeName) implements Step {
    }

    /** Create a team's compute quota or replace it (a CreateComputeQuota body; may be {@code ActivationState: Disabled}). */
    public record QuotaChange(int index, TeamQuota quota) implements Step {
    }

    /** Delete a team's compute quota. */
    public record DeleteQuota(int index, String team) implements Step {
    }

    /** Replace the cluster scheduler config (priority classes, FairShare). */
    public record ConfigChange(int index, SchedulerConfig config) implements Step {
    }

    /** Gang admission: every pod of a running workload is ready. */
    public record PodsReady(int index, String workloadId) implements Step {
    }

    /** Virtual time moves on by exactly {@code by} (not the usual second); timers due meanwhile fire in time order. */
    public record Advance(int index, java.time.Duration by) implements Step {
    }

    /**
     * Check the state.
     *
     * @param admitted                 ids that must be admitted
     * @param pending                  ids that must be pending
     * @param finished                 ids that must be finished (succeeded, cancelled, or failed for good)
     * @param preemptedSinceLastExpect exact set of victims since the previous expect, or null (not checked)
     * @param placements               workload to pod set to node to pod count (0 = absent)
     */
    public record Expect(int index, List<String> admitted, List<String> pending, List<String> finished,
                         List<String> preemptedSinceLastExpect, Map<String, Map<String, Map<String, Integer>>> placements)
            implements Step {
    }

    /** Reads and validates a scenario file. */
    public static Scenario read(Path file) {
        JsonNode root;
        try {
            root = EventCodec.mapper().readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new ScenarioException("$", "not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        } catch (IOException e) {
            throw new ScenarioException("$", "cannot read " + file + ": " + e.getMessage());
        }
        return parse(root);
    }

    /**
     * Validates a scenario's structure; the first problem found is thrown with its JSON path. A
     * submission that is well-formed JSON but breaks a workload rule (a count below 1, negative
     * requests, an unknown topology level, both required and preferred topology, duplicate pod
     * set names) is not a file error: it replays and the scheduler rejects it with its reason.
     *
     * @throws ScenarioException e.g. {@code $.steps[3].submit.podSets[0].count: ...} for a count that is not a number
     */
    public static Scenario parse(JsonNode root) {
        if (root == null || !root.isObject()) throw new ScenarioException("$", "must be a JSON object");
        String name = root.path("name").asText(null);
        String description = root.path("description").asText(null);
        Map<String, InstanceType> types = instanceTypes(root.path("cluster"));
        List<Node> nodes = nodes(root.path("cluster").get("nodes"), types);
        SchedulerConfig config;
        try {
            config = root.hasNonNull("schedulerConfig") ? schedulerConfig(root.get("schedulerConfig")) : SchedulerConfig.DEFAULT;
        } catch (ValidationException e) {
            throw at("$.schedulerConfig", e.violations().get(0));
        }
        List<TeamQuota> quotas = quotas(root.get("computeQuotas"), types, nodes);
        List<Step> steps = steps(root.get("steps"), types, nodes, quotas);
        return new Scenario(name == null ? "" : name, description, types, nodes, config, quotas, steps,
                waitForPodsReady(root.get("waitForPodsReady")));
    }

    /**
     * {@code "waitForPodsReady": {"timeout": "PT5M", "backoffBaseSeconds": 60, "backoffMaxSeconds": 3600,
     * "backoffLimitCount": 3}}: gang admission on (absent: off); every member but the timeout has Kueue's default.
     */
    private static WaitForPodsReady waitForPodsReady(JsonNode v) {
        if (v == null || v.isNull()) return null;
        String path = "$.waitForPodsReady";
        if (!v.isObject()) throw new ScenarioException(path, "must be an object (timeout, backoffBaseSeconds, backoffMaxSeconds, backoffLimitCount)");
        for (Iterator<String> names = v.fieldNames(); names.hasNext(); ) {
            String n = names.next();
            if (!Set.of("timeout", "backoffBaseSeconds", "backoffMaxSeconds", "backoffLimitCount").contains(n)) {
                throw new ScenarioException(path + "." + n, "unknown member; use timeout, backoffBaseSeconds, backoffMaxSeconds or backoffLimitCount");
            }
        }
        java.time.Duration timeout = v.has("timeout") ? duration(v.get("timeout"), path + ".timeout") : WaitForPodsReady.DEFAULT_TIMEOUT;
        java.time.Duration base = v.has("backoffBaseSeconds") ? seconds(v.get("backoffBaseSeconds"), path + ".backoffBaseSeconds")
                : WaitForPodsReady.DEFAULT_BACKOFF_BASE;
        java.time.Duration max = v.has("backoffMaxSeconds") ? seconds(v.get("backoffMaxSeconds"), path + ".backoffMaxSeconds")
                : WaitForPodsReady.DEFAULT_BACKOFF_MAX;
        Integer limit = null;
        if (v.hasNonNull("backoffLimitCount")) {
            if (!v.get("backoffLimitCount").canConvertToInt()) throw new ScenarioException(path + ".backoffLimitCount", "must be a whole number");
            limit = v.get("backoffLimitCount").asInt();
        }
        try {
            return new WaitForPodsReady(timeout, base, max, limit);
        } catch (ValidationException e) {
            throw at(path, e.violations().get(0));
        }
    }

    private static java.time.Duration duration(JsonNode v, String path) {
        try {
            java.time.Duration d = java.time.Duration.parse(text(v, path, "an ISO-8601 duration such as PT5M"));
            if (d.isNegative() || d.isZero()) throw new ScenarioException(path, "must be a positive duration, was " + v.asText());
            return d;
        } catch (java.time.format.DateTimeParseException e) {
            throw new ScenarioException(path, "must be an ISO-8601 duration such as PT5M, was '" + v.asText() + "'");
        }
    }

    private static java.time.Duration seconds(JsonNode v, String path) {
        if (v == null || !v.canConvertToLong() || v.asLong() < 0) throw new ScenarioException(path, "must be a whole number of seconds, 0 or more");
        return java.time.Duration.ofSeconds(v.asLong());
    }

    private static ScenarioException at(String prefix, Violation v) {
        return new ScenarioException(v.field().startsWith("$") ? v.field() : prefix + "." + v.field(), v.rule());
    }

    private static Map<String, InstanceType> instanceTypes(JsonNode cluster) {
        JsonNode it = cluster.get("instanceTypes");
        if (it == null || !it.isObject()) throw new ScenarioException("$.cluster.instanceTypes", "is required (an object by instance type name)");
        Map<String, InstanceType> out = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = it.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            String path = "$.cluster.instanceTypes." + f.getKey();
            out.put(f.getKey(), new InstanceType(f.getKey(), amounts(f.getValue(), path)));
        }
        return out;
    }

    private static Resources amounts(JsonNode node, String path) {
        ResourceAmounts a;
        try {
            a = EventCodec.read(node, ResourceAmounts.class);
        } catch (EventCodec.EventFormatException e) {
            throw new ScenarioException(path + e.path().substring(1), e.problem());
        }
        check(path + ".accelerators", a.accelerators());
        check(path + ".vcpu", a.vcpu());
        check(path + ".memoryGiB", a.memoryGiB());
        a.partitionViolations(path).stream().findFirst().ifPresent(v -> { throw new ScenarioException(v.field(), v.rule()); });
        return a.toResources();
    }

    private static void check(String path, java.math.BigDecimal d) {
        if (d != null && d.signum() < 0) throw new ScenarioException(path, "must not be negative, was " + d.toPlainString());
    }

    private static List<Node> nodes(JsonNode list, Map<String, InstanceType> types) {
        if (list == null || !list.isArray()) throw new ScenarioException("$.cluster.nodes", "is required (a list of nodes)");
        List<Node> out = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String path = "$.cluster.nodes[" + i + "]";
            Node n = node(list.get(i), path, types);
            if (!names.add(n.name())) throw new ScenarioException(path + ".name", "duplicate node name '" + n.name() + "'");
            out.add(n);
        }
        return out;
    }

    /** One node record (of the cluster, or of a node step), allocatable filled in from its instance type. */
    private static Node node(JsonNode json, String path, Map<String, InstanceType> types) {
        if (json == null || !json.isObject()) throw new ScenarioException(path, "must be a node record object");
        NodeRecord r;
        try {
            r = EventCodec.read(json, NodeRecord.class);
        } catch (EventCodec.EventFormatException e) {
            throw new ScenarioException(path + e.path().substring(1), e.problem());
        }
        if (r.name() == null || r.name().isBlank()) throw new ScenarioException(path + ".name", "is required");
        if (r.instanceType() == null || !types.containsKey(r.instanceType())) {
            throw new ScenarioException(path + ".instanceType", "unknown instance type '" + r.instanceType() + "'");
        }
        if (r.allocatable() != null) amounts(json.get("allocatable"), path + ".allocatable");
        return r.toNode(types);
    }

    private static List<TeamQuota> quotas(JsonNode list, Map<String, InstanceType> types, List<Node> nodes) {
        List<TeamQuota> out = new ArrayList<>();
        if (list == null || list.isNull()) return out;
        if (!list.isArray()) throw new ScenarioException("$.computeQuotas", "must be a list of CreateComputeQuota bodies");
        Map<String, TeamQuota> byTeam = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            String path = "$.computeQuotas[" + i + "]";
            TeamQuota q = quota(list.get(i), path, types);
            if (byTeam.containsKey(q.team())) {
                throw new ScenarioException(path + ".ComputeQuotaTarget.TeamName", "team '" + q.team() + "' already has a compute quota");
            }
            byTeam.put(q.team(), q);
            checkCapacity(byTeam, nodes, path);
            out.add(q);
        }
        return out;
    }

    /** A scheduler config of the file, by the one translator of scheduler config records. */
    private static SchedulerConfig schedulerConfig(JsonNode v) {
        return SchedulerConfigTranslator.translate(EventCodec.bytes(v)).orThrow();
    }

    private static TeamQuota quota(JsonNode body, String path, Map<String, InstanceType> types) {
        try {
            return ComputeQuotaTranslator.translate(EventCodec.bytes(body), types).orThrow();
        } catch (ValidationException e) {
            throw at(path, e.violations().get(0));
        }
    }

    /** Seed 001's rule as quota-service applies it to a create or update: active quotas within the ready nodes' capacity. */
    private static void checkCapacity(Map<String, TeamQuota> quotas, Collection<Node> nodes, String path) {
        List<Violation> over = ComputeQuotas.checkCapacity(quotas.values(), ComputeQuotas.clusterCapacity(nodes));
        if (!over.isEmpty()) throw at(path, over.get(0));
    }

    private static final String STEP_KINDS = "submit, finish, node, removeNode, quota, deleteQuota, schedulerConfig, podsReady, advance, expect";

    /**
     * The steps. The cluster's nodes and quotas are followed through the steps so that a quota
     * step is checked as quota-service would check it at that point (against the nodes ready then),
     * and a deleteQuota names a team that has a quota then.
     */
    private static List<Step> steps(JsonNode list, Map<String, InstanceType> types, List<Node> initialNodes,
                                    List<TeamQuota> initialQuotas) {
        if (list == null || !list.isArray()) throw new ScenarioException("$.steps", "is required (a list of steps)");
        Map<String, Node> nodes = new LinkedHashMap<>();
        initialNodes.forEach(n -> nodes.put(n.name(), n));
        Map<String, TeamQuota> quotas = new LinkedHashMap<>();
        initialQuotas.forEach(q -> quotas.put(q.team(), q));
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String path = "$.steps[" + i + "]";
            JsonNode s = list.get(i);
            if (s == null || !s.isObject() || s.size() != 1) {
                throw new ScenarioException(path, "must be an object with exactly one of " + STEP_KINDS);
            }
            String kind = s.fieldNames().next();
            JsonNode v = s.get(kind);
            String vp = path + "." + kind;
            switch (kind) {
                case "submit" -> out.add(submit(i, v, vp));
                case "finish" -> out.add(finish(i, v, vp));
                case "expect" -> out.add(expect(i, v, vp));
                case "node" -> {
                    Node n = node(v, vp, types);
                    nodes.put(n.name(), n);
                    out.add(new NodeChange(i, n));
                }
                case "removeNode" -> {
                    String name = text(v, vp, "a node name");
                    nodes.remove(name);
                    out.add(new RemoveNode(i, name));
                }
                case "quota" -> {
                    if (v == null || !v.isObject()) throw new ScenarioException(vp, "must be a CreateComputeQuota body");
                    TeamQuota q = quota(v, vp, types);
                    quotas.put(q.team(), q);
                    checkCapacity(quotas, nodes.values(), vp);
                    out.add(new QuotaChange(i, q));
                }
                case "deleteQuota" -> {
                    String team = text(v, vp, "a team name");
                    if (quotas.remove(team) == null) throw new ScenarioException(vp, "team '" + team + "' has no compute quota at this step");
                    out.add(new DeleteQuota(i, team));
                }
                case "schedulerConfig" -> {
                    if (v == null || !v.isObject()) throw new ScenarioException(vp, "must be a SchedulerConfig object");
                    try {
                        out.add(new ConfigChange(i, schedulerConfig(v)));
                    } catch (ValidationException e) {
                        throw at(vp, e.violations().get(0));
                    }
                }
                case "podsReady" -> out.add(new PodsReady(i, text(v, vp, "a workload id")));
                case "advance" -> out.add(new Advance(i, duration(v, vp)));
                default -> throw new ScenarioException(vp, "unknown step; use one of " + STEP_KINDS);
            }
        }
        return out;
    }

    private static String text(JsonNode v, String path, String what) {
        if (v == null || !v.isTextual() || v.asText().isBlank()) throw new ScenarioException(path, "must be " + what + " (a string)");
        return v.asText();
    }

    private static Finish finish(int i, JsonNode v, String path) {
        if (v == null || !v.isObject()) return new Finish(i, text(v, path, "a workload id or a WorkloadFinished object"), null);
        WorkloadFinished f;
        try {
            f = EventCodec.read(v, WorkloadFinished.class);
        } catch (EventCodec.EventFormatException e) {
            throw new ScenarioException(path + e.path().substring(1), e.problem());
        }
        text(v.get("workloadId"), path + ".workloadId", "a workload id");
        return new Finish(i, f.workloadId(), f.outcome());
    }

    private static Submit submit(int i, JsonNode node, String path) {
        if (!node.isObject()) throw new ScenarioException(path, "must be a WorkloadSubmitted object");
        WorkloadSubmitted w;
        try {
            w = EventCodec.read(node, WorkloadSubmitted.class);
        } catch (EventCodec.EventFormatException e) {
            throw new ScenarioException(path + e.path().substring(1), e.problem());
        }
        // Only what makes the step unusable is a file error: without an id no expectation can name
        // it. Every other rule (count, requests, levels, names...) is the scheduler's to enforce:
        // the submission replays and is Rejected with its reason, as the live services do.
        if (w.workloadId() == null || w.workloadId().isBlank()) throw new ScenarioException(path + ".workloadId", "is required");
        return new Submit(i, w);
    }

    private static Expect expect(int i, JsonNode node, String path) {
        if (!node.isObject()) throw new ScenarioException(path, "must be an object");
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!Set.of("admitted", "pending", "finished", "preemptedSinceLastExpect", "placements").contains(n)) {
                throw new ScenarioException(path + "." + n, "unknown expectation; use admitted, pending, finished, preemptedSinceLastExpect, placements");
            }
        }
        Map<String, Map<String, Map<String, Integer>>> placements = new LinkedHashMap<>();
        JsonNode p = node.get("placements");
        if (p != null) {
            if (!p.isObject()) throw new ScenarioException(path + ".placements", "must be an object by workload id");
            p.fields().forEachRemaining(w -> {
                Map<String, Map<String, Integer>> podSets = new LinkedHashMap<>();
                String wp = path + ".placements." + w.getKey();
                if (!w.getValue().isObject()) throw new ScenarioException(wp, "must be an object by pod set name");
                w.getValue().fields().forEachRemaining(ps -> {
                    JsonNode nodes = ps.getValue().get("nodes");
                    String np = wp + "." + ps.getKey() + ".nodes";
                    if (nodes == null || !nodes.isObject()) throw new ScenarioException(np, "is required (an object of node name to pod count)");
                    Map<String, Integer> counts = new TreeMap<>();
                    nodes.fields().forEachRemaining(n -> {
                        if (!n.getValue().canConvertToInt() || n.getValue().intValue() < 0) {
                            throw new ScenarioException(np + "." + n.getKey(), "must be a pod count >= 0");
                        }
                        if (n.getValue().intValue() > 0) counts.put(n.getKey(), n.getValue().intValue());
                    });
                    podSets.put(ps.getKey(), counts);
                });
                placements.put(w.getKey(), podSets);
            });
        }
        return new Expect(i, ids(node.get("admitted"), path + ".admitted"), ids(node.get("pending"), path + ".pending"),
                ids(node.get("finished"), path + ".finished"),
                node.has("preemptedSinceLastExpect") ? ids(node.get("preemptedSinceLastExpect"), path + ".preemptedSinceLastExpect") : null,
                placements);
    }

    private static List<String> ids(JsonNode list, String path) {
        if (list == null) return List.of();
        if (!list.isArray()) throw new ScenarioException(path, "must be a list of workload ids");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!list.get(i).isTextual()) throw new ScenarioException(path + "[" + i + "]", "must be a workload id (a string)");
            out.add(list.get(i).asText());
        }
        return out;
    }
}
