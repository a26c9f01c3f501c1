package dev.taskgov.core.topology;

/** The outcome of placing a workload's pod sets: all of them placed, or none. */
public sealed interface PlacementResult {

    /** Every pod set was placed. */
    record Placed(Placement placement) implements PlacementResult {
    }

    /**
     * Some pod set cannot be placed now.
     *
     * @param podSet  the first pod set that did not fit
     * @param fitting how many of its pods fit at best (for "allows to fit only k out of N pods")
     * @param message a sentence for people, with numbers
     */
    record NoFit(String podSet, int fitting, String message) implements PlacementResult {
    }
}
