package dev.taskgov.core.preemption;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.PlanResult.NoPlan;
import dev.taskgov.core.preemption.PlanResult.PreemptionPlan;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.quota.Share;
import dev.taskgov.core.quota.WhatIf;
import dev.taskgov.core.topology.PlacementResult;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.Topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Chooses which running workloads to evict so that a pending one can be admitted now. A function
 * of a {@link ClusterView}: its what-ifs release and re-reserve victims on the view's own ledger
 * and topology and always put them back before returning (so it is cheap on a 5,000-node
 * cluster, and the view is unchanged afterwards; not for concurrent use of one view).
 *
 * <p>Strategies, tried in this order; a victim set must make both quota and placement fit:
 * <ol>
 *   <li>Reclaim: only when the preemptor's team stays within its nominal quota on every resource
 *       it asks for. Candidates: other teams' workloads while their team borrows, then the own
 *       team's strictly lower-priority ones (if {@code PreemptTeamTasks: LowerPriority}); the
 *       preemptor may not borrow.</li>
 *   <li>Fair sharing (FairShare Enabled): a borrowing team's workload is a victim if the
 *       preemptor's share with its workload is at most that team's share after the eviction;
 *       failing any such set, if it is below that team's share before it. The own team's
 *       strictly lower-priority workloads (if {@code PreemptTeamTasks: LowerPriority}) are
 *       candidates in the same set, after the other teams' (as Kueue); the preemptor may borrow
 *       within its limit.</li>
 *   <li>The own team's strictly lower-priority workloads, the preemptor borrowing within its limit.</li>
 * </ol>
 * Candidates are ordered other teams first, lower priority first, most recently admitted first;
 * taken until the preemptor fits, then each taken victim but the last is given back, from the
 * second-last backwards, when the preemptor still fits without evicting it.
 *
 * <h2>Topology</h2>
 * The fit test of every step is quota and placement together, the placement honouring the
 * preemptor's topology request and node selectors, on the cluster with the taken victims'
 * resources released: for a required level the set found holds the pod set in one domain of that
 * level. The order above is never left for the sake of the placement (docs/semantics.md, "Restore unneeded victims": victims are taken
 * in this order, then the unneeded ones restored), as in Kueue: a preferred level may be climbed
 * above, or the pods spread, with the set the order gives.
 */
public final class PreemptionPlanner {

    /** Candidates of other teams, by preemptor team and instance types, at {@link #cachedVersion}. */
    private final Map<TeamTypes, Candidates> othersCache = new HashMap<>();
    /** Every borrowing team's candidates, by instance types, at {@link #cachedVersion}. */
    private final Map<Set<String>, Candidates> borrowersAtVersion = new HashMap<>();
    private long cachedVersion = Long.MIN_VALUE;

    /**
     * A planner that remembers candidate lists while {@link ClusterView#version()} stays the same
     * (the scheduler keeps one; many pending workloads are planned for between two changes).
     */
    public PreemptionPlanner() {
    }

    /** A plan to admit {@code preemptor} now, or why there is none. */
    public static PlanResult plan(ClusterView view, Workload preemptor) {
        return new PreemptionPlanner().planFor(view, preemptor);
    }

    /** Like {@link #plan}, reusing candidate lists built at the same state version. */
    public PlanResult planFor(ClusterView view, Workload preemptor) {
        return planFor(view, preemptor, ANY_VICTIM);
    }

    /** A plan to admit {@code preemptor} now whose victims all pass {@code mayEvict}, or why there is none. */
    public static PlanResult plan(ClusterView view, Workload preemptor, Predicate<RunningWorkload> mayEvict) {
        return new PreemptionPlanner().planFor(view, preemptor, mayEvict);
    }

    /** Every running workload the strategies allow may be a victim. */
    public static final Predicate<RunningWorkload> ANY_VICTIM = r -> true;

