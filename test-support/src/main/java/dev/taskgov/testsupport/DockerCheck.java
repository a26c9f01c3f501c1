package dev.taskgov.testsupport;

import org.testcontainers.DockerClientFactory;

/** Whether Testcontainers can reach a Docker engine (asked once per JVM). */
final class DockerCheck {

    private static volatile Boolean available;

    private DockerCheck() {
    }

    static boolean dockerAvailable() {
        if (available == null) {
            synchronized (DockerCheck.class) {
                if (available == null) {
                    available = askTestcontainers();
                }
            }
        }
        return available;
    }

    private static boolean askTestcontainers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
