package dev.taskgov.service.support.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers the signatures accepted within the clock-skew window, so a captured request sent again is refused.
 * Older signatures need no memory: their date alone makes them expire. Per service instance (docs/security.md).
 */
final class ReplayGuard {

    private final Duration window;
    private final Map<String, Instant> seen = new ConcurrentHashMap<>();
    private Instant nextPurge = Instant.EPOCH;

    ReplayGuard(Duration window) {
        this.window = window;
    }

    /** True the first time this signature is presented; false for every later time within the window. */
    boolean firstUse(String signature, Instant signedAt, Instant now) {
        purge(now);
        return seen.putIfAbsent(signature, signedAt.plus(window)) /* acceptable until then */ == null;
    }

    private synchronized void purge(Instant now) {
        if (now.isBefore(nextPurge)) {
            return;
        }
        nextPurge = now.plusSeconds(30);
        for (Iterator<Instant> it = seen.values().iterator(); it.hasNext(); ) {
            if (it.next().isBefore(now)) {
                it.remove();
            }
        }
    }
}
