package dev.taskgov.core.estimate;

import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.sim.VirtualClock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One forward simulation of a scheduler's queue, shared by all its pending workloads (docs/semantics.md, "Estimated
 * start"). A copy of the scheduler (same nodes, quotas, priority classes, running workloads with their placements, and
 * pending workloads in queue order) runs in-process on a virtual clock from {@code now}: every running workload ends at
 * its admission plus its {@link RunTime} (at {@code now} when that is past), every workload the copy admits ends its run
 * time later, and each end is followed by a cycle, as the live scheduler's would be. A pending workload's estimate is
 * when the copy first admits it. The copy makes the same decisions the live scheduler makes (fair sharing, reclaiming
 * and in-team preemption included); what it cannot know is work submitted later, a run that ends earlier or later than
 * expected, and a node that fails.
 *
 * <p>The simulation stops when every pending workload was admitted, when nothing with a known end is left to end (the
 * rest are unknown), or at the {@link Limits}. The live scheduler is only read.
 */
public final class StartForecast {

    /**
     * Bounds on one forecast, and its resolution.
     *
     * @param horizon  how far ahead of {@code now} ends are simulated; a workload not admitted by then is unknown
     * @param maxEnds  how many ends are simulated at most
     * @param step     ends closer together than this are taken as one step (one cycle after them all)
     * @param relative ends within this share of their distance from {@code now} are taken as one step as well: a start
     *                 hours away is not known to the minute, and each step costs a cycle over the whole queue
     */
    public record Limits(Duration horizon, int maxEnds, Duration step, double relative) {
        public static final Limits DEFAULT = new Limits(Duration.ofDays(30), 200_000, Duration.ofMinutes(1), 0.05);

        /** Every end a step of its own (for tests of the rules, not of the resolution). */
        public static Limits exact() {
            return new Limits(DEFAULT.horizon(), DEFAULT.maxEnds(), Duration.ZERO, 0);
        }

        /** The last time that joins a step beginning at {@code first}. */
        Instant stepEnd(Instant now, Instant first) {
            long ahead = Duration.between(now, first).toMillis();
            long width = Math.max(step.toMillis(), (long) (ahead * relative));
            return first.plusMillis(width);
        }
    }

    private final Instant at;
    private final Map<String, StartEstimate> estimates;
    private final int simulatedEnds;
    private final int cycles;
    private final int evictions;

    private StartForecast(Instant at, Map<String, StartEstimate> estimates, int simulatedEnds, int cycles, int evictions) {
        this.at = at;
        this.estimates = Collections.unmodifiableMap(estimates);
        this.simulatedEnds = simulatedEnds;
        this.cycles = cycles;
        this.evictions = evictions;
    }

    /** How many running workloads the simulation evicted (preemptions): each makes the scheduler choose every head again. */
    public int evictions() {
        return evictions;
    }

    /** How many cycles the simulation ran (one per step of ends, and the first). */
    public int cycles() {
        return cycles;
    }

    /** When the forecast was made. */
    public Instant at() {
        return at;
    }

    /** The estimate of a workload pending when the forecast was made. */
    public Optional<StartEstimate> of(String workloadId) {
        return Optional.ofNullable(estimates.get(workloadId));
    }

    /** Every pending workload's estimate, by id in queue order, team by team. */
    public Map<String, StartEstimate> estimates() {
        return estimates;
    }

    /** How many ends the simulation went through. */
    public int simulatedEnds() {
        return simulatedEnds;
    }

    /** A forecast with the default limits. */
    public static StartForecast of(Scheduler live, Function<Workload, Optional<RunTime>> runTimes, Instant now) {
        return of(live, runTimes, now, Limits.DEFAULT);
    }

    /**
     * Forecasts the start of every pending workload of {@code live}.
     *
     * @param runTimes the run time of a workload (declared, else learned), empty when it has none
     */
    public static StartForecast of(Scheduler live, Function<Workload, Optional<RunTime>> runTimes, Instant now, Limits limits) {
        return prepare(live, runTimes, now, limits).run();
    }

    /**
     * The copy of {@code live} a forecast runs on, made now; {@link Prepared#run()} may then run without {@code live}
     * (outside the lock its owner reads it under). {@code runTimes} is called while it runs.
     */
    public static Prepared prepare(Scheduler live, Function<Workload, Optional<RunTime>> runTimes, Instant now, Limits limits) {
        Run r = new Run(live, runTimes, now, limits);
        r.copyLiveState();
        return new Prepared() {
            @Override
            public StartForecast run() {
                return r.forecast();
            }

            @Override
            public boolean holds(String workloadId) {
                return r.pending.containsKey(workloadId);
            }
        };
    }

    /** A copy made, its simulation not yet run. */
    public interface Prepared {
        StartForecast run();

        /** Whether the workload was pending in the copy: the forecast will give its estimate. */
        boolean holds(String workloadId);
    }

