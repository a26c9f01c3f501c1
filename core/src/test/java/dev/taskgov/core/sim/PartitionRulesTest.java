package dev.taskgov.core.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.scheduling.Scheduler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Accelerator partitions as resources of their own (docs/semantics.md, "Accelerator partitions"):
 * each case is a small scenario on {@code ml.p5.48xlarge} nodes in MIG mode, replayed by the
 * simulator in both scheduler modes, with what it must see after its steps.
 */
class PartitionRulesTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String SMALL = "mig-1g.10gb";
    static final String LARGE = "mig-3g.40gb";

    /** A scenario under construction: MIG nodes, teams with partition quotas, steps. */
    static final class Mig {
        private final ObjectNode root = EventCodec.mapper().createObjectNode();
        private final ArrayNode nodes;
        private final ArrayNode quotas;
        private final ArrayNode steps;

        private Mig(boolean fairShare) {
            root.put("name", "partition-case");
            ObjectNode cluster = root.putObject("cluster");
            cluster.putObject("instanceTypes").putObject(P5).put("accelerators", 8).put("vcpu", 192).put("memoryGiB", 2048);
            nodes = cluster.putArray("nodes");
            ObjectNode config = root.putObject("schedulerConfig");
            ArrayNode classes = config.putArray("PriorityClasses");
            classes.addObject().put("Name", "high").put("Weight", 90);
            classes.addObject().put("Name", "low").put("Weight", 10);
            config.put("FairShare", fairShare ? "Enabled" : "Disabled");
            quotas = root.putArray("computeQuotas");
            steps = root.putArray("steps");
        }

        static Mig fairShare() {
            return new Mig(true);
        }

        static Mig fifo() {
            return new Mig(false);
        }

        /** A node in MIG mode: no whole accelerators, these partitions. */
        Mig node(String name, Map<String, Integer> partitions) {
            ObjectNode n = nodes.addObject().put("name", name).put("instanceType", P5);
            n.putObject("labels").put("topology.k8s.aws/network-node-layer-1", "nn-1")
                    .put("topology.k8s.aws/network-node-layer-3", "nn-1-1");
            ObjectNode alloc = n.putObject("allocatable").put("accelerators", 0);
            ObjectNode p = alloc.putObject("partitions");
            partitions.forEach(p::put);
            return this;
        }

        /** A team's quota of {@code count} partitions of {@code type}, LendAndBorrow with the default BorrowLimit. */
        Mig team(String team, String type, int count) {
            return team(team, type, count, 1, null);
        }

        /**
         * A team's quota with a fair-share weight, and (when {@code absoluteBorrow} is not null) an
         * {@code AbsoluteBorrowLimits} entry of that many partitions of the type.
         */
        Mig team(String team, String type, int count, int weight, Integer absoluteBorrow) {
            ObjectNode q = quotas.addObject().put("Name", team + "-quota")
                    .put("ClusterArn", "arn:aws:sagemaker:us-west-2:123456789012:cluster/mig000000001");
            ObjectNode config = q.putObject("ComputeQuotaConfig");
            config.putArray("ComputeQuotaResources").addObject().put("InstanceType", P5)
                    .putObject("AcceleratorPartition").put("Type", type).put("Count", count);
            ObjectNode sharing = config.putObject("ResourceSharingConfig").put("Strategy", "LendAndBorrow");
            if (absoluteBorrow != null) {
                sharing.putArray("AbsoluteBorrowLimits").addObject().put("InstanceType", P5)
                        .putObject("AcceleratorPartition").put("Type", type).put("Count", absoluteBorrow);
            }
            q.putObject("ComputeQuotaTarget").put("TeamName", team).put("FairShareWeight", weight);
            return this;
        }

        /** A job of {@code pods} pods of one partition of {@code type} each, of the lowest priority (no class named). */
        Mig submit(String id, String team, int pods, String type) {
            return submit(id, team, pods, type, null);
        }

        /** As {@link #submit}, of priority class {@code high}. */
        Mig submitHigh(String id, String team, int pods, String type) {
            return submit(id, team, pods, type, "high-priority");
        }

        private Mig submit(String id, String team, int pods, String type, String priorityClass) {
            ObjectNode w = steps.addObject().putObject("submit").put("workloadId", id).put("namespace", "hyperpod-ns-" + team)
                    .put("jobKind", "PyTorchJob");
            if (priorityClass != null) w.put("priorityClass", priorityClass);
            w.putArray("podSets").addObject().put("name", "worker").put("count", pods).put("instanceType", P5)
                    .putObject("requests").putObject("partitions").put(type, 1);
            return this;
        }

        Mig finish(String id) {
            steps.addObject().put("finish", id);
            return this;
        }

        /** The expectation after the steps so far: exactly these admitted, pending and preempted (since the last expectation). */
        Mig expect(List<String> admitted, List<String> pending, List<String> preempted) {
            ObjectNode e = steps.addObject().putObject("expect");
            admitted.forEach(e.putArray("admitted")::add);
            pending.forEach(e.putArray("pending")::add);
            preempted.forEach(e.putArray("preemptedSinceLastExpect")::add);
            return this;
        }

        /** Exact pods per node of one workload's pod set {@code worker}, checked at the last expectation. */
        Mig placed(String id, Map<String, Integer> podsPerNode) {
            ObjectNode last = (ObjectNode) steps.get(steps.size() - 1).get("expect");
            ObjectNode nodesOf = last.with("placements").putObject(id).putObject("worker").putObject("nodes");
            podsPerNode.forEach(nodesOf::put);
            return this;
        }
    }

    record Case(String name, Mig scenario) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        Map<String, Integer> seven = Map.of(SMALL, 7);
        return Stream.of(
                new Case("a team borrows idle partitions of another up to BorrowLimit 50% of 7 = 3",
                        Mig.fairShare().node("m1", seven).node("m2", seven).team("a", SMALL, 7).team("b", SMALL, 7)
                                .submit("a1", "a", 10, SMALL).submit("a2", "a", 1, SMALL)
                                .expect(List.of("a1"), List.of("a2"), List.of())),
                new Case("the lender reclaims its partitions from the borrower, whatever the borrower's priority",
                        Mig.fairShare().node("m1", seven).node("m2", seven).team("a", SMALL, 7).team("b", SMALL, 7)
                                .submit("a1", "a", 10, SMALL).expect(List.of("a1"), List.of(), List.of())
                                .submit("b1", "b", 7, SMALL).expect(List.of("b1"), List.of("a1"), List.of("a1"))
                                .finish("b1").expect(List.of("a1"), List.of(), List.of())),
                new Case("AbsoluteBorrowLimits with an AcceleratorPartition caps borrowing at that count",
                        Mig.fairShare().node("m1", seven).node("m2", seven).team("a", SMALL, 7, 1, 1).team("b", SMALL, 7)
                                .submit("a1", "a", 9, SMALL).submit("a2", "a", 8, SMALL)
                                .expect(List.of("a2"), List.of("a1"), List.of())),
                new Case("partitions of one type are no quota for another: 2 of mig-3g.40gb, not 3",
                        Mig.fairShare().node("m1", Map.of(SMALL, 1, LARGE, 2)).team("a", LARGE, 2).team("b", SMALL, 1)
                                .submit("a1", "a", 3, LARGE).submit("a2", "a", 2, LARGE)
                                .expect(List.of("a2"), List.of("a1"), List.of())),
                new Case("pods take the node with the most free partitions first, the last ones by best fit",
                        Mig.fairShare().node("m1", Map.of(SMALL, 5)).node("m2", seven).team("a", SMALL, 12)
                                .submit("a1", "a", 9, SMALL).expect(List.of("a1"), List.of(), List.of())
                                .placed("a1", Map.of("m2", 7, "m1", 2))),
                new Case("fair share: of two borrowers the one whose share of borrowed partitions stays lower goes first",
                        Mig.fairShare().node("m1", seven).node("m2", seven)
                                .team("a", SMALL, 4, 1, null).team("b", SMALL, 4, 2, null).team("c", SMALL, 6, 1, null)
                                .submit("c1", "c", 4, SMALL).submit("c2", "c", 2, SMALL)
                                .submit("a1", "a", 4, SMALL).submit("b1", "b", 4, SMALL)
                                .submit("a2", "a", 2, SMALL).submit("b2", "b", 2, SMALL)
                                .expect(List.of("a1", "b1", "c1", "c2"), List.of("a2", "b2"), List.of())
                                .finish("c2").expect(List.of("b2"), List.of("a2"), List.of())),
                new Case("without fair share the earlier borrower goes first",
                        Mig.fifo().node("m1", seven).node("m2", seven)
                                .team("a", SMALL, 4, 1, null).team("b", SMALL, 4, 2, null).team("c", SMALL, 6, 1, null)
                                .submit("c1", "c", 4, SMALL).submit("c2", "c", 2, SMALL)
                                .submit("a1", "a", 4, SMALL).submit("b1", "b", 4, SMALL)
                                .submit("a2", "a", 2, SMALL).submit("b2", "b", 2, SMALL)
                                .finish("c2").expect(List.of("a2"), List.of("b2"), List.of())),
                new Case("in-team priority: a team's high-priority job preempts its own lower-priority one for partitions",
                        Mig.fairShare().node("m1", seven).team("a", SMALL, 7, 1, null)
                                .submit("a1", "a", 7, SMALL).submitHigh("a2", "a", 3, SMALL)
                                .expect(List.of("a2"), List.of("a1"), List.of("a1")))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void partitionRule(Case c) {
        Scenario s = Scenario.parse(c.scenario().root);
        for (Scheduler.Mode mode : Scheduler.Mode.values()) {
            ScenarioResult r = Simulator.run(s, c.name(), mode);
            assertThat(r.ok()).as(mode + ": " + r.toJson()).isTrue();
        }
    }
}
