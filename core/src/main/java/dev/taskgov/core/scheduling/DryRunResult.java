package dev.taskgov.core.scheduling;

import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Placement;

import java.util.List;
import java.util.Map;

/**
 * Would a submission be admitted now (were it at the head of its queue), where, borrowing what,
 * after preempting whom.
 *
 * @param verdict   the answer
 * @param reason    pending or rejected reason name (null when it would be admitted)
 * @param placement where its pods would go (null when not admitted)
 * @param borrowed  per instance type, what it would borrow
 * @param victims   whom it would preempt first (empty when none)
 */
public record DryRunResult(String workloadId, String team, Verdict verdict, String reason, String message,
                           Placement placement, Map<String, Resources> borrowed, List<Victim> victims) {

    public enum Verdict { Admitted, AdmittedAfterPreemption, Pending, Rejected }
}
