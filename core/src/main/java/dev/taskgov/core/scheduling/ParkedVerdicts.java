package dev.taskgov.core.scheduling;

import java.util.HashMap;
import java.util.Map;

/**
 * The verdict memo: why workloads of a {@link Shape} were parked at a state version of the
 * {@link ClusterCache}. A later workload of the same shape gets the same verdict in the same state
 * without being evaluated again (pipelines submit many alike; a full queue re-walked after a
 * release is mostly repeats). Any change of the state (a new version) forgets every verdict.
 *
 * <p>A hit hands the entry the memo's own instance of its shape ({@link WorkloadEntry#shareShape}), so
 * alike entries converge on one instance: the map then finds them by identity, and comparing the
 * pod sets field by field (once 12% of a live decider's cycle) happens at most once per entry.
 */
final class ParkedVerdicts {

    private record Verdict(Shape shape, Evaluation.Blocked blocked) {
    }

    private final Map<Shape, Verdict> byShape = new HashMap<>();
    private long version = -1;
    /** False: nothing is remembered, every workload is evaluated on its own (the reference the memo is tested against). */
    private final boolean enabled;

    ParkedVerdicts(boolean enabled) {
        this.enabled = enabled;
    }

    /** The verdict remembered for the entry's shape at {@code stateVersion}, or null. */
    Evaluation.Blocked get(WorkloadEntry entry, long stateVersion) {
        if (version != stateVersion) {
            byShape.clear();
            version = stateVersion;
        }
        Verdict known = byShape.get(entry.shape());
        if (known == null) return null;
        entry.shareShape(known.shape());
        return known.blocked();
    }

    /** Remembers the verdict for the entry's shape at the version of the last {@link #get}. */
    void put(WorkloadEntry entry, Evaluation.Blocked verdict) {
        if (enabled) byShape.put(entry.shape(), new Verdict(entry.shape(), verdict));
    }
}
