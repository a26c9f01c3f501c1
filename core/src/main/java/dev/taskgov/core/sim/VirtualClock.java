package dev.taskgov.core.sim;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told to: the simulator's virtual time. */
public final class VirtualClock extends Clock {
    private volatile Instant now;

    public VirtualClock(Instant start) {
        this.now = start;
    }

    /** Moves time forward. */
    public void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
