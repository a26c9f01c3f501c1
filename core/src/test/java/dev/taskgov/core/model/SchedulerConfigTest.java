package dev.taskgov.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Priority classes: the -priority suffix, the default (lowest), unknown classes, bad config. */
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

    record Parse(String name, String json, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Parse> parses() {
        return Stream.of(
                new Parse("classes and FairShare Enabled",
                        "{\"PriorityClasses\": [{\"Name\": \"inference\", \"Weight\": 90}], \"FairShare\": \"Enabled\"}",
                        new SchedulerConfig(Map.of("inference", 90), true).toString()),
                new Parse("wrapped in SchedulerConfig, FairShare Disabled",
                        "{\"Name\": \"c\", \"SchedulerConfig\": {\"PriorityClasses\": [], \"FairShare\": \"Disabled\"}}",
                        new SchedulerConfig(Map.of(), false).toString()),
                new Parse("FairShare omitted: Enabled, the SageMaker API's default",
                        "{\"PriorityClasses\": [{\"Name\": \"training\", \"Weight\": 50}]}",
                        new SchedulerConfig(Map.of("training", 50), true).toString()),
                new Parse("empty config: the same as no config (FairShare Enabled, no classes)", "{}",
                        SchedulerConfig.DEFAULT.toString()),
                new Parse("weight above 100", "{\"PriorityClasses\": [{\"Name\": \"x\", \"Weight\": 101}]}",
                        "PriorityClasses[0].Weight: must be a whole number in 0..100, was 101"),
                new Parse("unknown FairShare value", "{\"FairShare\": \"Maybe\"}",
                        "FairShare: must be Enabled or Disabled, was 'Maybe'")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parses")
    void parse(Parse c) {
        String seen;
        try {
            seen = SchedulerConfig.fromRequest(EventCodec.read(c.json(), JsonNode.class)).toString();
        } catch (ValidationException e) {
            seen = e.getMessage();
        }
        assertThat(seen).isEqualTo(c.expected());
    }
}
