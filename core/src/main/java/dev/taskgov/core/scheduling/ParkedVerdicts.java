package dev.taskgov.core.scheduling;

import java.util.HashMap;
import java.util.Map;

/**
 * The verdict memo: why workloads of a {@link Shape} were parked, or where they fit, stamped with the versions of the
 * {@link ClusterCache} state the verdict read. A later look at the same shape (a later alike workload, or
 * the same one in a later walk) gets the same verdict without being evaluated again while the stamp
 * still holds (pipelines submit many alike; a full queue re-walked after every admission is mostly repeats; a head
 * chosen before an admission on another instance type is not placed again). A verdict that needs preemption is not
 * kept: its plan's victims are told their teams' usage of every instance type.
 *
 * <p>What a blocked or fitting verdict reads, message and placement included: the team's quota and the cohort's pool,
 * usage and holders of the instance types it asks for; the ready nodes of those types and what is placed on them; the
 * running workloads that use those types (the preemption search: which teams borrow on them, their workloads'
 * priorities and admission order); the config; whether the run stopped preempting. Quotas, nodes, config and a new
 * run that lifts victim limits bump the cache's base version, and an admitted workload that takes, gives back or moves
 * what it holds bumps the usage version of each instance type it asks for: so a verdict whose types saw no change is
 * still exact, and an admission on one instance type leaves the verdicts of workloads on the others standing. With FairShare on, a share
 * reads every type's usage: the stamp then holds the whole state's version.
 *
 * <p>One kind of blocked verdict outlives a change of its types' usage: a workload short of its team's quota for which
 * no preemption was found for that lack alone ({@link Evaluation.Blocked#shortOfQuota}). That search read only its own
 * team's work and the cohort pool's usage of its types, and stopped at its quota bound; so while its team's running
 * workloads stay the same, only the quota check and that bound are asked again (not placement nor the search), for
 * the verdict and its figures: on a full cluster, most of a walk after each admission.
 *
 * <p>Alike workloads in a team's queue share one instance of their shape (their {@link TeamQueue}'s), and a verdict is
 * kept on the instance it was last given under ({@link Shape#lastVerdict}): a look finds its shape's newest verdict
 * without a look-up by shape (a map of thousands of shapes, whose look-ups and pod-set comparisons once cost a tenth of
 * a drain and 12% of a live decider's cycle). The map gives, per shape, the instance holding its newest verdict: it is
 * asked only by an instance that has none yet (a shape whose queue is new), whose hit moves the verdict to it, and
 * written once per instance rather than with every verdict.
 */
final class ParkedVerdicts {

    /** Past this many shapes the memo starts again (shapes of workloads that left the queue are not removed one by one). */
    private static final int MAX_SHAPES = 1 << 17;

    /**
     * A verdict and its stamp: {@code baseVersion} the cache's base version, {@code wholeVersion} the cache's version
     * with FairShare on (else -1), {@code stopped} whether the run had stopped preempting, {@code usage} the sum of the
     * usage versions of the shape's instance types (each only ever grows, so the sum moves whenever one does), read
     * from the cache's own counters of those types ({@code counter} the first's, {@code otherCounters} the rest's), so
     * that a look needs no lookup by name and, for the common workload of one type, no array of them. A verdict
     * {@link Evaluation.Blocked#shortOfQuota} may be asked again while {@code teamRunning}, the version of its team's
     * running workloads when its preemption search found nothing, stays the same (read from the cache's counter of the
     * team, {@code teamCounter}).
     */
    record Verdict(Shape shape, Evaluation verdict, long baseVersion, long wholeVersion, boolean stopped,
                           long[] counter, long[][] otherCounters, long usage, long[] teamCounter, long teamRunning) {
        Verdict under(Shape other) {
            return new Verdict(other, verdict, baseVersion, wholeVersion, stopped, counter, otherCounters, usage, teamCounter,
                    teamRunning);
        }

        boolean holds(ClusterCache cache, boolean stoppedNow) {
            return usage == usageNow(counter, otherCounters) && baseVersion == cache.baseVersion() && stopped == stoppedNow
                    && wholeVersion == stateVersion(cache);
        }

        /** Whether the verdict, short of quota, may be asked again by its quota check and bound alone: its team's work the same. */
        boolean mayRecheck(ClusterCache cache, boolean stoppedNow) {
            return verdict instanceof Evaluation.Blocked b && b.shortOfQuota() && baseVersion == cache.baseVersion()
                    && stopped == stoppedNow && teamRunning == teamCounter[0];
        }
    }

    /** The counter of a workload that asks for no instance type (none moves it). */
    private static final long[] NO_TYPE = new long[1];

