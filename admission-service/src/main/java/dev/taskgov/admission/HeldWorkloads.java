package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.WorkloadState;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The workload records a state holds, by id, with how many of them wait (per cluster, team and pending reason) and run
 * (per cluster and team), counted as records come and go. The gauges read the counts once a second under the lock the
 * decider needs; walking every record held instead (finished ones too) cost admission-service about a tenth of its CPU
 * in a {@code baseline} run (docs/benchmarks.md).
 */
final class HeldWorkloads {

    private final Map<String, WorkloadRecord> byId = new HashMap<>();
    /** Per cluster, team and reason ("" for none): how many are pending. Here and below, counts that fell to zero stay. */
    private final Map<ClusterArn, Map<String, Map<String, long[]>>> pending = new HashMap<>();
    /** Per cluster and team: how many are admitted. */
    private final Map<ClusterArn, Map<String, long[]>> admitted = new HashMap<>();

    WorkloadRecord get(String id) {
        return byId.get(id);
    }

    /** Holds {@code record} under {@code id} in place of the one held before, which it returns. */
    WorkloadRecord put(String id, WorkloadRecord record) {
        WorkloadRecord before = byId.put(id, record);
        count(before, -1);
        count(record, 1);
        return before;
    }

    WorkloadRecord remove(String id) {
        WorkloadRecord before = byId.remove(id);
        count(before, -1);
        return before;
    }

    void clear() {
        byId.clear();
        pending.clear();
        admitted.clear();
    }

    int size() {
        return byId.size();
    }

    /** The records held (read only: a record comes and goes through {@link #put} and {@link #remove}, which count it). */
    Collection<WorkloadRecord> values() {
        return Collections.unmodifiableCollection(byId.values());
    }

    /** The pending workloads of the clusters {@code counted} accepts, per cluster, team and reason; none at zero. */
    void forEachPending(Predicate<ClusterArn> counted, PendingCount to) {
        pending.forEach((cluster, byTeam) -> {
            if (!counted.test(cluster)) return;
            byTeam.forEach((team, byReason) -> byReason.forEach((reason, n) -> {
                if (n[0] > 0) to.accept(cluster, team, reason, n[0]);
            }));
        });
    }

    /** The admitted workloads of the clusters {@code counted} accepts, per cluster and team; none at zero. */
    void forEachAdmitted(Predicate<ClusterArn> counted, AdmittedCount to) {
        admitted.forEach((cluster, byTeam) -> {
            if (!counted.test(cluster)) return;
            byTeam.forEach((team, n) -> {
                if (n[0] > 0) to.accept(cluster, team, n[0]);
            });
        });
    }

    @FunctionalInterface
    interface PendingCount {
        void accept(ClusterArn cluster, String team, String reason, long count);
    }

    @FunctionalInterface
    interface AdmittedCount {
        void accept(ClusterArn cluster, String team, long count);
    }

    private void count(WorkloadRecord r, int delta) {
        if (r == null) return;
        if (r.state() == WorkloadState.Pending) {
            pending.computeIfAbsent(r.cluster(), c -> new HashMap<>()).computeIfAbsent(r.team(), t -> new HashMap<>())
                    .computeIfAbsent(r.reason() == null ? "" : r.reason(), x -> new long[1])[0] += delta;
        } else if (r.state() == WorkloadState.Admitted) {
            admitted.computeIfAbsent(r.cluster(), c -> new HashMap<>()).computeIfAbsent(r.team(), t -> new long[1])[0] += delta;
        }
    }
}
