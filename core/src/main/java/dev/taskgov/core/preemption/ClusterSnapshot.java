package dev.taskgov.core.preemption;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A self-contained cluster state for planning outside the scheduler (the preemption service
 * builds one from the state topics). Its running lists do not change; the planner's what-ifs
 * change its ledger and topology in place and undo them before returning (see {@link ClusterView}),
 * so one snapshot is not for concurrent planning.
 */
public record ClusterSnapshot(SchedulerConfig config, QuotaLedger ledger, Map<String, List<RunningWorkload>> runningByTeam,
                              Topology topology) implements ClusterView {

    /** Builds the usage and node reservations from the admitted workloads. */
    public static ClusterSnapshot of(SchedulerConfig config, Collection<TeamQuota> quotas, Collection<Node> nodes,
                                     Collection<RunningWorkload> admitted) {
        QuotaLedger ledger = QuotaLedger.of(config, quotas, nodes);
        Topology topology = Topology.of(nodes);
        Map<String, List<RunningWorkload>> byTeam = new TreeMap<>();
        for (RunningWorkload r : admitted) {
            ledger.add(r.team(), r.requests());
            topology.reserve(r.workload().podSets(), r.placement());
            byTeam.computeIfAbsent(r.team(), t -> new ArrayList<>()).add(r);
        }
        return new ClusterSnapshot(config, ledger, byTeam, topology);
    }

    @Override
    public Collection<RunningWorkload> running(String team) {
        return runningByTeam.getOrDefault(team, List.of());
    }
}
