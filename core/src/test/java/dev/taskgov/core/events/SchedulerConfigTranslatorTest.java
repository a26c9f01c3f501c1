package dev.taskgov.core.events;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.Violation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A scheduler config record into a {@link SchedulerConfig}, or each broken rule with its field. */
class SchedulerConfigTranslatorTest {

    record Case(String name, String json, Translation<SchedulerConfig> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A config of classes in the order given. */
    private static Translation<SchedulerConfig> config(boolean fairShare, boolean idleSharing, Object... classAndWeight) {
        Map<String, Integer> classes = new LinkedHashMap<>();
        for (int i = 0; i < classAndWeight.length; i += 2) classes.put((String) classAndWeight[i], (Integer) classAndWeight[i + 1]);
        return Translation.translated(new SchedulerConfig(classes, fairShare, idleSharing));
    }

    private static Translation<SchedulerConfig> invalid(String field, String rule) {
        return Translation.invalid("scheduler config", List.of(new Violation(field, rule)));
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("classes and FairShare Enabled",
                        "{\"PriorityClasses\": [{\"Name\": \"inference\", \"Weight\": 90}, {\"Name\": \"training\", \"Weight\": 50}], "
                                + "\"FairShare\": \"Enabled\"}",
                        config(true, false, "inference", 90, "training", 50)),
                new Case("wrapped in SchedulerConfig, FairShare Disabled, IdleResourceSharing Enabled",
                        "{\"Name\": \"c\", \"SchedulerConfig\": {\"PriorityClasses\": [], \"FairShare\": \"Disabled\", "
                                + "\"IdleResourceSharing\": \"Enabled\"}}",
                        config(false, true)),
                new Case("FairShare omitted: Enabled, the SageMaker API's default",
                        "{\"PriorityClasses\": [{\"Name\": \"training\", \"Weight\": 50}]}", config(true, false, "training", 50)),
                new Case("empty config: the same as no config", "{}", Translation.translated(SchedulerConfig.DEFAULT)),
                new Case("JSON null: no config", "null", Translation.translated(SchedulerConfig.DEFAULT)),
                new Case("not JSON", "{\"FairShare\": ", null),
                new Case("PriorityClasses not a list", "{\"PriorityClasses\": {}}", invalid("PriorityClasses", "must be a list")),
                new Case("a class without a name", "{\"PriorityClasses\": [{\"Weight\": 1}]}", invalid("PriorityClasses[0].Name", "is required")),
                new Case("a class name with capitals", "{\"PriorityClasses\": [{\"Name\": \"Big\", \"Weight\": 1}]}",
                        invalid("PriorityClasses[0].Name", "must match [a-z0-9]([-a-z0-9]*[a-z0-9]){0,39}, was 'Big'")),
                new Case("weight above 100", "{\"PriorityClasses\": [{\"Name\": \"x\", \"Weight\": 101}]}",
                        invalid("PriorityClasses[0].Weight", "must be a whole number in 0..100, was 101")),
                new Case("weight as text", "{\"PriorityClasses\": [{\"Name\": \"x\", \"Weight\": \"5\"}]}",
                        invalid("PriorityClasses[0].Weight", "must be a whole number in 0..100, was \"5\"")),
                new Case("a class given twice", "{\"PriorityClasses\": [{\"Name\": \"x\", \"Weight\": 1}, {\"Name\": \"x\", \"Weight\": 2}]}",
                        invalid("PriorityClasses[1].Name", "priority class 'x' is given twice")),
                new Case("unknown FairShare value", "{\"FairShare\": \"Maybe\"}", invalid("FairShare", "must be Enabled or Disabled, was 'Maybe'")),
                new Case("a wrapped config names the wrapper in the path", "{\"SchedulerConfig\": {\"IdleResourceSharing\": \"Yes\"}}",
                        invalid("SchedulerConfig.IdleResourceSharing", "must be Enabled or Disabled, was 'Yes'"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void translates(Case c) {
        Translation<SchedulerConfig> seen = SchedulerConfigTranslator.translate(c.json().getBytes(StandardCharsets.UTF_8));
        if (c.expected() == null) {
            assertThat(seen).isInstanceOfSatisfying(Translation.Refused.class, r -> {
                assertThat(r.kind()).isEqualTo(Translation.Kind.UNREADABLE);
                assertThat(r.reason()).startsWith("unreadable scheduler config: $");
            });
        } else {
            assertThat(seen).isEqualTo(c.expected());
        }
    }
}
