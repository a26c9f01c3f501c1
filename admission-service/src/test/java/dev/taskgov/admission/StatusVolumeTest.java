package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The status topic's volume: a record whenever a workload's state or reason changes, but its figures alone (what it
 * lacks while it waits) at most once per status refresh, the latest when it has passed; a read shows the current
 * figures at once. team-b fills the cluster; team-a's a-wait needs the 4 GPUs it may borrow; as team-b's workloads end
 * one by one the cohort's idle figure in a-wait's message changes, its reason does not.
 */
class StatusVolumeTest {

    private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");

    private static List<WorkloadStatus> statusesOf(LiveCluster c, String id) {
        return c.readAll(c.topics.status()).stream().filter(r -> id.equals(r.key()) && r.value() != null)
                .map(r -> EventCodec.read(r.value(), WorkloadStatus.class)).toList();
    }

    /** Runs the story with this refresh; returns a-wait's status records once it is admitted, and the figures read meanwhile. */
    private static Story run(String name, Duration refresh) {
        try (LiveCluster c = new LiveCluster(name)) {
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            AdmissionDecider.Settings s = c.deciderSettings();
            AdmissionDecider decider = new AdmissionDecider(s.withStatusRefresh(refresh), Clock.systemUTC(), AdmissionObserver.NONE);
            decider.start();
            try {
                int home = c.homePartition(c.topics.submitted());
                for (int i = 0; i < 8; i++) {
                    c.publishRaw(c.topics.submitted(), home, "b-" + i, EventCodec.bytes(Fixtures.workload("b-" + i, "team-b", 1, T0.plusMillis(i))));
                }
                c.awaitQuiet(decider);
                c.publishRaw(c.topics.submitted(), home, "a-wait", EventCodec.bytes(Fixtures.workload("a-wait", "team-a", 12, T0.plusSeconds(1))));
                c.awaitQuiet(decider);
                for (int i = 0; i < 3; i++) {
                    c.publish(c.topics.finished(), "b-" + i, new WorkloadFinished("b-" + i, T0.plusSeconds(2), WorkloadFinished.Outcome.Succeeded), true);
                    c.awaitQuiet(decider);
                }
                String read = decider.reads().workload("a-wait").orElseThrow().message();
                c.publish(c.topics.finished(), "b-3", new WorkloadFinished("b-3", T0.plusSeconds(3), WorkloadFinished.Outcome.Succeeded), true);
                await().atMost(Duration.ofMinutes(1)).until(() -> statusesOf(c, "a-wait").stream().anyMatch(x -> x.state() == WorkloadState.Admitted));
                return new Story(statusesOf(c, "a-wait"), read);
            } finally {
                decider.close();
            }
        }
    }

    private record Story(List<WorkloadStatus> statuses, String readBeforeAdmission) {
        List<WorkloadStatus> pending() {
            return statuses.stream().filter(s -> s.state() == WorkloadState.Pending).toList();
        }
    }

    @Test
    void figuresAloneAreWrittenAtMostOncePerRefreshWhileStateAndReasonChangesAreWrittenAtOnce() {
        Story every = run("status-every", Duration.ZERO);
        Story throttled = run("status-throttled", Duration.ofMinutes(5));

        // without a refresh, each new figure is a record: the first and one per ended team-b workload
        assertThat(every.pending()).hasSizeGreaterThanOrEqualTo(4);
        assertThat(every.pending()).extracting(WorkloadStatus::reason).containsOnly(every.pending().get(0).reason());
        assertThat(every.pending()).extracting(WorkloadStatus::message).doesNotHaveDuplicates();

        // with one, the figures alone wait; the reason did not change, so only the first Pending record was written,
        // and the admission (a new state) was written at once
        assertThat(throttled.pending()).hasSize(1);
        assertThat(throttled.statuses().get(throttled.statuses().size() - 1).state()).isEqualTo(WorkloadState.Admitted);
        // a read showed the current figures all along: the same as the last ones written without a refresh
        assertThat(throttled.readBeforeAdmission()).isEqualTo(every.pending().get(every.pending().size() - 1).message());
        assertThat(throttled.readBeforeAdmission()).isNotEqualTo(throttled.pending().get(0).message());
    }

