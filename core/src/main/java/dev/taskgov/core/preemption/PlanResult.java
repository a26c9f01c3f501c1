package dev.taskgov.core.preemption;

import java.util.List;

/** The outcome of preemption planning. */
public sealed interface PlanResult {

    /**
     * Evicting these victims (in order) lets the preemptor be admitted now.
     *
     * @param preemptorId   the workload that needs room
     * @param preemptorTeam its team
     * @param victims       at least one
     */
    record PreemptionPlan(String preemptorId, String preemptorTeam, List<Victim> victims) implements PlanResult {
        public PreemptionPlan {
            victims = List.copyOf(victims);
        }
    }

    /** No set of victims makes room; nothing may be evicted. */
    record NoPlan(String reason) implements PlanResult {
    }
}
