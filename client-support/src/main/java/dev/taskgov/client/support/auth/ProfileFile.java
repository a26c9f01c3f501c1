package dev.taskgov.client.support.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A credentials profile file in the format of {@code ~/.aws/credentials}: sections {@code [name]} with
 * {@code aws_access_key_id} and {@code aws_secret_access_key}. The local runtime writes one (an admin key and the
 * demo teams' keys; quota-service writes the first admin key into it); the CLI signs its requests with the selected
 * section's key, and the {@code aws} CLI can read the same file ({@code AWS_SHARED_CREDENTIALS_FILE}, {@code AWS_PROFILE}).
 */
public final class ProfileFile {

    public static final String KEY_ID = "aws_access_key_id";
    public static final String SECRET = "aws_secret_access_key";

    /** One section's key. */
    public record Credentials(String profile, String accessKeyId, String secret) {
    }

    private ProfileFile() {
    }

    /** The key of one section; a clear error naming the file and the section when it is not there. */
    public static Credentials read(Path file, String profile) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("no credentials: profile file " + file.toAbsolutePath() + " does not exist or "
                    + "cannot be read; the local runtime writes it on first start (deploy/local/taskgov-local up), or point "
                    + "--profile-file / TASKGOV_PROFILE at yours");
        }
        Map<String, Map<String, String>> sections = parse(file);
        Map<String, String> section = sections.get(profile);
        if (section == null) {
            throw new IllegalArgumentException("no profile [" + profile + "] in " + file.toAbsolutePath() + " (profiles: "
                    + sections.keySet() + "); choose one with --credentials-profile / TASKGOV_PROFILE_NAME");
        }
        String id = section.get(KEY_ID);
        String secret = section.get(SECRET);
        if (id == null || secret == null) {
            throw new IllegalArgumentException("profile [" + profile + "] in " + file.toAbsolutePath() + " needs " + KEY_ID + " and " + SECRET);
        }
        return new Credentials(profile, id, secret);
    }

    /** Adds or replaces one section, keeping the others; the file is readable by its owner only. */
    public static void write(Path file, Credentials credentials) {
        Map<String, Map<String, String>> sections = Files.exists(file) ? parse(file) : new LinkedHashMap<>();
        Map<String, String> section = new LinkedHashMap<>();
        section.put(KEY_ID, credentials.accessKeyId());
        section.put(SECRET, credentials.secret());
        sections.put(credentials.profile(), section);
        StringBuilder out = new StringBuilder("# taskgov access keys (format of ~/.aws/credentials); keep this file private\n");
        sections.forEach((name, values) -> {
            out.append('\n').append('[').append(name).append("]\n");
            values.forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
        });
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: its own defaults apply
            }
            Files.writeString(file, out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write the profile file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Map<String, String>> parse(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read the profile file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        Map<String, String> current = null;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                current = sections.computeIfAbsent(line.substring(1, line.length() - 1).strip(), k -> new LinkedHashMap<>());
            } else if (current != null && line.contains("=")) {
                int eq = line.indexOf('=');
                current.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return sections;
    }
}
