package dev.taskgov.core.preemption;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.scheduling.QuotaLedger;
import dev.taskgov.core.topology.Topology;

import java.util.Collection;

/**
 * What preemption planning reads. Planning never changes it: it copies the ledger and the
 * topology before any what-if.
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
}