    private static long usageNow(long[] counter, long[][] otherCounters) {
        long sum = counter[0];
        for (long[] c : otherCounters) sum += c[0];
        return sum;
    }

    private static long stateVersion(ClusterCache cache) {
        return cache.config().fairShare() ? cache.version() : -1;
    }

    /** Per shape the instance whose {@link Shape#lastVerdict} is its newest verdict (the one it was last given under). */
    private final Map<Shape, Shape> byShape = new HashMap<>();
    /** Bumped when {@link #byShape} starts again: an instance last put in an earlier generation is not in it. */
    private long generation;
    private long baseVersion = -1;
    /** False: nothing is remembered, every workload is evaluated on its own (the reference the memo is tested against). */
    private final boolean enabled;
    private long rechecks;

    ParkedVerdicts(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * The verdict (blocked or fitting) remembered for the entry's shape whose stamp still holds in the cache's state; or,
     * failing that, its last verdict again if that was {@link Evaluation.Blocked#shortOfQuota} and the quota check and
     * the search's bound still find it so, with the figures the quota check reads now ({@link Evaluation#quotaStillShort}),
     * remembered with the stamp of the preemption search it relies on; else null, and the entry is to be evaluated in full.
     */
    Evaluation get(WorkloadEntry entry, ClusterCache cache, boolean stopped) {
        if (baseVersion != cache.baseVersion()) {
            startAgain();
            baseVersion = cache.baseVersion();
        }
        // the last verdict given under the entry's instance of its shape first: the queue's alike workloads share the
        // instance, so that is their shape's newest; a look-up in a map of thousands of shapes (a tenth of a drain with
        // distinct shapes) is left for an instance that has none yet (its shape's queue was new)
        Verdict own = entry.shape().lastVerdict;
        if (own != null) return own.holds(cache, stopped) ? own.verdict() : recheck(entry, own, cache, stopped);
        Shape equal = byShape.get(entry.shape());
        Verdict known = equal == null ? null : equal.lastVerdict;
        if (known != null && known.holds(cache, stopped)) {
            remember(known.under(entry.shape()));
            return known.verdict();
        }
        return recheck(entry, known, cache, stopped);
    }

    /** {@code last} again with new figures if it is still short of quota; else null. */
    private Evaluation.Blocked recheck(WorkloadEntry entry, Verdict last, ClusterCache cache, boolean stopped) {
        if (last == null || !last.mayRecheck(cache, stopped)) return null;
        Evaluation.Blocked now = Evaluation.quotaStillShort(cache, entry, (Evaluation.Blocked) last.verdict());
        if (now == null) return null;
        rechecks++;
        remember(stamped(entry.shape(), now, cache, stopped, last.counter(), last.otherCounters(), last.teamCounter(),
                last.teamRunning()));
        return now;
    }

    /** How many verdicts {@link #get} gave again on the quota check and its bound alone, with new figures. */
    long rechecks() {
        return rechecks;
    }

    /** Remembers the verdict for the entry's shape, stamped with the cache's state now (that of the last {@link #get}). */
    void put(WorkloadEntry entry, Evaluation verdict, ClusterCache cache, boolean stopped) {
        // a plan's victims are told their team's usage of every instance type: not stamped by the preemptor's types alone
        if (!enabled || verdict instanceof Evaluation.NeedsPreemption) return;
        String[] types = entry.requests().keySet().toArray(String[]::new);
        long[] counter = types.length == 0 ? NO_TYPE : cache.usageCounter(types[0]);
        long[][] otherCounters = new long[Math.max(0, types.length - 1)][];
        for (int i = 1; i < types.length; i++) otherCounters[i - 1] = cache.usageCounter(types[i]);
        long[] teamCounter = cache.runningCounter(entry.team());
        remember(stamped(entry.shape(), verdict, cache, stopped, counter, otherCounters, teamCounter, teamCounter[0]));
    }

    /** The verdict with the stamp of the cache's state now. */
    private static Verdict stamped(Shape shape, Evaluation verdict, ClusterCache cache, boolean stopped, long[] counter,
                                   long[][] otherCounters, long[] teamCounter, long teamRunning) {
        return new Verdict(shape, verdict, cache.baseVersion(), stateVersion(cache), stopped, counter, otherCounters,
                usageNow(counter, otherCounters), teamCounter, teamRunning);
    }

    private void remember(Verdict v) {
        Shape shape = v.shape();
        if (shape.memoGeneration != generation) {
            // put once per instance (and generation), not with every verdict: a recheck gives a new one in most looks
            if (byShape.size() >= MAX_SHAPES) startAgain();
            byShape.put(shape, shape);
            shape.memoGeneration = generation;
        }
        shape.lastVerdict = v;
    }

    private void startAgain() {
        byShape.clear();
        generation++;
    }
}
