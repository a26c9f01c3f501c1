package dev.taskgov.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * The cluster later commands work in, as {@code hyp set-cluster-context} leaves it for {@code hyp create}: a small
 * properties file ({@code cluster}, the governed cluster's ARN; {@code namespace}, optional), read when a command is
 * given no {@code --cluster} and no {@code TASKGOV_CLUSTER}. Where it is: system property {@code taskgov.context},
 * else {@code TASKGOV_CONTEXT}, else {@code $TASKGOV_HOME/context}, else {@code ~/.taskgov/context}.
 *
 * @param cluster   the cluster's ARN
 * @param namespace the namespace given with it, or null
 */
record ClusterContext(String cluster, String namespace) {

    /** The context file's location (it may not exist). */
    static Path file() {
        String explicit = System.getProperty("taskgov.context", System.getenv("TASKGOV_CONTEXT"));
        if (explicit != null && !explicit.isBlank()) return Path.of(explicit);
        String home = System.getenv("TASKGOV_HOME");
        if (home != null && !home.isBlank()) return Path.of(home, "context");
        return Path.of(System.getProperty("user.home"), ".taskgov", "context");
    }

    /** The context set last, if any. */
    static Optional<ClusterContext> current() {
        Path file = file();
        if (!Files.isRegularFile(file)) return Optional.empty();
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot read the cluster context " + file + ": " + e.getMessage(), e);
        }
        String cluster = p.getProperty("cluster");
        if (cluster == null || cluster.isBlank()) return Optional.empty();
        String ns = p.getProperty("namespace");
        return Optional.of(new ClusterContext(cluster.trim(), ns == null || ns.isBlank() ? null : ns.trim()));
    }

    /** Writes this context, replacing the file whole (a concurrent command reads the old one or this one). */
    Path save() {
        Path file = file().toAbsolutePath();
        Properties p = new Properties();
        p.setProperty("cluster", cluster);
        if (namespace != null) p.setProperty("namespace", namespace);
        try {
            Files.createDirectories(file.getParent());
            Path partial = Files.createTempFile(file.getParent(), "context", ".partial");
            try (Writer out = Files.newBufferedWriter(partial)) {
                p.store(out, "taskgov set-cluster-context");
            }
            try {
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot write the cluster context " + file + ": " + e.getMessage(), e);
        }
        return file;
    }
}
