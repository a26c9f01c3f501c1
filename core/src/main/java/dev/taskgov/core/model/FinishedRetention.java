package dev.taskgov.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How long a workload that ended (Finished or Rejected) is kept after its end, so that it can still be described,
 * before it is forgotten (Kueue's {@code objectRetentionPolicies.workloads.afterFinished}), and how many ended
 * workloads are kept at most: past that many, the one that ended first is forgotten first, whatever its period, so
 * that memory and rebuild time stay bounded however fast workloads come and go (at 500 ended workloads per second,
 * an hour is 1.8 million). Zero forgets it at the first look after its end.
 *
 * @param period   how long an ended workload is kept; zero or positive
 * @param maxEnded how many ended workloads are kept at most; zero or positive
 */
public record FinishedRetention(Duration period, int maxEnded) {

    /** The default period, as text (ISO-8601), for configuration defaults. */
    public static final String DEFAULT_PERIOD = "PT1H";
    /**
     * The default bound, as text, for configuration defaults: 20,000 ended workloads held take about 90 MiB (about
     * 4.5 KiB each with the read replica's copy, measured in a heap histogram), a quarter of the local runtime's
     * 384 MiB heap.
     */
    public static final String DEFAULT_MAX_ENDED = "20000";

    /** Kept for {@code period}, with no bound on how many. */
    public FinishedRetention(Duration period) {
        this(period, Integer.MAX_VALUE);
    }

    public FinishedRetention {
        Objects.requireNonNull(period, "period");
        if (period.isNegative()) {
            throw new IllegalArgumentException("finished retention: must be zero or positive, was " + period);
        }
        if (maxEnded < 0) {
            throw new IllegalArgumentException("finished retention max-ended: must be zero or positive, was " + maxEnded);
        }
    }

    /** Whether holding {@code ended} ended workloads is more than the bound, so that the earliest ended is forgotten. */
    public boolean overBound(int ended) {
        return ended > maxEnded;
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
