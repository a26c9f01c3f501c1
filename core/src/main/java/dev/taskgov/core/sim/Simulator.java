package dev.taskgov.core.sim;

import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.PlanResult;
import dev.taskgov.core.preemption.PreemptionPlanner;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.SubmitResult;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.topology.PodSetPlacement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Replays a {@link Scenario} deterministically on an in-process {@link Scheduler}: virtual time
 * starts at {@link #START} and each step advances it by one second; after each step but an expect
 * the scheduler runs until nothing more can be admitted or preempted. Evictions without a
 * preemptor (node failure, quota removed) count in {@code preemptedSinceLastExpect} like preemptions.
 */
public final class Simulator {

    /** Virtual time before the first step. */
    public static final Instant START = Instant.parse("2026-11-30T10:00:00Z");

    private Simulator() {
    }

    /** Replays a scenario in process; {@code file} is only reported back. */
    public static ScenarioResult run(Scenario scenario, String file) {
        return run(scenario, file, Scheduler.Mode.IN_PROCESS);
    }

    /**
     * Replays a scenario in either mode. In {@link Scheduler.Mode#DELEGATED} the simulator plays
     * the preemption service: on {@link Decision.PreemptionNeeded} it plans with
     * {@link PreemptionPlanner} on the scheduler's state and reports each eviction through
     * {@link Scheduler#evict}, as the live services do; both modes must give the same outcome.
     */
    public static ScenarioResult run(Scenario scenario, String file, Scheduler.Mode mode) {
        VirtualClock clock = new VirtualClock(START);
        Scheduler scheduler = new Scheduler(clock, mode, scenario.instanceTypes().values(), scenario.nodes());
        scheduler.applySchedulerConfig(scenario.schedulerConfig());
        for (TeamQuota q : scenario.quotas()) scheduler.applyQuota(q);
        if (scenario.waitForPodsReady() != null) scheduler.waitForPodsReady(scenario.waitForPodsReady());
        List<ScenarioResult.Check> checks = new ArrayList<>();
        List<String> log = new ArrayList<>();
        Set<String> preemptedSince = new LinkedHashSet<>();
        for (Scenario.Step step : scenario.steps()) {
            String at = "[" + step.index() + "] ";
            Duration by = step instanceof Scenario.Advance a ? a.by() : Duration.ofSeconds(1);
            advance(scheduler, clock, by, at, log, preemptedSince);
            if (step instanceof Scenario.Advance a) {
                log.add(at + "advance " + a.by() + " to " + clock.instant());
                runUntilQuiet(scheduler, at, log, preemptedSince);
            } else if (step instanceof Scenario.Expect e) {
                checks.addAll(check(scheduler, e, preemptedSince));
                preemptedSince.clear();
            } else {
                log.add(at + apply(scheduler, step, clock));
                runUntilQuiet(scheduler, at, log, preemptedSince);
            }
        }
        boolean ok = checks.stream().allMatch(ScenarioResult.Check::ok);
        List<ScenarioResult.FinalState> finals = scheduler.workloads().stream().map(Simulator::finalState).toList();
        return new ScenarioResult(scenario.name(), file, ok, checks, finals, log);
    }

    /**
     * Moves virtual time on by {@code by}: gang admission's timers due meanwhile fire in time order, the scheduler
     * running at each one's time.
     */
    private static void advance(Scheduler scheduler, VirtualClock clock, Duration by, String at, List<String> log,
                                Set<String> preemptedSince) {
        Instant target = clock.instant().plus(by);
        for (Optional<Instant> next = scheduler.nextDeadline(); next.isPresent() && !next.get().isAfter(target);
             next = scheduler.nextDeadline()) {
            if (next.get().isAfter(clock.instant())) clock.advance(Duration.between(clock.instant(), next.get()));
            runUntilQuiet(scheduler, at + "at " + clock.instant() + ": ", log, preemptedSince);
        }
        if (target.isAfter(clock.instant())) clock.advance(Duration.between(clock.instant(), target));
    }

    /** Feeds one step (not an expect) to the scheduler; returns what happened, for the log. */
    private static String apply(Scheduler scheduler, Scenario.Step step, VirtualClock clock) {
        if (step instanceof Scenario.Submit s) {
            WorkloadSubmitted w = s.workload().submittedAt() == null ? s.workload().withSubmittedAt(clock.instant()) : s.workload();
            SubmitResult r = scheduler.submit(w);
            if (r instanceof SubmitResult.Ignored ig) return "submit " + w.workloadId() + ": " + ig.message();
            if (r instanceof SubmitResult.IdTaken t) return "submit " + w.workloadId() + ": refused, " + t.refusal().message();
            if (r instanceof SubmitResult.Rejected rj) {
                return "submit " + w.workloadId() + ": rejected (" + rj.decision().reason() + ") " + rj.decision().message();
            }
            return "submit " + w.workloadId();
        } else if (step instanceof Scenario.Finish f && f.outcome() == WorkloadFinished.Outcome.Failed) {
            return "fail " + f.workloadId() + ": " + scheduler.fail(f.workloadId()).message();
        } else if (step instanceof Scenario.Finish f) {
            return "finish " + f.workloadId() + ": " + scheduler.finish(f.workloadId()).message();
        } else if (step instanceof Scenario.NodeChange n) {
            scheduler.upsertNode(n.node());
            return "node " + n.node().name() + (n.node().ready() ? " ready" : " not ready");
        } else if (step instanceof Scenario.RemoveNode n) {
            boolean known = scheduler.topology().nodes().stream().anyMatch(x -> x.name().equals(n.nodeName()));
            scheduler.removeNode(n.nodeName());
            return "removeNode " + n.nodeName() + (known ? "" : ": unknown node; nothing changed");
        } else if (step instanceof Scenario.QuotaChange q) {
            scheduler.applyQuota(q.quota());
            return "quota of " + q.quota().team() + (q.quota().active() ? "" : " (disabled)");
        } else if (step instanceof Scenario.DeleteQuota q) {
            scheduler.removeQuota(q.team());
            return "deleteQuota " + q.team();
        } else if (step instanceof Scenario.PodsReady r) {
            return "podsReady " + r.workloadId() + ": " + scheduler.podsReady(r.workloadId()).message();
        } else if (step instanceof Scenario.ConfigChange c) {
            scheduler.applySchedulerConfig(c.config());
            return "schedulerConfig " + c.config().priorityClasses() + " FairShare " + (c.config().fairShare() ? "Enabled" : "Disabled");
        }
        throw new IllegalArgumentException("not a step to apply: " + step);
    }

    private static void runUntilQuiet(Scheduler scheduler, String at, List<String> log, Set<String> preemptedSince) {
        scheduler.cycleUntilQuiet(d -> {
            if (d instanceof Decision.Admit a) {
                log.add(at + (a.nodeReplaced() ? "new placement of " + a.workloadId() + " (NodeReplaced: " + a.replacedBecause() + ")"
                        : "admit " + a.workloadId()) + " on " + placementOf(a.placement().podSets())
                        + (a.borrowed().isEmpty() ? "" : " borrowing " + a.borrowed()));
            } else if (d instanceof Decision.Evict ev) {
                preemptedSince.add(ev.workloadId());
                log.add(at + "evict " + ev.workloadId() + " (" + ev.victim().reason() + "): " + ev.victim().message());
            } else if (d instanceof Decision.Preempt p) {
                for (Victim v : p.plan().victims()) {
                    preemptedSince.add(v.workloadId());
                    log.add(at + "preempt " + v.workloadId() + " for " + p.plan().preemptorId() + " (" + v.reason() + "): " + v.message());
                }
            } else if (d instanceof Decision.StayPending sp) {
                log.add(at + "pending " + sp.workloadId() + " (" + sp.reason() + "): " + sp.message());
            } else if (d instanceof Decision.PreemptionsStopped stop) {
                log.add(at + "preemptions stopped: " + stop.message());
            } else if (d instanceof Decision.Reject r) {
                log.add(at + "reject " + r.workloadId() + " (" + r.reason() + "): " + r.message());
            } else if (d instanceof Decision.PreemptionNeeded n) {
                log.add(at + "preemption needed for " + n.workloadId() + ": " + n.message());
                // delegated mode: the simulator plays preemption-service, and its evictions are a change of its own
                if (PreemptionPlanner.plan(scheduler.clusterView(), n.workload(), n::mayEvict) instanceof PlanResult.PreemptionPlan plan) {
                    for (Victim v : plan.victims()) {
                        scheduler.evict(v, plan.preemptorId());
                        preemptedSince.add(v.workloadId());
                        log.add(at + "preempt " + v.workloadId() + " for " + plan.preemptorId() + " (" + v.reason() + "): " + v.message());
                    }
                    return !plan.victims().isEmpty();
                }
            }
            return false;
        });
    }

    private static List<ScenarioResult.Check> check(Scheduler scheduler, Scenario.Expect e, Set<String> preemptedSince) {
        List<ScenarioResult.Check> out = new ArrayList<>();
        for (String id : e.admitted()) out.add(stateCheck(scheduler, e.index(), "admitted", id, WorkloadState.Admitted));
        for (String id : e.pending()) out.add(stateCheck(scheduler, e.index(), "pending", id, WorkloadState.Pending));
        for (String id : e.finished()) out.add(stateCheck(scheduler, e.index(), "finished", id, WorkloadState.Finished));
        if (e.preemptedSinceLastExpect() != null) {
            Set<String> expected = new TreeSet<>(e.preemptedSinceLastExpect());
            Set<String> seen = new TreeSet<>(preemptedSince);
            out.add(new ScenarioResult.Check(e.index(), "preemptedSinceLastExpect", null, expected.equals(seen), expected, seen));
        }
        e.placements().forEach((id, podSets) -> {
            Optional<WorkloadView> w = scheduler.workload(id);
            Map<String, Map<String, Integer>> seenAll = w.filter(v -> v.placement() != null)
                    .map(v -> placementOf(v.placement().podSets())).orElse(null);
            podSets.forEach((podSet, expected) -> {
                Object seen;
                boolean ok;
                if (seenAll == null) {
                    seen = w.map(Simulator::describe).orElse("unknown workload");
                    ok = false;
                } else {
                    Map<String, Integer> s = seenAll.getOrDefault(podSet, Map.of());
                    seen = s;
                    ok = s.equals(expected);
                }
                out.add(new ScenarioResult.Check(e.index(), "placements", id + "/" + podSet, ok, expected, seen));
            });
        });
        return out;
    }

    private static ScenarioResult.Check stateCheck(Scheduler scheduler, int step, String check, String id, WorkloadState want) {
        Optional<WorkloadView> w = scheduler.workload(id);
        boolean ok = w.map(v -> v.state() == want).orElse(false);
        return new ScenarioResult.Check(step, check, id, ok, want.name(), w.map(Simulator::describe).orElse("unknown workload"));
    }

    private static String describe(WorkloadView v) {
        return v.state() + (v.reason() == null ? "" : " (" + v.reason() + ": " + v.message() + ")");
    }

    private static Map<String, Map<String, Integer>> placementOf(List<PodSetPlacement> podSets) {
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        for (PodSetPlacement p : podSets) out.put(p.name(), new TreeMap<>(p.podsPerNode()));
        return out;
    }

    private static ScenarioResult.FinalState finalState(WorkloadView v) {
        Map<String, ResourceAmounts> borrowed = new TreeMap<>();
        if (v.borrowed() != null) v.borrowed().forEach((t, r) -> borrowed.put(t, ResourceAmounts.of(r)));
        return new ScenarioResult.FinalState(v.workloadId(), v.team(), v.state().name(), v.reason(), v.message(),
                v.placement() == null ? null : placementOf(v.placement().podSets()), borrowed);
    }
}
