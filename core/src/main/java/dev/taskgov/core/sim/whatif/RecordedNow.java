package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted.AdmittedPodSet;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.topology.Node;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One cluster as its records say it is at {@code at} (the window's end): what "made now" starts from
 * (docs/semantics.md, "What-if"). Not the replay's end state: the workloads the platform runs and queues now.
 *
 * @param running admitted and since neither ended nor evicted, in admission order, each on its latest recorded
 *                placement (a new placement after a node failure moves it, and is no admission)
 * @param pending submitted and neither running nor ended (never admitted yet, or evicted since), in submission order
 * @param retriesUsed per workload, the failures it was given another run after (its {@code --max-retry})
 * @param waitForPodsReady the cluster's gang admission setting, null when it is off (docs/semantics.md, "Gang admission")
 * @param readiness   with gang admission on, per workload its requeues after readiness timeouts and the backoff it
 *                    waits out now, as the evictions on the preempted topic tell them
 */
public record RecordedNow(Instant at, Map<String, InstanceType> instanceTypes, List<Node> nodes, SchedulerConfig config,
                          List<TeamQuota> quotas, List<Running> running, List<WorkloadSubmitted> pending,
                          Map<String, Integer> retriesUsed, WaitForPodsReady waitForPodsReady,
                          Map<String, Scheduler.Readiness> readiness) {

    public RecordedNow {
        instanceTypes = Map.copyOf(instanceTypes);
        nodes = List.copyOf(nodes);
        quotas = List.copyOf(quotas);
        running = List.copyOf(running);
        pending = List.copyOf(pending);
        retriesUsed = Map.copyOf(retriesUsed);
        readiness = Map.copyOf(readiness);
    }

    /** A cluster without gang admission. */
    public RecordedNow(Instant at, Map<String, InstanceType> instanceTypes, List<Node> nodes, SchedulerConfig config,
                       List<TeamQuota> quotas, List<Running> running, List<WorkloadSubmitted> pending, Map<String, Integer> retriesUsed) {
        this(at, instanceTypes, nodes, config, quotas, running, pending, retriesUsed, null, Map.of());
    }

    /**
     * A running workload as its admission recorded it.
     *
     * @param submission its submission, {@code submittedAt} its place in the queue
     * @param admittedAt its latest admission
     * @param placement  its latest placement's pod sets
     * @param borrowed   per instance type, what its admission took above its team's nominal quota
     */
    public record Running(WorkloadSubmitted submission, Instant admittedAt, List<AdmittedPodSet> placement,
                          Map<String, ResourceAmounts> borrowed) {
        public Running {
            placement = List.copyOf(placement);
            borrowed = borrowed == null ? Map.of() : Map.copyOf(borrowed);
        }
    }
}
