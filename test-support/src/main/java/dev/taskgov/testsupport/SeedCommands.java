package dev.taskgov.testsupport;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code hyp} commands of AWS's task governance pages, as printed there (kept as text in this package's
 * resources, {@code seed-*.hyp.txt}), and how a test runs
 * one verbatim with {@code taskgov} in place of {@code hyp}: the CLI's tests against a broker, the end-to-end test
 * against the README's platform.
 */
public final class SeedCommands {

    /** Seed 000 (Spanish page on topology-aware scheduling). */
    public static final String SEED_000 = read("seed-000.hyp.txt");

    /** Seed 002 (Italian page on compute quota allocation). */
    public static final String SEED_002 = read("seed-002.hyp.txt");

    private SeedCommands() {
    }

    private static String read(String resource) {
        try (java.io.InputStream in = SeedCommands.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The command as the shell would pass it, without the leading {@code hyp}: line continuations joined, double
     * quotes removed (the seeds use no other shell syntax).
     */
    public static List<String> taskgovArguments(String shell) {
        String line = shell.replace("\\\n", " ").strip();
        List<String> args = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        boolean inToken = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
                inToken = true;
            } else if (Character.isWhitespace(c) && !quoted) {
                if (inToken) args.add(cur.toString());
                cur.setLength(0);
                inToken = false;
            } else {
                cur.append(c);
                inToken = true;
            }
        }
        if (inToken) args.add(cur.toString());
        if (args.isEmpty() || !args.get(0).equals("hyp")) throw new IllegalArgumentException("not a hyp command: " + shell);
        return List.copyOf(args.subList(1, args.size()));
    }
}
