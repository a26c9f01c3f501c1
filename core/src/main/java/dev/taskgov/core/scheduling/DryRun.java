package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.PreemptionPlanner;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.PlacementResult;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The dry run: the cycle's {@link Evaluation} of a validated workload, told as a
 * {@link DryRunResult}. Where the workload fits only by preemption, its placement is found with the
 * victims removed as a what-if that is undone before it returns: nothing changes.
 */
final class DryRun {

    private DryRun() {
    }

    /** {@code running} gives an admitted workload (a victim of the plan) by id. */
    static DryRunResult of(ClusterView view, PreemptionPlanner planner, Workload w, Function<String, RunningWorkload> running) {
        Map<String, Resources> req = w.requestsByInstanceType();
        Evaluation result = Evaluation.of(view, planner, w, req);
        if (result instanceof Evaluation.Fits fits) {
            return new DryRunResult(w.id(), w.team(), DryRunResult.Verdict.Admitted, null, "would be admitted now",
                    fits.placement(), view.ledger().borrowedBy(w.team(), req), List.of());
        }
        if (result instanceof Evaluation.NeedsPreemption needs) {
            List<RunningWorkload> victims = needs.plan().victims().stream().map(v -> running.apply(v.workloadId())).toList();
            try (var undo = view.simulateRemoval(victims)) {
                if (view.topology().place(w.podSets()) instanceof PlacementResult.Placed p) {
                    return new DryRunResult(w.id(), w.team(), DryRunResult.Verdict.AdmittedAfterPreemption, null,
                            "would be admitted after preempting " + Amounts.count(victims.size(), "workload", "workloads") + "; " + needs.message(),
                            p.placement(), view.ledger().borrowedBy(w.team(), req), needs.plan().victims());
                }
            }
            return pending(w, needs.reason(), needs.message());
        }
        Evaluation.Blocked blocked = (Evaluation.Blocked) result;
        return pending(w, blocked.reason(), blocked.message());
    }

    private static DryRunResult pending(Workload w, PendingReason reason, String message) {
        return new DryRunResult(w.id(), w.team(), DryRunResult.Verdict.Pending, reason.name(), message, null, Map.of(), List.of());
    }
}
