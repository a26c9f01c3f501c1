package dev.taskgov.core.quota;

/**
 * A what-if change that is in force until {@link #close()} puts the state back as it was. Used
 * with try-with-resources, so that no path out of the what-if forgets to undo it:
 * {@code try (var undo = ledger.simulateRemoval(team, requests)) { ... }}. Closing twice undoes once.
 */
public interface WhatIf extends AutoCloseable {

    /** Nothing to undo. */
    WhatIf NONE = () -> { };

    @Override
    void close();
}
