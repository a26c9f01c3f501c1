package dev.taskgov.admission;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the scenario files are: {@code TASKGOV_SCENARIOS} if set; else the repository's
 * {@code scenarios/}; else {@code ../shared/scenarios} next to the repository root.
 */
final class ScenarioFiles {
    private ScenarioFiles() {
    }

    static Path directory() {
        String env = System.getenv("TASKGOV_SCENARIOS");
        if (env != null && !env.isBlank()) return Path.of(env);
        Path dir = Path.of("").toAbsolutePath();
        for (Path root = dir; root != null; root = root.getParent()) {
            if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("core"))) continue;
            if (Files.isDirectory(root.resolve("scenarios"))) return root.resolve("scenarios");
            Path shared = root.resolve("../shared/scenarios").normalize();
            if (Files.isDirectory(shared)) return shared;
        }
        throw new IllegalStateException("no scenarios directory found from " + dir
                + " (set TASKGOV_SCENARIOS, or add scenarios/ at the repository root)");
    }
}
