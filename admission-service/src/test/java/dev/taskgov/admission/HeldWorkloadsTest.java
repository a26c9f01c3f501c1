package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.WorkloadAdmitted.AdmittedPodSet;
import dev.taskgov.core.events.WorkloadAdmitted.NodeCount;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counts a state keeps as its records come and go agree, after any sequence of records held, replaced and
 * forgotten, with a count of the records held (the walk the gauges made before), the clusters left out included.
 */
class HeldWorkloadsTest {

    private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
    private static final String OTHER_CLUSTER = "arn:aws:sagemaker:us-east-1:123456789012:cluster/otherclust01";
    private static final List<String> TEAMS = List.of("team-a", "team-b", "team-c");
    private static final List<String> REASONS = List.of("QuotaExceeded", "BorrowLimitExceeded", "InsufficientCapacity");

    @RepeatedTest(20)
    void theCountsAgreeWithTheRecordsHeldAfterEveryStep(RepetitionInfo repetition) {
        Random random = new Random(repetition.getCurrentRepetition());
        HeldWorkloads held = new HeldWorkloads();
        for (int step = 0; step < 400; step++) {
            String id = "w-" + random.nextInt(40);
            switch (random.nextInt(10)) {
                case 0 -> held.remove(id);
                case 1 -> {
                    if (random.nextInt(20) == 0) held.clear();
                }
                default -> held.put(id, record(id, random));
            }
            assertThat(counted(held, c -> true)).as("step %d", step).isEqualTo(recounted(held, c -> true));
            assertThat(counted(held, ClusterArn.UNNAMED::equals)).isEqualTo(recounted(held, ClusterArn.UNNAMED::equals));
        }
    }

    @Test
    void aWorkloadThatLeavesItsStateLeavesNoCountBehind() {
        HeldWorkloads held = new HeldWorkloads();
        WorkloadRecord pending = pending("w-1", "team-a", null);
        held.put("w-1", pending);
        assertThat(counted(held, c -> true)).isEqualTo(List.of("pending  team-a QuotaExceeded 1"));

        held.put("w-1", admitted(pending));
        assertThat(counted(held, c -> true)).isEqualTo(List.of("admitted  team-a 1"));

        held.put("w-1", admitted(pending).moveTo(WorkloadState.Finished, null, "done", T0.plusSeconds(9)));
        assertThat(counted(held, c -> true)).isEmpty();
        assertThat(held.size()).isEqualTo(1);
    }

    private static WorkloadRecord record(String id, Random random) {
        String team = TEAMS.get(random.nextInt(TEAMS.size()));
        WorkloadRecord pending = pending(id, team, random.nextBoolean() ? null : OTHER_CLUSTER);
        return switch (random.nextInt(4)) {
            case 0 -> pending;
            case 1 -> pending.moveTo(WorkloadState.Pending, REASONS.get(random.nextInt(REASONS.size())), "waits", T0.plusSeconds(1));
            case 2 -> admitted(pending);
            default -> admitted(pending).moveTo(WorkloadState.Finished, null, "done", T0.plusSeconds(9));
        };
    }

    private static WorkloadRecord pending(String id, String team, String cluster) {
        var spec = Fixtures.workload(id, team, 1, T0);
        if (cluster != null) spec = spec.withClusterArn(cluster);
        return WorkloadRecord.first(spec, team, null, 0, T0, WorkloadState.Pending, "QuotaExceeded", "waits", T0);
    }

    private static WorkloadRecord admitted(WorkloadRecord pending) {
        return pending.admit(T0.plusSeconds(2), 1, List.of(new AdmittedPodSet("worker", Fixtures.TYPE, null,
                List.of(new NodeCount("node-1", 1)))), Map.of(), null);
    }

    /** What the state counts, one line per count, sorted. */
    private static List<String> counted(HeldWorkloads held, Predicate<ClusterArn> clusters) {
        List<String> out = new ArrayList<>();
        held.forEachPending(clusters, (c, team, reason, n) -> out.add("pending " + c.value() + " " + team + " " + reason + " " + n));
        held.forEachAdmitted(clusters, (c, team, n) -> out.add("admitted " + c.value() + " " + team + " " + n));
        out.sort(null);
        return out;
    }

    /** The same from every record held. */
    private static List<String> recounted(HeldWorkloads held, Predicate<ClusterArn> clusters) {
        Map<String, Long> counts = new TreeMap<>();
        for (WorkloadRecord r : held.values()) {
            if (!clusters.test(r.cluster())) continue;
            if (r.state() == WorkloadState.Pending) {
                counts.merge("pending " + r.cluster().value() + " " + r.team() + " " + (r.reason() == null ? "" : r.reason()), 1L, Long::sum);
            } else if (r.state() == WorkloadState.Admitted) {
                counts.merge("admitted " + r.cluster().value() + " " + r.team(), 1L, Long::sum);
            }
        }
        List<String> out = new ArrayList<>();
        counts.forEach((k, n) -> out.add(k + " " + n));
        out.sort(null);
        return out;
    }
}
