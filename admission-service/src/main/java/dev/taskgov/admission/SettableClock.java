package dev.taskgov.admission;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that follows a base clock unless pinned: restoring an admission from the changelog
 * replays it at its original {@code admittedAt}.
 */
final class SettableClock extends Clock {
    private final Clock base;
    private volatile Instant pinned;

    SettableClock(Clock base) {
        this.base = base;
    }

    void pin(Instant at) {
        pinned = at;
    }

    void unpin() {
        pinned = null;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        Instant p = pinned;
        return p != null ? p : base.instant();
    }
}
