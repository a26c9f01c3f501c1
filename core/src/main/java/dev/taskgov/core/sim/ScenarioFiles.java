package dev.taskgov.core.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the scenario files are, for every runner of them (the simulator's tests, the live parity
 * runner): the repository's own {@code scenarios/}, the public {@code ../shared/scenarios/} next
 * to the repository root, and the folder named by {@code TASKGOV_SHARED_SCENARIOS} when set. A
 * runner that read only one of them would let a public scenario go unchecked.
 */
public final class ScenarioFiles {

    /** The environment variable naming one more folder of scenario files. */
    public static final String EXTRA_FOLDER_VARIABLE = "TASKGOV_SHARED_SCENARIOS";

    private ScenarioFiles() {
    }

    /**
     * Every {@code *.json} file of those folders that exist, folder by folder, each sorted by name.
     *
     * @param from any folder inside the repository (a module's working directory will do)
     * @throws IllegalStateException when no repository root is found above {@code from}, or no file at all
     */
    public static List<Path> all(Path from) {
        Path root = repositoryRoot(from);
        List<Path> dirs = new ArrayList<>(List.of(root.resolve("scenarios"), root.resolve("../shared/scenarios").normalize()));
        String extra = System.getenv(EXTRA_FOLDER_VARIABLE);
        if (extra != null && !extra.isBlank()) dirs.add(Path.of(extra));
        List<Path> files = new ArrayList<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".json")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list scenario files in " + dir, e);
            }
        }
        if (files.isEmpty()) throw new IllegalStateException("no scenario files in " + dirs);
        return files;
    }

    /** The nearest folder from {@code from} up that holds the parent {@code pom.xml} and {@code core/}. */
    static Path repositoryRoot(Path from) {
        for (Path dir = from.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("core"))) return dir;
        }
        throw new IllegalStateException("no taskgov repository root (pom.xml and core/) above " + from.toAbsolutePath());
    }
}