    /**
     * Like {@link #planFor(ClusterView, Workload)}, with the victims limited to those that pass {@code mayEvict}: a
     * workload a preemption evicted in the current run may preempt only workloads admitted before the run began
     * (docs/semantics.md, "Every run ends"). The candidates are the strategies' own, in their order, less the others.
     */
    public PlanResult planFor(ClusterView view, Workload preemptor, Predicate<RunningWorkload> mayEvict) {
        return planFor(view, preemptor, preemptor.requestsByInstanceType(), mayEvict);
    }

    /**
     * Like {@link #planFor(ClusterView, Workload, Predicate)}, given what the preemptor asks for per instance type (its
     * {@link Workload#requestsByInstanceType}, which a caller that keeps it need not have made again).
     */
    public PlanResult planFor(ClusterView view, Workload preemptor, Map<String, Resources> req,
                              Predicate<RunningWorkload> mayEvict) {
        QuotaLedger ledger = view.ledger();
        TeamQuota quota = ledger.quota(preemptor.team());
        if (quota == null || !quota.active()) {
            return new NoPlan("team " + preemptor.team() + " has no active compute quota");
        }
        Set<String> types = req.keySet();
        boolean mayPreemptOwn = quota.preemptTeamTasks() == PreemptTeamTasks.LowerPriority;
        Candidates ownLower = mayPreemptOwn ? Candidates.of(ownLowerPriority(preemptor, types,
                view.runningVersion(preemptor.team()) < 0 ? null : teamList(view, preemptor.team(), types).list(), view))
                .only(mayEvict) : Candidates.NONE;

        boolean withinNominal = ledger.withinNominal(preemptor.team(), req);
        if (withinNominal) {
            Candidates candidates = othersWhileBorrowing(view, preemptor, types).only(mayEvict).then(ownLower);
            PreemptionPlan p = new Attempt(view, preemptor, req, false).run(candidates, Rule.RECLAIM);
            if (p != null) return p;
        }
        if (view.config().fairShare()) {
            // Kueue returns the fair-sharing candidates and the own team's lower-priority ones
            // together: others first (already in victim order), then own (docs/semantics.md, "Fair-sharing preemption").
            Candidates candidates = othersWhileBorrowing(view, preemptor, types).only(mayEvict).then(ownLower);
            PreemptionPlan p = new Attempt(view, preemptor, req, true).run(candidates, Rule.FAIR_FINAL_SHARE);
            if (p == null) p = new Attempt(view, preemptor, req, true).run(candidates, Rule.FAIR_INITIAL_SHARE);
            if (p != null) return p;
        }
        boolean searched = false;
        if (!ownLower.isEmpty()) {
            Attempt inTeam = new Attempt(view, preemptor, req, true);
            PreemptionPlan p = inTeam.run(ownLower, Rule.IN_TEAM);
            if (p != null) return p;
            searched = inTeam.searched;
        }
        boolean forQuotaAlone = !withinNominal && !view.config().fairShare() && !searched;
        return new NoPlan("no set of running workloads that may be preempted makes room for " + preemptor.id(),
                forQuotaAlone ? ownLower.heldByTeam() : null);
    }

    private enum Rule { RECLAIM, FAIR_FINAL_SHARE, FAIR_INITIAL_SHARE, IN_TEAM }

    /** Other teams before own, lower priority first, most recently admitted first. */
    private static final Comparator<RunningWorkload> VICTIM_ORDER = (a, b) -> {
        // written out rather than composed: every change of the borrowing teams' work sorts thousands of candidates
        int c = Integer.compare(a.priority(), b.priority());
        return c != 0 ? c : Long.compare(b.admissionSeq(), a.admissionSeq());
    };

