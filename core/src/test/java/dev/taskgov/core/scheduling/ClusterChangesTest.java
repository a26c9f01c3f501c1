package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.topology.PodSetPlacement;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.dontLend;
import static dev.taskgov.core.scheduling.Cluster.never;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/semantics.md, "A changing cluster", one named case per rule: nodes fail,
 * leave and come back, quotas are created, shrunk, disabled and deleted, and priority classes
 * change while workloads run. Each case compares the whole result: every decision in order
 * (admissions, node replacements, evictions with their reason, preemptions) and every
 * workload's final state (with its placement, or its pending reason).
 */
class ClusterChangesTest {

    static final TopologyRequest RACK = TopologyRequest.required(TopologyLevels.LAYER_3);
    static final TopologyRequest PREFER_RACK = TopologyRequest.preferred(TopologyLevels.LAYER_3);

    record Case(String name, Cluster cluster, List<String> decisions, List<String> states) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case c(String name, Cluster cluster, List<String> decisions, List<String> states) {
        return new Case(name, cluster, decisions, states);
    }

    static Stream<Case> cases() {
        return Stream.of(
                // ------------------------------------------------------------ nodes
                c("a failed node's pod moves to a free node of the same required rack; the other pod stays",
                        Cluster.gpus(8).team("a", 8).submit("a-1", "a", 2, "training", RACK).failNode("n01"),
                        List.of("admit a-1 {n01=1, n02=1}", "replace a-1 {n02=1, n03=1}"),
                        List.of("a-1 Admitted {n02=1, n03=1}")),
                c("a node that leaves (tombstone) is replaced like a failed one",
                        Cluster.gpus(8).team("a", 8).submit("a-1", "a", 2, "training", RACK).removeNode("n02"),
                        List.of("admit a-1 {n01=1, n02=1}", "replace a-1 {n01=1, n03=1}"),
                        List.of("a-1 Admitted {n01=1, n03=1}")),
                c("no room left in the required rack: evicted (NodeFailure), requeued, and admitted again in another rack",
                        Cluster.gpus(8).team("a", 8).submit("a-1", "a", 4, "training", RACK).failNode("n01"),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "evict a-1 NodeFailure",
                                "admit a-1 {n05=1, n06=1, n07=1, n08=1}"),
                        List.of("a-1 Admitted {n05=1, n06=1, n07=1, n08=1}")),
                c("evicted by a node failure and no rack fits: it waits, pending",
                        Cluster.gpus(4).team("a", 4).submit("a-1", "a", 4, "training", RACK).failNode("n03"),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "evict a-1 NodeFailure"),
                        List.of("a-1 Pending Preempted")),
                c("preferred topology: the replacement stays inside the preferred rack, else eviction although other racks have room",
                        Cluster.gpus(8).team("a", 8).submit("a-1", "a", 4, "training", PREFER_RACK).failNode("n04"),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "evict a-1 NodeFailure",
                                "admit a-1 {n05=1, n06=1, n07=1, n08=1}"),
                        List.of("a-1 Admitted {n05=1, n06=1, n07=1, n08=1}")),
                c("a pod set without topology takes the best-fit free node anywhere in the cluster",
                        Cluster.gpus(8).team("a", 8).submit("a-1", "a", 4).submit("a-2", "a", 1).failNode("n02"),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "admit a-2 {n05=1}", "replace a-1 {n01=1, n03=1, n04=1, n06=1}"),
                        List.of("a-1 Admitted {n01=1, n03=1, n04=1, n06=1}", "a-2 Admitted {n05=1}")),
                c("workloads on a failed node are handled in admission order: the earlier takes the last free room, the later is evicted",
                        Cluster.nodes(2, 2).team("a", 4).submit("a-1", "a", 1).submit("a-2", "a", 1).submit("a-3", "a", 1)
                                .failNode("n01"),
                        List.of("admit a-1 {n01=1}", "admit a-2 {n01=1}", "admit a-3 {n02=1}", "replace a-1 {n02=1}",
                                "evict a-2 NodeFailure"),
                        List.of("a-1 Admitted {n02=1}", "a-2 Pending Preempted", "a-3 Admitted {n02=1}")),
                c("a node that is ready again is free capacity at once: the evicted workload is admitted again",
                        Cluster.nodes(2, 2).team("a", 4).submit("a-1", "a", 1).submit("a-2", "a", 1).submit("a-3", "a", 1)
                                .failNode("n01").nodeBack("n01"),
                        List.of("admit a-1 {n01=1}", "admit a-2 {n01=1}", "admit a-3 {n02=1}", "replace a-1 {n02=1}",
                                "evict a-2 NodeFailure", "admit a-2 {n01=1}"),
                        List.of("a-1 Admitted {n02=1}", "a-2 Admitted {n01=1}", "a-3 Admitted {n02=1}")),
                c("a new node is free capacity at once",
                        Cluster.gpus(2).team("a", 3).submit("a-1", "a", 3).addNode(3, 1),
                        List.of("admit a-1 {n01=1, n02=1, n03=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1, n03=1}")),
                c("a failed node without pods evicts nothing and takes no capacity of later admissions",
                        Cluster.gpus(4).team("a", 4).failNode("n01").submit("a-1", "a", 4).submit("a-2", "a", 3),
                        List.of("admit a-2 {n02=1, n03=1, n04=1}"),
                        List.of("a-1 Pending Inadmissible", "a-2 Admitted {n02=1, n03=1, n04=1}")), // 4 asked, 3 ready
                c("after an eviction by node failure, pending heads are tried again",
                        Cluster.gpus(4).team("a", 4).submit("a-1", "a", 4, "training", RACK).submit("a-2", "a", 3)
                                .failNode("n01"),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "evict a-1 NodeFailure", "admit a-2 {n02=1, n03=1, n04=1}"),
                        List.of("a-1 Pending Preempted", "a-2 Admitted {n02=1, n03=1, n04=1}")),

                // ------------------------------------------------------------ quotas
                c("disabling a quota evicts its running work (QuotaRemoved); its pending work waits with NoQuota",
                        Cluster.gpus(4).team("a", 2, dontLend()).team("b", 2).submit("a-1", "a", 2).submit("a-2", "a", 1)
                                .quota("a", 2, q -> q.withStrategy(dev.taskgov.core.model.SharingStrategy.DontLend).withActive(false)),
                        List.of("admit a-1 {n01=1, n02=1}", "evict a-1 QuotaRemoved"),
                        List.of("a-1 Pending Preempted", "a-2 Pending NoQuota")),
                c("enabling the quota again admits its waiting work",
                        Cluster.gpus(4).team("a", 2, dontLend()).team("b", 2).submit("a-1", "a", 2)
                                .quota("a", 2, q -> q.withActive(false)).quota("a", 2),
                        List.of("admit a-1 {n01=1, n02=1}", "evict a-1 QuotaRemoved", "admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}")),
                c("deleting a quota evicts its running work (QuotaRemoved); creating it again admits it",
                        Cluster.gpus(4).team("a", 2).team("b", 2).submit("a-1", "a", 2).submit("b-1", "b", 1)
                                .deleteQuota("a").quota("a", 2),
                        List.of("admit a-1 {n01=1, n02=1}", "admit b-1 {n03=1}", "evict a-1 QuotaRemoved", "admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}", "b-1 Admitted {n03=1}")),
                c("a team whose quota was deleted stays known: a new submission waits with NoQuota, then is admitted when a quota comes back",
                        Cluster.gpus(4).team("a", 2).team("b", 2).deleteQuota("a").submit("a-1", "a", 2).quota("a", 2),
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}")),
                c("a deleted quota's pending work waits with NoQuota",
                        Cluster.gpus(4).team("a", 2).team("b", 2).submit("a-1", "a", 4).deleteQuota("a"),
                        List.of(),
                        List.of("a-1 Pending NoQuota")),
                c("shrinking a quota evicts nothing: the team keeps its running work above its new limit",
                        Cluster.gpus(8).team("a", 4).team("b", 4).submit("a-1", "a", 4).submit("a-2", "a", 2).quota("a", 1),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "admit a-2 {n05=1, n06=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1, n03=1, n04=1}", "a-2 Admitted {n05=1, n06=1}")),
                // a now lends 1 and b 4: the pool of 5 cannot hold a's 6 and b's 4, so reclaiming b's
                // nominal takes both of a's workloads (a-2 cannot be restored: a would hold 2 of the 1 left)
                c("after a shrink the team counts as borrowing: another team reclaims its nominal from it",
                        Cluster.gpus(8).team("a", 4).team("b", 4).submit("a-1", "a", 4).submit("a-2", "a", 2).quota("a", 1)
                                .submit("b-1", "b", 4),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "admit a-2 {n05=1, n06=1}",
                                "preempt a-2 ReclaimLentCapacity for b-1", "preempt a-1 ReclaimLentCapacity for b-1",
                                "admit b-1 {n01=1, n02=1, n03=1, n04=1}"),
                        List.of("a-1 Pending Preempted", "a-2 Pending Preempted", "b-1 Admitted {n01=1, n02=1, n03=1, n04=1}")),
                c("after a shrink a borrowing team keeps what the pool still holds: the reclaim restores the victim it does not need",
                        Cluster.gpus(8).team("a", 4).team("b", 4).submit("a-1", "a", 4).submit("a-2", "a", 1).quota("a", 3)
                                .submit("b-1", "b", 4),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}", "admit a-2 {n05=1}",
                                "preempt a-1 ReclaimLentCapacity for b-1", "admit b-1 {n01=1, n02=1, n03=1, n04=1}"),
                        List.of("a-1 Pending Preempted", "a-2 Admitted {n05=1}", "b-1 Admitted {n01=1, n02=1, n03=1, n04=1}")),
                c("while above its shrunk quota a team admits nothing more",
                        Cluster.gpus(8).team("a", 4).team("b", 4).submit("a-1", "a", 4).quota("a", 2).submit("a-2", "a", 1),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1, n03=1, n04=1}", "a-2 Pending BorrowLimitExceeded")),
                c("growing a quota admits waiting work at once",
                        Cluster.gpus(8).team("a", 2, dontLend()).team("b", 2, dontLend()).submit("a-1", "a", 4).quota("a", 4, dontLend()),
                        List.of("admit a-1 {n01=1, n02=1, n03=1, n04=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1, n03=1, n04=1}")),

                // ------------------------------------------------------------ scheduler config
                c("a new weight reorders the pending queue: the class now higher goes first",
                        Cluster.gpus(2).team("a", 2, q -> q.withStrategy(dev.taskgov.core.model.SharingStrategy.DontLend)
                                        .withPreemptTeamTasks(dev.taskgov.core.model.PreemptTeamTasks.Never))
                                .submit("a-0", "a", 2).submit("a-1", "a", 2, "experiment").submit("a-2", "a", 2, "training")
                                .priorityClasses(Map.of("inference", 90, "training", 50, "experiment", 95)).finish("a-0"),
                        List.of("admit a-0 {n01=1, n02=1}", "admit a-1 {n01=1, n02=1}"),
                        List.of("a-0 Finished", "a-1 Admitted {n01=1, n02=1}", "a-2 Pending QuotaExceeded")),
                c("a running workload's new higher priority protects it from a later in-team preemption",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2, "experiment")
                                .priorityClasses(Map.of("inference", 90, "training", 50, "experiment", 95))
                                .submit("a-2", "a", 2, "training"),
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}", "a-2 Pending QuotaExceeded")),
                c("a class that no longer exists counts as the lowest: its running workload is preempted later, not by the change",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2, "inference")
                                .priorityClasses(Map.of("training", 50, "experiment", 10))
                                .submit("a-2", "a", 2, "experiment").submit("a-3", "a", 2, "training"),
                        List.of("admit a-1 {n01=1, n02=1}", "preempt a-1 InTeamPriority for a-3", "admit a-3 {n01=1, n02=1}"),
                        List.of("a-1 Pending Preempted", "a-2 Pending QuotaExceeded", "a-3 Admitted {n01=1, n02=1}")),
                c("lowering a running workload's class evicts nothing by itself",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2, "inference")
                                .priorityClasses(Map.of("inference", 5, "training", 50, "experiment", 10)),
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(Case c) {
        Cluster.Replay r = c.cluster().replay();
        assertThat(decisions(r.decisions())).as("decisions").isEqualTo(c.decisions());
        assertThat(states(r.scheduler())).as("final states").isEqualTo(c.states());
    }

    /** What people read: a workload's status message, or (for a replacement) why its placement changed. */
    record Message(String name, Cluster cluster, String workloadId, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Message> messages() {
        return Stream.of(
                new Message("a replacement names the failed node and where its pods went",
                        Cluster.gpus(8).team("a", 8).submit("a-1", "a", 2, "training", RACK).failNode("n01"), "a-1",
                        "node n01 is not ready; its pods there moved to n03 (1 pod)"),
                new Message("a node failure eviction names the node and why no replacement fits",
                        Cluster.gpus(4).team("a", 4).submit("a-1", "a", 4, "training", RACK).removeNode("n03"), "a-1",
                        "evicted (NodeFailure): node n03 left the cluster; the 1 pod of pod set worker on it finds no room inside its "
                                + "topology.k8s.aws/network-node-layer-3 domain rack-0 (room for 0); still waiting: can never be admitted as things "
                                + "stand: asks for 4 accelerators of ml.g5.8xlarge; team a may hold at most 4 nominal + 2 borrowing limit = 6, "
                                + "and the cluster's ready ml.g5.8xlarge nodes offer 3; it stays pending until the quota or the cluster grows"),
                new Message("a node failure eviction of a pod set without topology says it found no room anywhere",
                        Cluster.gpus(2).team("a", 2).submit("a-1", "a", 2).failNode("n02"), "a-1",
                        "evicted (NodeFailure): node n02 is not ready; the 1 pod of pod set worker on it finds no room anywhere in the "
                                + "cluster (room for 0); still waiting: can never be admitted as things stand: asks for 2 accelerators of "
                                + "ml.g5.8xlarge; team a may hold at most 2 nominal + 1 borrowing limit = 3, and the cluster's ready "
                                + "ml.g5.8xlarge nodes offer 1; it stays pending until the quota or the cluster grows"),
                new Message("a quota removal eviction names the quota",
                        Cluster.gpus(4).team("a", 2).team("b", 2).submit("a-1", "a", 2).deleteQuota("a"), "a-1",
                        "evicted (QuotaRemoved): the compute quota of team a (a-quota) was deleted; still waiting: team a has no compute quota"),
                new Message("a submission after the team's quota was deleted waits with NoQuota",
                        Cluster.gpus(4).team("a", 2).team("b", 2).deleteQuota("a").then(submitted("a-1", "a")), "a-1",
                        "team a has no compute quota"),
                new Message("a team that never had a quota is still unknown: its submission is rejected",
                        Cluster.gpus(4).team("a", 2).team("b", 2).then(submitted("c-1", "c")), "c-1",
                        "namespace: team 'c' (namespace hyperpod-ns-c) has no compute quota"),
                new Message("a disabled quota keeps its work waiting with NoQuota",
                        Cluster.gpus(4).team("a", 2).team("b", 2).submit("a-1", "a", 4).quota("a", 2, q -> q.withActive(false)), "a-1",
                        "the compute quota of team a is disabled"));
    }

    /** A submission as the services receive it (validated, unlike the builder's). */
    static java.util.function.Consumer<Scheduler> submitted(String id, String team) {
        return s -> s.submit(new dev.taskgov.core.events.WorkloadSubmitted(id, "hyperpod-ns-" + team, null, "training-priority", "PyTorchJob",
                null, List.of(new dev.taskgov.core.events.PodSetSpec("worker", 1, Cluster.G5,
                        new dev.taskgov.core.events.ResourceAmounts(java.math.BigDecimal.ONE, null, null), null, null))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void message(Message m) {
        Cluster.Replay r = m.cluster().replay();
        String seen = r.decisions().stream()
                .filter(d -> d instanceof Decision.Admit a && a.nodeReplaced() && a.workloadId().equals(m.workloadId()))
                .map(d -> ((Decision.Admit) d).replacedBecause())
                .findFirst().orElseGet(() -> r.scheduler().workload(m.workloadId()).orElseThrow().message());
        assertThat(seen).isEqualTo(m.expected());
    }

    static List<String> decisions(List<Decision> decisions) {
        List<String> out = new ArrayList<>();
        for (Decision d : decisions) {
            if (d instanceof Decision.Admit a) {
                out.add((a.nodeReplaced() ? "replace " : "admit ") + a.workloadId() + " " + pods(a.placement().podSets()));
            } else if (d instanceof Decision.Evict e) {
                out.add("evict " + e.workloadId() + " " + e.victim().reason());
            } else if (d instanceof Decision.Preempt p) {
                for (Victim v : p.plan().victims()) out.add("preempt " + v.workloadId() + " " + v.reason() + " for " + p.plan().preemptorId());
            }
        }
        return out;
    }

    static List<String> states(Scheduler s) {
        return s.workloads().stream().map(v -> v.workloadId() + " " + v.state()
                + (v.state() == WorkloadState.Admitted ? " " + pods(v.placement().podSets()) : "")
                + (v.state() == WorkloadState.Pending ? " " + v.reason() : "")).toList();
    }

    /** Pods per node of a single-pod-set placement (every case here has one pod set). */
    private static String pods(List<PodSetPlacement> podSets) {
        return podSets.get(0).podsPerNode().toString();
    }
}
