package dev.taskgov.cli;

import dev.taskgov.core.events.WorkloadSubmitted;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

/**
 * The HyperPod CLI's list/describe/delete of hyp-pytorch-job, run as the taskgov command that does
 * the same for the job's workload (its id is the job name), with the same endpoints, profile and Kafka login.
 */
final class HypPyTorchJobCommands {

    private HypPyTorchJobCommands() {
    }

    /** Runs {@code taskgov ARGS...} with the caller's output streams and endpoints; returns its exit code. */
    static int delegate(CliCommand caller, Endpoints endpoints, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--admission-url=" + endpoints.admissionUrl);
        all.add("--kafka-bootstrap=" + endpoints.kafkaBootstrap);
        all.add("--kafka-retry=" + endpoints.kafkaRetry);
        // the same key and profile as the caller's: the delegated command acts as the profile it was given
        all.add("--credentials-profile=" + endpoints.profile);
        all.add("--profile-file=" + endpoints.profileFile);
        if (endpoints.kafkaConfig != null && !endpoints.kafkaConfig.isBlank()) all.add("--kafka-config=" + endpoints.kafkaConfig);
        CommandLine cmd = TaskgovMain.commandLine(all.toArray(String[]::new));
        cmd.setOut(caller.out());
        cmd.setErr(caller.err());
        return cmd.execute(all.toArray(String[]::new));
    }

    /** The team of a namespace {@code hyperpod-ns-<team>}. */
    static String team(String namespace) {
        if (namespace == null || namespace.isBlank()) {
            throw CliException.invalid("--namespace: required (the team's namespace hyperpod-ns-<team>; or env TASKGOV_NAMESPACE)");
        }
        return new WorkloadSubmitted(null, namespace, null, null, null, null, List.of()).team();
    }
}
