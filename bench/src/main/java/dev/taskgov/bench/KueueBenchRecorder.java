package dev.taskgov.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a benchmark run saw, in the terms of Kueue's checker (wall time, mean time to admission per
 * class, usage of nominal) plus percentiles. Times are milliseconds from the run's start on one
 * monotonic clock (the bench process's), so they compare exactly. Thread-safe: the submitting
 * thread and the consuming thread both record.
 */
final class KueueBenchRecorder {

    /** One workload's life as seen by the pipeline. */
    static final class Life {
        final String workloadClass;
        final int units;
        final long runtimeMs;
        long submittedMs = -1;
        long firstAdmittedMs = -1;
        long runningSinceMs = -1;
        long finishedMs = -1;
        int admissions;
        int preemptions;
        /** A new admission was read while the workload still ran: its preemption, on another topic, is not read yet. */
        boolean readmittedEarly;

        Life(String workloadClass, int units, long runtimeMs) {
            this.workloadClass = workloadClass;
            this.units = units;
            this.runtimeMs = runtimeMs;
        }
    }

    private final Map<String, Life> lives = new HashMap<>();
    private double unitMsRunning;
    private long lastFinishedMs = -1;
    private int finished;
    private int preemptions;
    private int submitted;
    private int admitted;
    private int runningUnits;
    private long lastFirstAdmissionMs = -1;

    synchronized void planned(String id, String workloadClass, int units, long runtimeMs) {
        lives.put(id, new Life(workloadClass, units, runtimeMs));
    }

    synchronized boolean knows(String id) {
        return lives.containsKey(id);
    }

    synchronized void submitted(String id, long atMs) {
        lives.get(id).submittedMs = atMs;
        submitted++;
    }

    /** An admission; returns false for a workload of another run or one already running. */
    synchronized boolean admitted(String id, long atMs) {
        return admitted(id, atMs, false);
    }

    /**
     * An admitted event; returns false for a workload of another run, one finished, or one running. The decider
     * re-admits a workload only after it has read its preemption, but the two events are on different topics, so the
     * re-admission can be read first: a new admission (not a {@code newPlacement} after a node failure) of a running
     * workload is kept and taken when its preemption is read ({@link #readmittedEarly}), not dropped (which left the
     * workload admitted on the platform and waiting in the pipeline, never finished).
     */
    synchronized boolean admitted(String id, long atMs, boolean newPlacement) {
        Life l = lives.get(id);
        if (l == null || l.finishedMs >= 0) return false;
        if (l.runningSinceMs >= 0) {
            if (!newPlacement) l.readmittedEarly = true;
            return false;
        }
        if (l.firstAdmittedMs < 0) {
            l.firstAdmittedMs = atMs;
            admitted++;
            lastFirstAdmissionMs = Math.max(lastFirstAdmissionMs, atMs);
        }
        l.runningSinceMs = atMs;
        runningUnits += l.units;
        l.admissions++;
        return true;
    }

    /** A preemption event: the workload's run so far counts as used, and it waits again. */
    synchronized boolean preempted(String id, long atMs) {
        Life l = lives.get(id);
        if (l == null || l.runningSinceMs < 0) return false;
        unitMsRunning += (double) l.units * (atMs - l.runningSinceMs);
        l.runningSinceMs = -1;
        runningUnits -= l.units;
        l.preemptions++;
        preemptions++;
        return true;
    }

    /**
     * After its preemption was read: whether its re-admission had been read before it ({@link #admitted}); if so the
     * workload runs again from {@code atMs}, and the caller schedules its finish.
     */
    synchronized boolean readmittedEarly(String id, long atMs) {
        Life l = lives.get(id);
        if (l == null || !l.readmittedEarly || l.runningSinceMs >= 0) return false;
        l.readmittedEarly = false;
        return admitted(id, atMs, false);
    }

    /** The pipeline finished it {@code runtime} after its admission. */
    synchronized void finished(String id, long atMs) {
        Life l = lives.get(id);
        if (l == null || l.runningSinceMs < 0) return;
        unitMsRunning += (double) l.units * (atMs - l.runningSinceMs);
        l.runningSinceMs = -1;
        runningUnits -= l.units;
        l.finishedMs = atMs;
        finished++;
        lastFinishedMs = Math.max(lastFinishedMs, atMs);
    }

    synchronized int finishedCount() {
        return finished;
    }

    /**
     * Up to {@code max} workloads not finished, each with what the pipeline saw of it (never admitted, running, or
     * preempted and waiting): at a timeout, what the run still waited for.
     */
    synchronized Map<String, String> unfinished(int max) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Life> e : lives.entrySet()) {
            if (out.size() == max) break;
            Life l = e.getValue();
            if (l.finishedMs >= 0) continue;
            String state = l.submittedMs < 0 ? "not submitted"
                    : l.admissions == 0 ? "submitted at " + l.submittedMs + " ms, never admitted"
                    : l.runningSinceMs >= 0 ? "running since " + l.runningSinceMs + " ms"
                    : "preempted, waiting";
            out.put(e.getKey(), state + " (admissions " + l.admissions + ", preemptions " + l.preemptions
                    + (l.readmittedEarly ? ", a re-admission read before its preemption" : "") + ")");
        }
        return out;
    }

    synchronized int preemptionCount() {
        return preemptions;
    }

    /** Workloads admitted at least once. */
    synchronized int admittedCount() {
        return admitted;
    }

    /** Submitted and never admitted yet: the depth of the queues as the pipeline sees it. */
    synchronized int pendingCount() {
        return submitted - admitted;
    }

    synchronized int runningUnits() {
        return runningUnits;
    }

    /** The figures Kueue's checker reports, and more. */
    /**
     * @param admissionsPerSecond first admissions per second from the first submission to the last first admission:
     *                            the rate the platform admitted at, end to end
     */
    record Summary(double wallSeconds, Map<String, ClassFigures> byClass, double usageOfNominalPercent, int workloads,
                   int finished, int preemptions, double admissionsPerSecond) {
    }

    /** Time to admission of one class (first admission after submission), in milliseconds. */
    record ClassFigures(int count, double meanMs, long p50Ms, long p90Ms, long p99Ms, long maxMs) {
    }

    synchronized Summary summary(List<String> classOrder, int nominalUnits) {
        Map<String, List<Long>> waits = new LinkedHashMap<>();
        for (String c : classOrder) waits.put(c, new ArrayList<>());
        long firstSubmitted = Long.MAX_VALUE;
        for (Life l : lives.values()) {
            if (l.submittedMs >= 0) firstSubmitted = Math.min(firstSubmitted, l.submittedMs);
            if (l.firstAdmittedMs >= 0 && l.submittedMs >= 0) {
                waits.computeIfAbsent(l.workloadClass, k -> new ArrayList<>()).add(l.firstAdmittedMs - l.submittedMs);
            }
        }
        Map<String, ClassFigures> byClass = new LinkedHashMap<>();
        waits.forEach((c, w) -> byClass.put(c, figures(w)));
        double wallMs = lastFinishedMs < 0 || firstSubmitted == Long.MAX_VALUE ? 0 : lastFinishedMs - firstSubmitted;
        double usage = wallMs <= 0 ? 0 : 100.0 * unitMsRunning / (nominalUnits * wallMs);
        double admittingMs = lastFirstAdmissionMs < 0 || firstSubmitted == Long.MAX_VALUE ? 0 : lastFirstAdmissionMs - firstSubmitted;
        double rate = admittingMs <= 0 ? 0 : admitted * 1000.0 / admittingMs;
        return new Summary(wallMs / 1000.0, byClass, usage, lives.size(), finished, preemptions, rate);
    }

    static ClassFigures figures(List<Long> values) {
        if (values.isEmpty()) return new ClassFigures(0, 0, 0, 0, 0, 0);
        long[] v = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(v);
        double sum = 0;
        for (long x : v) sum += x;
        return new ClassFigures(v.length, sum / v.length, percentile(v, 50), percentile(v, 90), percentile(v, 99), v[v.length - 1]);
    }

    /** Nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
