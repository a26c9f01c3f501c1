package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.WorkloadSubmitted;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code taskgov dry-run}: would this workload be admitted now, where, borrowing what, after preempting whom. */
@Command(name = "dry-run",
        description = "Ask admission-service whether a workload (same flags as submit) would be admitted now; nothing is submitted.")
public class DryRunCommand extends AnswerCommand {

    /** Help only: a --version here would be picocli's (printing nothing), not hyp's template version (see create hyp-pytorch-job). */
    @Mixin
    HelpOption help;

    @Mixin
    WorkloadOptions workload;

    @Override
    protected int run() {
        WorkloadSubmitted submission = workload.submission(clock.instant(), err());
        CliException.checkWorkloadId(submission.workloadId());
        JsonNode r = endpoints.admission().dryRun(submission);
        if (printedAsData(r)) return 0;
        var out = out();
        out.println("Workload:   " + Views.text(r, "workloadId") + " (team " + Views.text(r, "team") + ")");
        out.println("Verdict:    " + Views.text(r, "verdict"));
        if (r.hasNonNull("reason")) out.println("Reason:     " + Views.text(r, "reason"));
        if (r.hasNonNull("message")) out.println("Message:    " + Views.text(r, "message"));
        String borrowed = Views.amounts(r.get("borrowed"));
        out.println("Borrowing:  " + (borrowed == null ? "nothing" : borrowed));
        if (r.path("placement").isArray() && !r.path("placement").isEmpty()) {
            out.println("Placement:");
            for (JsonNode p : r.path("placement")) out.println("  " + Views.placement(p));
        }
        if (r.path("preempting").isArray() && !r.path("preempting").isEmpty()) {
            out.println("Would preempt:");
            Table t = new Table("WORKLOAD", "TEAM", "REASON", "MESSAGE").cut("MESSAGE").whole(output.wide());
            for (JsonNode v : r.path("preempting")) {
                t.row(Views.text(v, "workloadId"), Views.text(v, "team"), Views.text(v, "reason"), Views.text(v, "message"));
            }
            t.print(out);
        }
        return 0;
    }
}