    /**
     * Candidates in victim order, with what they hold summed per team (by instance type): the quick
     * bound of an attempt (would evicting them all be enough quota?) needs only the sums, so they
     * are added up once per list rather than per attempt.
     *
     * <p>They are kept as {@code runs}, each in victim order (a team's list), taken merged as a stable sort of the runs
     * one after the other would order them (on a tie the earlier run's first), then {@code after} as it is (the own
     * team's, after every other team's). Merged as they are taken rather than sorted into one list: the borrowing teams'
     * runs change with nearly every admission, and a search mostly stops at its first victims.
     */
    private record Candidates(List<List<RunningWorkload>> runs, List<RunningWorkload> after,
                              Map<String, Map<String, Resources>> heldByTeam) implements Iterable<RunningWorkload> {
        static final Candidates NONE = new Candidates(List.of(), List.of(), Map.of());

        /** The list, in victim order already, as one run. */
        static Candidates of(List<RunningWorkload> list) {
            if (list.isEmpty()) return NONE;
            return new Candidates(List.of(list), List.of(), held(list, new HashMap<>()));
        }

        /** The runs (each in victim order, none empty), with what each team holds already summed. */
        static Candidates merged(List<List<RunningWorkload>> runs, Map<String, Map<String, Resources>> heldByTeam) {
            return runs.isEmpty() ? NONE : new Candidates(runs, List.of(), heldByTeam);
        }

        private static Map<String, Map<String, Resources>> held(List<RunningWorkload> list,
                                                                Map<String, Map<String, Resources>> into) {
            for (RunningWorkload c : list) {
                Map<String, Resources> m = into.computeIfAbsent(c.team(), t -> new HashMap<>());
                c.requests().forEach((type, r) -> m.merge(type, r, Resources::plus));
            }
            return into;
        }

        boolean isEmpty() {
            return runs.isEmpty() && after.isEmpty();
        }

        /** These, then {@code more} (of another team). */
        Candidates then(Candidates more) {
            if (more.isEmpty()) return this;
            if (isEmpty()) return more;
            List<RunningWorkload> tail = new ArrayList<>(after);
            for (RunningWorkload c : more) tail.add(c);
            Map<String, Map<String, Resources>> held = new HashMap<>(heldByTeam);
            held.putAll(more.heldByTeam);
            return new Candidates(runs, tail, held);
        }

        /** Only those that pass {@code mayEvict}, in the same order. */
        Candidates only(Predicate<RunningWorkload> mayEvict) {
            if (mayEvict == ANY_VICTIM || isEmpty()) return this;
            Map<String, Map<String, Resources>> held = new HashMap<>();
            List<List<RunningWorkload>> keptRuns = new ArrayList<>(runs.size());
            for (List<RunningWorkload> run : runs) {
                List<RunningWorkload> kept = kept(run, mayEvict);
                if (!kept.isEmpty()) keptRuns.add(kept);
                held(kept, held);
            }
            List<RunningWorkload> keptAfter = kept(after, mayEvict);
            held(keptAfter, held);
            return keptRuns.isEmpty() && keptAfter.isEmpty() ? NONE : new Candidates(keptRuns, keptAfter, held);
        }

        private static List<RunningWorkload> kept(List<RunningWorkload> list, Predicate<RunningWorkload> mayEvict) {
            List<RunningWorkload> kept = new ArrayList<>(list.size());
            for (RunningWorkload c : list) {
                if (mayEvict.test(c)) kept.add(c);
            }
            return kept;
        }

        /** Without the workloads of {@code team} (each run is one team's). */
        Candidates without(String team) {
            if (!heldByTeam.containsKey(team)) return this;
            List<List<RunningWorkload>> rest = new ArrayList<>(runs.size());
            for (List<RunningWorkload> run : runs) {
                if (!run.get(0).team().equals(team)) rest.add(run);
            }
            List<RunningWorkload> restAfter = new ArrayList<>(after.size());
            for (RunningWorkload c : after) {
                if (!c.team().equals(team)) restAfter.add(c);
            }
            Map<String, Map<String, Resources>> held = new HashMap<>(heldByTeam);
            held.remove(team);
            return rest.isEmpty() && restAfter.isEmpty() ? NONE : new Candidates(rest, restAfter, held);
        }

        /** In victim order: the runs merged, then {@link #after}. */
        @Override
        public Iterator<RunningWorkload> iterator() {
            if (runs.isEmpty()) return after.iterator();
            if (runs.size() == 1 && after.isEmpty()) return runs.get(0).iterator();
            return new Merge(runs, after);
        }
    }

