package dev.taskgov.service.support;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-team gauges: rows registered once, their values those of the latest refresh, gone rows removed. */
class GaugeRowsTest {

    private static final String NAME = "taskgov.quota.used";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final GaugeRows rows = new GaugeRows(registry, NAME, "used");

    private static Tags team(String team) {
        return Tags.of("cluster", "c", "team", team);
    }

    private Gauge gauge(String team) {
        return registry.find(NAME).tags(team(team)).gauge();
    }

    @Test
    void aRefreshOfTheSameRowsKeepsTheirMetersAndShowsTheNewValues() {
        rows.set(Map.of(team("a"), 1, team("b"), 2.5));
        Meter before = gauge("a");
        rows.set(Map.of(team("a"), 7L, team("b"), 0));
        assertThat(gauge("a")).isSameAs(before);
        assertThat(gauge("a").value()).isEqualTo(7.0);
        assertThat(gauge("b").value()).isEqualTo(0.0);
        assertThat(registry.find(NAME).gauges()).hasSize(2);
    }

    @Test
    void aRowThatIsGoneIsRemovedAndANewOneIsAdded() {
        rows.set(Map.of(team("a"), 1, team("b"), 2));
        Meter a = gauge("a");
        Map<Tags, Number> next = new LinkedHashMap<>();
        next.put(team("a"), 3);
        next.put(team("c"), 4);
        rows.set(next);
        assertThat(gauge("b")).isNull();
        assertThat(gauge("a")).isSameAs(a);
        assertThat(gauge("a").value()).isEqualTo(3.0);
        assertThat(gauge("c").value()).isEqualTo(4.0);
        rows.set(Map.of());
        assertThat(registry.find(NAME).gauges()).isEmpty();
    }

    @Test
    void infiniteSharesAreShownAsTheyAre() {
        rows.set(Map.of(team("a"), Double.POSITIVE_INFINITY));
        assertThat(gauge("a").value()).isEqualTo(Double.POSITIVE_INFINITY);
    }
}
