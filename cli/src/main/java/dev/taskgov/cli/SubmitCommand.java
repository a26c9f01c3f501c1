package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.Violation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Map;

/** {@code taskgov submit}: like {@code hyp create hyp-pytorch-job} or {@code kubectl apply -f}. */
@Command(name = "submit",
        description = {"Submit a workload: from hyp-pytorch-job style flags, or -f a Kueue-labelled Job/PyTorchJob manifest.",
                "Goes through admission-service (validated there), or straight to Kafka with --kafka."})
public class SubmitCommand extends AnswerCommand {

    /** Help only: a --version here would be picocli's (printing nothing), not hyp's template version (see create hyp-pytorch-job). */
    @Mixin
    HelpOption help;

    @Mixin
    WorkloadOptions workload;

    @Option(names = "--kafka", defaultValue = KAFKA_DEFAULT,
            description = "Write to the submissions topic instead of calling admission-service (env TASKGOV_SUBMIT_KAFKA).")
    boolean kafka;

    /** {@code --kafka}'s default: system property {@code taskgov.submit.kafka}, else env {@code TASKGOV_SUBMIT_KAFKA}, else false. */
    static final String KAFKA_DEFAULT = "${sys:taskgov.submit.kafka:-${env:TASKGOV_SUBMIT_KAFKA:-false}}";

    @Option(names = "--print-only", description = "Print the submission that would be sent, and send nothing.")
    boolean printOnly;

    @Override
    protected int run() {
        WorkloadSubmitted submission = workload.submission(clock.instant(), err());
        checkLocally(submission);
        if (printOnly) {
            out().println(Json.pretty(submission));
            return 0;
        }
        JsonNode answer = send(submission, kafka, endpoints, err());
        if (!printedAsData(answer)) {
            out().println("workload/" + submission.workloadId() + " submitted (team " + submission.team() + ", "
                    + dev.taskgov.core.model.Amounts.count(submission.podSets().size(), "pod set", "pod sets") + ")");
            if (answer != null && answer.hasNonNull("message")) out().println(answer.get("message").asText());
        }
        return 0;
    }

    /** The rules a submission can be checked against without the cluster's state; each broken one named. */
    static void checkLocally(WorkloadSubmitted submission) {
        List<Violation> violations = WorkloadValidation.checkFields(submission);
        if (!violations.isEmpty()) {
            StringBuilder sb = new StringBuilder("the workload breaks " + violations.size() + " rule(s):");
            violations.forEach(v -> sb.append(System.lineSeparator()).append("  ").append(v.field()).append(": ").append(v.rule()));
            throw CliException.invalid(sb.toString());
        }
    }

    /**
     * Sends a checked submission: to admission-service (which validates it and answers), or straight to the topic
     * (retries while the broker is away are said on {@code err}).
     */
    static JsonNode send(WorkloadSubmitted submission, boolean kafka, Endpoints endpoints, java.io.PrintWriter err) {
        if (!kafka) {
            return endpoints.admission().submit(submission);
        }
        String topic;
        try (KafkaWriter writer = endpoints.kafkaWriter(clock, err)) {
            topic = writer.submissionTopic(submission.team());
            writer.send(topic, submission.workloadId(), submission, WorkloadSubmitted.TYPE);
        }
        return EventCodec.mapper().valueToTree(Map.of("workloadId", submission.workloadId(),
                "message", "written to " + topic + "; taskgov describe workload " + submission.workloadId() + " shows its state"));
    }
}
