package dev.taskgov.core.preemption;

import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.resources.Resources;

import java.util.List;
import java.util.Map;

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
            // the planner's own list writes the victims' messages when first read (most plans found are not chosen)
            victims = victims instanceof VictimList written ? written : List.copyOf(victims);
        }
    }

    /**
     * No set of victims makes room; nothing may be evicted.
     *
     * @param quotaBound null, unless the search read nothing but the preemptor's own team and the cohort's pool: the
     *                   preemptor would go beyond its nominal quota (nothing to reclaim), fair sharing is off, and
     *                   evicting every workload of its team it may preempt would still leave its quota short. Then
     *                   what those workloads hold (by team, then instance type; empty when there are none): while the
     *                   team's running workloads stay the same, no plan exists either as long as the quota would still
     *                   be short without them ({@link QuotaLedger#fitsWithout}), which is all the search would ask.
     */
    record NoPlan(String reason, Map<String, Map<String, Resources>> quotaBound) implements PlanResult {
        public NoPlan(String reason) {
            this(reason, null);
        }
    }
}
