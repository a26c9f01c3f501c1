package dev.taskgov.benchmarks;

import dev.taskgov.core.estimate.RunTime;
import dev.taskgov.core.estimate.StartEstimate;
import dev.taskgov.core.estimate.StartForecast;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * How far a start estimate made at submission is from the actual start, on the workload mix of {@code taskgov bench
 * kueue}'s {@code baseline} profile (30 teams of nominal 20 accelerators, borrow limit 500%, per team 350 small of 1
 * unit running 200 ms every 100 ms, 100 medium of 5 units running 500 ms every 500 ms, 50 large of 20 units running
 * 1 s every 1.2 s; {@code --scale} scales the teams), replayed in-process on a virtual clock rather than through the
 * platform: the same scheduler code decides, without Kafka's latencies. Every workload declares its class's run time.
 * At each sampled submission that does not start at once, a forecast is made ({@link StartForecast}, with steps of
 * 50 ms, as these runs last a fraction of a second); when the replay is over each estimate is compared with the
 * workload's first admission. Prints, per class, how many were estimated, the median and 90th percentile of the
 * absolute error, and the median signed error (negative: the estimate was too early).
 *
 * <p>Run: {@code java -Xmx4g -cp benchmarks/target/benchmarks.jar dev.taskgov.benchmarks.StartEstimateAccuracy [SCALE [EVERY]]}
 * (default 0.2 and every 10th submission).
 */
public final class StartEstimateAccuracy {

    private StartEstimateAccuracy() {
    }

    static final InstanceType P5 = new InstanceType("ml.p5.48xlarge", Resources.of(8, 192_000, 2048 * 1024));
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    record Cls(String name, int count, long intervalMs, long runtimeMs, int weight, int units) {
    }

    static final List<Cls> CLASSES = List.of(new Cls("small", 350, 100, 200, 25, 1), new Cls("medium", 100, 500, 500, 50, 5),
            new Cls("large", 50, 1200, 1000, 100, 20));

    /** An event of the replay: a submission or a finish (valid while the workload is in that admission). */
    record Event(long atMs, int order, String id, boolean submit, int generation) {
    }

