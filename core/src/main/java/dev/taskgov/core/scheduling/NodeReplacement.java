package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PlacementResult;
import dev.taskgov.core.topology.PodSetPlacement;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What a failed node (not ready, or gone) does to the admitted workloads that had pods on it, kept
 * apart from the scheduling cycle as Kueue keeps its node-failure handling apart from its scheduler:
 * their pods there release the node ({@link #detachPodsOn}), then each workload either gets those
 * pods placed again in the domain that held the node or is to be evicted ({@link #replace}). The
 * scheduler carries out the evictions (they requeue the workload), one workload at a time in
 * admission order, so that an eviction's freed room is there for the next workload's replacement.
 */
final class NodeReplacement {

    /** What becomes of one workload that lost pods. */
    sealed interface Outcome {
    }

    /** Its lost pods were placed again; {@code decision} reports its whole new placement. */
    record Replaced(Decision.Admit decision) implements Outcome {
    }

    /** No room for its lost pods: it is to be evicted as {@code victim} (nothing changed yet). */
    record Lost(Victim victim) implements Outcome {
    }

    private final ClusterCache cache;

    NodeReplacement(ClusterCache cache) {
        this.cache = cache;
    }

    /** The admitted workloads with pods on a node, in admission order, with those pods released. */
    List<WorkloadEntry> detachPodsOn(Node node, Function<String, WorkloadEntry> entries) {
        List<WorkloadEntry> affected = new ArrayList<>();
        for (String team : cache.teamsRunning()) {
            for (RunningWorkload r : cache.running(team)) {
                WorkloadEntry e = entries.apply(r.id());
                if (e.placement().podSets().stream().anyMatch(p -> p.podsPerNode().containsKey(node.name()))) affected.add(e);
            }
        }
        affected.sort(Comparator.comparingLong(WorkloadEntry::admissionSeq));
        for (WorkloadEntry e : affected) cache.detachFromNode(e, node.name());
        return affected;
    }

    /**
     * Places the pods {@code e} lost on {@code failed} again within their domain (the replacement
     * then holds its nodes), or says it is to be evicted ({@link PreemptionReason#NodeFailure}).
     * {@code what} says what happened to the node.
     */
    Outcome replace(WorkloadEntry e, Node failed, String what, Instant now) {
        List<Integer> lostIndexes = new ArrayList<>();
        List<PodSetRequest> lost = new ArrayList<>();
        for (int i = 0; i < e.workload().podSets().size(); i++) {
            PodSetRequest ps = e.workload().podSets().get(i);
            int missing = ps.count() - e.placement().podSets().get(i).podCount();
            if (missing > 0) {
                lostIndexes.add(i);
                lost.add(replacementOf(ps, missing, failed));
            }
        }
        PlacementResult result = cache.topology().place(lost);
        if (result instanceof PlacementResult.Placed p) {
            return new Replaced(replacePlacement(e, lostIndexes, p.placement(), now,
                    what + "; its pods there moved to " + nodesOf(p.placement())));
        }
        PlacementResult.NoFit noFit = (PlacementResult.NoFit) result;
        PodSetRequest ps = e.workload().podSets().stream().filter(x -> x.name().equals(noFit.podSet())).findFirst().orElseThrow();
        PodSetRequest pods = lost.stream().filter(x -> x.name().equals(noFit.podSet())).findFirst().orElseThrow();
        String where = ps.topology().mode() == TopologyRequest.Mode.NONE ? "anywhere in the cluster"
                : "inside its " + ps.topology().level() + " domain " + failed.levelValue(ps.topology().level());
        return new Lost(new Victim(e.id(), e.team(), PreemptionReason.NodeFailure, what + "; the "
                + Amounts.count(pods.count(), "pod", "pods") + " of pod set " + ps.name() + " on it "
                + (pods.count() == 1 ? "finds" : "find") + " no room " + where + " (room for " + noFit.fitting() + ")"));
    }

    /**
     * The pods a pod set lost, to be placed as a new placement would be, but only on nodes of the
     * domain of its required (else preferred) level that holds the failed node: a node selector on
     * that domain's path from layer-1 down (levels the failed node has no label for are left out,
     * as a selector cannot ask for an empty value). A pod set without topology may go anywhere.
     */
    private static PodSetRequest replacementOf(PodSetRequest ps, int count, Node failed) {
        Map<String, String> selector = new TreeMap<>(ps.nodeSelector());
        if (ps.topology().mode() != TopologyRequest.Mode.NONE) {
            int depth = TopologyLevels.indexOf(ps.topology().level());
            for (String level : TopologyLevels.ALL.subList(0, depth + 1)) {
                String value = failed.levelValue(level);
                if (!value.isEmpty()) selector.put(level, value);
            }
        }
        return new PodSetRequest(ps.name(), count, ps.instanceType(), ps.perPod(), TopologyRequest.NONE, selector);
    }

    /**
     * The workload keeps running on its other nodes plus the replacement pods: its new whole
     * placement is reported as NodeReplaced. Its quota, borrowing and admission order do not change.
     *
     * @param lostIndexes the pod sets (indexes in the workload) that lost pods, in order
     * @param replacement where their lost pods go, one pod set per index
     */
    private Decision.Admit replacePlacement(WorkloadEntry e, List<Integer> lostIndexes, Placement replacement, Instant now,
                                            String because) {
        List<PodSetRequest> lostRequests = new ArrayList<>();
        List<PodSetPlacement> merged = new ArrayList<>(e.placement().podSets());
        for (int r = 0; r < lostIndexes.size(); r++) {
            int i = lostIndexes.get(r);
            lostRequests.add(e.workload().podSets().get(i));
            merged.set(i, merged.get(i).plus(replacement.podSets().get(r)));
        }
        cache.reserveReplacement(e, lostRequests, replacement, new Placement(merged));
        return new Decision.Admit(e.id(), e.team(), e.placement(), e.borrowed(), now, because);
    }

    /** "n3 (1 pod), n4 (2 pods)": where replacement pods went. */
    private static String nodesOf(Placement placement) {
        Map<String, Integer> pods = new TreeMap<>();
        placement.podSets().forEach(p -> p.podsPerNode().forEach((n, c) -> pods.merge(n, c, Integer::sum)));
        List<String> out = new ArrayList<>();
        pods.forEach((n, c) -> out.add(n + " (" + c + (c == 1 ? " pod)" : " pods)")));
        return String.join(", ", out);
    }
}
