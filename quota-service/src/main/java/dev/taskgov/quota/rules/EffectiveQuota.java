package dev.taskgov.quota.rules;

import dev.taskgov.core.resources.Resources;

import java.util.Map;

/**
 * A compute quota after defaults: what the scheduler will enforce for one team.
 *
 * @param team             {@code ComputeQuotaTarget.TeamName}
 * @param nominal          per instance type, in stored units (ratio defaults applied)
 * @param strategy         {@code LendAndBorrow} | {@code Lend} | {@code DontLend}
 * @param borrowLimit      percent of nominal, 0..10000
 * @param absoluteBorrowLimits per instance type, in stored units: the most the team may borrow (replaces the percentage)
 * @param preemptTeamTasks {@code LowerPriority} | {@code Never}
 * @param fairShareWeight  0..100
 * @param active           {@code ActivationState: Enabled}
 */
public record EffectiveQuota(String team, Map<String, Resources> nominal, String strategy, int borrowLimit,
                             Map<String, Resources> absoluteBorrowLimits, String preemptTeamTasks, int fairShareWeight,
                             boolean active) {
    public EffectiveQuota {
        nominal = Map.copyOf(nominal);
        absoluteBorrowLimits = Map.copyOf(absoluteBorrowLimits);
    }
}