    @Test
    void heldFiguresAreWrittenOnceTheRefreshHasPassed() {
        try (LiveCluster c = new LiveCluster("status-due")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            AdmissionDecider.Settings s = c.deciderSettings();
            AdmissionDecider decider = new AdmissionDecider(s.withStatusRefresh(Duration.ofSeconds(3)), Clock.systemUTC(), AdmissionObserver.NONE);
            decider.start();
            try {
                int home = c.homePartition(c.topics.submitted());
                for (int i = 0; i < 8; i++) {
                    c.publishRaw(c.topics.submitted(), home, "b-" + i, EventCodec.bytes(Fixtures.workload("b-" + i, "team-b", 1, T0.plusMillis(i))));
                }
                c.awaitQuiet(decider);
                c.publishRaw(c.topics.submitted(), home, "a-wait", EventCodec.bytes(Fixtures.workload("a-wait", "team-a", 12, T0.plusSeconds(1))));
                c.awaitQuiet(decider);
                c.publish(c.topics.finished(), "b-0", new WorkloadFinished("b-0", T0.plusSeconds(2), WorkloadFinished.Outcome.Succeeded), true);
                c.awaitQuiet(decider);
                String current = decider.reads().workload("a-wait").orElseThrow().message();
                // nothing else happens: the loop wakes for the held figures by itself once the refresh has passed
                await().atMost(Duration.ofSeconds(30)).until(() -> statusesOf(c, "a-wait").size() == 2);
                List<WorkloadStatus> statuses = statusesOf(c, "a-wait");
                assertThat(statuses).extracting(WorkloadStatus::state).containsOnly(WorkloadState.Pending);
                assertThat(statuses.get(1).message()).isEqualTo(current);
                assertThat(statuses.get(0).message()).isNotEqualTo(current);
            } finally {
                decider.close();
            }
        }
    }

    /**
     * The bound on records of figures alone per second (taskgov.admission.status-figures-per-second), over every
     * workload: with one a second, five waiting workloads whose figures are all due have them written one a second,
     * each the latest, while their first Pending records (a new state) were written at once.
     */
    @Test
    void figuresAloneBeyondTheBoundPerSecondWaitTheirTurn() {
        try (LiveCluster c = new LiveCluster("status-bound")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            AdmissionDecider.Settings s = c.deciderSettings();
            AdmissionDecider decider = new AdmissionDecider(s.withStatusRefresh(Duration.ofMillis(500)).withStatusFiguresPerSecond(1), Clock.systemUTC(),
                    AdmissionObserver.NONE);
            decider.start();
            try {
                int home = c.homePartition(c.topics.submitted());
                for (int i = 0; i < 8; i++) {
                    c.publishRaw(c.topics.submitted(), home, "b-" + i, EventCodec.bytes(Fixtures.workload("b-" + i, "team-b", 1, T0.plusMillis(i))));
                }
                c.awaitQuiet(decider);
                List<String> waiting = List.of("a-0", "a-1", "a-2", "a-3", "a-4");
                for (int i = 0; i < waiting.size(); i++) {
                    c.publishRaw(c.topics.submitted(), home, waiting.get(i),
                            EventCodec.bytes(Fixtures.workload(waiting.get(i), "team-a", 12, T0.plusSeconds(1).plusMillis(i))));
                }
                c.awaitQuiet(decider);
                c.publish(c.topics.finished(), "b-0", new WorkloadFinished("b-0", T0.plusSeconds(2), WorkloadFinished.Outcome.Succeeded), true);
                c.awaitQuiet(decider);
                Map<String, String> current = new java.util.HashMap<>();
                for (String id : waiting) current.put(id, decider.reads().workload(id).orElseThrow().message());

                // every waiting workload's latest figures reach the status topic, though only one a second
                await().atMost(Duration.ofSeconds(60)).until(() -> waiting.stream().allMatch(id -> {
                    List<WorkloadStatus> st = statusesOf(c, id);
                    return st.size() >= 2 && st.get(st.size() - 1).message().equals(current.get(id));
                }));
                List<Instant> figureWrites = new java.util.ArrayList<>();
                for (String id : waiting) {
                    List<WorkloadStatus> st = statusesOf(c, id);
                    assertThat(st).extracting(WorkloadStatus::state).containsOnly(WorkloadState.Pending);
                    assertThat(st).extracting(WorkloadStatus::reason).containsOnly(st.get(0).reason());
                    st.subList(1, st.size()).forEach(x -> figureWrites.add(x.updatedAt()));
                }
                java.util.Collections.sort(figureWrites);
                assertThat(figureWrites).hasSizeGreaterThanOrEqualTo(waiting.size());
                for (int i = 1; i < figureWrites.size(); i++) {
                    assertThat(Duration.between(figureWrites.get(i - 1), figureWrites.get(i)))
                            .as("records of figures alone %d and %d", i - 1, i)
                            .isGreaterThanOrEqualTo(Duration.ofMillis(900));
                }
            } finally {
                decider.close();
            }
        }
    }
}
