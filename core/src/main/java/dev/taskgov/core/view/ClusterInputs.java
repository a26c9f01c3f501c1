package dev.taskgov.core.view;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.ComputeQuotaRequest;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The latest cluster records a decider has read (nodes from {@code taskgov.topology}, quota
 * requests and the scheduler config from {@code taskgov.quota}) and what follows from them: the
 * instance types as the nodes show them, the nodes, the teams' quotas. admission-service and
 * preemption-service each keep one, so both derive the same cluster from the same records; the
 * scheduler and the planner work on what it returns. Not thread-safe: the decider's loop owns it.
 *
 * <p>Quotas are kept as their translated requests and resolved against the current instance types, because
 * {@code Count} and the ratio defaults depend on the instances' capacities.
 */
public final class ClusterInputs {

    private final Map<String, NodeRecord> nodes = new TreeMap<>();
    private final Map<String, ComputeQuotaRequest> quotaRequests = new TreeMap<>();
    private SchedulerConfig config = SchedulerConfig.DEFAULT;
    /** Derived from the nodes; null after a node change until asked for again. */
    private Map<String, InstanceType> instanceTypes;

    /** A node record (a node added or changed). */
    public void putNode(NodeRecord node) {
        nodes.put(node.name(), node);
        instanceTypes = null;
    }

    /** A node's tombstone; returns whether it was known. */
    public boolean removeNode(String name) {
        boolean known = nodes.remove(name) != null;
        if (known) instanceTypes = null;
        return known;
    }

    /** A team's quota request as quota-service publishes it (keyed by team), translated ({@code ComputeQuotaTranslator}). */
    public void putQuota(String team, ComputeQuotaRequest request) {
        quotaRequests.put(team, request);
    }

    /** A quota's tombstone; returns whether it was known. */
    public boolean removeQuota(String team) {
        return quotaRequests.remove(team) != null;
    }

    public void setConfig(SchedulerConfig config) {
        this.config = config;
    }

    public SchedulerConfig config() {
        return config;
    }

    /** Instance types as the nodes show them: per type, the largest allocatable of its nodes. */
    public Map<String, InstanceType> instanceTypes() {
        if (instanceTypes == null) {
            Map<String, Resources> capacity = new TreeMap<>();
            for (NodeRecord n : nodes.values()) {
                Resources r = n.allocatable() == null ? Resources.ZERO : n.allocatable().toResources();
                capacity.merge(n.instanceType(), r, Resources::max);
            }
            Map<String, InstanceType> out = new LinkedHashMap<>();
            capacity.forEach((t, r) -> out.put(t, new InstanceType(t, r)));
            instanceTypes = Collections.unmodifiableMap(out);
        }
        return instanceTypes;
    }

    /** Whether any node of the cluster is known (cheaper than {@link #nodes()}, which builds every node). */
    public boolean hasNodes() {
        return !nodes.isEmpty();
    }

    /** Every node, in name order, with its instance type's capacity where it names no allocatable. */
    public List<Node> nodes() {
        Map<String, InstanceType> types = instanceTypes();
        return nodes.values().stream().map(n -> n.toNode(types)).toList();
    }

    /** One node as the scheduler sees it, or null when unknown. */
    public Node node(String name) {
        NodeRecord n = nodes.get(name);
        return n == null ? null : n.toNode(instanceTypes());
    }

    /**
     * One team's quota resolved against the current instance types.
     *
     * @throws ValidationException when the request names an instance type no node has yet, or asks accelerators of a
     *                             type without any
     */
    public TeamQuota quota(String team) {
        ComputeQuotaRequest request = quotaRequests.get(team);
        return request == null ? null : ComputeQuotas.fromRequest(request, instanceTypes());
    }

    /** Every usable quota by team; those that do not resolve (yet) are reported and left out. */
    public Map<String, TeamQuota> quotas(BiConsumer<String, ValidationException> unusable) {
        Map<String, TeamQuota> out = new TreeMap<>();
        for (String team : quotaRequests.keySet()) {
            try {
                TeamQuota q = quota(team);
                out.put(q.team(), q);
            } catch (ValidationException e) {
                unusable.accept(team, e);
            }
        }
        return out;
    }

    /** Whether a quota refusal only waits for its instance types to appear in the topology. */
    public static boolean waitsForTopology(ValidationException e) {
        return e.violations().stream().allMatch(v -> v.rule().startsWith("unknown instance type"));
    }

    /**
     * The quota books these records give, with nothing used yet: the quotas, the ready nodes'
     * capacity and the config's idle resource sharing, as admission's scheduler keeps them. A view
     * built from records (preemption's) adds its running workloads' usage to it.
     */
    public QuotaLedger ledger(Collection<TeamQuota> quotas) {
        return QuotaLedger.of(config, quotas, nodes());
    }

    /** What a new submission is checked against: these instance types, teams, classes and nodes. */
    public WorkloadValidation.Context validationContext(Map<String, TeamQuota> quotas) {
        return new WorkloadValidation.Context(instanceTypes(), quotas::containsKey, config, nodes());
    }

    /** Forgets everything (before a rebuild). */
    public void clear() {
        nodes.clear();
        quotaRequests.clear();
        config = SchedulerConfig.DEFAULT;
        instanceTypes = null;
    }
}
