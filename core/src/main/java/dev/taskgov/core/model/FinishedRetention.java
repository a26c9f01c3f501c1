package dev.taskgov.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How long a workload that ended (Finished or Rejected) is kept after its end, so that it can still be described,
 * before it is forgotten (Kueue's {@code objectRetentionPolicies.workloads.afterFinished}). Zero forgets it at the
 * first look after its end.
 *
 * @param period how long an ended workload is kept; zero or positive
 */
public record FinishedRetention(Duration period) {

    /** The default period, as text (ISO-8601), for configuration defaults. */
    public static final String DEFAULT_PERIOD = "PT1H";

    public FinishedRetention {
        Objects.requireNonNull(period, "period");
        if (period.isNegative()) {
            throw new IllegalArgumentException("finished retention: must be zero or positive, was " + period);
        }
    }

    /** When a workload in {@code state} since {@code since} is to be forgotten; empty while it has not ended. */
    public Optional<Instant> forgetAt(WorkloadState state, Instant since) {
        return state.hasEnded() ? Optional.of(since.plus(period)) : Optional.empty();
    }

    /** Whether a workload in {@code state} since {@code since} is to be forgotten at {@code now}. */
    public boolean elapsed(WorkloadState state, Instant since, Instant now) {
        return forgetAt(state, since).map(at -> !now.isBefore(at)).orElse(false);
    }
}
