package dev.taskgov.admission;

import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.events.EventCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.model.WorkloadState.Admitted;
import static dev.taskgov.core.model.WorkloadState.Pending;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A workload's history aggregates consecutive changes with the same state and reason into one entry
 * (count, first and last time, latest message), as Kubernetes does with repeated events.
 */
class WorkloadHistoryTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    /** One change at T0 + seconds. */
    record Change(int seconds, WorkloadState state, String reason, String message) {
    }

    /** What one history entry should be: state, reason, count, first and last second, message. */
    record Entry(WorkloadState state, String reason, int count, int firstSecond, int lastSecond, String message) {
    }

    static History history() {
        return new History();
    }

    static final class History {
        final List<Change> changes = new ArrayList<>();

        History change(int seconds, WorkloadState state, String reason, String message) {
            changes.add(new Change(seconds, state, reason, message));
            return this;
        }

        WorkloadRecord apply() {
            WorkloadSubmitted spec = new WorkloadSubmitted("w-1", "hyperpod-ns-team-a", "q", null, "Job", T0, List.of());
            WorkloadRecord r = WorkloadRecord.first(spec, "team-a", null, 0, T0, Pending, "Queued", "waiting", T0);
            for (Change c : changes) {
                Instant at = T0.plusSeconds(c.seconds());
                r = c.state() == Admitted ? r.admit(at, 1, List.of(), null, c.message())
                        : r.moveTo(c.state(), c.reason(), c.message(), at);
            }
            return r;
        }
    }

    static Entry entry(WorkloadState state, String reason, int count, int first, int last, String message) {
        return new Entry(state, reason, count, first, last, message);
    }

    static Stream<Arguments> scenarios() {
        return Stream.of(
                Arguments.of("a message that changes under the same reason is one entry with a count",
                        history().change(10, Pending, "QuotaExceeded", "needs 8, 4 free")
                                .change(20, Pending, "QuotaExceeded", "needs 8, 6 free")
                                .change(40, Pending, "QuotaExceeded", "needs 8, 2 free"),
                        List.of(entry(Pending, "Queued", 1, 0, 0, "waiting"),
                                entry(Pending, "QuotaExceeded", 3, 10, 40, "needs 8, 2 free"))),
                Arguments.of("another reason starts a new entry, and a reason coming back later is a new entry again",
                        history().change(10, Pending, "QuotaExceeded", "a")
                                .change(20, Pending, "WaitingForPreemption", "b")
                                .change(30, Pending, "QuotaExceeded", "c")
                                .change(35, Pending, "QuotaExceeded", "d"),
                        List.of(entry(Pending, "Queued", 1, 0, 0, "waiting"),
                                entry(Pending, "QuotaExceeded", 1, 10, 10, "a"),
                                entry(Pending, "WaitingForPreemption", 1, 20, 20, "b"),
                                entry(Pending, "QuotaExceeded", 2, 30, 35, "d"))),
                Arguments.of("preempted twice with admissions between stays three separate entries per eviction",
                        history().change(5, Admitted, null, "admitted")
                                .change(60, Pending, "Preempted", "by team-b")
                                .change(70, Admitted, null, "admitted again")
                                .change(90, Pending, "Preempted", "by team-c"),
                        List.of(entry(Pending, "Queued", 1, 0, 0, "waiting"),
                                entry(Admitted, null, 1, 5, 5, "admitted"),
                                entry(Pending, "Preempted", 1, 60, 60, "by team-b"),
                                entry(Admitted, null, 1, 70, 70, "admitted again"),
                                entry(Pending, "Preempted", 1, 90, 90, "by team-c"))),
                Arguments.of("the same reason in another state is another entry",
                        history().change(10, WorkloadState.Finished, "Queued", "cancelled while queued"),
                        List.of(entry(Pending, "Queued", 1, 0, 0, "waiting"),
                                entry(WorkloadState.Finished, "Queued", 1, 10, 10, "cancelled while queued"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void historyEntries(String scenario, History history, List<Entry> expected) {
        WorkloadRecord r = history.apply();
        List<Entry> actual = r.history().stream().map(c -> new Entry(c.state(), c.reason(), c.count(),
                (int) Duration.between(T0, c.firstTime()).toSeconds(), (int) Duration.between(T0, c.time()).toSeconds(),
                c.message())).toList();
        assertThat(actual).containsExactlyElementsOf(expected);
        // the record's own state follows the latest change
        Entry last = expected.get(expected.size() - 1);
        assertThat(r.message()).isEqualTo(last.message());
        assertThat(r.version()).isEqualTo(1 + history.changes.size());
    }

    @Test
    void anAggregatedHistorySurvivesTheChangelogRoundTrip() {
        WorkloadRecord r = history().change(10, Pending, "QuotaExceeded", "a").change(20, Pending, "QuotaExceeded", "b").apply();

        WorkloadRecord back = EventCodec.read(EventCodec.bytes(r), WorkloadRecord.class);

        assertThat(back.history()).isEqualTo(r.history());
        assertThat(back.history().get(1).count()).isEqualTo(2);
    }

    @Test
    void aChangelogEntryWrittenBeforeCountsExistedReadsAsOneOccurrence() {
        String json = "{\"time\":\"2026-11-30T10:00:05Z\",\"state\":\"Pending\",\"reason\":\"Queued\",\"message\":\"m\"}";
        WorkloadRecord.Condition c = EventCodec.read(json.getBytes(StandardCharsets.UTF_8), WorkloadRecord.Condition.class);
        assertThat(c.count()).isEqualTo(1);
        assertThat(c.firstTime()).isEqualTo(Instant.parse("2026-11-30T10:00:05Z"));
    }
}
