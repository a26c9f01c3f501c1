package dev.taskgov.core.sim.whatif;

/**
 * One team's figures over a replayed window. Times are in seconds, amounts in accelerator-hours.
 *
 * @param submitted           workloads that entered the team's queue in the window (or were waiting or running when it opened)
 * @param admissions          admissions (a workload admitted again after a preemption counts again)
 * @param meanWaitSeconds     mean time from entering the queue to the first admission; a workload never admitted counts
 *                            its wait until the window's end (so this is a lower bound when {@code pendingAtEnd} > 0);
 *                            0 when the team had no workload
 * @param p90WaitSeconds      the 90th percentile (nearest rank) of the same waits
 * @param pendingAtEnd        workloads still waiting when the window closes
 * @param preemptionsSuffered the team's running workloads evicted (by a preemptor, a failed node or a removed quota)
 * @param preemptionsCaused   workloads of any team evicted so that one of this team's workloads could be admitted
 * @param borrowedHours       accelerator-hours the team held above its nominal quota
 * @param lentHours           accelerator-hours of the team's idle quota that others borrowed: each instant's borrowing
 *                            is shared among the lenders in proportion to the idle lendable quota each had then
 * @param usedHours           accelerator-hours the team's admitted workloads held
 */
public record TeamFigures(String team, int submitted, int admissions, double meanWaitSeconds, double p90WaitSeconds,
                          int pendingAtEnd, int preemptionsSuffered, int preemptionsCaused, double borrowedHours,
                          double lentHours, double usedHours) {
}
