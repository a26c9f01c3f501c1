package dev.taskgov.core.events;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The team of a team's own topic ({@code <prefix>.<team>}), as the decider asks it of every record it reads: the
 * same answer as the subscription pattern {@link KafkaAccess#submissionTopics} gives.
 */
class TeamTopicTest {

    private static final String SUBMITTED = "taskgov.workload.submitted";
    private static final String PODS_READY = "taskgov.workload.pods-ready";

    record Row(String name, String topic, String team) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("a team's topic", SUBMITTED + ".team-a", "team-a"),
                new Row("a one-character team", SUBMITTED + ".a", "a"),
                new Row("the shared topic itself", SUBMITTED, null),
                new Row("an empty team", SUBMITTED + ".", null),
                new Row("another separator", SUBMITTED + "-team-a", null),
                new Row("a longer prefix", SUBMITTED + "x.team-a", null),
                new Row("another topic", "taskgov.workload.finished", null),
                new Row("upper case", SUBMITTED + ".Team-a", null),
                new Row("a dot in the team", SUBMITTED + ".team.a", null),
                new Row("a team ending in '-'", SUBMITTED + ".team-", null),
                new Row("a team of 64 characters", SUBMITTED + "." + "a".repeat(64), null),
                new Row("a team of 63 characters", SUBMITTED + "." + "a".repeat(63), "a".repeat(63)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void theTeamOfATopicIsWhatTheSubscriptionPatternMatches(Row row) {
        assertThat(KafkaAccess.teamOfSubmissionTopic(SUBMITTED, row.topic())).isEqualTo(row.team());
        assertThat(KafkaAccess.submissionTopics(SUBMITTED).matcher(row.topic()).matches()).isEqualTo(row.team() != null);
        String readiness = row.topic().replace(SUBMITTED, PODS_READY);
        assertThat(KafkaAccess.teamOfPodsReadyTopic(PODS_READY, readiness)).isEqualTo(row.team());
        assertThat(KafkaAccess.teamOfPodsReadyTopic(null, readiness)).isNull();
    }
}
