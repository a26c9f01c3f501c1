package dev.taskgov.topology.kubernetes;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static dev.taskgov.core.topology.TopologyLevels.LAYER_1;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_2;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NodeLabelerTest {

    static Map<String, String> nullable(String k, String v) {
        Map<String, String> m = new HashMap<>();
        m.put(k, v);
        return m;
    }

    static Stream<Arguments> cases() {
        Map<String, String> full = Map.of(LAYER_1, "a", LAYER_2, "b", LAYER_3, "c");
        return Stream.of(
                arguments("all missing", Map.of("other", "x"), full, full),
                arguments("already right", Map.of(LAYER_1, "a", LAYER_2, "b", LAYER_3, "c", "other", "x"), full, Map.of()),
                arguments("one wrong", Map.of(LAYER_1, "a", LAYER_2, "b", LAYER_3, "old"), full, Map.of(LAYER_3, "c")),
                arguments("a layer EC2 no longer reports is removed", Map.of(LAYER_1, "a", LAYER_2, "b", LAYER_3, "c"),
                        Map.of(LAYER_1, "a", LAYER_2, "b"), nullable(LAYER_3, null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void computesOnlyTheLabelsThatDiffer(String name, Map<String, String> current, Map<String, String> desired, Map<String, String> expected) {
        assertThat(NodeLabeler.changes(current, desired)).isEqualTo(expected);
    }
}
