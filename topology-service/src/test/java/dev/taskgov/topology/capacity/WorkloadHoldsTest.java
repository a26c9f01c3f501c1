package dev.taskgov.topology.capacity;

import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What admitted workloads hold per node as admissions, NodeReplaced placements, preemptions and finishes arrive. */
class WorkloadHoldsTest {

    static final Resources GPU = Resources.of(1, 4_000, 16 * 1024);
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    record Case(String name, Consumer<WorkloadHolds> events, Map<String, Resources> held) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<WorkloadHolds.PodSetPlacement> on(Map<String, Integer> pods) {
        return List.of(new WorkloadHolds.PodSetPlacement("worker", pods));
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("an admission holds its pods' requests on its nodes", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 1, "n2", 1)));
                }, Map.of("n1", GPU, "n2", GPU)),
                new Case("a NodeReplaced placement (later admittedAt) replaces the whole placement: the failed node holds nothing", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 1, "n2", 1)));
                    h.admitted("w", T0.plusSeconds(5), on(Map.of("n2", 1, "n3", 1)));
                }, Map.of("n2", GPU, "n3", GPU)),
                new Case("a NodeFailure eviction (no preemptor) releases the placement", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.preempted("w", T0.plusSeconds(5));
                }, Map.of()),
                new Case("a NodeReplaced placement older than an eviction holds nothing", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.preempted("w", T0.plusSeconds(9));
                    h.admitted("w", T0.plusSeconds(5), on(Map.of("n2", 2)));
                }, Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void holds(Case c) {
        WorkloadHolds h = new WorkloadHolds();
        c.events().accept(h);
        assertThat(h.heldPerNode()).isEqualTo(c.held());
    }
}
