package dev.taskgov.core.scheduling;

import java.util.HashMap;
import java.util.Map;

/**
 * The verdict memo: why workloads of a {@link Shape} were parked at a state version of the
 * {@link ClusterCache}. A later workload of the same shape gets the same verdict in the same state
 * without being evaluated again (pipelines submit many alike; a full queue re-walked after a
 * release is mostly repeats). Any change of the state (a new version) forgets every verdict.
 */
final class ParkedVerdicts {

    private final Map<Shape, Evaluation.Blocked> byShape = new HashMap<>();
    private long version = -1;
    /** False: nothing is remembered, every workload is evaluated on its own (the reference the memo is tested against). */
    private final boolean enabled;

    ParkedVerdicts(boolean enabled) {
        this.enabled = enabled;
    }

    /** The verdict remembered for the shape at {@code stateVersion}, or null. */
    Evaluation.Blocked get(Shape shape, long stateVersion) {
        if (version != stateVersion) {
            byShape.clear();
            version = stateVersion;
        }
        return byShape.get(shape);
    }

    /** Remembers the verdict for the shape at the version of the last {@link #get}. */
    void put(Shape shape, Evaluation.Blocked verdict) {
        if (enabled) byShape.put(shape, verdict);
    }
}
