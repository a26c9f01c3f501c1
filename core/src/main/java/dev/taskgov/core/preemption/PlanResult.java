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

    /**
     * No set of victims makes room; nothing may be evicted.
     *
     * @param forQuotaAlone the search read nothing but the preemptor's own team and the cohort's pool: the preemptor
     *                      would go beyond its nominal quota (nothing to reclaim), fair sharing is off, and evicting every
     *                      workload of its team it may preempt would still leave its quota short. No plan exists then
     *                      either while the team's running workloads stay the same and the pool's usage of the
     *                      preemptor's instance types does not fall (a fuller pool never lets more fit).
     */
    record NoPlan(String reason, boolean forQuotaAlone) implements PlanResult {
        public NoPlan(String reason) {
            this(reason, false);
        }
    }
}