    /** A k-way merge of runs in victim order (the earlier run first on a tie), then a tail as it is. */
    private static final class Merge implements Iterator<RunningWorkload> {
        private final List<List<RunningWorkload>> runs;
        private final Iterator<RunningWorkload> tail;
        /** Run indexes, a binary heap on each run's next workload. */
        private final int[] heap;
        private final int[] next;
        private int size;

        Merge(List<List<RunningWorkload>> runs, List<RunningWorkload> tail) {
            this.runs = runs;
            this.tail = tail.iterator();
            this.heap = new int[runs.size()];
            this.next = new int[runs.size()];
            for (int i = 0; i < heap.length; i++) heap[size++] = i;
            for (int i = (size >>> 1) - 1; i >= 0; i--) siftDown(i);
        }

        @Override
        public boolean hasNext() {
            return size > 0 || tail.hasNext();
        }

        @Override
        public RunningWorkload next() {
            if (size == 0) return tail.next();
            int run = heap[0];
            RunningWorkload out = runs.get(run).get(next[run]++);
            if (next[run] == runs.get(run).size()) heap[0] = heap[--size];
            if (size > 0) siftDown(0);
            return out;
        }

        private boolean before(int a, int b) {
            int c = VICTIM_ORDER.compare(runs.get(a).get(next[a]), runs.get(b).get(next[b]));
            return c != 0 ? c < 0 : a < b;
        }

        private void siftDown(int i) {
            int run = heap[i];
            int half = size >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                int right = child + 1;
                if (right < size && before(heap[right], heap[child])) child = right;
                if (!before(heap[child], run)) break;
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = run;
        }
    }

    /**
     * Running workloads of other teams that borrow on any of the types, in victim order. Built
     * once per state version and instance types for every borrowing team together; a preemptor
     * of a borrowing team gets that list without its own team's workloads (the order of the rest
     * is the same as if its team had never been in it: a stable sort of the same runs).
     */
    private Candidates othersWhileBorrowing(ClusterView view, Workload p, Set<String> types) {
        long version = view.version();
        if (version < 0 || view.runningVersion(p.team()) < 0) return Candidates.of(buildOthersWhileBorrowing(view, p, types));
        if (version != cachedVersion) {
            othersCache.clear();
            borrowersAtVersion.clear();
            cachedVersion = version;
        }
        return othersCache.computeIfAbsent(new TeamTypes(p.team(), types),
                k -> borrowersAtVersion.computeIfAbsent(types, t -> borrowers(view, types)).without(p.team()));
    }

    /**
     * Every borrowing team's running workloads that use any of the types, in victim order: each team's list (kept until
     * its team's running workloads change) as a run of its own, the runs merged as a search takes them.
     */
    private Candidates borrowers(ClusterView view, Set<String> types) {
        List<List<RunningWorkload>> runs = new ArrayList<>();
        Map<String, Map<String, Resources>> held = new HashMap<>();
        for (TeamQuota q : view.ledger().quotas()) {
            if (!view.ledger().isBorrowing(q.team(), types)) continue;
            TeamList list = teamList(view, q.team(), types);
            if (list.list().isEmpty()) continue;
            runs.add(list.list());
            held.put(q.team(), list.candidates().heldByTeam().get(q.team()));
        }
        return Candidates.merged(runs, held);
    }

    private record TeamList(long runningVersion, Candidates candidates) {
        /** The list itself: its candidates' one run (none when it is empty). */
        List<RunningWorkload> list() {
            return candidates.runs().isEmpty() ? List.of() : candidates.runs().get(0);
        }
    }

    private final Map<TeamTypes, TeamList> teamCache = new HashMap<>();

    /** A cache key: a team and the instance types a preemptor asks for. */
    private record TeamTypes(String team, Set<String> types) {
    }

