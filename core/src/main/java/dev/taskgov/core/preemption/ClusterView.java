package dev.taskgov.core.preemption;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.quota.WhatIf;
import dev.taskgov.core.topology.Topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What preemption planning works on. Planning does not copy it: its what-ifs change this view's
 * ledger and topology in place ({@link #simulateRemoval} releases candidate victims) and undo every
 * change before the planner returns, so after planning the view is as it was. Not for concurrent
 * use.
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

    /**
     * As if these admitted workloads were evicted: their quota usage and node reservations are
     * released on this view's own ledger and topology until the returned handle is closed, which
     * reserves them again (in reverse order). The running lists and versions do not change.
     */
    default WhatIf simulateRemoval(Collection<RunningWorkload> workloads) {
        List<RunningWorkload> released = List.copyOf(workloads);
        List<WhatIf> quota = new ArrayList<>(released.size());
        for (RunningWorkload r : released) {
            quota.add(ledger().simulateRemoval(r.team(), r.requests())); // the ledger's own what-if: its holders stand
            topology().release(r.workload().podSets(), r.placement());
        }
        return WhatIf.once(() -> {
            for (int i = released.size() - 1; i >= 0; i--) {
                RunningWorkload r = released.get(i);
                quota.get(i).close();
                topology().reserve(r.workload().podSets(), r.placement());
            }
        });
    }
}
