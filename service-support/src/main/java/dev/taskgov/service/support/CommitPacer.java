package dev.taskgov.service.support;

import java.time.Duration;
import java.util.ArrayDeque;

/**
 * Whether the loop waits out the commit interval after a turn ({@link TransactionalLoop.Turns}): as Nagle's rule and a
 * producer's linger, a turn batches only when records come fast enough for a wait to gather more of them.
 *
 * <p>The rule: after a turn that read records, count the records read by the turns that started within the last
 * commit interval {@code I}, this one included. If they are at least {@code R x I} (the records came at the rate
 * {@code R} or faster over the last interval), the next turn starts no sooner than {@code I} after this one's start;
 * otherwise it starts as soon as records are there. So a record after a quiet spell, and a trickle below {@code R}, are
 * decided as soon as they are read, while a stream of {@code R} or more is taken in one transaction per partition and
 * interval, each record waiting at most {@code I} more. Once batching, a turn holds what came in one interval, so the
 * count is the same rate estimate as between unbatched turns, and the loop stops batching as soon as the rate drops
 * below {@code R}. A rate of 0 makes every turn that read records wait (a fixed interval); an interval of 0 never waits.
 *
 * <p>Times are the caller's {@link System#nanoTime()} readings, so a test gives its own.
 */
final class CommitPacer {

    private final long intervalNanos;
    private final long minRecords;
    /** The turns that read records and started within the last interval: start time and records read, oldest first. */
    private final ArrayDeque<long[]> recent = new ArrayDeque<>();
    private long recentRecords;

    /**
     * @param interval the commit interval {@code I}
     * @param fromRate the rate {@code R} in records per second from which a turn waits out the interval
     */
    CommitPacer(Duration interval, int fromRate) {
        this.intervalNanos = interval.toNanos();
        // Records within one interval at that rate, rounded up, at least one.
        this.minRecords = Math.max(1, (fromRate * intervalNanos + 999_999_999L) / 1_000_000_000L);
    }

    /** The records within an interval from which a turn waits it out. */
    long minRecords() {
        return minRecords;
    }

    /**
     * Counts a turn that started at {@code turnStart} and read {@code records} records (both polls) and answers whether
     * the next turn must wait until {@code turnStart} plus the interval.
     */
    boolean waitsAfter(long turnStart, int records) {
        if (intervalNanos == 0 || records == 0) return false;
        while (!recent.isEmpty() && turnStart - recent.peekFirst()[0] >= intervalNanos) {
            recentRecords -= recent.pollFirst()[1];
        }
        recent.addLast(new long[]{turnStart, records});
        recentRecords += records;
        return recentRecords >= minRecords;
    }
}
