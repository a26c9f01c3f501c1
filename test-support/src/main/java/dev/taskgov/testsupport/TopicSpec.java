package dev.taskgov.testsupport;

/**
 * A topic to create: its name, partition count, and whether it is log-compacted (latest value per key).
 */
public record TopicSpec(String name, int partitions, boolean compacted) {

    public TopicSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions of " + name + " must be >= 1, was " + partitions);
        }
    }

    public static TopicSpec deleting(String name, int partitions) {
        return new TopicSpec(name, partitions, false);
    }

    public static TopicSpec compacted(String name, int partitions) {
        return new TopicSpec(name, partitions, true);
    }
}
