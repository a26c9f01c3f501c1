package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.Scheduler.Readiness;
import dev.taskgov.core.scheduling.SchedulerRestore;
import dev.taskgov.core.sim.VirtualClock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a proposed change would evict at once if made now (docs/semantics.md, "What-if"): a scheduler is restored from
 * the cluster as its records say it is ({@link RecordedNow}) the way a decider taking over restores its own
 * ({@link SchedulerRestore}), is let settle what the records still had in flight (a finish not yet followed by the
 * admissions it allows), then gets the change as the quota API's writes reach a decider and runs until quiet; its
 * evictions are the prediction: a deleted or disabled quota's running work ({@code QuotaRemoved}) and the preemptions
 * the change makes possible (a reclaim, a higher class of a new config), with the preemptor of each.
 * <p>
 * With gang admission on, the scheduler runs with the cluster's setting, as the decider's does: a workload still
 * backing off after a readiness timeout waits it out instead of heading its queue at once. The records read hold no
 * readiness reports, and readiness timeouts are not the change's doing: every running workload counts as ready.
 */
public final class MadeNow {

    private MadeNow() {
    }

    /**
     * @param notRestored told each recorded admission that could not be put back on its placement, with why
     */
    public static List<WhatIfReport.Eviction> evictions(RecordedNow now, ProposedChange change, java.util.function.Consumer<String> notRestored) {
        VirtualClock clock = new VirtualClock(now.at());
        List<SchedulerRestore.Admitted> admitted = new ArrayList<>();
        for (RecordedNow.Running r : now.running()) {
            admitted.add(new SchedulerRestore.Admitted(r.submission().toWorkload(now.config(), r.submission().submittedAt()),
                    r.placement(), r.borrowed(), r.admittedAt()));
        }
        // Pending work is submitted after the restore, through validation: a submission the decider rejected is
        // rejected again rather than queued (the records of the queue hold every submission).
        Scheduler scheduler = SchedulerRestore.restore(clock, Scheduler.Mode.IN_PROCESS, now.instanceTypes().values(), now.nodes(),
                now.config(), now.quotas(), admitted, List.of(), Map.of(), now.waitForPodsReady(), Map.of(),
                r -> notRestored.accept("running workload " + r.workloadId() + " not restored: " + r.message()));
        for (WorkloadSubmitted s : now.pending()) scheduler.submit(s);
        now.retriesUsed().forEach(scheduler::restoreRetries);
        // after the pending work is queued, as the decider's restore does it: a backoff takes its workload out of its queue
        if (now.waitForPodsReady() != null) readiness(now).forEach(scheduler::restoreReadiness);
        quiet(scheduler, new ArrayList<>());
        change.applyTo(scheduler);
        List<WhatIfReport.Eviction> out = new ArrayList<>();
        quiet(scheduler, out);
        return out;
    }

    /** Gang admission's state to restore: the recorded requeues and backoffs, every running workload ready. */
    private static Map<String, Readiness> readiness(RecordedNow now) {
        Map<String, Readiness> out = new TreeMap<>(now.readiness());
        for (RecordedNow.Running r : now.running()) {
            String id = r.submission().workloadId();
            Readiness recorded = out.getOrDefault(id, Readiness.NONE);
            out.put(id, new Readiness(true, recorded.requeues(), null));
        }
        return out;
    }

    private static void quiet(Scheduler scheduler, List<WhatIfReport.Eviction> out) {
        scheduler.cycleUntilQuiet(d -> {
            if (d instanceof Decision.Evict ev) {
                out.add(eviction(ev.victim(), null));
            } else if (d instanceof Decision.Preempt p) {
                for (Victim v : p.plan().victims()) out.add(eviction(v, p.plan().preemptorId()));
            }
            return false;
        });
    }

    private static WhatIfReport.Eviction eviction(Victim v, String preemptor) {
        return new WhatIfReport.Eviction(v.workloadId(), v.team(), v.reason(), preemptor, v.message());
    }
}
