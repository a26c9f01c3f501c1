package dev.taskgov.core.sim;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * An independent, deliberately naive reading of docs/semantics.md ("Quotas", "Lending and borrowing", "Fair share", "Topology placement",
 * "Admission order and preemption", "Precise rules"), used only as a test oracle for the core
 * scheduler. It shares nothing with {@code Scheduler}, {@code PreemptionPlanner} or
 * {@code TopologyIndex}: every decision is recomputed from the list of running workloads, and
 * every rule is written the way docs/semantics.md words it, without any index or cache. Only the parsed
 * input records ({@link Scenario}, {@link TeamQuota}'s derived amounts) are shared.
 *
 * <p>Out of scope (see {@link #models}): the steps of a changing cluster and the repository's
 * quota and policy extensions. Node selectors (a repository extension) restrict the nodes a pod
 * set may use.
 */
final class ReferenceSimulator {

    /** A workload's observable state after a step: Admitted, Pending, Finished or Rejected, and its placement. */
    record Snapshot(int stepIndex, Map<String, String> states, Set<String> preemptedSince,
                    Map<String, Map<String, Map<String, Integer>>> placements) {
    }

    private record PodSet(String name, int count, String type, Resources perPod, int required, int preferred,
                          Map<String, String> nodeSelector) {
        /** The nodes a pod of this set may run on: its instance type, ready, carrying the node selector's labels. */
        boolean mayUse(RNode n) {
            return n.type().equals(type) && n.ready() && n.node().matches(nodeSelector);
        }
    }

    private static final class W {
        String id;
        String team;
        int priority;
        Instant submittedAt;
        long submitSeq;
        List<PodSet> podSets;
        String state;
        Map<String, Map<String, Integer>> placement;
        long admittedSeq;
    }

    private record RNode(String name, String type, List<String> path, Resources alloc, boolean ready, Node node) {
    }

    /** A plan for admitting one workload: its victims (possibly none) and its placement. */
    private record Plan(W workload, List<W> victims, Map<String, Map<String, Integer>> placement) {
    }

    private final Scenario scenario;
    private final List<RNode> nodes = new ArrayList<>();
    private final Map<String, TeamQuota> quotas = new TreeMap<>();
    private final Map<String, W> workloads = new LinkedHashMap<>();
    private final List<String> log = new ArrayList<>();
    private long submitCounter;
    private long admitCounter;

    private ReferenceSimulator(Scenario scenario) {
        this.scenario = scenario;
        for (Node n : scenario.nodes()) {
            List<String> path = new ArrayList<>();
            for (String level : TopologyLevels.ALL) path.add(n.levelValue(level));
            nodes.add(new RNode(n.name(), n.instanceType(), List.copyOf(path), n.allocatable(), n.ready(), n));
        }
        for (TeamQuota q : scenario.quotas()) quotas.put(q.team(), q);
    }

    /**
     * Whether the reference models everything a scenario uses: docs/semantics.md's submit, finish and
     * expect steps, on a fixed cluster and policy. Not modelled: the steps of a changing cluster,
     * and the repository's extensions beyond docs/semantics.md (IdleResourceSharing Enabled,
     * AbsoluteBorrowLimits, a Failed finish that retries).
     */
    static boolean models(Scenario scenario) {
        return scenario.waitForPodsReady() == null && !scenario.schedulerConfig().idleResourceSharing()
                && scenario.quotas().stream().allMatch(q -> q.absoluteBorrowLimits().isEmpty())
                && scenario.steps().stream().allMatch(s -> s instanceof Scenario.Submit || s instanceof Scenario.Expect
                        || s instanceof Scenario.Finish f && f.outcome() != dev.taskgov.core.events.WorkloadFinished.Outcome.Failed);
    }

    /** Replays a scenario; one snapshot after every step (expect steps included). */
    static List<Snapshot> run(Scenario scenario) {
        return new ReferenceSimulator(scenario).replay();
    }

    /** What the reference decided, step by step (admissions with their victims and placements), for diagnosing a disagreement. */
    static List<String> decisions(Scenario scenario) {
        ReferenceSimulator r = new ReferenceSimulator(scenario);
        r.replay();
        return r.log;
    }

    private List<Snapshot> replay() {
        List<Snapshot> out = new ArrayList<>();
        Set<String> preemptedSince = new LinkedHashSet<>();
        for (Scenario.Step step : scenario.steps()) {
            Instant now = Simulator.START.plusSeconds(step.index() + 1L);
            if (step instanceof Scenario.Submit s) {
                submit(s.workload(), now);
                log.add("[" + step.index() + "] submit " + s.workload().workloadId() + ": " + workloads.get(s.workload().workloadId()).state);
                settle(preemptedSince);
            } else if (step instanceof Scenario.Finish f) {
                W w = workloads.get(f.workloadId());
                if (w != null && (w.state.equals("Admitted") || w.state.equals("Pending"))) {
                    w.state = "Finished";
                    w.placement = null;
                }
                settle(preemptedSince);
            } else if (step instanceof Scenario.Expect) {
                out.add(snapshot(step.index(), preemptedSince));
                preemptedSince.clear();
                continue;
            } else {
                throw new IllegalArgumentException("the reference does not model step " + step);
            }
            out.add(snapshot(step.index(), preemptedSince));
        }
        return out;
    }

    private Snapshot snapshot(int index, Set<String> preemptedSince) {
        Map<String, String> states = new TreeMap<>();
        Map<String, Map<String, Map<String, Integer>>> placements = new TreeMap<>();
        for (W w : workloads.values()) {
            states.put(w.id, w.state);
            if (w.placement != null) placements.put(w.id, copy(w.placement));
        }
        return new Snapshot(index, states, new TreeSet<>(preemptedSince), placements);
    }

    // ---------------------------------------------------------------- submission

    private void submit(WorkloadSubmitted s, Instant now) {
        if (workloads.containsKey(s.workloadId())) return; // a workload id seen twice is one workload
        W w = new W();
        w.id = s.workloadId();
        w.team = s.team();
        w.submittedAt = s.submittedAt() == null ? now : s.submittedAt();
        w.submitSeq = submitCounter++;
        workloads.put(w.id, w);
        w.state = valid(s, w) ? "Pending" : "Rejected";
    }

    /** The rejection rules of "Input and lifecycle" and the dead-letter list; fills in the workload. */
    private boolean valid(WorkloadSubmitted s, W w) {
        if (s.podSets() == null || s.podSets().isEmpty()) return false;
        Set<String> names = new HashSet<>();
        List<PodSet> sets = new ArrayList<>();
        for (PodSetSpec p : s.podSets()) {
            if (p.name() == null || !names.add(p.name())) return false;
            if (p.count() == null || p.count() < 1) return false;
            if (p.requiredTopology() != null && p.preferredTopology() != null) return false;
            int req = p.requiredTopology() == null ? -1 : TopologyLevels.ALL.indexOf(p.requiredTopology());
            int pref = p.preferredTopology() == null ? -1 : TopologyLevels.ALL.indexOf(p.preferredTopology());
            if (p.requiredTopology() != null && req < 0 || p.preferredTopology() != null && pref < 0) return false;
            Resources perPod;
            try {
                perPod = p.requests() == null ? Resources.ZERO : p.requests().toResources();
            } catch (IllegalArgumentException negative) {
                return false;
            }
            sets.add(new PodSet(p.name(), p.count(), p.instanceType(), perPod, req, pref, p.nodeSelector()));
        }
        if (w.team == null || !quotas.containsKey(w.team)) return false;
        try {
            w.priority = scenario.schedulerConfig().priorityOf(s.priorityClass());
        } catch (ValidationException unknownClass) {
            return false;
        }
        for (PodSet p : sets) {
            if (!scenario.instanceTypes().containsKey(p.type())) return false;
            boolean someNodeHolds = nodes.stream().anyMatch(n -> n.type().equals(p.type()) && p.perPod().fitsIn(n.alloc()));
            if (!someNodeHolds) return false;
        }
        w.podSets = sets;
        return true;
    }

    // ---------------------------------------------------------------- the admission loop

    /**
     * Admits (and preempts) one workload at a time, recomputing every team head after each: one run of the scheduler.
     * "Every run ends": a workload a preemption evicted in this run may preempt only workloads admitted when the run
     * began that are still admitted; a workload not evicted in it preempts at most once in it.
     */
    private void settle(Set<String> preemptedSince) {
        Set<W> admittedAtStart = new HashSet<>(running());
        Set<W> evictedInRun = new HashSet<>();
        Set<W> preemptedInRun = new HashSet<>();
        for (int guard = 0; ; guard++) {
            if (guard > 1_000) {
                throw new IllegalStateException("reference does not settle (preemption cycle?): "
                        + log.subList(Math.max(0, log.size() - 8), log.size()));
            }
            List<W> running = running();
            List<Plan> heads = new ArrayList<>();
            Map<String, List<W>> queues = new TreeMap<>();
            for (W w : workloads.values()) {
                if (w.state.equals("Pending")) queues.computeIfAbsent(w.team, t -> new ArrayList<>()).add(w);
            }
            for (List<W> queue : queues.values()) {
                queue.sort(QUEUE_ORDER);
                for (W w : queue) {
                    Plan p = evictedInRun.contains(w) ? admissionPlan(w, running, admittedAtStart::contains)
                            : preemptedInRun.contains(w) ? directPlan(w, running)
                            : admissionPlan(w, running, v -> true);
                    if (p != null) {
                        heads.add(p);
                        break;
                    }
                }
            }
            if (heads.isEmpty()) return;
            heads.sort(headOrder(running));
            Plan winner = heads.get(0);
            for (W v : winner.victims()) {
                v.state = "Pending";
                v.placement = null;
                preemptedSince.add(v.id);
                evictedInRun.add(v);
                admittedAtStart.remove(v);
            }
            if (!winner.victims().isEmpty() && !evictedInRun.contains(winner.workload())) preemptedInRun.add(winner.workload());
            log.add("admit " + winner.workload().id + " evicting " + winner.victims().stream().map(v -> v.id).toList()
                    + " on " + winner.placement());
            winner.workload().state = "Admitted";
            winner.workload().placement = winner.placement();
            winner.workload().admittedSeq = ++admitCounter;
        }
    }

    /** "higher priority first, then earlier submission". */
    private static final Comparator<W> QUEUE_ORDER = Comparator.<W>comparingInt(w -> -w.priority)
            .thenComparing(w -> w.submittedAt).thenComparingLong(w -> w.submitSeq);

    /**
     * "heads that fit within their team's nominal go first; then with FairShare Enabled the lowest
     * share after admission; then higher priority, earlier submission, team name." Both are read
     * on the team's usage now plus the head's request (its victims, if any, still counted), as
     * the reclaim rule reads "stays within its nominal" and as Kueue orders its entries.
     */
    private Comparator<Plan> headOrder(List<W> running) {
        Comparator<Plan> c = Comparator.comparing(p -> withinNominal(p.workload(), plus(running, p.workload())) ? 0 : 1);
        if (scenario.schedulerConfig().fairShare()) {
            c = c.thenComparing((a, b) -> share(a.workload().team, plus(running, a.workload()))
                    .compareTo(share(b.workload().team, plus(running, b.workload()))));
        }
        return c.thenComparingInt(p -> -p.workload().priority).thenComparing(p -> p.workload().submittedAt)
                .thenComparing(p -> p.workload().team);
    }

    private List<W> running() {
        List<W> out = new ArrayList<>();
        for (W w : workloads.values()) if (w.state.equals("Admitted")) out.add(w);
        return out;
    }

    // ---------------------------------------------------------------- admitting one workload

    /** How the workload can be admitted now without evicting anything, or null. */
    private Plan directPlan(W w, List<W> running) {
        Map<String, Map<String, Integer>> direct = fit(w, running, true);
        return direct == null ? null : new Plan(w, List.of(), direct);
    }

    /** How the workload can be admitted now (directly, or after evicting victims that {@code mayEvict} allows), or null. */
    private Plan admissionPlan(W w, List<W> running, java.util.function.Predicate<W> mayEvict) {
        Map<String, Map<String, Integer>> direct = fit(w, running, true);
        if (direct != null) return new Plan(w, List.of(), direct);
        TeamQuota q = quotas.get(w.team);
        List<W> ownLower = new ArrayList<>();
        if (q.preemptTeamTasks() == PreemptTeamTasks.LowerPriority) {
            for (W r : running) if (r.team.equals(w.team) && r.priority < w.priority && mayEvict.test(r)) ownLower.add(r);
        }
        ownLower.sort(VICTIM_ORDER);
        List<W> others = new ArrayList<>();
        for (W r : running) if (!r.team.equals(w.team) && mayEvict.test(r)) others.add(r);
        others.sort(VICTIM_ORDER);
        List<W> otherThenOwn = new ArrayList<>(others);
        otherThenOwn.addAll(ownLower);

        // 1. Reclaim, only when the team stays within its nominal on what the workload asks for.
        if (withinNominal(w, plus(running, w))) {
            Plan p = select(w, running, otherThenOwn, false,
                    (v, state) -> v.team.equals(w.team) || borrowing(v.team, state));
            if (p != null) return p;
        }
        // 2. Fair sharing: LessThanOrEqualToFinalShare, then LessThanInitialShare.
        if (scenario.schedulerConfig().fairShare()) {
            Plan p = select(w, running, otherThenOwn, true, (v, state) -> v.team.equals(w.team)
                    || borrowing(v.team, state) && share(w.team, plus(state, w)).compareTo(share(v.team, minus(state, v))) <= 0);
            if (p != null) return p;
            p = select(w, running, otherThenOwn, true, (v, state) -> v.team.equals(w.team)
                    || borrowing(v.team, state) && share(w.team, plus(state, w)).compareTo(share(v.team, state)) < 0);
            if (p != null) return p;
        }
        // 3. The own team's lower-priority workloads, borrowing allowed.
        return select(w, running, ownLower, true, (v, state) -> true);
    }

    /** "lower priority first, most recently admitted first". */
    private static final Comparator<W> VICTIM_ORDER = Comparator.<W>comparingInt(w -> w.priority)
            .thenComparingLong(w -> -w.admittedSeq);

    /**
     * "take until it fits, then restore from the second-last taken backwards each victim whose
     * return still lets the preemptor fit"; a candidate is taken only when {@code eligible} holds
     * in the state left by the victims taken so far.
     */
    private Plan select(W w, List<W> running, List<W> candidates, boolean mayBorrow, BiPredicate<W, List<W>> eligible) {
        List<W> state = new ArrayList<>(running);
        List<W> taken = new ArrayList<>();
        boolean fits = false;
        for (W v : candidates) {
            if (!eligible.test(v, state)) continue;
            state.remove(v);
            taken.add(v);
            if (fit(w, state, mayBorrow) != null) {
                fits = true;
                break;
            }
        }
        if (!fits) return null;
        for (int i = taken.size() - 2; i >= 0; i--) {
            List<W> back = plus(state, taken.get(i));
            if (fit(w, back, mayBorrow) != null) {
                state = back;
                taken.remove(i);
            }
        }
        return new Plan(w, taken, fit(w, state, mayBorrow));
    }

    private static List<W> plus(List<W> state, W w) {
        List<W> out = new ArrayList<>(state);
        out.add(w);
        return out;
    }

    private static List<W> minus(List<W> state, W w) {
        List<W> out = new ArrayList<>(state);
        out.remove(w);
        return out;
    }

    /** The placement when quota and placement both fit with {@code running} holding what it holds, else null. */
    private Map<String, Map<String, Integer>> fit(W w, List<W> running, boolean mayBorrow) {
        if (!quotaFits(w, running, mayBorrow)) return null;
        return place(w, free(running));
    }

    // ---------------------------------------------------------------- quota arithmetic

    private static Map<String, Resources> request(W w) {
        Map<String, Resources> out = new TreeMap<>();
        for (PodSet p : w.podSets) out.merge(p.type(), p.perPod().times(p.count()), Resources::plus);
        return out;
    }

    private static Resources usage(String team, String type, List<W> running) {
        Resources u = Resources.ZERO;
        for (W r : running) if (r.team.equals(team)) u = u.plus(request(r).getOrDefault(type, Resources.ZERO));
        return u;
    }

    /**
     * "A team may use: its unused nominal, plus borrowing up to its limit from the pool of what
     * lending teams leave unused": usage <= nominal (+ limit when borrowing is allowed), and the
     * cohort's use of lendable quota (usage above each team's non-lent part) within the sum of
     * what the teams lend. Checked on the resources the workload asks for.
     */
    private boolean quotaFits(W w, List<W> running, boolean mayBorrow) {
        TeamQuota q = quotas.get(w.team);
        List<W> with = plus(running, w);
        for (Map.Entry<String, Resources> e : request(w).entrySet()) {
            String type = e.getKey();
            Resources limit = mayBorrow ? q.ceiling(type) : q.nominal(type);
            Resources used = usage(w.team, type, with);
            for (ResourceKey r : e.getValue().keys()) {
                if (e.getValue().get(r) == 0) continue;
                if (used.get(r) > limit.get(r)) return false;
                long pool = 0;
                long poolUse = 0;
                for (TeamQuota t : quotas.values()) {
                    pool += t.lendable(type).get(r);
                    poolUse += Math.max(0, usage(t.team(), type, with).get(r) - t.guaranteed(type).get(r));
                }
                if (poolUse > pool) return false;
            }
        }
        return true;
    }

    /** Usage within nominal on every resource the workload asks for. */
    private boolean withinNominal(W w, List<W> state) {
        TeamQuota q = quotas.get(w.team);
        for (Map.Entry<String, Resources> e : request(w).entrySet()) {
            Resources used = usage(w.team, e.getKey(), state);
            for (ResourceKey r : e.getValue().keys()) {
                if (e.getValue().get(r) > 0 && used.get(r) > q.nominal(e.getKey()).get(r)) return false;
            }
        }
        return true;
    }

    private boolean borrowing(String team, List<W> state) {
        TeamQuota q = quotas.get(team);
        for (String type : scenario.instanceTypes().keySet()) {
            if (!usage(team, type, state).fitsIn(q.nominal(type))) return true;
        }
        return false;
    }

    /**
     * "max over resource names (summed over instance types) of borrowed / total lendable quota of
     * the cohort, divided by weight"; weight 0 is infinite while the team borrows, else 0.
     */
    private Share share(String team, List<W> state) {
        TeamQuota q = quotas.get(team);
        Share best = Share.ZERO;
        boolean borrows = false;
        // Every partition type is a resource name of its own: those of any quota or any running request.
        List<Resources> amounts = new ArrayList<>();
        for (TeamQuota t : quotas.values()) amounts.addAll(t.nominal().values());
        for (String type : scenario.instanceTypes().keySet()) amounts.add(usage(team, type, state));
        for (ResourceKey r : Resources.keys(amounts.toArray(Resources[]::new))) {
            long borrowed = 0;
            long lendable = 0;
            for (String type : scenario.instanceTypes().keySet()) {
                borrowed += Math.max(0, usage(team, type, state).get(r) - q.nominal(type).get(r));
                for (TeamQuota t : quotas.values()) lendable += t.lendable(type).get(r);
            }
            if (borrowed > 0) borrows = true;
            if (lendable == 0 || q.fairShareWeight() == 0) continue;
            Share s = new Share(BigInteger.valueOf(borrowed), BigInteger.valueOf(lendable).multiply(BigInteger.valueOf(q.fairShareWeight())), false);
            if (s.compareTo(best) > 0) best = s;
        }
        if (q.fairShareWeight() == 0) return borrows ? Share.INFINITE : Share.ZERO;
        return best;
    }

    private record Share(BigInteger num, BigInteger den, boolean infinite) implements Comparable<Share> {
        static final Share ZERO = new Share(BigInteger.ZERO, BigInteger.ONE, false);
        static final Share INFINITE = new Share(BigInteger.ONE, BigInteger.ZERO, true);

        @Override
        public int compareTo(Share o) {
            if (infinite || o.infinite) return Boolean.compare(infinite, o.infinite);
            return num.multiply(o.den).compareTo(o.num.multiply(den));
        }
    }

    // ---------------------------------------------------------------- placement

    private Map<String, Resources> free(List<W> running) {
        Map<String, Resources> free = new TreeMap<>();
        for (RNode n : nodes) free.put(n.name(), n.ready() ? n.alloc() : Resources.ZERO);
        for (W r : running) {
            for (PodSet p : r.podSets) {
                r.placement.getOrDefault(p.name(), Map.of()).forEach((node, pods) ->
                        free.put(node, free.get(node).minus(p.perPod().times(pods))));
            }
        }
        return free;
    }

    /** Pod sets in order, each on what the earlier ones left; null when one does not fit. */
    private Map<String, Map<String, Integer>> place(W w, Map<String, Resources> free) {
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        for (PodSet p : w.podSets) {
            Map<String, Integer> pods = placePodSet(p, free);
            if (pods == null) return null;
            pods.forEach((node, n) -> free.put(node, free.get(node).minus(p.perPod().times(n))));
            out.put(p.name(), pods);
        }
        return out;
    }

    private long capacity(PodSet p, List<String> prefix, Map<String, Resources> free) {
        long sum = 0;
        for (RNode n : nodes) {
            if (!p.mayUse(n) || !n.path().subList(0, prefix.size()).equals(prefix)) continue;
            long c = free.get(n.name()).countFitting(p.perPod());
            sum = c > Long.MAX_VALUE - sum ? Long.MAX_VALUE : sum + c;
        }
        return sum;
    }

    /** The domains (as paths from layer-1) at a depth (1 = layer-1 ... 4 = host) under a prefix. */
    private Set<List<String>> domains(PodSet p, List<String> under, int depth) {
        Set<List<String>> out = new TreeSet<>(PATH_ORDER);
        for (RNode n : nodes) {
            if (p.mayUse(n) && n.path().subList(0, under.size()).equals(under)) {
                out.add(n.path().subList(0, depth));
            }
        }
        return out;
    }

    private static final Comparator<List<String>> PATH_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) return c;
        }
        return Integer.compare(a.size(), b.size());
    };

    private Map<String, Integer> placePodSet(PodSet p, Map<String, Resources> free) {
        List<String> chosen = null;
        if (p.required() >= 0) {
            chosen = tightestFitting(p, domains(p, List.of(), p.required() + 1), free);
            if (chosen == null) return null;
        } else if (p.preferred() >= 0) {
            for (int level = p.preferred(); level >= 0 && chosen == null; level--) {
                chosen = tightestFitting(p, domains(p, List.of(), level + 1), free);
            }
        }
        if (chosen == null) chosen = List.of();
        if (capacity(p, chosen, free) < p.count()) return null;
        Map<String, Integer> out = new TreeMap<>();
        descend(p, chosen, p.count(), free, out);
        return out;
    }

    /**
     * "the tightest (best fit: the least free capacity that still fits; ties go to the domain
     * whose parent is tightest, then whose grandparent is, up to layer 1, then to the smallest label values)".
     */
    private List<String> tightestFitting(PodSet p, Set<List<String>> domains, Map<String, Resources> free) {
        List<String> best = null;
        for (List<String> d : domains) {
            if (capacity(p, d, free) < p.count()) continue;
            if (best == null || tighter(p, d, best, free)) best = d;
        }
        return best;
    }

    /** "ties go to the domain whose parent is tightest, then whose grandparent is, and so on up to layer 1, then to the smallest labels". */
    private boolean tighter(PodSet p, List<String> a, List<String> b, Map<String, Resources> free) {
        for (int depth = a.size(); depth >= 1; depth--) {
            int c = Long.compare(capacity(p, a.subList(0, depth), free), capacity(p, b.subList(0, depth), free));
            if (c != 0) return c < 0;
        }
        return PATH_ORDER.compare(a, b) < 0;
    }

    /**
     * "if one child can hold all the remaining pods, take the tightest such child; otherwise take
     * children from the most free capacity down, the last one by best fit"; each chosen child is
     * descended with its own pod count.
     */
    private void descend(PodSet p, List<String> domain, int pods, Map<String, Resources> free, Map<String, Integer> out) {
        if (domain.size() == TopologyLevels.ALL.size()) {
            for (RNode n : nodes) {
                if (!n.path().equals(domain) || !p.mayUse(n) || pods == 0) continue;
                int take = (int) Math.min(pods, free.get(n.name()).countFitting(p.perPod()));
                if (take > 0) out.merge(n.name(), take, Integer::sum);
                pods -= take;
            }
            if (pods != 0) throw new IllegalStateException("descent lost pods");
            return;
        }
        List<List<String>> children = new ArrayList<>(domains(p, domain, domain.size() + 1));
        children.removeIf(c -> capacity(p, c, free) == 0);
        int remaining = pods;
        while (remaining > 0) {
            final int need = remaining;
            List<String> fitting = null;
            for (List<String> c : children) {
                if (capacity(p, c, free) >= need && (fitting == null || tighter(p, c, fitting, free))) fitting = c;
            }
            if (fitting != null) {
                descend(p, fitting, need, free, out);
                return;
            }
            List<String> largest = null;
            for (List<String> c : children) {
                if (largest == null || capacity(p, c, free) > capacity(p, largest, free)) largest = c;
            }
            if (largest == null) throw new IllegalStateException("descent ran out of children");
            int take = (int) capacity(p, largest, free);
            children.remove(largest);
            descend(p, largest, take, free, out);
            remaining -= take;
        }
    }

    private static Map<String, Map<String, Integer>> copy(Map<String, Map<String, Integer>> m) {
        Map<String, Map<String, Integer>> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, new TreeMap<>(v)));
        return out;
    }
}
