package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counts behind the pending and admitted gauges (kept as records come and go, read once a second): per cluster,
 * the pending workloads by team and reason and the admitted ones by team, the same as each workload's own record says.
 */
class WorkloadCountsTest {

    private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");

    @Test
    void countsArePendingByTeamAndReasonAndAdmittedByTeamAsEachRecordSays() {
        try (LiveCluster c = new LiveCluster("workload-counts")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            AdmissionDecider decider = c.startDecider(Clock.systemUTC());
            int home = c.homePartition(c.topics.submitted());
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String id = "a-" + i;
                ids.add(id);
                c.publishRaw(c.topics.submitted(), home, id, EventCodec.bytes(Fixtures.workload(id, "team-a", 4, T0.plusMillis(i))));
            }
            for (int i = 0; i < 3; i++) {
                String id = "b-" + i;
                ids.add(id);
                c.publishRaw(c.topics.submitted(), home, id, EventCodec.bytes(Fixtures.workload(id, "team-b", 8, T0.plusMillis(10 + i))));
            }
            c.awaitQuiet(decider);

            Map<String, Map<String, Long>> pendingExpected = new TreeMap<>();
            Map<String, Long> admittedExpected = new TreeMap<>();
            for (String id : ids) {
                WorkloadRecord r = decider.reads().workload(id).orElseThrow();
                if (r.state() == WorkloadState.Pending) {
                    pendingExpected.computeIfAbsent(r.team(), t -> new TreeMap<>()).merge(r.reason() == null ? "" : r.reason(), 1L, Long::sum);
                } else if (r.state() == WorkloadState.Admitted) {
                    admittedExpected.merge(r.team(), 1L, Long::sum);
                }
            }
            assertThat(pendingExpected).as("the story leaves workloads waiting").isNotEmpty();
            assertThat(admittedExpected).as("and some admitted").isNotEmpty();

            AdmissionReads.WorkloadCounts counts = decider.reads().workloadCounts();
            Map<String, Map<String, Long>> pending = new HashMap<>();
            counts.pendingByTeamAndReason().values().forEach(byTeam -> pending.putAll(byTeam));
            Map<String, Long> admitted = new HashMap<>();
            counts.admittedByTeam().values().forEach(admitted::putAll);
            assertThat(pending).isEqualTo(pendingExpected);
            assertThat(admitted).isEqualTo(admittedExpected);
            // sorted, as the gauges list them
            counts.pendingByTeamAndReason().values().forEach(byTeam -> assertThat(byTeam).isInstanceOf(TreeMap.class));
            counts.admittedByTeam().values().forEach(byTeam -> assertThat(byTeam).isInstanceOf(TreeMap.class));
        }
    }
}
