package dev.taskgov.admission.api;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.estimate.StartEstimate;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.DryRunResult;
import dev.taskgov.core.scheduling.WorkloadView;

import dev.taskgov.core.resources.ResourceKey;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The JSON shapes of admission-service's HTTP answers. */
public final class WorkloadViews {
    private WorkloadViews() {
    }

    /**
     * {@code GET /workloads/{id}}: like {@code kubectl describe workload}.
     *
     * @param submittedAt       its place in the queue: when the platform first received it
     * @param clientSubmittedAt the time its submitter sent, kept as information only; left out when none
     * @param retries how many times it was queued again after a failure ({@code taskgov.dev/max-retry}); left out while 0
     * @param startEstimate a pending workload's estimated start; left out in any other state
     */
    public record Described(String workloadId, String team, String clusterArn, WorkloadState state, String reason, String message,
                            Instant submittedAt, @JsonInclude(JsonInclude.Include.NON_NULL) Instant clientSubmittedAt, Instant admittedAt, List<WorkloadAdmitted.AdmittedPodSet> placement,
                            Map<String, ResourceAmounts> borrowed, List<WorkloadRecord.Condition> history,
                            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> annotations,
                            @JsonInclude(JsonInclude.Include.NON_DEFAULT) int retries,
                            @JsonInclude(JsonInclude.Include.NON_NULL) Estimate startEstimate) {
        public static Described of(WorkloadRecord r) {
            return of(r, null);
        }

        public static Described of(WorkloadRecord r, Estimate startEstimate) {
            return new Described(r.workloadId(), r.team(), r.spec() == null ? null : r.spec().clusterArn(), r.state(), r.reason(),
                    r.message(), r.submittedAt(), r.spec() == null ? null : r.spec().clientSubmittedAt(), r.admittedAt(), r.placement(), r.borrowed(), r.history(),
                    r.spec() == null ? Map.of() : r.spec().annotations(), r.retries(), startEstimate);
        }
    }

    /**
     * A pending workload's estimated start (docs/semantics.md, "Estimated start").
     *
     * @param known           whether there is an estimate
     * @param expectedStartAt when it is expected to be admitted; left out when unknown
     * @param workloadsAhead  how many of the workloads pending now are expected to be admitted before it; left out when unknown
     * @param basis           what the estimate rests on, or why it is unknown
     * @param message         for people, as of the read: "in about 12 min, if running work ends as expected (...); 3 workloads ahead of it"
     * @param estimatedAt     when the forecast was made (a new one follows each change of state, at most every few seconds)
     */
    public record Estimate(boolean known, @JsonInclude(JsonInclude.Include.NON_NULL) Instant expectedStartAt,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Integer workloadsAhead, String basis, String message,
                           Instant estimatedAt) {
        public static Estimate of(StartEstimate e, Instant now) {
            return e == null ? null : new Estimate(e.known(), e.expectedStart(), e.known() ? e.workloadsAhead() : null, e.basis(),
                    e.describe(now), e.forecastAt());
        }
    }

    /** One entry of {@code GET /teams/{team}/pending}: position 1 is the head. */
    public record QueueEntry(int position, String workloadId, int priority, Instant submittedAt, String reason,
                             String message, @JsonInclude(JsonInclude.Include.NON_NULL) Estimate startEstimate) {
        public static QueueEntry of(int position, WorkloadView v, Estimate startEstimate) {
            return new QueueEntry(position, v.workloadId(), v.priority(), v.submittedAt(), v.reason(), v.message(), startEstimate);
        }
    }

    /** {@code GET /teams/{team}/pending}: one team's queue in one cluster (clusterArn null: the unnamed cluster). */
    public record Queue(String team, String clusterArn, int pending, List<QueueEntry> workloads) {
    }

