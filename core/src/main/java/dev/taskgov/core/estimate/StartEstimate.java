package dev.taskgov.core.estimate;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a pending workload is expected to be admitted, and on what basis (docs/semantics.md, "Estimated start").
 *
 * @param workloadId     the pending workload
 * @param forecastAt     the time the forecast was made (its state)
 * @param expectedStart  when the forecast admits it; null when unknown
 * @param workloadsAhead how many of the workloads pending at {@code forecastAt} the forecast admits before it; -1 when unknown
 * @param declaredEnds   how many ends before its start came from declared run times
 * @param learnedEnds    how many ends before its start came from run times learned from finished workloads
 * @param backoffUntil   the end of the backoff it waited out first (gang admission: its pods were not all ready in time
 *                       and it rejoins its queue then); null when it waits for none
 * @param unknownBecause why there is no estimate; null when there is one
 */
public record StartEstimate(String workloadId, Instant forecastAt, Instant expectedStart, int workloadsAhead,
                            int declaredEnds, int learnedEnds, Instant backoffUntil, String unknownBecause) {

    public StartEstimate {
        Objects.requireNonNull(workloadId, "workloadId");
        Objects.requireNonNull(forecastAt, "forecastAt");
        if ((expectedStart == null) == (unknownBecause == null)) {
            throw new IllegalArgumentException("an estimate has either a start or a reason it is unknown");
        }
    }

    static StartEstimate at(String id, Instant forecastAt, Instant start, int ahead, int declared, int learned) {
        return new StartEstimate(id, forecastAt, start, ahead, declared, learned, null, null);
    }

    static StartEstimate unknown(String id, Instant forecastAt, String because) {
        return new StartEstimate(id, forecastAt, null, -1, 0, 0, null, because);
    }

    public boolean known() {
        return expectedStart != null;
    }

    /** What the estimate rests on, without the time: the ends it waits for, or why it is unknown. */
    public String basis() {
        if (!known()) return "unknown: " + unknownBecause;
        int ends = declaredEnds + learnedEnds;
        String backoff = backoffUntil == null ? "" : "not before its backoff ends at " + backoffUntil
                + " (its pods were not all ready in time)";
        if (ends == 0) {
            return backoffUntil == null ? "it can be admitted as things stand, without waiting for running work to end"
                    : "once its backoff is over: " + backoff + ", without waiting for running work to end";
        }
        return "if running work ends as expected (" + ends + (ends == 1 ? " end" : " ends") + " before it: "
                + declaredEnds + " declared, " + learnedEnds + " learned from finished workloads)"
                + (backoffUntil == null ? "" : ", and " + backoff);
    }

    /** For people, read at {@code now}: "in about 12 min, if running work ends as expected (...); 3 workloads ahead of it". */
    public String describe(Instant now) {
        if (!known()) return basis();
        String when = declaredEnds + learnedEnds == 0 && !expectedStart.isAfter(forecastAt) ? "about now" : in(Duration.between(now, expectedStart));
        return when + ", " + basis() + "; " + workloadsAhead + (workloadsAhead == 1 ? " workload" : " workloads") + " ahead of it";
    }

    /** A coarse time from now: a forecast is no more precise than the run times it rests on. */
    static String in(Duration d) {
        long s = d.toSeconds();
        if (s <= 0) return "any time now (expected by now)";
        if (s < 60) return "in under a minute";
        long min = Math.round(s / 60.0);
        if (min < 90) return "in about " + min + " min";
        long hours = Math.round(s / 3600.0);
        if (hours < 48) return "in about " + hours + " h";
        return "in about " + Math.round(s / 86_400.0) + " days";
    }
}
