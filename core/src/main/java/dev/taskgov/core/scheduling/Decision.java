package dev.taskgov.core.scheduling;

import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.PlanResult.PreemptionPlan;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Placement;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What a scheduling cycle decided, in the order it decided it. */
public sealed interface Decision {

    /** The workload concerned. */
    String workloadId();

    /**
     * The workload was admitted, or (with {@link #replacedBecause}) a running workload got a new
     * placement because a node it ran on failed.
     *
     * @param placement       its whole placement
     * @param borrowed        per instance type, what it takes above its team's nominal quota
     * @param admittedAt      when it was admitted, or when its placement was replaced
     * @param replacedBecause null for an admission; for a new placement after a node failure
     *                        ({@link WorkloadAdmitted#NODE_REPLACED}), which node failed and where its
     *                        pods went, for people: not a new admission
     */
    record Admit(String workloadId, String team, Placement placement, Map<String, Resources> borrowed,
                 Instant admittedAt, String replacedBecause) implements Decision {
        /** An admission. */
        public Admit(String workloadId, String team, Placement placement, Map<String, Resources> borrowed, Instant admittedAt) {
            this(workloadId, team, placement, borrowed, admittedAt, null);
        }

        /** True for a running workload's new placement after a node failure. */
        public boolean nodeReplaced() {
            return replacedBecause != null;
        }

        /** As a {@code taskgov.workload.admitted} event. */
        public WorkloadAdmitted toEvent() {
            return WorkloadAdmitted.of(workloadId, team, admittedAt, borrowed, placement,
                    nodeReplaced() ? WorkloadAdmitted.NODE_REPLACED : null);
        }
    }

    /**
     * The engine itself evicted a running workload, with no preemptor: a node it ran on failed and
     * its pods found no replacement ({@link dev.taskgov.core.model.PreemptionReason#NodeFailure}), or
     * its team's quota was disabled or deleted ({@link dev.taskgov.core.model.PreemptionReason#QuotaRemoved}).
     * It is pending again at its original submission time.
     */
    record Evict(Victim victim, Instant evictedAt) implements Decision {
        @Override
        public String workloadId() {
            return victim.workloadId();
        }

        /** As a {@code taskgov.workload.preempted} event without a preemptor. */
        public WorkloadPreempted toEvent() {
            return Preempt.toEvent(null, victim, evictedAt);
        }
    }

    /**
     * In-process mode: these victims were evicted (and are pending again) so that the plan's
     * preemptor could be admitted; an {@link Admit} of the preemptor follows.
     */
    record Preempt(PreemptionPlan plan, Instant preemptedAt) implements Decision {
        @Override
        public String workloadId() {
            return plan.preemptorId();
        }

        /** One {@code taskgov.workload.preempted} event per victim. */
        public List<WorkloadPreempted> toEvents() {
            return plan.victims().stream().map(v -> toEvent(plan.preemptorId(), v, preemptedAt)).toList();
        }

        public static WorkloadPreempted toEvent(String preemptorId, Victim v, Instant at) {
            return new WorkloadPreempted(v.workloadId(), v.team(), preemptorId, v.reason(), v.message(), at);
        }
    }

    /**
     * Delegated mode: the workload fits only by preemption; it stays pending (reason
     * {@link PendingReason#WaitingForPreemption}) until the evictions arrive.
     *
     * @param workload      the nominated preemptor
     * @param suggestedPlan the victims this engine would choose (the preemption service plans again)
     * @param lacking       per instance type, what quota lacks for it now (empty when only placement lacks)
     * @param message       for people, with numbers
     * @param protectedWorkloads running workloads the preemptor may not evict: when a preemption evicted the
     *                      preemptor itself in the current run, those admitted since the run began
     *                      (docs/semantics.md, "Every run ends"); empty otherwise
     */
    record PreemptionNeeded(Workload workload, PreemptionPlan suggestedPlan, Map<String, Resources> lacking,
                            String message, Set<String> protectedWorkloads) implements Decision {
        public PreemptionNeeded {
            protectedWorkloads = Set.copyOf(protectedWorkloads);
        }

        @Override
        public String workloadId() {
            return workload.id();
        }

        /** Whether planning may evict this running workload for the preemptor. */
        public boolean mayEvict(RunningWorkload r) {
            return !protectedWorkloads.contains(r.id());
        }

        /** {@link #lacking} in event form. */
        public Map<String, ResourceAmounts> lackingAmounts() {
            Map<String, ResourceAmounts> out = new LinkedHashMap<>();
            lacking.forEach((t, r) -> out.put(t, ResourceAmounts.of(r)));
            return out;
        }
    }

    /**
     * A guard that the rules make unnecessary: the run of the scheduler evicted more workloads by preemption than its
     * bound (far above what "Every run ends" allows), so it preempts no more until the next run. Services log it and
     * count it; the state stays consistent (every eviction so far was carried out whole).
     *
     * @param workloadId     the preemptor whose victims crossed the bound
     * @param run            the run's number
     * @param evictions      preemption evictions in the run
     * @param bound          the run's bound
     * @param lastEvictions  the latest evictions, "victim by preemptor", oldest first: the cycle's members
     */
    record PreemptionsStopped(String workloadId, String team, long run, long evictions, long bound,
                              List<String> lastEvictions, String message) implements Decision {
    }

    /**
     * The workload is pending with a new reason or message. A new reason is always reported; new figures alone (the same
     * reason) of a workload settled in its parked shape are not, one decision per workload per cycle being what made a
     * deep queue's cycle cost grow with its depth: they show when it is read ({@link Scheduler#workload},
     * {@link Scheduler#pendingFigures}).
     */
    record StayPending(String workloadId, String team, PendingReason reason, String message) implements Decision {
    }

    /** The submission was refused. */
    record Reject(String workloadId, String team, RejectReason reason, String message) implements Decision {
    }
}
