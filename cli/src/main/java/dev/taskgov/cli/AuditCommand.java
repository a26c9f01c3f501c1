package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.StringJoiner;

/**
 * {@code taskgov audit}: who did what (changes, HTTP submissions, refused accesses), from quota-service's store;
 * {@code taskgov audit verify} checks its hash chains.
 */
@Command(name = "audit", mixinStandardHelpOptions = true, subcommands = AuditVerifyCommand.class,
        description = "The audit trail: principal, time, operation, target, outcome; admins and viewers. Every field is "
                + "printed escaped (control characters as \\n, \\x1B, ...), so no record can forge or hide a line.")
public class AuditCommand extends AnswerCommand {

    @Option(names = "--since", paramLabel = "TIME|DURATION",
            description = "Only records at or after this instant (2026-12-01T10:00:00Z) or this long ago (90s, 15m, 2h).")
    String since;

    @Option(names = "--principal", description = "Only this principal's records (anonymous = requests that proved no key).")
    String principal;

    @Override
    protected int run() {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        if (since != null) query.add("since=" + encode(sinceInstant().toString()));
        if (principal != null) query.add("principal=" + encode(principal));
        JsonNode events = endpoints.quotaHttp().get("/audit" + query);
        if (printedAsData(events)) return 0;
        // By default a line fits 120 columns: the time to the second, long principals (a Kafka topic's, described),
        // targets and outcomes cut; -o wide prints every field whole.
        Table t = new Table("TIME", "PRINCIPAL", "SERVICE", "OPERATION", "TARGET", "OUTCOME").cut("PRINCIPAL", "TARGET", "OUTCOME")
                .whole(output.wide());
        for (JsonNode e : events.path("events")) {
            t.row(output.wide() ? e.path("at").asText() : toTheSecond(e.path("at").asText()), e.path("principal").asText(),
                    e.path("service").asText(), e.path("operation").asText(), e.path("target").asText(""), e.path("outcome").asText());
        }
        if (t.isEmpty()) err().println("No audit records found.");
        else t.print(out());
        return 0;
    }

    /** An instant as recorded, to the second ("2026-12-05T04:38:30Z"); anything else as it is. */
    static String toTheSecond(String at) {
        try {
            return Instant.parse(at).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        } catch (java.time.format.DateTimeParseException e) {
            return at;
        }
    }

    private Instant sinceInstant() {
        try {
            return Instant.parse(since);
        } catch (java.time.format.DateTimeParseException e) {
            try {
                return Instant.now().minus(DemoCommand.parseDuration(since));
            } catch (CliException notDuration) {
                throw CliException.invalid("--since: '" + since + "' is neither an instant (2026-12-01T10:00:00Z) nor a duration (15m)");
            }
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
