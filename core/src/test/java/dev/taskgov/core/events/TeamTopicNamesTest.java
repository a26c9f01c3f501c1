package dev.taskgov.core.events;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The team a team's submission or readiness topic names: exactly the topics the subscription pattern takes. */
class TeamTopicNamesTest {

    private static final String SUBMITTED = "taskgov.workload.submitted";
    private static final String PODS_READY = "taskgov.workload.pods-ready";

    static Stream<Arguments> topics() {
        return Stream.of(
                Arguments.of("a team's submission topic", SUBMITTED + ".team-a", "team-a"),
                Arguments.of("a one-letter team", SUBMITTED + ".t", "t"),
                Arguments.of("the shared topic itself", SUBMITTED, null),
                Arguments.of("the prefix and a dot, no team", SUBMITTED + ".", null),
                Arguments.of("a name that is no team's (upper case)", SUBMITTED + ".Team", null),
                Arguments.of("a team name ending in '-'", SUBMITTED + ".team-", null),
                Arguments.of("another separator", SUBMITTED + "-team-a", null),
                Arguments.of("a deeper name", SUBMITTED + ".team.x", null),
                Arguments.of("another topic sharing the prefix", SUBMITTED + "x.team", null),
                Arguments.of("a 63-character team", SUBMITTED + "." + "a".repeat(63), "a".repeat(63)),
                Arguments.of("a 64-character name", SUBMITTED + "." + "a".repeat(64), null),
                Arguments.of("another topic", "taskgov.workload.finished.team-a", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("topics")
    void theTeamOfASubmissionTopicIsWhatThePatternMatches(String scenario, String topic, String team) {
        assertThat(KafkaAccess.teamOfSubmissionTopic(SUBMITTED, topic)).isEqualTo(team);
        boolean matched = KafkaAccess.submissionTopics(SUBMITTED).matcher(topic).matches();
        assertThat(matched).isEqualTo(team != null);
        String readiness = topic.startsWith(SUBMITTED) ? PODS_READY + topic.substring(SUBMITTED.length()) : topic;
        assertThat(KafkaAccess.teamOfPodsReadyTopic(PODS_READY, readiness)).isEqualTo(team);
        assertThat(KafkaAccess.teamOfPodsReadyTopic(null, readiness)).isNull();
    }
}
