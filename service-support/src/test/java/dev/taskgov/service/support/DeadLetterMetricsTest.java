package dev.taskgov.service.support;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterMetricsTest {

    @Test
    void everyInputTopicAndReasonStartsAtZero() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new DeadLetterMetrics(registry, List.of("in.a", "in.b"));

        assertThat(registry.find(DeadLetterMetrics.NAME).counters()).hasSize(6)
                .allSatisfy(c -> assertThat(c.count()).isZero());
        assertThat(registry.find(DeadLetterMetrics.NAME).tags("topic", "in.b", "reason", "failed").counter()).isNotNull();
    }

    @Test
    void aCountLandsOnItsTopicAndReasonAndAnUnexpectedTopicGetsItsOwnSeries() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DeadLetterMetrics metrics = new DeadLetterMetrics(registry, List.of("in.a"));

        metrics.count("in.a", DeadLetterMetrics.Reason.INVALID);
        metrics.count("in.a", DeadLetterMetrics.Reason.INVALID);
        metrics.count("elsewhere", DeadLetterMetrics.Reason.UNREADABLE);

        assertThat(registry.get(DeadLetterMetrics.NAME).tags("topic", "in.a", "reason", "invalid").counter().count()).isEqualTo(2);
        assertThat(registry.get(DeadLetterMetrics.NAME).tags("topic", "in.a", "reason", "unreadable").counter().count()).isZero();
        assertThat(registry.get(DeadLetterMetrics.NAME).tags("topic", "elsewhere", "reason", "unreadable").counter().count()).isEqualTo(1);
    }

    @Test
    void aRefusedDeadLetterIsItsOwnSeriesPerInputTopicStartingAtZero() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DeadLetterMetrics metrics = new DeadLetterMetrics(registry, List.of("in.a", "in.b"));

        metrics.writeFailed("in.a");

        assertThat(registry.get(DeadLetterMetrics.WRITE_FAILURES).tags("topic", "in.a").counter().count()).isEqualTo(1);
        assertThat(registry.get(DeadLetterMetrics.WRITE_FAILURES).tags("topic", "in.b").counter().count()).isZero();
        assertThat(registry.find(DeadLetterMetrics.NAME).counters()).allSatisfy(c -> assertThat(c.count()).isZero());
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("not the expected shape", new UnreadableRecordException("value is not JSON"), "unreadable"),
                Arguments.of("a field breaks a rule", new IllegalArgumentException("instanceType: is required"), "invalid"),
                Arguments.of("anything else", new IllegalStateException("boom"), "failed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void aFailureMapsToItsReasonLabel(String scenario, Throwable failure, String label) {
        assertThat(DeadLetterMetrics.Reason.of(failure).label()).isEqualTo(label);
    }
}
