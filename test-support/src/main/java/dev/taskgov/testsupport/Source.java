package dev.taskgov.testsupport;

/** Where a test JVM's shared broker or database comes from, in the order they are tried. */
public enum Source {
    /** An address given in an environment variable ({@code TASKGOV_KAFKA_BOOTSTRAP}, {@code TASKGOV_DB_URL}). */
    ENVIRONMENT,
    /** A container started with Testcontainers, when a Docker engine answers and has the image. */
    TESTCONTAINERS,
    /** Started by test-support itself without Docker: a KRaft broker process, a zonky PostgreSQL. */
    EMBEDDED
}
