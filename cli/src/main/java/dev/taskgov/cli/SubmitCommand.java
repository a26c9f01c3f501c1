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
@Command(name = "submit", mixinStandardHelpOptions = true,
        description = {"Submit a workload: from hyp-pytorch-job style flags, or -f a Kueue-labelled Job/PyTorchJob manifest.",
                "Goes through admission-service (validated there), or straight to Kafka with --kafka."})
public class SubmitCommand extends CliCommand {

    @Mixin
    WorkloadOptions workload;
    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    @Option(names = "--kafka", description = "Write to the submissions topic instead of calling admission-service.")
    boolean kafka;

    @Option(names = "--print-only", description = "Print the submission that would be sent, and send nothing.")
    boolean printOnly;

    @Override
    protected int run() {
        WorkloadSubmitted submission = workload.submission(clock.instant(), err());
        List<Violation> violations = WorkloadValidation.checkFields(submission);
        if (!violations.isEmpty()) {
            StringBuilder sb = new StringBuilder("the workload breaks " + violations.size() + " rule(s):");
            violations.forEach(v -> sb.append(System.lineSeparator()).append("  ").append(v.field()).append(": ").append(v.rule()));
            throw CliException.invalid(sb.toString());
        }
        if (printOnly) {
            out().println(Json.pretty(submission));
            return 0;
        }
        JsonNode answer;
        if (kafka) {
            try (KafkaWriter writer = endpoints.kafkaWriter(clock, err())) {
                writer.send(KafkaWriter.SUBMITTED_TOPIC, submission.workloadId(), submission, "dev.taskgov.workload.submitted");
            }
            answer = EventCodec.mapper().valueToTree(Map.of("workloadId", submission.workloadId(),
                    "message", "written to " + KafkaWriter.SUBMITTED_TOPIC + "; taskgov describe workload " + submission.workloadId() + " shows its state"));
        } else {
            answer = endpoints.admission().submit(submission);
        }
        if (output.json()) {
            out().println(Json.pretty(answer));
        } else {
            out().println("workload/" + submission.workloadId() + " submitted (team " + submission.team() + ", "
                    + submission.podSets().size() + " pod set(s))");
            if (answer != null && answer.hasNonNull("message")) out().println(answer.get("message").asText());
        }
        return 0;
    }
}