    /** A team's running workloads that use any of the types, in victim order; kept while the team's running set is unchanged. */
    private TeamList teamList(ClusterView view, String team, Set<String> types) {
        TeamTypes key = new TeamTypes(team, types);
        long v = view.runningVersion(team);
        TeamList known = teamCache.get(key);
        if (known != null && known.runningVersion == v) return known;
        List<RunningWorkload> out = new ArrayList<>();
        for (RunningWorkload r : view.running(team)) {
            if (usesAny(r, types)) out.add(r);
        }
        out.sort(VICTIM_ORDER);
        TeamList list = new TeamList(v, Candidates.of(out));
        teamCache.put(key, list);
        return list;
    }

    private static List<RunningWorkload> buildOthersWhileBorrowing(ClusterView view, Workload p, Set<String> types) {
        List<RunningWorkload> out = new ArrayList<>();
        for (TeamQuota q : view.ledger().quotas()) {
            if (q.team().equals(p.team()) || !view.ledger().isBorrowing(q.team(), types)) continue;
            for (RunningWorkload r : view.running(q.team())) {
                if (usesAny(r, types)) out.add(r);
            }
        }
        out.sort(VICTIM_ORDER);
        return out;
    }

    private static List<RunningWorkload> ownLowerPriority(Workload p, Set<String> types, List<RunningWorkload> teamList, ClusterView view) {
        List<RunningWorkload> out = new ArrayList<>();
        if (teamList != null) {
            // already in victim order: lower priority first, so stop at the first one not lower
            for (RunningWorkload r : teamList) {
                if (r.priority() >= p.priority()) break;
                out.add(r);
            }
            return out;
        }
        for (RunningWorkload r : view.running(p.team())) {
            if (r.priority() < p.priority() && usesAny(r, types)) out.add(r);
        }
        out.sort(VICTIM_ORDER);
        return out;
    }

    private static boolean usesAny(RunningWorkload r, Set<String> types) {
        // by the preemptor's types (mostly one), each a look-up in the workload's requests: no iterator over them
        for (String t : types) {
            if (r.requests().containsKey(t)) return true;
        }
        return false;
    }

    /** A victim taken by a search, and why it may go. */
    private record Taken(RunningWorkload workload, Supplier<Victim> why) {
    }

    /**
     * One try at a victim set. Its what-ifs release victims on the view's own ledger and topology
     * ({@link ClusterView#simulateRemoval}: no copies, cheap on large clusters) and undo every one
     * before {@link #run} returns.
     */
    private static final class Attempt {
        private final ClusterView view;
        private final Workload preemptor;
        private final Map<String, Resources> req;
        private final boolean allowBorrow;
        private final QuotaLedger ledger;
        private final Topology topology;
        private final List<RunningWorkload> taken = new ArrayList<>();
        /**
         * Why each taken victim may go; the message is written only for the victims of the final plan. Made when a
         * search begins (an attempt with no candidates makes none), as is {@link #released}.
         */
        private Map<RunningWorkload, Supplier<Victim>> reasons;
        /** The undo handle of each victim released in the what-if: closing it reserves the victim again. */
        private Map<RunningWorkload, WhatIf> released;
        private String describedRequest;
        /**
         * Whether the quota bound let the search through ({@link #search}): then what it found or not read the nodes and
         * the candidates' teams, not the quota alone.
         */
        boolean searched;

        Attempt(ClusterView view, Workload preemptor, Map<String, Resources> req, boolean allowBorrow) {
            this.view = view;
            this.preemptor = preemptor;
            this.req = req;
            this.allowBorrow = allowBorrow;
            this.ledger = view.ledger();
            this.topology = view.topology();
        }

        PreemptionPlan run(Candidates candidates, Rule rule) {
            if (candidates.isEmpty()) return null;
            reasons = new IdentityHashMap<>(8);
            released = new IdentityHashMap<>(8);
            try {
                return toPlan(search(candidates, rule, preemptor.podSets()));
            } finally {
                for (RunningWorkload t : taken) giveBack(t);
                taken.clear();
                reasons.clear();
            }
        }

        /**
         * How many candidates a search looks at before it asks the bound ({@link #fitsWithAllEvicted}): most searches end
         * at their first victim or two, and the bound, over every borrowing team's holdings, cost more than they did.
         */
        private static final int LOOKS_BEFORE_BOUND = 2;

