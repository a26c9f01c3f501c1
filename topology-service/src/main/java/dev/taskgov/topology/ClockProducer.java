package dev.taskgov.topology;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/** The clock for event times (CloudEvents {@code ce_time}); a bean so that tests may replace it. */
public class ClockProducer {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
