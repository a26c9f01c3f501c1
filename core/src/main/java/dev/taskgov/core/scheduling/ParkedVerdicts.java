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
 * <p>A hit hands the entry the memo's own instance of its shape ({@link WorkloadEntry#shareShape}), so
 * alike entries converge on one instance: the map then finds them by identity, and comparing the
 * pod sets field by field (once 12% of a live decider's cycle) happens at most once per entry.
 */
final class ParkedVerdicts {

    /** Past this many shapes the memo starts again (shapes of workloads that left the queue are not removed one by one). */
    private static final int MAX_SHAPES = 1 << 17;

    /**
     * A verdict and its stamp: {@code baseVersion} the cache's base version, {@code wholeVersion} the cache's version
     * with FairShare on (else -1), {@code stopped} whether the run had stopped preempting, {@code usage} the usage
     * version of each of the shape's instance types, read from {@code counters} (the cache's own counters of those
     * types, so that a look needs no lookup by name).
     */
    private record Verdict(Shape shape, Evaluation verdict, long baseVersion, long wholeVersion, boolean stopped,
                           long[][] counters, long[] usage) {
        boolean holds(ClusterCache cache, boolean stoppedNow) {
            if (baseVersion != cache.baseVersion() || stopped != stoppedNow || wholeVersion != stateVersion(cache)) return false;
            for (int i = 0; i < counters.length; i++) {
                if (usage[i] != counters[i][0]) return false;
            }
            return true;
        }
    }

    private static long stateVersion(ClusterCache cache) {
        return cache.config().fairShare() ? cache.version() : -1;
    }

    private final Map<Shape, Verdict> byShape = new HashMap<>();
    private long baseVersion = -1;
    /** False: nothing is remembered, every workload is evaluated on its own (the reference the memo is tested against). */
    private final boolean enabled;

    ParkedVerdicts(boolean enabled) {
        this.enabled = enabled;
    }

    /** The verdict (blocked or fitting) remembered for the entry's shape whose stamp still holds in the cache's state, or null. */
    Evaluation get(WorkloadEntry entry, ClusterCache cache, boolean stopped) {
        if (baseVersion != cache.baseVersion()) {
            byShape.clear();
            baseVersion = cache.baseVersion();
        }
        // the entry's own last verdict first: with distinct shapes the same entry is looked at again and again, and a
        // look-up in a map of thousands of shapes cost a tenth of a drain
        Verdict own = entry.lastVerdict instanceof Verdict v && v.shape() == entry.shape() ? v : null;
        if (own != null && own.holds(cache, stopped)) return own.verdict();
        Verdict known = byShape.get(entry.shape());
        if (known == null || known == own || !known.holds(cache, stopped)) return null;
        entry.lastVerdict = known;
        entry.shareShape(known.shape());
        return known.verdict();
    }

    /** Remembers the verdict for the entry's shape, stamped with the cache's state now (that of the last {@link #get}). */
    void put(WorkloadEntry entry, Evaluation verdict, ClusterCache cache, boolean stopped) {
        // a plan's victims are told their team's usage of every instance type: not stamped by the preemptor's types alone
        if (!enabled || verdict instanceof Evaluation.NeedsPreemption) return;
        if (byShape.size() >= MAX_SHAPES) byShape.clear();
        long[][] counters = new long[entry.requests().size()][];
        long[] usage = new long[counters.length];
        int i = 0;
        for (String type : entry.requests().keySet()) {
            counters[i] = cache.usageCounter(type);
            usage[i] = counters[i][0];
            i++;
        }
        Verdict v = new Verdict(entry.shape(), verdict, cache.baseVersion(), stateVersion(cache), stopped, counters, usage);
        byShape.put(entry.shape(), v);
        entry.lastVerdict = v;
    }
}