    /**
     * {@code POST /workloads:dry-run}.
     *
     * @param preempting           the victims the reader may read (all of them for an admin or a viewer)
     * @param preemptingOtherTeams for a team key, the victims of other teams as a count and what they hold; left out
     *                             when there are none
     */
    public record DryRun(String workloadId, String team, String clusterArn, DryRunResult.Verdict verdict, boolean wouldBeAdmitted,
                         String reason, String message, List<WorkloadAdmitted.AdmittedPodSet> placement,
                         Map<String, ResourceAmounts> borrowed, List<Victim> preempting,
                         @JsonInclude(JsonInclude.Include.NON_NULL) OtherTeams preemptingOtherTeams) {
        public static DryRun of(ClusterArn cluster, DryRunResult r) {
            boolean admitted = r.verdict() == DryRunResult.Verdict.Admitted
                    || r.verdict() == DryRunResult.Verdict.AdmittedAfterPreemption;
            return new DryRun(r.workloadId(), r.team(), cluster.orNull(), r.verdict(), admitted, r.reason(), r.message(),
                    r.placement() == null ? null : WorkloadAdmitted.podSets(r.placement()), amounts(r.borrowed()),
                    r.victims(), null);
        }
    }

    /** Other teams' workloads as a team key sees them: how many, and what they hold per instance type. */
    public record OtherTeams(int workloads, Map<String, ResourceAmounts> holding) {
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

    /**
     * {@code GET /teams}: one cluster's teams (those with a quota, and those with pending workloads but no quota), by
     * name, like {@code kubectl get clusterqueues} with usage.
     */
    public record Teams(String clusterArn, int count, List<Team> teams) {
        public static Teams of(ClusterArn cluster, dev.taskgov.admission.WorkloadReads.TeamsInCluster in) {
            Map<String, Team> byName = new TreeMap<>();
            for (dev.taskgov.admission.TeamUsage u : in.usage()) {
                Map<String, TeamInstanceType> types = new TreeMap<>();
                u.instanceTypes().forEach((type, f) -> types.put(type, new TeamInstanceType(ResourceAmounts.full(f.nominal()),
                        ResourceAmounts.full(f.used()), ResourceAmounts.full(f.borrowed()), lent(f.lent()))));
                byName.put(u.team(), new Team(u.team(), 0, Map.of(), types));
            }
            in.pendingByTeamAndReason().forEach((team, byReason) -> {
                Team t = byName.getOrDefault(team, new Team(team, 0, Map.of(), Map.of()));
                byName.put(team, new Team(team, byReason.values().stream().mapToLong(Long::longValue).sum(), new TreeMap<>(byReason),
                        t.instanceTypes()));
            });
            return new Teams(cluster.orNull(), byName.size(), List.copyOf(byName.values()));
        }

        /** The lent share in JSON units, to the milli-unit (it is a proportion, not a whole amount). */
        private static ResourceAmounts lent(Map<ResourceKey, Double> stored) {
            Map<String, BigDecimal> partitions = new TreeMap<>();
            stored.keySet().stream().filter(ResourceKey::isPartition).forEach(k -> partitions.put(k.partition(), json(stored, k)));
            return new ResourceAmounts(json(stored, ResourceKey.ACCELERATORS), json(stored, ResourceKey.VCPU),
                    json(stored, ResourceKey.MEMORY), partitions);
        }

        private static BigDecimal json(Map<ResourceKey, Double> stored, ResourceKey r) {
            // plain digits (10, not 1E+1), as every other amount on the wire
            return new BigDecimal(BigDecimal.valueOf(stored.get(r) / r.unitsPerJsonUnit()).setScale(3, RoundingMode.HALF_UP)
                    .stripTrailingZeros().toPlainString());
        }
    }

    /**
     * One team of {@code GET /teams}.
     *
     * @param pending          its pending workloads
     * @param pendingByReason  those by pending reason
     * @param instanceTypes    per instance type of its quota (empty for a team without a quota)
     */
    public record Team(String team, long pending, Map<String, Long> pendingByReason, Map<String, TeamInstanceType> instanceTypes) {
    }

    /**
     * A team's figures for one instance type, in accelerators, vCPU and GiB.
     *
     * @param borrowed what it uses above its nominal
     * @param lent     its part of what other teams borrow now, in proportion to what it leaves idle
     */
    public record TeamInstanceType(ResourceAmounts nominal, ResourceAmounts used, ResourceAmounts borrowed, ResourceAmounts lent) {
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
