package dev.taskgov.core.quota;

import dev.taskgov.core.model.PendingReason;

/**
 * Why a request does not fit a team's quota now, or that it does.
 *
 * @param fits    true when it fits
 * @param reason  {@link PendingReason#QuotaExceeded}, {@link PendingReason#BorrowLimitExceeded} or
 *                {@link PendingReason#NoQuota} when it does not fit
 * @param message with numbers, e.g. "needs 4 accelerators of ml.p5.48xlarge; team-b has 1 of its
 *                quota free and may borrow 2 more; the cohort has 0 idle"
 */
public record QuotaCheck(boolean fits, PendingReason reason, String message) {
    public static final QuotaCheck FITS = new QuotaCheck(true, null, null);
}
