package dev.taskgov.core.quota;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.resources.ResourceKey;

/**
 * The figures a failed quota check names, its message written from them only when read: a deep queue's waiting
 * workloads are checked again after nearly every admission, and most of those checks' messages are superseded before
 * anyone reads them. Two shortfalls are equal exactly when their messages are (each figure is what the message shows).
 *
 * @param need      what the request asks for of {@code res}
 * @param free      what the team's nominal quota has free of it
 * @param mayBorrow what the team may still borrow of it (0 when borrowing is not allowed)
 * @param poolIdle  what the cohort has idle of it
 * @param holders   who holds it, when the cohort has too little idle ({@link QuotaLedger#holders}), else empty
 */
public record Shortfall(String team, String type, ResourceKey res, long need, long free, long mayBorrow, long poolIdle,
                        String holders) {

    /** "needs 4 accelerators of ml.p5.48xlarge; team-b has 1 of its quota free and may borrow 2 more; the cohort has 0 idle". */
    public String message() {
        return "needs " + Amounts.of(res, need) + " of " + type + "; " + team + " has " + Amounts.number(res, free)
                + " of its quota free and may borrow " + Amounts.number(res, mayBorrow) + " more; the cohort has "
                + Amounts.number(res, poolIdle) + " idle" + holders;
    }
}
