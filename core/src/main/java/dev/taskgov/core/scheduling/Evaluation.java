package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.PlanResult;
import dev.taskgov.core.preemption.PlanResult.PreemptionPlan;
import dev.taskgov.core.preemption.PreemptionPlanner;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.quota.QuotaCheck;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.quota.Shortfall;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.PlacementResult;
import dev.taskgov.core.topology.TopologyRequest;

import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Whether a workload can be admitted in the current state of a {@link ClusterView}: directly (with
 * its placement), only by preemption (with the plan), or not now (with the reason). The one
 * evaluation both the scheduling cycle and the dry run use; it changes nothing (planning's
 * what-ifs are undone before it returns).
 */
sealed interface Evaluation {

    /** Quota and nodes have room: admissible now at {@code placement}. */
    record Fits(Placement placement) implements Evaluation {
    }

    /** Admissible once {@code plan}'s victims are evicted; without, pending for {@code reason}. */
    record NeedsPreemption(PreemptionPlan plan, PendingReason reason, String message) implements Evaluation {
    }

    /**
     * Not admissible now, nor by any preemption: {@code reason}, and a message with numbers. A quota check's message is
     * kept as its figures ({@link Shortfall}) and written when first read: a walk of a deep queue checks its waiting
     * workloads again after nearly every admission, and a later check supersedes most of those verdicts unread.
     * {@code quotaBound}: null, unless blocked by its team's quota with no preemption found for the same lack alone:
     * then what the search's bound counted as removable ({@link PlanResult.NoPlan#quotaBound}). It stays blocked for that
     * reason while its team's running workloads stay the same and both the quota check and that bound still find the
     * quota short; only the figures of its message may change ({@link #quotaStillShort}).
     */
    final class Blocked implements Evaluation {
        private final PendingReason reason;
        private final Shortfall figures;
        private String message;
        private final Map<String, Map<String, Resources>> quotaBound;
        /** {@link #quotaBound} is empty: the bound is the quota check itself (kept so that a re-check need not read the map). */
        private final boolean nothingRemovable;

        Blocked(PendingReason reason, String message) {
            this(reason, message, null);
        }

        Blocked(PendingReason reason, String message, Map<String, Map<String, Resources>> quotaBound) {
            this(reason, null, message, quotaBound);
        }

        /** Blocked for the quota check's reason, with its message (or its figures, to be written when read). */
        Blocked(QuotaCheck quota, Map<String, Map<String, Resources>> quotaBound) {
            this(quota.reason(), quota.shortfall(), quota.shortfall() == null ? quota.text() : null, quotaBound);
        }

        /** Blocked for the quota check's reason again, with {@code last}'s bound: {@link #quotaStillShort}. */
        static Blocked again(QuotaCheck quota, Blocked last) {
            return new Blocked(quota.reason(), quota.shortfall(), quota.shortfall() == null ? quota.text() : null,
                    last.quotaBound, last.nothingRemovable);
        }

        private Blocked(PendingReason reason, Shortfall figures, String message, Map<String, Map<String, Resources>> quotaBound) {
            this(reason, figures, message, quotaBound, quotaBound != null && quotaBound.isEmpty());
        }

        private Blocked(PendingReason reason, Shortfall figures, String message, Map<String, Map<String, Resources>> quotaBound,
                        boolean nothingRemovable) {
            this.reason = reason;
            this.figures = figures;
            this.message = message;
            this.quotaBound = quotaBound;
            this.nothingRemovable = nothingRemovable;
        }

        PendingReason reason() {
            return reason;
        }

        String message() {
            if (message == null) message = figures.message();
            return message;
        }

        Map<String, Map<String, Resources>> quotaBound() {
            return quotaBound;
        }

        /** Whether it was found short of quota with no preemption for that lack alone ({@link #quotaBound}). */
        boolean shortOfQuota() {
            return quotaBound != null;
        }

        /** Whether its message is {@code other}'s, compared by their figures when both have them (neither then written). */
        boolean sameMessage(Blocked other) {
            if (figures != null && other.figures != null) return figures.equals(other.figures);
            return message().equals(other.message());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Blocked b && reason == b.reason && sameMessage(b) && Objects.equals(quotaBound, b.quotaBound);
        }

        @Override
        public int hashCode() {
            return Objects.hash(reason, message(), quotaBound);
        }

        @Override
        public String toString() {
            return "Blocked[reason=" + reason + ", message=" + message() + ", quotaBound=" + quotaBound + "]";
        }
    }

    static Evaluation of(ClusterView view, PreemptionPlanner planner, Workload w, Map<String, Resources> requests) {
        return of(view, planner, w, requests, PreemptionPlanner.ANY_VICTIM);
    }

