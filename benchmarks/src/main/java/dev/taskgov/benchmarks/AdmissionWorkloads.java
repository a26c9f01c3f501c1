package dev.taskgov.benchmarks;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded synthetic cluster for the admission benchmark: {@code nodes} nodes (half 8-GPU p5, half
 * 1-GPU g5; 10 nodes per layer-3 rack, 10 racks per layer-2 block), {@code teams} teams that share
 * the capacity equally (LendAndBorrow, BorrowLimit 50%), and pending workloads of 1 to 4 pods, a
 * tenth of them requiring one rack.
 *
 * <p>{@link Shapes#FEW}: every pod asks for the same amounts per instance type, so many workloads
 * of a team are alike (as a pipeline's are). {@link Shapes#DISTINCT}: each pod's memory request
 * differs by a few MiB (4,096 different amounts), so alike workloads are rare, verdicts are seldom
 * reused and placement sees thousands of pod shapes.
 */
public final class AdmissionWorkloads {

    public static final InstanceType P5 = new InstanceType("ml.p5.48xlarge", Resources.of(8, 192_000, 2048 * 1024));
    public static final InstanceType G5 = new InstanceType("ml.g5.8xlarge", Resources.of(1, 32_000, 128 * 1024));
    private static final Instant START = Instant.parse("2026-11-30T10:00:00Z");

    private final List<Node> nodes = new ArrayList<>();
    private final List<TeamQuota> quotas = new ArrayList<>();
    private final List<Workload> pending = new ArrayList<>();
    private final SchedulerConfig config = new SchedulerConfig(Map.of("inference", 90, "training", 50, "experiment", 10), false);

    /** How alike the pending workloads are. */
    public enum Shapes { FEW, DISTINCT }

    public AdmissionWorkloads(int teams, int nodeCount, int pendingCount, long seed) {
        this(teams, nodeCount, pendingCount, seed, Shapes.FEW);
    }

    public AdmissionWorkloads(int teams, int nodeCount, int pendingCount, long seed, Shapes shapes) {
        Random rnd = new Random(seed);
        for (int i = 0; i < nodeCount; i++) {
            InstanceType type = i % 2 == 0 ? P5 : G5;
            int rack = i / 10;
            nodes.add(new Node(String.format("node-%05d", i), null, type.name(), Map.of(
                    TopologyLevels.LAYER_1, "nn-" + rack / 100,
                    TopologyLevels.LAYER_2, "nn-" + rack / 100 + "-" + rack / 10,
                    TopologyLevels.LAYER_3, "nn-" + rack / 100 + "-" + rack / 10 + "-" + rack), type.capacity(), true));
        }
        long p5Nodes = (nodeCount + 1) / 2;
        long g5Nodes = nodeCount / 2;
        for (int t = 0; t < teams; t++) {
            // an equal share of each instance type; whole instances, the remainder left unassigned
            Map<String, Resources> nominal = Map.of(
                    P5.name(), P5.capacity().times(p5Nodes / teams),
                    G5.name(), G5.capacity().times(g5Nodes / teams));
            quotas.add(new TeamQuota(team(t), team(t), nominal, SharingStrategy.LendAndBorrow, 50,
                    PreemptTeamTasks.LowerPriority, 1 + t % 100, true));
        }
        String[] classes = {"inference", "training", "experiment"};
        for (int i = 0; i < pendingCount; i++) {
            String cls = classes[rnd.nextInt(3)];
            boolean p5 = rnd.nextInt(5) != 0;
            int pods = 1 + rnd.nextInt(4);
            TopologyRequest topo = rnd.nextInt(10) == 0 ? TopologyRequest.required(TopologyLevels.LAYER_3) : TopologyRequest.NONE;
            long memoryMiB = (p5 ? 512 * 1024 : 64 * 1024) - (shapes == Shapes.DISTINCT ? i % 4096 : 0);
            PodSetRequest ps = p5
                    ? new PodSetRequest("worker", pods, P5.name(), Resources.of(2, 48_000, memoryMiB), topo)
                    : new PodSetRequest("worker", pods, G5.name(), Resources.of(1, 16_000, memoryMiB), topo);
            pending.add(new Workload("w-" + i, team(rnd.nextInt(teams)), cls, config.priorityClasses().get(cls),
                    START.plusMillis(i), List.of(ps)));
        }
    }

    /**
     * The pending workloads with copies of their names (id, team, pod set and instance type), as a decoder gives each
     * submission strings of its own; otherwise every pod set shares one instance type name (the constant's), which no live
     * decider sees.
     */
    public AdmissionWorkloads withDecodedNames() {
        List<Workload> copies = new ArrayList<>(pending.size());
        for (Workload w : pending) {
            List<PodSetRequest> sets = new ArrayList<>();
            for (PodSetRequest p : w.podSets()) {
                sets.add(new PodSetRequest(new String(p.name()), p.count(), new String(p.instanceType()), p.perPod(),
                        p.topology(), p.nodeSelector()));
            }
            copies.add(new Workload(new String(w.id()), new String(w.team()), w.priorityClass(), w.priority(),
                    w.submittedAt(), sets, w.maxRetries()));
        }
        pending.clear();
        pending.addAll(copies);
        return this;
    }

    private static String team(int t) {
        return String.format("team-%03d", t);
    }

    /** An in-process scheduler with the cluster and quotas, and every workload queued. */
    public Scheduler newSchedulerWithQueue() {
        Scheduler s = new Scheduler(Clock.fixed(START, ZoneOffset.UTC), Scheduler.Mode.IN_PROCESS, List.of(P5, G5), nodes);
        s.applySchedulerConfig(config);
        quotas.forEach(s::applyQuota);
        pending.forEach(s::submit);
        return s;
    }

    /**
     * Quick check without JMH: {@code java -cp benchmarks/target/benchmarks.jar dev.taskgov.benchmarks.AdmissionWorkloads
     * PENDING [ROUNDS [FEW|DISTINCT [decoded]]]} ({@code decoded}: {@link #withDecodedNames}).
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Shapes shapes = args.length > 2 ? Shapes.valueOf(args[2]) : Shapes.FEW;
        AdmissionWorkloads w = new AdmissionWorkloads(100, 5000, n, 42, shapes);
        if (args.length > 3 && args[3].equals("decoded")) w.withDecodedNames();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int round = 0; round < (args.length > 1 ? Integer.parseInt(args[1]) : 3); round++) {
            Scheduler s = w.newSchedulerWithQueue();
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            var decisions = s.cycle();
            long ns = System.nanoTime() - t0;
            long cpuNs = threads.getCurrentThreadCpuTime() - cpu0;
            long admits = decisions.stream().filter(d -> d instanceof dev.taskgov.core.scheduling.Decision.Admit).count();
            // CPU time of the draining thread: less disturbed than wall time on a shared machine
            System.out.printf(shapes + " pending=%d decisions=%d admitted=%d time=%.1f ms (thread cpu %.1f ms) -> %.0f decisions/s, %.1f us/decision (cpu)%n",
                    n, decisions.size(), admits, ns / 1e6, cpuNs / 1e6, decisions.size() / (ns / 1e9), cpuNs / 1e3 / decisions.size());
        }
    }
}
