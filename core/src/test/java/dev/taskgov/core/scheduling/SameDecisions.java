package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.WorkloadState;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a scheduler that reuses verdicts per shape is compared with the reference that evaluates every workload on its
 * own. The reference reports every change of a workload's message (StayPending); the shape walk reports a change of
 * reason at once but a change of figures alone (the same reason) only for the workloads not settled in their parked
 * shape: the settled ones read their shape's current figures when read (the status
 * topic's figures are written at most once per refresh anyway). So the two are compared by what each workload shows
 * when the cycle has ended, not by counting decisions: in one cycle, every decision but StayPending is the same and in
 * the same order; every StayPending of the reference that changes a workload's reason (or reports one not pending
 * before) is the shape walk's too; every StayPending of the shape walk says what its workload shows after the cycle;
 * and what every workload shows after the cycle is the same ({@link Scheduler#workloads}).
 */
final class SameDecisions {

    private SameDecisions() {
    }

    /** Runs a cycle on both and compares them as above; returns the shape walk's decisions. */
    static List<Decision> cycleAlike(Scheduler reusing, Scheduler reference, String as) {
        Map<String, String> reasonsBefore = new HashMap<>();
        reference.workloads().forEach(v -> {
            if (v.state() == WorkloadState.Pending) reasonsBefore.put(v.workloadId(), v.reason());
        });
        List<Decision> got = reusing.cycle();
        List<Decision> expected = reference.cycle();
        assertThat(got.stream().filter(d -> !(d instanceof Decision.StayPending)).toList())
                .as(as + ": every decision but StayPending").isEqualTo(expected.stream().filter(d -> !(d instanceof Decision.StayPending)).toList());
        Set<Decision> reported = new HashSet<>(got);
        for (Decision d : expected) {
            if (d instanceof Decision.StayPending p && !p.reason().name().equals(reasonsBefore.get(p.workloadId()))) {
                assertThat(reported).as(as + ": a new reason is reported at once").contains(d);
            }
        }
        List<WorkloadView> shown = reference.workloads();
        Map<String, WorkloadView> byId = new HashMap<>();
        shown.forEach(v -> byId.put(v.workloadId(), v));
        for (Decision d : got) {
            if (d instanceof Decision.StayPending p) {
                WorkloadView v = byId.get(p.workloadId());
                assertThat(v.state()).as(as + ": " + p.workloadId() + " reported pending").isEqualTo(WorkloadState.Pending);
                assertThat(List.of(p.reason().name(), p.message())).as(as + ": " + p.workloadId() + " reported as it shows")
                        .isEqualTo(List.of(v.reason(), v.message()));
            }
        }
        assertThat(reusing.workloads()).as(as + ": what each workload shows after the cycle").isEqualTo(shown);
        return got;
    }
}