    /** The evaluation with the victims of a preemption limited to those that pass {@code mayEvict}. */
    static Evaluation of(ClusterView view, PreemptionPlanner planner, Workload w, Map<String, Resources> requests,
                         Predicate<RunningWorkload> mayEvict) {
        QuotaLedger ledger = view.ledger();
        QuotaCheck quota = ledger.check(w.team(), requests, true);
        if (!quota.fits()) {
            if (quota.reason() == PendingReason.NoQuota) return new Blocked(quota, null);
            PlanResult planned = planner.planFor(view, w, requests, mayEvict);
            Blocked lacking = quotaShort(ledger, w, requests, quota, planned instanceof PlanResult.NoPlan none ? none.quotaBound() : null);
            if (planned instanceof PreemptionPlan plan) return new NeedsPreemption(plan, lacking.reason(), lacking.message());
            return lacking;
        }
        PlacementResult placed = view.topology().place(w.podSets());
        if (placed instanceof PlacementResult.Placed p) {
            return new Fits(p.placement());
        }
        PlacementResult.NoFit noFit = (PlacementResult.NoFit) placed;
        PendingReason reason = requiresTopology(w, noFit.podSet()) ? PendingReason.TopologyPlacementFailed : PendingReason.InsufficientCapacity;
        String message = "pod set " + noFit.podSet() + ": " + noFit.message() + holders(ledger, w, noFit.podSet());
        String never = neverAdmissible(ledger, w.team(), requests);
        if (never != null) {
            reason = PendingReason.Inadmissible;
            message = never;
        }
        if (planner.planFor(view, w, requests, mayEvict) instanceof PreemptionPlan plan) {
            return new NeedsPreemption(plan, reason, message);
        }
        return new Blocked(reason, message);
    }

    /**
     * The verdict of a workload last found {@link Blocked#shortOfQuota} ({@code last}) in a state where its team's running
     * workloads and the base state are still the same: the same reason with the present figures if the quota check
     * still fails and the preemption search's bound still finds the quota short without the team's workloads it may
     * preempt, which is all a full evaluation would ask (nothing to reclaim, fair sharing off, no placement reached).
     * Whether it can never be admitted reads the base state alone: a workload that never can keeps that verdict and its
     * message, and for one that could, the check does not ask again. Null if the quota would let it in now, directly or
     * by evicting those workloads: it is to be evaluated in full.
     */
    static Blocked quotaStillShort(ClusterView view, WorkloadEntry e, Blocked last) {
        if (last.reason() == PendingReason.Inadmissible) return last;
        QuotaLedger ledger = view.ledger();
        QuotaCheck quota = e.onlyType() != null ? ledger.check(e.team(), e.onlyType(), e.onlyAmount(), true)
                : ledger.check(e.team(), e.requests(), true);
        if (quota.fits() || quota.reason() == PendingReason.NoQuota) return null;
        // nothing removable: the bound is the quota check itself
        if (!last.nothingRemovable && ledger.fitsWithout(e.team(), e.requests(), true, last.quotaBound())) return null;
        return Blocked.again(quota, last);
    }

    /**
     * Blocked for the quota check's reason and message, or as never admissible if it asks beyond what could ever be had;
     * {@code quotaBound} as {@link Blocked#quotaBound}.
     */
    private static Blocked quotaShort(QuotaLedger ledger, Workload w, Map<String, Resources> requests, QuotaCheck quota,
                                      Map<String, Map<String, Resources>> quotaBound) {
        String never = neverAdmissible(ledger, w.team(), requests);
        return never != null ? new Blocked(PendingReason.Inadmissible, never, quotaBound)
                : new Blocked(quota, quotaBound);
    }

    /** Whose work holds the nodes of the pod set's instance type (its accelerators, else its vCPU), and what of it is borrowed. */
    private static String holders(QuotaLedger ledger, Workload w, String podSet) {
        for (PodSetRequest p : w.podSets()) {
            if (!p.name().equals(podSet)) continue;
            Resources total = p.total();
            ResourceKey res = !total.partitions().isEmpty() ? ResourceKey.partition(total.partitions().keySet().iterator().next())
                    : total.accelerators() > 0 ? ResourceKey.ACCELERATORS : ResourceKey.VCPU;
            return ledger.holders(p.instanceType(), res);
        }
        return "";
    }

    private static boolean requiresTopology(Workload w, String podSet) {
        return w.podSets().stream().anyMatch(p -> p.name().equals(podSet) && p.topology().mode() == TopologyRequest.Mode.REQUIRED);
    }

    /**
     * Why a workload of an active team can never be admitted as things stand, with the numbers, or
     * null when it could be: for some instance type and resource it asks for more than the team's
     * nominal quota plus borrowing limit, or more than the cluster's ready nodes of that type offer
     * altogether. Neither waiting nor preempting helps then; only a larger quota or more nodes do.
     */
    private static String neverAdmissible(QuotaLedger ledger, String team, Map<String, Resources> requests) {
        if (ledger.quota(team) == null || !ledger.quota(team).active()) return null;
        for (Map.Entry<String, Resources> r : requests.entrySet()) {
            String type = r.getKey();
            Resources nominal = ledger.nominal(team, type);
            Resources borrow = ledger.borrowingLimit(team, type);
            Resources capacity = ledger.clusterCapacity(type); // ready nodes' allocatable, kept by ClusterCache
            Resources ceilings = nominal.plus(borrow);
            for (ResourceKey res : r.getValue().keys()) {
                long asked = r.getValue().get(res);
                long ceiling = ceilings.get(res);
                if (asked > ceiling || asked > capacity.get(res)) {
                    return "can never be admitted as things stand: asks for " + Amounts.of(res, asked) + " of " + type
                            + "; team " + team + " may hold at most " + Amounts.number(res, nominal.get(res)) + " nominal + "
                            + Amounts.number(res, borrow.get(res)) + " borrowing limit = " + Amounts.number(res, ceiling)
                            + ", and the cluster's ready " + type + " nodes offer " + Amounts.number(res, capacity.get(res))
                            + "; it stays pending until the quota or the cluster grows";
                }
            }
        }
        return null;
    }
}
