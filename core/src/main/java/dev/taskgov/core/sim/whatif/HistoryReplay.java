package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.SubmitResult;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.core.topology.Node;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Replays a recorded window on the scheduler (the deciders' core, in process) twice, as recorded and with a proposed
 * change, and compares the teams' figures (docs/semantics.md, "What-if"). How the replay treats the record:
 * <ul>
 *   <li>a workload enters its team's queue at its recorded submission, with its recorded place in the queue;</li>
 *   <li>a workload the platform admitted and then finished runs, each time the replay admits it, as long as its last
 *       recorded run lasted (its last admission to its finish): the run time is the job's, whoever admits it when;</li>
 *   <li>a workload that ended without being admitted (cancelled while it waited) leaves at its recorded end, whatever
 *       the replay made of it by then;</li>
 *   <li>a workload with no recorded end runs (or waits) until the window closes;</li>
 *   <li>node, quota and config records change the cluster at their recorded times (a node record brings its instance
 *       type, as it does to the deciders).</li>
 * </ul>
 * Both runs go through the same replay, so what differs between them is the change's doing, not the replay's.
 */
public final class HistoryReplay {

    private HistoryReplay() {
    }

    /**
     * Both replays and the comparison.
     *
     * @param evictedIfMadeNow what the change would evict if made now ({@link MadeNow}: from the cluster as recorded
     *                         now, not from where the replay ends), reported as given
     * @param skipped records the caller could not turn into events, with why (reported back)
     * @throws ValidationException when proposed quotas, with the recorded ones they leave in force, sum to more than
     *                             the cluster's capacity at the window's start (as the quota API would refuse them)
     */
    public static WhatIfReport compare(History history, ProposedChange change, List<WhatIfReport.Eviction> evictedIfMadeNow,
                                       List<String> skipped) {
        checkCapacity(history, change);
        Outcome asRecorded = new Run(history, null).play();
        Outcome withChange = new Run(history, change).play();
        Set<String> teams = new TreeSet<>(asRecorded.figures.keySet());
        teams.addAll(withChange.figures.keySet());
        List<WhatIfReport.TeamComparison> rows = new ArrayList<>();
        for (String team : teams) {
            rows.add(new WhatIfReport.TeamComparison(team, asRecorded.figures.getOrDefault(team, Run.empty(team)),
                    withChange.figures.getOrDefault(team, Run.empty(team))));
        }
        return new WhatIfReport(history.cluster(), history.from(), history.to(), change.describe(), asRecorded.workloads, rows,
                List.copyOf(evictedIfMadeNow),
                List.copyOf(skipped));
    }

    private static void checkCapacity(History history, ProposedChange change) {
        // Only what the proposal creates or grows is checked: a deletion or a new config is never refused because the
        // recorded quotas exceed what the ready nodes offer now (a node may have failed since they were made).
        if (change.quotas().isEmpty()) return;
        // The quotas and nodes the window knows: its start's, and those its records add that the start lacks.
        History.Start now = history.known();
        Map<String, TeamQuota> effective = new TreeMap<>();
        now.quotas().forEach(q -> effective.put(q.team(), q));
        effective.putAll(change.quotas());
        change.removed().forEach(effective::remove);
        List<Violation> over = ComputeQuotas.checkCapacity(effective.values(), ComputeQuotas.clusterCapacity(now.nodes()));
        if (!over.isEmpty()) throw new ValidationException(over);
    }

    private record Outcome(Map<String, TeamFigures> figures, int workloads) {
    }

    /** A finish the replay scheduled when it admitted a workload; stale once the workload was evicted meanwhile. */
    private record Due(Instant at, long seq, String workloadId, long admission) {
    }

    /** One replay of the window. */
    private static final class Run {
        private final History history;
        private final ProposedChange change;
        private final VirtualClock clock;
        private final Scheduler scheduler;
        /** How long each workload runs once admitted; absent: until the window closes. */
        private final Map<String, Duration> runFor = new HashMap<>();
        /** Workloads that ended without a recorded admission: they leave at their recorded end. */
        private final Set<String> withdrawn = new TreeSet<>();
        private final PriorityQueue<Due> due = new PriorityQueue<>((a, b) -> a.at.equals(b.at) ? Long.compare(a.seq, b.seq) : a.at.compareTo(b.at));
        private long seq;
        /** Per workload, which admission of it is current (a finish due for an earlier one is stale). */
        private final Map<String, Long> admission = new HashMap<>();
        private final Map<String, String> teamOf = new HashMap<>();
        private final Map<String, Instant> entered = new LinkedHashMap<>();
        private final Map<String, Instant> firstAdmitted = new HashMap<>();
        private final Set<String> left = new TreeSet<>();
        private final Map<String, Tally> tallies = new TreeMap<>();

        Run(History history, ProposedChange change) {
            this.history = history;
            this.change = change;
            this.clock = new VirtualClock(history.from());
            History.Start start = history.start();
            this.scheduler = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, start.instanceTypes().values(), start.nodes());
            scheduler.applySchedulerConfig(start.config());
            start.quotas().forEach(scheduler::applyQuota);
            // Deleting a quota after the recorded ones keeps the team known: its submissions wait (NoQuota), as they
            // would after a real deletion, rather than being refused as a team that never existed.
            if (change != null) change.applyTo(scheduler);
            Map<String, Instant> lastAdmitted = new HashMap<>();
            for (History.Event e : history.events()) {
                if (e instanceof History.Admitted a) {
                    lastAdmitted.put(a.workloadId(), a.at());
                } else if (e instanceof History.Finished f) {
                    Instant admitted = lastAdmitted.get(f.workloadId());
                    if (admitted != null) runFor.putIfAbsent(f.workloadId(), Duration.between(admitted, f.at()));
                    else withdrawn.add(f.workloadId());
                }
            }
        }

        static TeamFigures empty(String team) {
            return new TeamFigures(team, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }

        Outcome play() {
            List<History.Event> events = history.events();
            int next = 0;
            Instant now = history.from();
            quiet();
            while (true) {
                Instant at = null;
                if (next < events.size()) at = events.get(next).at();
                if (!due.isEmpty() && (at == null || due.peek().at.isBefore(at))) at = due.peek().at;
                Optional<Instant> deadline = scheduler.nextDeadline();
                if (deadline.isPresent() && deadline.get().isAfter(now) && (at == null || deadline.get().isBefore(at))) at = deadline.get();
                if (at == null || at.isAfter(history.to())) break;
                if (at.isBefore(now)) at = now;
                moveTo(now, at);
                now = at;
                while (next < events.size() && !events.get(next).at().isAfter(now)) apply(events.get(next++));
                while (!due.isEmpty() && !due.peek().at.isAfter(now)) {
                    Due d = due.poll();
                    if (admission.getOrDefault(d.workloadId, -1L) == d.admission && !left.contains(d.workloadId)) {
                        scheduler.finish(d.workloadId);
                        left.add(d.workloadId);
                    }
                }
                quiet();
            }
            moveTo(now, history.to());
            return new Outcome(figures(), entered.size());
        }

        private void apply(History.Event e) {
            if (e instanceof History.Submitted s) {
                WorkloadSubmitted w = s.submission().submittedAt() == null ? s.submission().withSubmittedAt(s.at()) : s.submission();
                SubmitResult r = scheduler.submit(w);
                if (r instanceof SubmitResult.Accepted) {
                    entered.put(w.workloadId(), clock.instant());
                    teamOf.put(w.workloadId(), w.team());
                    tally(w.team()).submitted++;
                }
            } else if (e instanceof History.Finished f) {
                if (withdrawn.contains(f.workloadId()) && entered.containsKey(f.workloadId()) && left.add(f.workloadId())) {
                    scheduler.finish(f.workloadId());
                }
            } else if (e instanceof History.NodeChanged n) {
                scheduler.upsertNode(n.node());
                // The node's instance type, as its nodes show it now: a window that opens before the cluster's first
                // node knows no type at its start, and without it every submission would be refused as asking for an
                // unknown instance type. The deciders learn the types from the topology records the same way.
                scheduler.upsertInstanceType(typeOf(n.node().instanceType()));
            } else if (e instanceof History.NodeRemoved n) {
                scheduler.removeNode(n.nodeName());
            } else if (e instanceof History.QuotaChanged q) {
                if (change == null || !change.decidesQuotaOf(q.quota().team())) scheduler.applyQuota(q.quota());
            } else if (e instanceof History.QuotaDeleted q) {
                if (change == null || !change.decidesQuotaOf(q.team())) scheduler.removeQuota(q.team());
            } else if (e instanceof History.ConfigChanged c) {
                if (change == null || change.config() == null) scheduler.applySchedulerConfig(c.config());
            }
            // Admitted: not replayed; it only told the run time (see the constructor).
        }

        /** An instance type as the cluster's nodes of that type show it: the largest allocatable among them. */
        private InstanceType typeOf(String name) {
            Resources capacity = Resources.ZERO;
            for (Node node : scheduler.topology().nodes()) {
                if (node.instanceType().equals(name)) capacity = capacity.max(node.allocatable());
            }
            return new InstanceType(name, capacity);
        }

        /** Runs the scheduler until nothing more is admitted or evicted, counting what it decided. */
        private void quiet() {
            scheduler.cycleUntilQuiet(d -> {
                if (d instanceof Decision.Admit a) {
                    if (a.nodeReplaced()) return false;
                    tally(a.team()).admissions++;
                    firstAdmitted.putIfAbsent(a.workloadId(), clock.instant());
                    long n = admission.merge(a.workloadId(), 1L, Long::sum);
                    Duration runTime = runFor.get(a.workloadId());
                    if (runTime != null) due.add(new Due(clock.instant().plus(runTime), seq++, a.workloadId(), n));
                } else if (d instanceof Decision.Evict ev) {
                    evicted(ev.victim());
                } else if (d instanceof Decision.Preempt p) {
                    for (Victim v : p.plan().victims()) evicted(v);
                    tally(p.plan().preemptorTeam()).caused += p.plan().victims().size();
                }
                return false;
            });
        }

        private void evicted(Victim v) {
            tally(v.team()).suffered++;
            admission.merge(v.workloadId(), 1L, Long::sum);
        }

        /** Time passes from {@code a} to {@code b} with the cluster as it is: the hours accrue. */
        private void moveTo(Instant a, Instant b) {
            if (!b.isAfter(a)) return;
            double hours = Duration.between(a, b).toMillis() / 3_600_000.0;
            accrue(hours);
            clock.advance(Duration.between(clock.instant(), b));
        }

        private void accrue(double hours) {
            QuotaLedger ledger = scheduler.ledger();
            Set<String> teams = new TreeSet<>(tallies.keySet());
            ledger.quotas().forEach(q -> teams.add(q.team()));
            Set<String> types = new TreeSet<>();
            for (String team : teams) {
                types.addAll(ledger.usage(team).keySet());
                TeamQuota q = ledger.quota(team);
                if (q != null) types.addAll(q.instanceTypes());
            }
            for (String type : types) {
                long borrowedAll = 0;
                long idleAll = 0;
                long allocated = 0;
                Map<String, Long> idle = new TreeMap<>();
                for (String team : teams) {
                    long used = ledger.usage(team, type).accelerators();
                    TeamQuota q = ledger.quota(team);
                    long nominal = q == null || !q.active() ? 0 : q.nominal(type).accelerators();
                    if (used > 0) tally(team).usedHours += used * hours;
                    long borrowed = Math.max(0, used - nominal);
                    if (borrowed > 0) tally(team).borrowedHours += borrowed * hours;
                    borrowedAll += borrowed;
                    if (q != null && q.active()) {
                        allocated += nominal;
                        long lendable = q.lendable(type).accelerators();
                        long aboveGuaranteed = Math.max(0, used - q.guaranteed(type).accelerators());
                        long offered = Math.max(0, lendable - aboveGuaranteed);
                        if (offered > 0) {
                            idle.put(team, offered);
                            idleAll += offered;
                        }
                    }
                }
                if (borrowedAll == 0) continue;
                // idle resource sharing lends what no quota allocates, too: its share of the borrowing is nobody's
                long unallocated = scheduler.config().idleResourceSharing()
                        ? Math.max(0, scheduler.ledger().clusterCapacity(type).accelerators() - allocated) : 0;
                double offeredAll = idleAll + unallocated;
                if (offeredAll == 0) continue;
                double lentNow = Math.min(borrowedAll, offeredAll);
                for (Map.Entry<String, Long> e : idle.entrySet()) {
                    tally(e.getKey()).lentHours += lentNow * e.getValue() / offeredAll * hours;
                }
            }
        }

        private Tally tally(String team) {
            return tallies.computeIfAbsent(team, t -> new Tally());
        }

        private Map<String, TeamFigures> figures() {
            Map<String, List<Long>> waits = new TreeMap<>();
            Map<String, Integer> pending = new TreeMap<>();
            entered.forEach((id, at) -> {
                String team = teamOf.get(id);
                Instant admitted = firstAdmitted.get(id);
                if (admitted == null && withdrawn.contains(id) && left.contains(id)) return; // cancelled while waiting
                if (admitted == null) pending.merge(team, 1, Integer::sum);
                waits.computeIfAbsent(team, t -> new ArrayList<>())
                        .add(Duration.between(at, admitted == null ? history.to() : admitted).toSeconds());
            });
            Map<String, TeamFigures> out = new TreeMap<>();
            tallies.forEach((team, t) -> {
                List<Long> w = waits.getOrDefault(team, List.of());
                out.put(team, new TeamFigures(team, t.submitted, t.admissions, mean(w), p90(w), pending.getOrDefault(team, 0),
                        t.suffered, t.caused, round(t.borrowedHours), round(t.lentHours), round(t.usedHours)));
            });
            return out;
        }

        private static double mean(Collection<Long> xs) {
            return xs.isEmpty() ? 0 : round(xs.stream().mapToLong(Long::longValue).average().orElse(0));
        }

        private static double p90(List<Long> xs) {
            if (xs.isEmpty()) return 0;
            List<Long> sorted = xs.stream().sorted().toList();
            return sorted.get((int) Math.ceil(0.9 * sorted.size()) - 1);
        }

        private static double round(double x) {
            return Math.round(x * 100) / 100.0;
        }
    }

    private static final class Tally {
        int submitted;
        int admissions;
        int suffered;
        int caused;
        double borrowedHours;
        double lentHours;
        double usedHours;
    }
}