        /** Cheap bound: if evicting every candidate leaves too little quota, no subset makes room. */
        private boolean fitsWithAllEvicted(Candidates candidates) {
            // Placement is left to the search: releasing thousands of candidates on the node tree
            // costs more than the search, which stops as soon as the preemptor fits.
            return ledger.fitsWithout(preemptor.team(), req, allowBorrow, candidates.heldByTeam());
        }

        /** The victims with their reasons, for the chosen set; the messages are written when the plan's victims are read. */
        private PreemptionPlan toPlan(List<Taken> victims) {
            if (victims == null) return null;
            List<Supplier<Victim>> out = new ArrayList<>(victims.size());
            for (Taken t : victims) out.add(t.why());
            return new PreemptionPlan(preemptor.id(), preemptor.team(), new VictimList(out));
        }

        /**
         * Takes the candidates the rule allows, in order, until the preemptor fits ({@code target}: its pod sets), then
         * gives back every taken one it still fits without (from the second-last backwards); null when none fits.
         *
         * <p>A search that has not ended after its first {@link #LOOKS_BEFORE_BOUND} candidates goes on only if the bound
         * lets it: evicting every candidate must leave room in the quota, else no subset does. Quota room only grows as
         * victims go, so a search that ends sooner with a plan has passed the bound too; {@link #searched} is whether
         * it did, asked at the end of a search that ended sooner without one.
         */
        private List<Taken> search(Candidates candidates, Rule rule, List<PodSetRequest> target) {
            int looks = 0;
            boolean bounded = false;
            for (RunningWorkload c : candidates) {
                if (!bounded && looks++ == LOOKS_BEFORE_BOUND) {
                    if (!fitsWithAllEvictedFromNone(candidates)) return null;
                    bounded = true;
                    searched = true;
                }
                Supplier<Victim> v = eligible(c, rule);
                if (v == null) continue;
                take(c);
                reasons.put(c, v);
                if (fits(target)) {
                    searched = true;
                    restoreUnneeded(target);
                    List<Taken> victims = new ArrayList<>();
                    for (RunningWorkload t : taken) victims.add(new Taken(t, reasons.get(t)));
                    return victims;
                }
            }
            if (!bounded) searched = fitsWithAllEvictedFromNone(candidates);
            return null;
        }

        /** {@link #fitsWithAllEvicted} as asked before any victim was taken: the ones taken are put back while it is asked. */
        private boolean fitsWithAllEvictedFromNone(Candidates candidates) {
            for (int i = taken.size() - 1; i >= 0; i--) giveBack(taken.get(i));
            boolean fits = fitsWithAllEvicted(candidates);
            for (RunningWorkload t : taken) release(t);
            return fits;
        }

