package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PodSetPlacement;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload was admitted (value of {@code taskgov.workload.admitted}).
 *
 * @param borrowed per instance type, what this workload takes above its team's nominal quota
 * @param podSets  where each pod set's pods go (always the whole placement)
 * @param reason   null for an admission; {@link #NODE_REPLACED} when a running workload's pods on a
 *                 failed node were moved and this is its new placement (left out of the JSON when null)
 * @param clusterArn the workload's cluster (left out for the unnamed cluster of a deployment whose records name none)
 */
public record WorkloadAdmitted(String workloadId, String team, Instant admittedAt, Map<String, ResourceAmounts> borrowed,
                               List<AdmittedPodSet> podSets, @JsonInclude(JsonInclude.Include.NON_NULL) String reason,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String clusterArn) implements InCluster {

    /** An admission or new placement in no named cluster. */
    public WorkloadAdmitted(String workloadId, String team, Instant admittedAt, Map<String, ResourceAmounts> borrowed,
                            List<AdmittedPodSet> podSets, String reason) {
        this(workloadId, team, admittedAt, borrowed, podSets, reason, null);
    }

    /** A copy in a cluster (null: none named). */
    public WorkloadAdmitted withClusterArn(String cluster) {
        return new WorkloadAdmitted(workloadId, team, admittedAt, borrowed, podSets, reason, cluster);
    }

    /** The {@link #reason} of a new placement after a node failure (docs/semantics.md, "A changing cluster"). */
    public static final String NODE_REPLACED = "NodeReplaced";

    /** An admission (no reason). */
    public WorkloadAdmitted(String workloadId, String team, Instant admittedAt, Map<String, ResourceAmounts> borrowed,
                            List<AdmittedPodSet> podSets) {
        this(workloadId, team, admittedAt, borrowed, podSets, null);
    }

    /** True when this is a running workload's new placement after a node failure, not an admission. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isNodeReplacement() {
        return NODE_REPLACED.equals(reason);
    }

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.admitted";


    /** One pod set's placement; {@code domain} is null when it asked for no topology or spread over several. */
    public record AdmittedPodSet(String name, String instanceType, Domain domain, List<NodeCount> nodes) {
    }

    /** A topology domain: level label and value. */
    public record Domain(String level, String value) {
    }

    /** Pods on one node. */
    public record NodeCount(String name, int count) {
    }

    /** Builds the event from a placement and the borrowed amounts (zero amounts left out). */
    public static WorkloadAdmitted of(String workloadId, String team, Instant admittedAt, Map<String, Resources> borrowed,
                                      Placement placement) {
        return of(workloadId, team, admittedAt, borrowed, placement, null);
    }

    /** Like {@link #of(String, String, Instant, Map, Placement)} with a reason ({@link #NODE_REPLACED} or null). */
    public static WorkloadAdmitted of(String workloadId, String team, Instant admittedAt, Map<String, Resources> borrowed,
                                      Placement placement, String reason) {
        Map<String, ResourceAmounts> b = new LinkedHashMap<>();
        borrowed.forEach((type, r) -> {
            if (!r.isZero()) b.put(type, ResourceAmounts.of(r));
        });
        return new WorkloadAdmitted(workloadId, team, admittedAt, b, podSets(placement), reason);
    }

    /** The placement these pod sets record (the inverse of {@link #podSets(Placement)}). */
    public static Placement placement(List<AdmittedPodSet> podSets) {
        List<PodSetPlacement> out = new ArrayList<>();
        for (AdmittedPodSet p : podSets) {
            java.util.SortedMap<String, Integer> perNode = new java.util.TreeMap<>();
            for (NodeCount n : p.nodes()) perNode.merge(n.name(), n.count(), Integer::sum);
            out.add(new PodSetPlacement(p.name(), p.instanceType(),
                    p.domain() == null ? null : new PodSetPlacement.Domain(p.domain().level(), p.domain().value()), perNode));
        }
        return new Placement(out);
    }

    /** The pod sets of a placement in event form. */
    public static List<AdmittedPodSet> podSets(Placement placement) {
        List<AdmittedPodSet> out = new ArrayList<>();
        for (PodSetPlacement p : placement.podSets()) {
            List<NodeCount> nodes = new ArrayList<>();
            p.podsPerNode().forEach((n, c) -> nodes.add(new NodeCount(n, c)));
            out.add(new AdmittedPodSet(p.name(), p.instanceType(),
                    p.domain() == null ? null : new Domain(p.domain().level(), p.domain().value()), nodes));
        }
        return out;
    }
}
