package dev.taskgov.core.model;

/** {@code ResourceSharingConfig.Strategy}: what a team does with its idle quota and whether it may borrow. */
public enum SharingStrategy {
    /** Lends all unused nominal quota and borrows up to its limit (the default). */
    LendAndBorrow,
    /** Lends all unused nominal quota, borrows nothing. */
    Lend,
    /** Keeps its quota for itself and borrows nothing. */
    DontLend;

    public boolean lends() {
        return this != DontLend;
    }

    public boolean borrows() {
        return this == LendAndBorrow;
    }
}
