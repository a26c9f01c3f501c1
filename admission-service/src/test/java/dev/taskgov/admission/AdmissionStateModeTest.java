package dev.taskgov.admission;

import dev.taskgov.admission.AdmissionState.Mode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static dev.taskgov.admission.AdmissionState.Mode.ANSWERING;
import static dev.taskgov.admission.AdmissionState.Mode.ANSWERING_STALE;
import static dev.taskgov.admission.AdmissionState.Mode.BUILDING;
import static dev.taskgov.admission.AdmissionState.Mode.DECIDING;
import static dev.taskgov.admission.AdmissionState.Mode.FOLLOWING;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The modes of admission's state and their transitions: a decider builds, then decides; a read replica follows its
 * topics, then answers, and keeps answering while it follows more (its schedulers restored again at the next read).
 */
class AdmissionStateModeTest {

    static Walk from(Mode start) {
        return new Walk(start);
    }

    /** A mode and the transitions applied to it, in order. */
    record Walk(Mode mode) {
        Walk then(UnaryOperator<Mode> transition) {
            return new Walk(transition.apply(mode));
        }
    }

    static Stream<Arguments> scenarios() {
        return Stream.of(
                Arguments.of("a decider's settled state decides", from(BUILDING).then(Mode::settled), DECIDING, true),
                Arguments.of("a decider that loses its state builds it again", from(DECIDING).then(Mode::cleared), BUILDING, false),
                Arguments.of("a replica following its topics does not answer yet", from(FOLLOWING).then(Mode::followed), FOLLOWING, false),
                Arguments.of("a replica that read its topics to the end answers",
                        from(FOLLOWING).then(Mode::followed).then(Mode::followedToEnd), ANSWERING_STALE, true),
                Arguments.of("a replica that restored its schedulers answers from them",
                        from(ANSWERING_STALE).then(Mode::restored), ANSWERING, true),
                Arguments.of("a replica that follows a record after answering still answers, its schedulers stale",
                        from(ANSWERING).then(Mode::followed), ANSWERING_STALE, true),
                Arguments.of("a replica that follows more records while stale still answers",
                        from(ANSWERING_STALE).then(Mode::followed).then(Mode::followed), ANSWERING_STALE, true),
                Arguments.of("a replica whose state is dropped follows its topics again",
                        from(ANSWERING).then(Mode::cleared), FOLLOWING, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void eachTransitionLeadsToItsMode(String name, Walk walk, Mode expected, boolean answers) {
        assertThat(walk.mode()).isEqualTo(expected);
        assertThat(walk.mode().ready()).isEqualTo(answers);
    }
}
