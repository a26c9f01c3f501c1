package dev.taskgov.core.quota;

/**
 * A what-if change that is in force until {@link #close()} puts the state back as it was. Used
 * with try-with-resources, so that no path out of the what-if forgets to undo it:
 * {@code try (var undo = ledger.simulateRemoval(team, requests)) { ... }}. Closing twice undoes once.
 */
public interface WhatIf extends AutoCloseable {

    @Override
    void close();

    /** A handle that runs {@code undo} on its first close only. */
    static WhatIf once(Runnable undo) {
        return new WhatIf() {
            private boolean undone;

            @Override
            public void close() {
                if (undone) return;
                undone = true;
                undo.run();
            }
        };
    }
}
