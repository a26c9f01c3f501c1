package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Test fixture: a recorded window on a cluster of one-GPU nodes ({@code ml.g5.8xlarge}), built fluently: teams'
 * quotas at the start, then what the platform recorded at given seconds into the window.
 */
final class Window {

    static final String G5 = "ml.g5.8xlarge";
    static final InstanceType G5_TYPE = new InstanceType(G5, Resources.of(1, 32_000, 128 * 1024));
    static final Instant FROM = Instant.parse("2026-11-30T10:00:00Z");
    static final String CLUSTER = "arn:aws:sagemaker:us-west-2:000000000000:cluster/whatifreplay";

    private final List<Node> nodes = new ArrayList<>();
    private final Map<String, TeamQuota> quotas = new LinkedHashMap<>();
    private final List<History.Event> events = new ArrayList<>();
    private SchedulerConfig config = new SchedulerConfig(Map.of("inference", 90, "training", 50, "experiment", 10), false);
    private Duration length = Duration.ofHours(2);

    private Window(int gpus) {
        for (int i = 1; i <= gpus; i++) {
            nodes.add(new Node("n" + i, null, G5, Map.of(TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_3, "rack-" + ((i - 1) / 4)),
                    G5_TYPE.capacity(), true));
        }
    }

    /** A window on {@code n} one-GPU nodes. */
    static Window gpus(int n) {
        return new Window(n);
    }

    /** How long the window lasts (default 2 h). */
    Window lasting(Duration d) {
        length = d;
        return this;
    }

    /** A team's quota at the window's start: {@code gpus} GPUs, lending and borrowing up to 100 %. */
    Window quota(String team, int gpus, UnaryOperator<TeamQuota> tweak) {
        quotas.put(team, tweak.apply(quotaOf(team, gpus)));
        return this;
    }

    Window quota(String team, int gpus) {
        return quota(team, gpus, q -> q);
    }

    static TeamQuota quotaOf(String team, int gpus) {
        return TeamQuota.of(team, Map.of(G5, G5_TYPE.capacity().times(gpus))).withBorrowLimit(100);
    }

    /**
     * The platform recorded: {@code id} of {@code team} submitted at {@code second}, asking for {@code gpus} one-GPU
     * pods of class {@code priority}.
     */
    Window submit(int second, String id, String team, int gpus, String priority) {
        ResourceAmounts perPod = new ResourceAmounts(BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE);
        WorkloadSubmitted s = new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", priority,
                "PyTorchJob", null, List.of(new PodSetSpec("worker", gpus, G5, perPod, null, null)), CLUSTER);
        events.add(new History.Submitted(at(second), s));
        return this;
    }

    /** The platform recorded {@code id}'s admission at {@code second}. */
    Window admitted(int second, String id) {
        events.add(new History.Admitted(at(second), id));
        return this;
    }

    /** The platform recorded {@code id}'s end at {@code second}. */
    Window finished(int second, String id) {
        events.add(new History.Finished(at(second), id, WorkloadFinished.Outcome.Succeeded));
        return this;
    }

    /** Submitted, admitted at once and finished {@code runSeconds} later. */
    Window ran(int second, String id, String team, int gpus, String priority, int runSeconds) {
        return submit(second, id, team, gpus, priority).admitted(second, id).finished(second + runSeconds, id);
    }

    /** The team's quota was replaced at {@code second}. */
    Window quotaChanged(int second, TeamQuota q) {
        events.add(new History.QuotaChanged(at(second), q));
        return this;
    }

    /** Node {@code name} failed at {@code second}. */
    Window nodeFailed(int second, String name) {
        Node n = nodes.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        events.add(new History.NodeChanged(at(second), new Node(n.name(), n.instanceId(), n.instanceType(), n.labels(), n.allocatable(), false)));
        return this;
    }

    Window config(SchedulerConfig c) {
        config = c;
        return this;
    }

    History history() {
        return new History(CLUSTER, FROM, FROM.plus(length), new History.Start(Map.of(G5, G5_TYPE), nodes, config,
                List.copyOf(quotas.values())), events);
    }

    static Instant at(int second) {
        return FROM.plusSeconds(second);
    }

    // ---------------------------------------------------------------- proposals

    /** A proposal that replaces these quotas. */
    static ProposedChange replace(TeamQuota... q) {
        Map<String, TeamQuota> m = new LinkedHashMap<>();
        for (TeamQuota x : q) m.put(x.team(), x);
        return new ProposedChange(m, Set.of(), null);
    }

    /** A proposal that deletes these teams' quotas. */
    static ProposedChange delete(String... teams) {
        return new ProposedChange(Map.of(), Set.of(teams), null);
    }

    /** A proposal that replaces the scheduler config. */
    static ProposedChange newConfig(SchedulerConfig c) {
        return new ProposedChange(Map.of(), Set.of(), c);
    }

    static TeamQuota dontLend(TeamQuota q) {
        return q.withStrategy(SharingStrategy.DontLend);
    }
}
