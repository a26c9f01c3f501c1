package dev.taskgov.core.estimate;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a workload is expected to run once admitted, and where that figure comes from.
 *
 * @param duration greater than zero
 * @param source   declared on its submission, or learned from finished workloads (of its team and class, of its class,
 *                 or of the whole cluster)
 * @param observed how many finished workloads the learned figure is the median of (0 for a declared one)
 */
public record RunTime(Duration duration, Source source, int observed) {

    /** Where a run time comes from, the most specific first. */
    public enum Source {
        /** The submission's {@code taskgov.dev/expected-runtime}. */
        Declared,
        /** The median run time of its team's finished workloads of its priority class. */
        LearnedTeamAndClass,
        /** The median run time of finished workloads of its priority class, any team. */
        LearnedClass,
        /** The median run time of every finished workload of the cluster. */
        LearnedCluster;

        public boolean learned() {
            return this != Declared;
        }
    }

    public RunTime {
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(source, "source");
        if (duration.isNegative() || duration.isZero()) throw new IllegalArgumentException("a run time must be greater than zero, was " + duration);
    }

    /** A declared run time. */
    public static RunTime declared(Duration d) {
        return new RunTime(d, Source.Declared, 0);
    }
}
