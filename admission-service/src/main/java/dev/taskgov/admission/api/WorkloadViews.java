package dev.taskgov.admission.api;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.DryRunResult;
import dev.taskgov.core.scheduling.WorkloadView;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The JSON shapes of admission-service's HTTP answers. */
public final class WorkloadViews {
    private WorkloadViews() {
    }

    /** {@code GET /workloads/{id}}: like {@code kubectl describe workload}. */
    public record Described(String workloadId, String team, String clusterArn, WorkloadState state, String reason, String message,
                            Instant submittedAt, Instant admittedAt, List<WorkloadAdmitted.AdmittedPodSet> placement,
                            Map<String, ResourceAmounts> borrowed, List<WorkloadRecord.Condition> history,
                            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> annotations) {
        public static Described of(WorkloadRecord r) {
            return new Described(r.workloadId(), r.team(), r.spec() == null ? null : r.spec().clusterArn(), r.state(), r.reason(),
                    r.message(), r.submittedAt(), r.admittedAt(), r.placement(), r.borrowed(), r.history(),
                    r.spec() == null ? Map.of() : r.spec().annotations());
        }
    }

    /** One entry of {@code GET /teams/{team}/pending}: position 1 is the head. */
    public record QueueEntry(int position, String workloadId, int priority, Instant submittedAt, String reason,
                             String message) {
        public static QueueEntry of(int position, WorkloadView v) {
            return new QueueEntry(position, v.workloadId(), v.priority(), v.submittedAt(), v.reason(), v.message());
        }
    }

    /** {@code GET /teams/{team}/pending}: one team's queue in one cluster (clusterArn null: the unnamed cluster). */
    public record Queue(String team, String clusterArn, int pending, List<QueueEntry> workloads) {
    }

    /** {@code POST /workloads:dry-run}. */
    public record DryRun(String workloadId, String team, String clusterArn, DryRunResult.Verdict verdict, boolean wouldBeAdmitted,
                         String reason, String message, List<WorkloadAdmitted.AdmittedPodSet> placement,
                         Map<String, ResourceAmounts> borrowed, List<Victim> preempting) {
        public static DryRun of(ClusterArn cluster, DryRunResult r) {
            boolean admitted = r.verdict() == DryRunResult.Verdict.Admitted
                    || r.verdict() == DryRunResult.Verdict.AdmittedAfterPreemption;
            return new DryRun(r.workloadId(), r.team(), cluster.orNull(), r.verdict(), admitted, r.reason(), r.message(),
                    r.placement() == null ? null : WorkloadAdmitted.podSets(r.placement()), amounts(r.borrowed()),
                    r.victims());
        }
    }

    /** A refused request: the message and, when known, each field with its rule. */
    public record Problem(String message, List<FieldError> errors) {
        public static Problem of(String message) {
            return new Problem(message, List.of());
        }
    }

    public record FieldError(String field, String rule) {
    }

    public record Accepted(String workloadId, String message) {
    }

    /** {@code GET /clusters}: the clusters the deployment governs, each with capacity and use. */
    public record Clusters(int count, List<dev.taskgov.admission.ClusterSummary> clusters) {
    }

    static Map<String, ResourceAmounts> amounts(Map<String, Resources> byType) {
        Map<String, ResourceAmounts> out = new TreeMap<>();
        if (byType != null) byType.forEach((t, r) -> {
            if (!r.isZero()) out.put(t, ResourceAmounts.of(r));
        });
        return out;
    }
}
