package dev.taskgov.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the project's root folder and build outputs from a test running in any module. */
public final class ProjectLayout {

    private ProjectLayout() {
    }

    /** The nearest folder, from the working directory up, that holds {@code deploy/local/pom.xml}. */
    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path candidate = dir; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("deploy/local/pom.xml"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find the taskgov project root (a folder with deploy/local/pom.xml)"
                + " above " + dir);
    }

    /** The module's own {@code target/} folder (the working directory of a Maven test run). */
    static Path moduleTarget() {
        return Path.of("target").toAbsolutePath();
    }
}