    /** An end the simulation waits for: valid while the workload is in the admission {@code generation} it was set for. */
    private record End(Instant at, long seq, String workloadId, int generation, RunTime.Source source) {
    }

    private static final class Run {
        Scheduler live; // dropped once copied
        final Function<Workload, Optional<RunTime>> runTimes;
        final Instant now;
        final Limits limits;
        final VirtualClock clock;
        final Scheduler sim;
        final Map<String, Workload> byId = new HashMap<>();
        /** The workloads pending now, in queue order team by team: those the forecast is for. */
        final Map<String, Workload> pending = new LinkedHashMap<>();
        final Map<String, Integer> generation = new HashMap<>();
        final Set<String> withoutEnd = new TreeSet<>();
        final PriorityQueue<End> ends = new PriorityQueue<>(Comparator.comparing(End::at).thenComparingLong(End::seq));
        final Map<String, StartEstimate> estimates = new LinkedHashMap<>();
        /** Backing off now (gang admission): the workloads that join the copy's queue at each backoff's end. */
        final TreeMap<Instant, List<String>> backoffEnds = new TreeMap<>();
        final Map<String, Instant> backoffUntil = new HashMap<>();
        long seq;
        int started;
        int declaredDone;
        int learnedDone;
        int simulatedEnds;
        int cycles;
        int evictions;

        Run(Scheduler live, Function<Workload, Optional<RunTime>> runTimes, Instant now, Limits limits) {
            this.live = live;
            this.runTimes = runTimes;
            this.now = now;
            this.limits = limits;
            this.clock = new VirtualClock(now);
            this.sim = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, live.validationContext().instanceTypes().values(),
                    live.topology().nodes());
        }

        StartForecast forecast() {
            record(sim.cycle());
            boolean anyKnownEnd = !ends.isEmpty();
            Instant horizon = now.plus(limits.horizon());
            boolean horizonReached = false;
            while (started < pending.size()) {
                End e = nextValidEnd();
                Instant release = backoffEnds.isEmpty() ? null : backoffEnds.firstKey();
                if (e == null && release == null) break;
                boolean endFirst = e != null && (release == null || !release.isBefore(e.at()));
                Instant first = endFirst ? e.at() : release;
                if (first.isAfter(horizon) || endFirst && simulatedEnds >= limits.maxEnds()) {
                    horizonReached = true;
                    break;
                }
                Instant last = first;
                Instant stepEnd = limits.stepEnd(now, first);
                if (endFirst) end(ends.poll());
                while (!ends.isEmpty() && !ends.peek().at().isAfter(stepEnd) && simulatedEnds < limits.maxEnds()) {
                    End same = ends.poll();
                    if (!valid(same)) continue;
                    end(same);
                    if (same.at().isAfter(last)) last = same.at();
                }
                while (!backoffEnds.isEmpty() && !backoffEnds.firstKey().isAfter(stepEnd)) {
                    Map.Entry<Instant, List<String>> over = backoffEnds.pollFirstEntry();
                    over.getValue().forEach(id -> sim.submit(pending.get(id)));
                    if (over.getKey().isAfter(last)) last = over.getKey();
                }
                clock.advance(Duration.between(clock.instant(), last));
                record(sim.cycle());
            }
            for (Map.Entry<String, Workload> p : pending.entrySet()) {
                if (estimates.containsKey(p.getKey())) continue;
                estimates.put(p.getKey(), StartEstimate.unknown(p.getKey(), now, whyUnknown(p.getKey(), anyKnownEnd, horizonReached)));
            }
            // In queue order (the map of pending ids), not in the order the copy admitted them.
            Map<String, StartEstimate> ordered = new LinkedHashMap<>();
            for (String id : pending.keySet()) ordered.put(id, estimates.get(id));
            return new StartForecast(now, ordered, simulatedEnds, cycles, evictions);
        }

        private void copyLiveState() {
            sim.applySchedulerConfig(live.config());
            live.ledger().quotas().forEach(sim::applyQuota);
            List<WorkloadView> views = live.workloads();
            Map<String, WorkloadView> viewById = new HashMap<>();
            Set<String> teams = new TreeSet<>();
            for (WorkloadView v : views) {
                if (v.state() != WorkloadState.Admitted && v.state() != WorkloadState.Pending) continue;
                viewById.put(v.workloadId(), v);
                teams.add(v.team());
            }
            List<RunningWorkload> running = new ArrayList<>();
            for (String team : teams) running.addAll(live.running(team));
            running.sort(Comparator.comparingLong(RunningWorkload::admissionSeq)); // later preemptions take the most recent first
            for (RunningWorkload r : running) {
                WorkloadView v = viewById.get(r.id());
                Instant admittedAt = v == null || v.admittedAt() == null ? now : v.admittedAt();
                sim.restoreAdmitted(r.workload(), r.placement(), v == null || v.borrowed() == null ? Map.of() : v.borrowed(), admittedAt);
                byId.put(r.id(), r.workload());
                scheduleEnd(r.workload(), admittedAt);
            }
            for (String team : teams) {
                for (WorkloadView v : live.queue(team)) addPending(v.workloadId());
            }
            // Pending but in no queue now: backing off after a readiness timeout (gang admission). It joins the copy's
            // queue when its backoff ends, as it joins the live one, so that it is never expected to start before then.
            for (WorkloadView v : views) {
                if (v.state() != WorkloadState.Pending || pending.containsKey(v.workloadId())) continue;
                Instant until = live.readiness(v.workloadId()).map(Scheduler.Readiness::backoffUntil).orElse(null);
                if (until != null && until.isAfter(now)) holdUntil(v.workloadId(), until);
                else addPending(v.workloadId());
            }
            live = null;
        }

