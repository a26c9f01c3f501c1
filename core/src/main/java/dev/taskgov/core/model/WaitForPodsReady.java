package dev.taskgov.core.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Gang admission, a per-cluster deployment setting (Kueue's {@code waitForPodsReady}, HyperPod's gang scheduling):
 * an admitted workload must report all its pods ready within {@link #timeout} of its admission, or it is evicted
 * ({@link PreemptionReason#PodsReadyTimeout}) and requeued after a backoff of {@code backoffBase x 2^(n-1)}, capped at
 * {@link #backoffMax}, for its n-th such requeue; after {@link #backoffLimitCount} requeues (null: no limit) the next
 * timeout ends it Rejected ({@link RejectReason#RequeuingLimitExceeded}). docs/semantics.md, "Gang admission".
 */
public record WaitForPodsReady(Duration timeout, Duration backoffBase, Duration backoffMax, Integer backoffLimitCount) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    public static final Duration DEFAULT_BACKOFF_BASE = Duration.ofSeconds(60);
    public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofSeconds(3600);

    public WaitForPodsReady {
        List<Violation> v = new ArrayList<>();
        if (timeout == null || timeout.isNegative() || timeout.isZero()) v.add(new Violation("timeout", "must be a positive duration, was " + timeout));
        if (backoffBase == null || backoffBase.isNegative()) v.add(new Violation("backoffBaseSeconds", "must not be negative, was " + backoffBase));
        if (backoffMax == null || backoffMax.isNegative()) v.add(new Violation("backoffMaxSeconds", "must not be negative, was " + backoffMax));
        if (backoffLimitCount != null && backoffLimitCount < 0) {
            v.add(new Violation("backoffLimitCount", "must not be negative (leave it out for no limit), was " + backoffLimitCount));
        }
        if (!v.isEmpty()) throw new ValidationException(v);
    }

    /** Enabled with Kueue's defaults and the given timeout. */
    public static WaitForPodsReady withTimeout(Duration timeout) {
        return new WaitForPodsReady(timeout, DEFAULT_BACKOFF_BASE, DEFAULT_BACKOFF_MAX, null);
    }

    /** The backoff before the {@code requeue}-th requeue (1-based): base x 2^(requeue-1), at most the max. */
    public Duration backoff(int requeue) {
        if (backoffBase.isZero()) return Duration.ZERO;
        int doublings = Math.max(0, requeue - 1);
        long seconds = backoffBase.getSeconds();
        for (int i = 0; i < doublings && seconds < backoffMax.getSeconds(); i++) seconds *= 2;
        return Duration.ofSeconds(Math.min(seconds, backoffMax.getSeconds()));
    }

    /** Whether a workload requeued {@code requeues} times already may be requeued once more. */
    public boolean mayRequeue(int requeues) {
        return backoffLimitCount == null || requeues < backoffLimitCount;
    }
}
