package dev.taskgov.core.quota;

import dev.taskgov.core.model.PendingReason;

/**
 * Why a request does not fit a team's quota now, or that it does.
 *
 * @param fits      true when it fits
 * @param reason    {@link PendingReason#QuotaExceeded}, {@link PendingReason#BorrowLimitExceeded} or
 *                  {@link PendingReason#NoQuota} when it does not fit
 * @param text      the message when it is not made of a {@code shortfall}'s figures
 * @param shortfall the figures of a request over the team's quota or the cohort's idle amount, else null
 */
public record QuotaCheck(boolean fits, PendingReason reason, String text, Shortfall shortfall) {
    public static final QuotaCheck FITS = new QuotaCheck(true, null, null, null);

    public QuotaCheck(boolean fits, PendingReason reason, String text) {
        this(fits, reason, text, null);
    }

    /** Short by {@code shortfall}'s figures. */
    static QuotaCheck shortBy(PendingReason reason, Shortfall shortfall) {
        return new QuotaCheck(false, reason, null, shortfall);
    }

    /** The message with numbers, e.g. "needs 4 accelerators of ml.p5.48xlarge; team-b has 1 of its quota free and may borrow 2 more; the cohort has 0 idle". */
    public String message() {
        return shortfall != null ? shortfall.message() : text;
    }
}
