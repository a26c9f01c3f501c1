package dev.taskgov.service.support;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gauge with one row per tag set (per team, resource, reason...) whose rows are registered once and read their
 * value from the latest {@link #set}. Registering every row again at each refresh ({@link MultiGauge}'s overwrite)
 * removed and created one meter per row each time: a thousand teams made that tens of thousands of meters a
 * second, most of the per-team gauges' cost. Only a change of the tag sets registers rows now: new ones are
 * created, gone ones removed, the others kept.
 */
public final class GaugeRows {

    private final MultiGauge gauge;
    /** The values of the latest refresh, by row; replaced whole, so that a scrape reads one refresh's values. */
    private volatile Map<Tags, Number> values = Map.of();
    /** The tag sets registered now (only the refreshing thread reads and writes it). */
    private Set<Tags> registered = Set.of();

    public GaugeRows(MeterRegistry registry, String name, String description) {
        this.gauge = MultiGauge.builder(name).description(description).register(registry);
    }

    /** The rows and their values from now on: a row not in {@code rows} is removed. */
    public void set(Map<Tags, ? extends Number> rows) {
        values = Map.copyOf(rows);
        if (registered.equals(rows.keySet())) return;
        List<MultiGauge.Row<?>> list = new ArrayList<>(rows.size());
        for (Tags tags : rows.keySet()) list.add(MultiGauge.Row.of(tags, this, g -> g.value(tags)));
        gauge.register(list, false);
        registered = Set.copyOf(rows.keySet());
    }

    private double value(Tags tags) {
        Number n = values.get(tags);
        return n == null ? Double.NaN : n.doubleValue();
    }
}