        private Supplier<Victim> eligible(RunningWorkload c, Rule rule) {
            boolean own = c.team().equals(preemptor.team());
            // every figure a message names is read now; the text is written only if the plan's victims are read
            if (own) {
                SchedulerConfig config = view.config();
                return () -> new Victim(c.id(), c.team(), PreemptionReason.InTeamPriority, preemptor.id() + " (priority "
                        + preemptor.priority() + ") of " + preemptor.team() + " needs " + request()
                        + "; " + c.id() + " has the lower priority " + c.priority() + "; " + protectedFromInTeam(config));
            }
            if (!ledger.isBorrowing(c.team(), req.keySet())) return null;
            if (rule == Rule.RECLAIM) {
                // by instance type name: the message reads the same whatever order the ledger's map holds them in
                Map<String, Resources> usage = new TreeMap<>(ledger.usage(c.team()));
                Map<String, Resources> ownNominal = nominal(preemptor.team());
                Map<String, Resources> victimNominal = nominal(c.team());
                return () -> new Victim(c.id(), c.team(), PreemptionReason.ReclaimLentCapacity, preemptor.team()
                        + " reclaims its lent quota for " + preemptor.id() + " (needs " + request() + " within its nominal "
                        + describe(ownNominal) + "); " + c.team() + " uses " + describe(usage)
                        + " against its nominal " + describe(victimNominal) + "; " + c.id() + " ran on quota " + c.team()
                        + " borrowed, and only borrowed quota is reclaimed: what it can do is run within " + c.team()
                        + "'s nominal quota (resubmit once " + c.team() + "'s other work leaves room in it) or ask for a "
                        + "larger nominal quota for " + c.team());
            }
            Share preemptorShare = ledger.shareWith(preemptor.team(), req);
            Share before = ledger.share(c.team());
            Share after;
            try (var undo = ledger.simulateRemoval(c.team(), c.requests())) {
                after = ledger.share(c.team());
            }
            boolean ok = rule == Rule.FAIR_FINAL_SHARE ? preemptorShare.compareTo(after) <= 0 : preemptorShare.compareTo(before) < 0;
            if (!ok) return null;
            int weight = weight(c.team());
            return () -> new Victim(c.id(), c.team(), PreemptionReason.FairSharing, preemptor.team() + "'s weighted share with "
                    + preemptor.id() + " would be " + preemptorShare + (rule == Rule.FAIR_FINAL_SHARE
                    ? ", not above " + c.team() + "'s " + after + " after this eviction"
                    : ", below " + c.team() + "'s " + before) + " (" + c.team() + " borrows; "
                    + preemptor.id() + " needs " + request() + "); " + c.id() + " ran on capacity " + c.team() + " borrowed, "
                    + "which fair sharing moves to the team with the lower weighted share: what it can do is run within "
                    + c.team() + "'s nominal quota, which fair sharing does not preempt, or ask for a fair-share weight for "
                    + c.team() + " above its " + weight);
        }

        /**
         * What the victim of an in-team preemption can do: a priority not below the preemptor's protects it (only
         * strictly lower priorities are preempted), so the lowest class that weighs as much is named; else the team's
         * quota may turn in-team preemption off.
         */
        private String protectedFromInTeam(SchedulerConfig config) {
            String cls = null;
            int weight = Integer.MAX_VALUE;
            for (Map.Entry<String, Integer> e : config.priorityClasses().entrySet()) {
                if (e.getValue() >= preemptor.priority() && e.getValue() < weight) {
                    cls = e.getKey();
                    weight = e.getValue();
                }
            }
            String quota = "ask for its team's quota to set preemptTeamTasks Never (no in-team preemption)";
            if (cls == null) {
                return "no priority class weighs " + preemptor.priority() + " or more to protect it from " + preemptor.id()
                        + "; what it can do: " + quota;
            }
            return "what it can do: resubmit with priority class " + cls + " (weight " + weight + ", not below "
                    + preemptor.id() + "'s) to be protected from it, or " + quota;
        }

        /** A team's fair-share weight, as its quota sets it. */
        private int weight(String team) {
            TeamQuota q = ledger.quota(team);
            return q == null ? 0 : q.fairShareWeight();
        }

        private String request() {
            if (describedRequest == null) describedRequest = describe(req);
            return describedRequest;
        }

        private Map<String, Resources> nominal(String team) {
            TeamQuota q = ledger.quota(team);
            return q == null ? Map.of() : q.nominal();
        }

        private void take(RunningWorkload c) {
            taken.add(c);
            release(c);
        }

        /** Evicts {@code c} in the what-if until {@link #giveBack} undoes it. */
        private void release(RunningWorkload c) {
            released.put(c, view.simulateRemoval(List.of(c)));
        }

        private void giveBack(RunningWorkload c) {
            released.remove(c).close();
        }

        private boolean fits(List<PodSetRequest> target) {
            return ledger.fits(preemptor.team(), req, allowBorrow)
                    && topology.place(target) instanceof PlacementResult.Placed;
        }

        private void restoreUnneeded(List<PodSetRequest> target) {
            for (int i = taken.size() - 2; i >= 0; i--) {
                RunningWorkload v = taken.get(i);
                giveBack(v);
                if (fits(target)) {
                    taken.remove(i);
                } else {
                    release(v);
                }
            }
        }
    }

    private static String describe(Map<String, Resources> amounts) {
        return Amounts.byInstanceType(amounts);
    }
}
