package dev.taskgov.core.events;

/**
 * One instance per distinct name (a team's namespace and queue, a priority class, an instance type, a cluster) across
 * every record decoded: a deep queue keeps each pending workload's submission, and each decoded submission would
 * otherwise bring its own copies of names that a few teams share. The JVM's string table holds them weakly, so a name
 * no record refers to any more is collected.
 */
public final class SharedNames {

    private SharedNames() {
    }

    /** The shared instance equal to {@code name}; null for null. */
    public static String of(String name) {
        return name == null ? null : name.intern();
    }
}
