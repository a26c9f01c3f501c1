package dev.taskgov.core.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Priority classes: the -priority suffix, the default (lowest), unknown classes (reading a config: SchedulerConfigTranslatorTest). */
class SchedulerConfigTest {

    static final SchedulerConfig CONFIG = new SchedulerConfig(Map.of("inference", 90, "training", 50, "experiment", 10), true);

    record Priority(String name, SchedulerConfig config, String label, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Priority> priorities() {
        return Stream.of(
                new Priority("label with -priority suffix", CONFIG, "training-priority", "50"),
                new Priority("bare class name", CONFIG, "inference", "90"),
                new Priority("no class: the lowest class's weight", CONFIG, null, "10"),
                new Priority("blank class: the lowest class's weight", CONFIG, " ", "10"),
                new Priority("no classes configured: 0", SchedulerConfig.DEFAULT, null, "0"),
                new Priority("unknown class is an error naming it", CONFIG, "urgent-priority",
                        "priorityClass: unknown priority class 'urgent-priority'; known: ")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("priorities")
    void priority(Priority c) {
        String seen;
        try {
            seen = String.valueOf(c.config().priorityOf(c.label()));
        } catch (ValidationException e) {
            seen = e.getMessage().substring(0, e.getMessage().indexOf("known: ") + 7);
        }
        assertThat(seen).isEqualTo(c.expected());
    }
}