        private void addPending(String id) {
            Workload w = live.pendingWorkload(id);
            if (w == null || pending.containsKey(id)) return;
            pending.put(id, w);
            byId.put(id, w);
            sim.submit(w);
        }

        private void holdUntil(String id, Instant until) {
            Workload w = live.pendingWorkload(id);
            if (w == null) return;
            pending.put(id, w);
            byId.put(id, w);
            backoffUntil.put(id, until);
            backoffEnds.computeIfAbsent(until, t -> new ArrayList<>()).add(id);
        }

        private void scheduleEnd(Workload w, Instant admittedAt) {
            int gen = generation.merge(w.id(), 1, Integer::sum);
            Optional<RunTime> rt = runTimes.apply(w);
            if (rt.isEmpty()) {
                withoutEnd.add(w.id());
                return;
            }
            withoutEnd.remove(w.id());
            Instant at = admittedAt.plus(rt.get().duration());
            if (at.isBefore(clock.instant())) at = clock.instant(); // overdue: it may end any moment
            ends.add(new End(at, ++seq, w.id(), gen, rt.get().source()));
        }

        /** The next end still valid (left in the queue), or null. */
        private End nextValidEnd() {
            while (!ends.isEmpty() && !valid(ends.peek())) ends.poll();
            return ends.peek();
        }

        private boolean valid(End e) {
            return generation.getOrDefault(e.workloadId(), 0) == e.generation();
        }

        private void end(End e) {
            sim.finish(e.workloadId());
            generation.merge(e.workloadId(), 1, Integer::sum);
            simulatedEnds++;
            if (e.source().learned()) learnedDone++;
            else declaredDone++;
        }

        private void record(List<Decision> decisions) {
            cycles++;
            for (Decision d : decisions) {
                if (d instanceof Decision.Admit a && !a.nodeReplaced()) {
                    Workload w = byId.get(a.workloadId());
                    if (w == null) continue;
                    if (pending.containsKey(w.id()) && !estimates.containsKey(w.id())) {
                        estimates.put(w.id(), new StartEstimate(w.id(), now, clock.instant(), started++, declaredDone, learnedDone,
                                backoffUntil.get(w.id()), null));
                    }
                    scheduleEnd(w, clock.instant());
                } else if (d instanceof Decision.Preempt p) {
                    for (Victim v : p.plan().victims()) evicted(v.workloadId());
                } else if (d instanceof Decision.Evict e) {
                    evicted(e.workloadId());
                }
            }
        }

        private void evicted(String id) {
            evictions++;
            generation.merge(id, 1, Integer::sum);
            withoutEnd.remove(id);
        }

        private static Set<String> instanceTypes(Workload w) {
            Set<String> types = new TreeSet<>();
            if (w != null) w.podSets().forEach(p -> types.add(p.instanceType()));
            return types;
        }

        private String whyUnknown(String id, boolean anyKnownEnd, boolean horizonReached) {
            WorkloadView v = sim.workload(id).orElse(null);
            String reason = v == null ? null : v.reason();
            if (PendingReason.Inadmissible.name().equals(reason) || PendingReason.NoQuota.name().equals(reason)) {
                return "it cannot be admitted as things stand (" + reason + "), whatever ends";
            }
            if (horizonReached) {
                return "it is not admitted within the " + limits.horizon().toDays() + " days the estimate looks ahead";
            }
            if (!anyKnownEnd) {
                return "no running workload has a known end (none declares taskgov.dev/expected-runtime, and no finished "
                        + "workload gives a run time to learn from)";
            }
            // Only those on its instance types can free what it waits for; others running without an end do not matter.
            Set<String> types = instanceTypes(pending.get(id));
            long blocking = withoutEnd.stream().map(byId::get)
                    .filter(w -> w != null && instanceTypes(w).stream().anyMatch(types::contains)).count();
            return "it is not admitted before the work with a known end is done; " + blocking
                    + (blocking == 1 ? " workload runs" : " workloads run") + " on its instance types with no known end "
                    + "(no declared or learned run time)";
        }
    }
}
