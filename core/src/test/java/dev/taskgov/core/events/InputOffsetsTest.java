package dev.taskgov.core.events;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A decider's input offsets in its changelog: one key per input partition (so compaction keeps the latest), never a
 * key any other changelog record can have, and the value read back as written.
 */
class InputOffsetsTest {

    static Stream<Arguments> keys() {
        return Stream.of(
                Arguments.of("an input partition's offsets", new InputOffsets("taskgov.workload.submitted", 3, 42).key(), true),
                Arguments.of("a team's submission topic's", new InputOffsets("taskgov.workload.submitted.team-a", 0, 0).key(), true),
                Arguments.of("a workload id (no colon, WorkloadIds)", "w-8.retry", false),
                Arguments.of("a preemption reservation", "reservation:w-1", false),
                Arguments.of("a preemption grace", "grace:w-1", false),
                Arguments.of("no key", null, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keys")
    void aReaderTellsTheOffsetsApartByTheKeyAlone(String name, String key, boolean offsets) {
        assertThat(InputOffsets.isKey(key)).isEqualTo(offsets);
    }

    @Test
    void eachInputPartitionHasItsOwnKeyWhateverTheOffset() {
        assertThat(new InputOffsets("t", 1, 5).key()).isEqualTo(new InputOffsets("t", 1, 900).key())
                .isNotEqualTo(new InputOffsets("t", 2, 5).key()).isNotEqualTo(new InputOffsets("u", 1, 5).key());
    }

    @Test
    void theValueIsReadBackAsWritten() {
        InputOffsets written = new InputOffsets("taskgov.preemption.requested", 7, 1234);
        assertThat(EventCodec.read(EventCodec.bytes(written), InputOffsets.class)).isEqualTo(written);
    }

    @Test
    void aValueThatCannotBeAPositionIsRefusedNamingTheField() {
        assertThatThrownBy(() -> new InputOffsets(" ", 0, 0)).hasMessageContaining("topic");
        assertThatThrownBy(() -> new InputOffsets("t", -1, 0)).hasMessageContaining("partition");
        assertThatThrownBy(() -> new InputOffsets("t", 0, -2)).hasMessageContaining("nextOffset");
    }
}
