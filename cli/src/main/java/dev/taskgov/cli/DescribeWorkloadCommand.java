package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code taskgov describe workload ID}: state, reason and message (with the numbers), placement,
 * borrowing, and the history as events, the way {@code kubectl describe workload} answers
 * "why is my job pending?" and "why was it preempted?".
 */
@Command(name = "workload", aliases = {"workloads", "wl"}, mixinStandardHelpOptions = true,
        description = "Explain a workload: why it waits or was preempted, where it runs, what it borrows, its history.")
public class DescribeWorkloadCommand extends WatchedCommand {

    @Parameters(paramLabel = "ID", description = "The workload id (its job name).")
    String id;

    @Override
    protected int once() {
        CliException.checkWorkloadId(id);
        JsonNode w = endpoints.admission().workload(id);
        if (printedAsData(w)) return 0;
        if (output.names()) {
            out().println("workload/" + Views.text(w, "workloadId"));
            return 0;
        }
        print(w, out());
        return 0;
    }

    private void print(JsonNode w, PrintWriter out) {
        field(out, "Name:", Views.text(w, "workloadId"));
        field(out, "Team:", Views.text(w, "team"));
        if (w.hasNonNull("clusterArn")) field(out, "Cluster:", Views.text(w, "clusterArn"));
        JsonNode annotations = w.path("annotations");
        if (annotations.isObject() && !annotations.isEmpty()) {
            out.println("Annotations:");
            // A team writes its annotations: escaped, so one cannot forge the lines after it or drive the terminal.
            annotations.fields().forEachRemaining(e -> out.println("  " + SafeText.escape(e.getKey()) + ": "
                    + SafeText.escape(e.getValue().asText())));
        }
        out.println("Status:");
        field(out, "  State:", Views.text(w, "state"));
        field(out, "  Reason:", Views.text(w, "reason"));
        field(out, "  Message:", Views.text(w, "message"));
        String maxRetry = Views.text(annotations, dev.taskgov.core.events.WorkloadSubmitted.MAX_RETRY_ANNOTATION);
        if (maxRetry != null) field(out, "  Retries:", w.path("retries").asInt() + " of " + maxRetry + " (queued again after a failure)");
        JsonNode estimate = w.path("startEstimate");
        if (estimate.isObject()) field(out, "  Start:", Views.text(estimate, "message"));
        field(out, "  Submitted:", when(Views.text(w, "submittedAt")));
        // the time the submitter sent: information only, shown only when it sent one
        String clientTime = Views.text(w, "clientSubmittedAt");
        if (clientTime != null) field(out, "  Client:", when(clientTime) + " (the time the submitter sent; the queue orders by Submitted)");
        field(out, "  Admitted:", when(Views.text(w, "admittedAt")));
        String borrowed = Views.amounts(w.get("borrowed"));
        field(out, "  Borrowed:", borrowed == null ? "nothing (within the team's nominal quota)" : borrowed);
        JsonNode placement = w.path("placement");
        if (placement.isArray() && !placement.isEmpty()) {
            out.println("  Placement:");
            for (JsonNode p : placement) out.println("    " + SafeText.escape(Views.placement(p)));
        } else {
            field(out, "  Placement:", null);
        }
        out.println("Events:");
        JsonNode history = w.path("history");
        if (!history.isArray() || history.isEmpty()) {
            out.println("  <none>");
            return;
        }
        // As kubectl describe's events: the age, not the instant (-o wide adds it); messages wrapped under their
        // column to fit 120 columns, nothing cut (-o wide: one line each).
        Table t = (output.wide() ? new Table("  TIME", "AGE", "STATE", "REASON", "MESSAGE") : new Table("  AGE", "STATE", "REASON", "MESSAGE"))
                .wrapped("MESSAGE").whole(output.wide());
        for (JsonNode h : history) {
            List<Object> row = new ArrayList<>();
            if (output.wide()) row.add("  " + Views.text(h, "time"));
            row.addAll(Arrays.asList((output.wide() ? "" : "  ") + Views.eventAge(h, clock), Views.text(h, "state"),
                    Views.text(h, "reason"), Views.text(h, "message")));
            t.row(row.toArray());
        }
        t.print(out);
    }

    private String when(String iso) {
        return iso == null ? null : iso + " (" + Views.age(iso, clock) + " ago)";
    }

    /** A label and its value; a value too long for a 120-column line continues under itself (-o wide: one line). */
    private void field(PrintWriter out, String label, String value) {
        String shown = value == null ? "<none>" : SafeText.escape(value);
        if (output.wide() || LABEL + shown.length() <= Table.WIDTH) {
            out.println(String.format("%-" + LABEL + "s%s", label, shown));
            return;
        }
        List<String> lines = Table.wrap(shown, Table.WIDTH - LABEL);
        for (int i = 0; i < lines.size(); i++) out.println(String.format("%-" + LABEL + "s%s", i == 0 ? label : "", lines.get(i)));
    }

    /** The width of a field's label column. */
    private static final int LABEL = 14;
}
