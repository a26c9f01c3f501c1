package dev.taskgov.topology.inventory;

import java.time.Duration;

/** Exponential backoff between failed polls: initial, doubled after each further failure, capped at max. */
public final class Backoff {

    private final Duration initial;
    private final Duration max;
    private int failures;

    public Backoff(Duration initial, Duration max) {
        this.initial = initial;
        this.max = max;
    }

    /** Records a failure and returns the delay before the next attempt. */
    public Duration failed() {
        failures++;
        Duration d = initial;
        for (int i = 1; i < failures && d.compareTo(max) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(max) > 0 ? max : d;
    }

    public void succeeded() {
        failures = 0;
    }

    public int consecutiveFailures() {
        return failures;
    }
}
