package dev.taskgov.core.scheduling;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdict memo: why workloads of a {@link Shape} were parked, and in which state of the
 * {@link ClusterCache}. A later workload of the same shape gets the same verdict without being
 * evaluated again while nothing it depends on changed (pipelines submit many alike; a full queue
 * re-walked after a release is mostly repeats).
 *
 * <p>What a verdict depends on: the quotas, nodes and config (any change of them forgets every
 * verdict), and what admitted workloads hold of the instance types the shape asks for. Without
 * FairShare nothing else counts: the quota check, the cohort's idle pool, "never admissible",
 * placement (a pod set goes only to nodes of its instance type) and preemption planning (its
 * candidates are workloads that use one of those types; borrowing is judged on those types) all
 * read those types alone. So an admission or eviction of a workload of other instance types keeps
 * the verdict, which matters most when every head is chosen again after an admission with
 * evictions. With FairShare a team's share spans all its instance types: then any change of usage
 * forgets the verdict.
 */
final class ParkedVerdicts {

    /** A verdict with the versions of the state it was found in. */
    private record Remembered(Evaluation.Blocked verdict, long version, long settingsVersion, long[] usageVersions) {
    }

    private final Map<Shape, Remembered> byShape = new HashMap<>();
    /** The settings version the remembered verdicts were found at: a newer one forgets them all. */
    private long settingsVersion = -1;
    /** False: nothing is remembered, every workload is evaluated on its own (the reference the memo is tested against). */
    private final boolean enabled;

    ParkedVerdicts(boolean enabled) {
        this.enabled = enabled;
    }

    /** The verdict remembered for the shape that still holds in the cache's state, or null. */
    Evaluation.Blocked get(Shape shape, ClusterCache cache) {
        if (settingsVersion != cache.settingsVersion()) {
            byShape.clear();
            settingsVersion = cache.settingsVersion();
            return null;
        }
        Remembered r = byShape.get(shape);
        if (r == null) return null;
        if (r.version() == cache.version()) return r.verdict();
        if (cache.config().fairShare()) return null;
        List<String> types = shape.instanceTypes();
        for (int i = 0; i < types.size(); i++) {
            if (cache.usageVersion(types.get(i)) != r.usageVersions()[i]) return null;
        }
        return r.verdict();
    }

    /** Remembers the verdict for the shape in the cache's current state. */
    void put(Shape shape, Evaluation.Blocked verdict, ClusterCache cache) {
        if (!enabled) return;
        List<String> types = shape.instanceTypes();
        long[] usage = new long[types.size()];
        for (int i = 0; i < usage.length; i++) usage[i] = cache.usageVersion(types.get(i));
        byShape.put(shape, new Remembered(verdict, cache.version(), cache.settingsVersion(), usage));
    }
}
