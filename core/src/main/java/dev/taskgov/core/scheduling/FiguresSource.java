package dev.taskgov.core.scheduling;

/**
 * What a waiting workload's figures follow while it is settled in its parked shape: a change of figures alone (the
 * same reason) is not reported as a decision per workload (docs/architecture.md, the status topic), so whoever writes the
 * figures asks for them ({@link Scheduler#pendingFigures}) and learns from {@link #version} when they may have changed.
 */
public interface FiguresSource {

    /** Changes whenever the workloads that follow it may show other figures. */
    long version();
}