    public static void main(String[] args) {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 0.2;
        int every = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int teams = Math.max(1, (int) Math.round(30 * scale));
        int nodes = (teams * 20 + 7) / 8;
        List<Node> nodeList = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            nodeList.add(new Node(String.format("n-%04d", i), null, P5.name(), Map.of(TopologyLevels.LAYER_1, "nn-1",
                    TopologyLevels.LAYER_2, "nn-1-1", TopologyLevels.LAYER_3, "nn-1-1-" + i / 8), P5.capacity(), true));
        }
        VirtualClock clock = new VirtualClock(T0);
        Scheduler s = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(P5), nodeList);
        Map<String, Integer> classes = new TreeMap<>();
        CLASSES.forEach(c -> classes.put(c.name(), c.weight()));
        s.applySchedulerConfig(new SchedulerConfig(classes, false));
        Map<String, Workload> workloads = new HashMap<>();
        Map<String, Cls> classOf = new HashMap<>();
        PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.atMs() != b.atMs() ? Long.compare(a.atMs(), b.atMs())
                : a.order() != b.order() ? Integer.compare(a.order(), b.order()) : a.id().compareTo(b.id()));
        int seq = 0;
        for (int t = 0; t < teams; t++) {
            String team = String.format("bench-t%02d", t);
            s.applyQuota(new TeamQuota(team, team, Map.of(P5.name(), Resources.of(20, 20 * 24_000, 20 * 256 * 1024)),
                    SharingStrategy.LendAndBorrow, 500, PreemptTeamTasks.LowerPriority, 1, true));
            for (Cls c : CLASSES) {
                for (int i = 0; i < c.count(); i++) {
                    String id = team + "-" + c.name() + "-" + i;
                    long at = i * c.intervalMs();
                    workloads.put(id, new Workload(id, team, c.name(), c.weight(), T0.plusMillis(at).plusNanos(seq++),
                            List.of(new PodSetRequest("main", c.units(), P5.name(), Resources.of(1, 1000, 1024), TopologyRequest.NONE))));
                    classOf.put(id, c);
                    events.add(new Event(at, 1, id, true, 0));
                }
            }
        }
        StartForecast.Limits limits = new StartForecast.Limits(Duration.ofDays(1), 1_000_000, Duration.ofMillis(50), 0.05);
        java.util.function.Function<Workload, Optional<RunTime>> runTimes =
                w -> Optional.of(RunTime.declared(Duration.ofMillis(classOf.get(w.id()).runtimeMs())));
        Map<String, Integer> generation = new HashMap<>();
        Map<String, Instant> started = new HashMap<>();
        Map<String, StartEstimate> estimated = new HashMap<>();
        Map<String, Integer> atOnce = new TreeMap<>();
        int submissions = 0;
        long forecastNanos = 0;
        int forecasts = 0;
        while (!events.isEmpty()) {
            long at = events.peek().atMs();
            clock.advance(Duration.between(clock.instant(), T0.plusMillis(at)));
            List<String> submitted = new ArrayList<>();
            while (!events.isEmpty() && events.peek().atMs() == at) {
                Event e = events.poll();
                if (e.submit()) {
                    s.submit(workloads.get(e.id()));
                    submitted.add(e.id());
                } else if (generation.getOrDefault(e.id(), 0) == e.generation()) {
                    s.finish(e.id());
                }
            }
            for (Decision d : s.cycle()) {
                if (d instanceof Decision.Admit a) {
                    started.putIfAbsent(a.workloadId(), clock.instant());
                    int g = generation.merge(a.workloadId(), 1, Integer::sum);
                    events.add(new Event(at + classOf.get(a.workloadId()).runtimeMs(), 0, a.workloadId(), false, g));
                } else if (d instanceof Decision.Preempt p) {
                    for (Victim v : p.plan().victims()) generation.merge(v.workloadId(), 1, Integer::sum);
                }
            }
            for (String id : submitted) {
                if (submissions++ % every != 0) continue;
                if (started.containsKey(id)) {
                    atOnce.merge(classOf.get(id).name(), 1, Integer::sum);
                    continue;
                }
                long t0 = System.nanoTime();
                StartForecast f = StartForecast.of(s, runTimes, clock.instant(), limits);
                forecastNanos += System.nanoTime() - t0;
                forecasts++;
                f.of(id).ifPresent(e -> estimated.put(id, e));
            }
        }
        System.out.printf("baseline at scale %.2f: %d teams, %d accelerators, %,d workloads, every %d-th submission sampled; "
                        + "%d forecasts, %.0f ms each on average (wall), replay ended at %.1f s%n", scale, teams, nodes * 8,
                workloads.size(), every, forecasts, forecasts == 0 ? 0 : forecastNanos / 1e6 / forecasts,
                Duration.between(T0, clock.instant()).toMillis() / 1000.0);
        System.out.println("| class | sampled | started at once | estimated | unknown | |error| median s | |error| p90 s | signed median s |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Cls c : CLASSES) {
            List<Double> abs = new ArrayList<>();
            List<Double> signed = new ArrayList<>();
            int unknown = 0;
            for (Map.Entry<String, StartEstimate> e : estimated.entrySet()) {
                if (classOf.get(e.getKey()) != c) continue;
                if (!e.getValue().known()) {
                    unknown++;
                    continue;
                }
                double err = Duration.between(started.get(e.getKey()), e.getValue().expectedStart()).toMillis() / 1000.0;
                signed.add(err);
                abs.add(Math.abs(err));
            }
            abs.sort(null);
            signed.sort(null);
            int once = atOnce.getOrDefault(c.name(), 0);
            System.out.printf("| %s | %d | %d | %d | %d | %.2f | %.2f | %.2f |%n", c.name(), once + abs.size() + unknown, once,
                    abs.size(), unknown, pct(abs, 0.5), pct(abs, 0.9), pct(signed, 0.5));
        }
    }

    static double pct(List<Double> sorted, double p) {
        if (sorted.isEmpty()) return Double.NaN;
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * (sorted.size() - 1) + 0.5)));
    }
}
