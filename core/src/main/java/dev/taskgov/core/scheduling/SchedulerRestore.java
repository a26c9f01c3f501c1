package dev.taskgov.core.scheduling;

import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadAdmitted.AdmittedPodSet;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetRequest;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Rebuilds a decider's scheduler from its changelog when it takes over: the real nodes, policy and
 * quotas, then every admitted workload put back on its recorded placement in admission order
 * ({@link Scheduler#restoreAdmitted}), then the pending ones queued, with the retries each had used after
 * failures ({@link Scheduler#restoreRetries}) and gang admission's state of each ({@link Scheduler#restoreReadiness}:
 * the deadlines of the admissions not reported ready, the backoffs being waited out), then the nodes that are not
 * ready and the disabled quotas applied as changes. (A node or quota deleted while no decider ran
 * is not known any more: its workloads keep running.) The deciders take over with it (delegated mode); the what-if's
 * "made now" starts from the recorded current state with it (in-process mode), so that both stand on the same state.
 */
public final class SchedulerRestore {

    private SchedulerRestore() {
    }

    /** One admitted workload to restore. */
    public record Admitted(Workload workload, List<AdmittedPodSet> placement, Map<String, ResourceAmounts> borrowed, Instant admittedAt) {
    }

    /**
     * @param notRestored told each admission that could not be put back, with why (the scheduler goes on without it)
     */
    public static Scheduler restore(Clock clock, Scheduler.Mode mode, Collection<InstanceType> instanceTypes, Collection<Node> nodes,
                                    SchedulerConfig config, Collection<TeamQuota> quotas, List<Admitted> admittedInOrder,
                                    List<Workload> pending, Map<String, Integer> retriesUsed, WaitForPodsReady waitForPodsReady,
                                    Map<String, Scheduler.Readiness> readiness, Consumer<ChangeResult> notRestored) {
        // Admitted work goes back where it ran, so the nodes and quotas start as they were when it was
        // admitted (ready, enabled); a node that failed or a quota disabled while no decider ran is
        // then applied as the change it is: replacement or eviction, reported by the first cycle.
        List<Node> asRunning = nodes.stream().map(n -> n.ready() ? n
                : new Node(n.name(), n.instanceId(), n.instanceType(), n.labels(), n.allocatable(), true)).toList();
        Scheduler scheduler = new Scheduler(clock, mode, instanceTypes, asRunning);
        scheduler.applySchedulerConfig(config);
        scheduler.applyQuotas(quotas.stream().map(q -> q.withActive(true)).toList());
        // before the admissions, so that each gets its readiness deadline as of its admission
        scheduler.waitForPodsReady(waitForPodsReady);
        for (Admitted a : admittedInOrder) {
            ChangeResult r = scheduler.restoreAdmitted(a.workload(),
                    WorkloadAdmitted.placement(inPodSetOrder(a.workload(), a.placement())), borrowed(a), a.admittedAt());
            if (r.outcome() != ChangeResult.Outcome.Restored) notRestored.accept(r);
        }
        pending.forEach(scheduler::submit);
        retriesUsed.forEach(scheduler::restoreRetries);
        readiness.forEach(scheduler::restoreReadiness);
        nodes.stream().filter(n -> !n.ready()).forEach(scheduler::upsertNode);
        quotas.stream().filter(q -> !q.active()).forEach(scheduler::applyQuota);
        return scheduler;
    }

    private static Map<String, Resources> borrowed(Admitted a) {
        Map<String, Resources> out = new TreeMap<>();
        if (a.borrowed() != null) a.borrowed().forEach((type, amounts) -> out.put(type, amounts.toResources()));
        return out;
    }

    /** The recorded pod sets in the workload's order (the scheduler matches them by position). */
    private static List<AdmittedPodSet> inPodSetOrder(Workload w, List<AdmittedPodSet> recorded) {
        List<AdmittedPodSet> out = new ArrayList<>();
        for (PodSetRequest p : w.podSets()) {
            recorded.stream().filter(r -> r.name().equals(p.name())).findFirst()
                    .ifPresentOrElse(out::add, () -> out.add(new AdmittedPodSet(p.name(), p.instanceType(), null, List.of())));
        }
        return out;
    }
}
