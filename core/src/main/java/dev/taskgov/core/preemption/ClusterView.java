package dev.taskgov.core.preemption;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.topology.Topology;

import java.util.Collection;

/**
 * What preemption planning reads. Planning's what-ifs change its ledger and topology in place
 * (releasing candidate victims, then reserving them again) and put everything back before the
 * planner returns: after planning the view is as it was; not for concurrent use.
 */
public interface ClusterView {

    SchedulerConfig config();

    /** Quotas and usage of every team. */
    QuotaLedger ledger();

    /** The admitted workloads of a team. */
    Collection<RunningWorkload> running(String team);

    /** The nodes with what admitted workloads hold on them. */
    Topology topology();

    /**
     * A number that changes whenever usage, quotas or nodes change, so that planning may reuse
     * what it computed at the same version; negative when the view does not track it.
     */
    default long version() {
        return -1;
    }

    /**
     * A number that changes whenever the team's admitted workloads change (admission, release,
     * new priority), so that planning may reuse per-team lists; negative when not tracked.
     */
    default long runningVersion(String team) {
        return -1;
    }
}
