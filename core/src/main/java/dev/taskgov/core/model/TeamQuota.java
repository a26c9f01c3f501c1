package dev.taskgov.core.model;

import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A team's effective compute quota (one {@code ComputeQuota}) with the derived amounts the
 * scheduler works with, per instance type and resource:
 * <ul>
 *   <li>nominal N: the quota itself;</li>
 *   <li>lendable L: N for {@code LendAndBorrow} and {@code Lend}, 0 for {@code DontLend};</li>
 *   <li>guaranteed G = N - L: reserved for the team whatever others do;</li>
 *   <li>borrowing limit B = floor(N x BorrowLimit / 100) for {@code LendAndBorrow}, else 0; for an
 *       instance type named in {@code AbsoluteBorrowLimits}, B is that absolute amount instead (the API
 *       reference: "regardless of the percentage-based BorrowLimit"), so a team may borrow a type it
 *       has no nominal quota of.</li>
 * </ul>
 *
 * @param team               team name
 * @param quotaName          the ComputeQuota's name (may be {@code null} when built in code)
 * @param nominal            nominal quota per instance type
 * @param strategy           lending/borrowing strategy
 * @param borrowLimitPercent BorrowLimit, 0..10000 (percent of nominal)
 * @param preemptTeamTasks   whether the team's tasks preempt its own lower-priority ones
 * @param fairShareWeight    0..100; 0 is served last for idle capacity
 * @param active             ActivationState Enabled; an inactive quota neither lends nor admits
 * @param absoluteBorrowLimits {@code ResourceSharingConfig.AbsoluteBorrowLimits} per instance type (empty: none)
 */
public record TeamQuota(String team, String quotaName, Map<String, Resources> nominal, SharingStrategy strategy,
                        int borrowLimitPercent, PreemptTeamTasks preemptTeamTasks, int fairShareWeight, boolean active,
                        Map<String, Resources> absoluteBorrowLimits) {

    /** The default {@code BorrowLimit} (percent). */
    public static final int DEFAULT_BORROW_LIMIT = 50;

    public TeamQuota {
        Objects.requireNonNull(team, "team");
        nominal = Collections.unmodifiableMap(new TreeMap<>(nominal));
        absoluteBorrowLimits = absoluteBorrowLimits == null ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(absoluteBorrowLimits));
        strategy = strategy == null ? SharingStrategy.LendAndBorrow : strategy;
        preemptTeamTasks = preemptTeamTasks == null ? PreemptTeamTasks.LowerPriority : preemptTeamTasks;
    }

    /** A quota without absolute borrow limits. */
    public TeamQuota(String team, String quotaName, Map<String, Resources> nominal, SharingStrategy strategy,
                     int borrowLimitPercent, PreemptTeamTasks preemptTeamTasks, int fairShareWeight, boolean active) {
        this(team, quotaName, nominal, strategy, borrowLimitPercent, preemptTeamTasks, fairShareWeight, active, Map.of());
    }

    /** A quota with the defaults: LendAndBorrow, BorrowLimit 50, LowerPriority, weight 0, active. */
    public static TeamQuota of(String team, Map<String, Resources> nominal) {
        return new TeamQuota(team, team + "-quota", nominal, SharingStrategy.LendAndBorrow, DEFAULT_BORROW_LIMIT,
                PreemptTeamTasks.LowerPriority, 0, true);
    }

    public TeamQuota withStrategy(SharingStrategy s) {
        return new TeamQuota(team, quotaName, nominal, s, borrowLimitPercent, preemptTeamTasks, fairShareWeight, active, absoluteBorrowLimits);
    }

    public TeamQuota withBorrowLimit(int percent) {
        return new TeamQuota(team, quotaName, nominal, strategy, percent, preemptTeamTasks, fairShareWeight, active, absoluteBorrowLimits);
    }

    public TeamQuota withPreemptTeamTasks(PreemptTeamTasks p) {
        return new TeamQuota(team, quotaName, nominal, strategy, borrowLimitPercent, p, fairShareWeight, active, absoluteBorrowLimits);
    }

    public TeamQuota withFairShareWeight(int weight) {
        return new TeamQuota(team, quotaName, nominal, strategy, borrowLimitPercent, preemptTeamTasks, weight, active, absoluteBorrowLimits);
    }

    public TeamQuota withAbsoluteBorrowLimits(Map<String, Resources> limits) {
        return new TeamQuota(team, quotaName, nominal, strategy, borrowLimitPercent, preemptTeamTasks, fairShareWeight, active, limits);
    }

    public TeamQuota withActive(boolean a) {
        return new TeamQuota(team, quotaName, nominal, strategy, borrowLimitPercent, preemptTeamTasks, fairShareWeight, a, absoluteBorrowLimits);
    }

    /** The instance types the team may hold: those of its nominal quota and those it may only borrow. */
    public java.util.Set<String> instanceTypes() {
        java.util.Set<String> out = new java.util.TreeSet<>(nominal.keySet());
        if (strategy.borrows()) {
            out.addAll(absoluteBorrowLimits.keySet());
        }
        return out;
    }

    /** Nominal quota of an instance type (zero when the quota does not name it). */
    public Resources nominal(String instanceType) {
        return nominal.getOrDefault(instanceType, Resources.ZERO);
    }

    /** What the team lends to the cohort while unused. */
    public Resources lendable(String instanceType) {
        return strategy.lends() ? nominal(instanceType) : Resources.ZERO;
    }

    /** What nobody else can use: nominal minus lendable. */
    public Resources guaranteed(String instanceType) {
        return nominal(instanceType).minus(lendable(instanceType));
    }

    /**
     * How much the team may use above its nominal: the absolute limit when one is given for the
     * instance type, else floor(nominal x BorrowLimit / 100) per resource.
     */
    public Resources borrowingLimit(String instanceType) {
        if (!strategy.borrows()) {
            return Resources.ZERO;
        }
        Resources absolute = absoluteBorrowLimits.get(instanceType);
        if (absolute != null) {
            return absolute;
        }
        Resources n = nominal(instanceType);
        Resources out = Resources.ZERO;
        for (ResourceKey r : n.keys()) {
            out = out.with(r, percentOf(n.get(r), borrowLimitPercent));
        }
        return out;
    }

    /** Nominal plus borrowing limit: the most the team may ever hold of an instance type. */
    public Resources ceiling(String instanceType) {
        return nominal(instanceType).plus(borrowingLimit(instanceType));
    }

    private static long percentOf(long amount, int percent) {
        if (amount <= Long.MAX_VALUE / 10_000) {
            return amount * percent / 100;
        }
        return java.math.BigInteger.valueOf(amount).multiply(java.math.BigInteger.valueOf(percent))
                .divide(java.math.BigInteger.valueOf(100)).min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    }
}
