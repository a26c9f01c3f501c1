package dev.taskgov.testsupport;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code hyp} commands of the seed documents ({@code ../shared/seeds}), as printed there, and how a test runs
 * one verbatim with {@code taskgov} in place of {@code hyp}: the CLI's tests against a broker, the end-to-end test
 * against the README's platform.
 */
public final class SeedCommands {

    /** Seed 000 (Spanish page on topology-aware scheduling). */
    public static final String SEED_000 = """
            hyp create hyp-pytorch-job \\
              --version 1.1 \\
              --job-name sample-pytorch-job \\
              --image 123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest \\
              --pull-policy "Always" \\
              --tasks-per-node 1 \\
              --max-retry 1 \\
              --priority high-priority \\
              --namespace hyperpod-ns-team-name \\
              --queue-name hyperpod-ns-team-name-localqueue \\
              --preferred-topology-label topology.k8s.aws/network-node-layer-1
            """;

    /** Seed 002 (Italian page on compute quota allocation). */
    public static final String SEED_002 = """
            hyp create hyp-pytorch-job --version 1.1 --job-name sample-job \\
            --image 123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest \\
            --pull-policy "Always" \\
            --tasks-per-node 1 \\
            --max-retry 1 \\
            --priority high-priority \\
            --namespace hyperpod-ns-team-name \\
            --queue-name hyperpod-ns-team-name-localqueue \\
            --instance-type sample-instance-type \\
            --accelerators 1 \\
            --vcpu 3 \\
            --memory 1 \\
            --accelerators-limit 1 \\
            --vcpu-limit 4 \\
            --memory-limit 2
            """;

    private SeedCommands() {
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
