package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.SafeText;
import picocli.CommandLine.Command;

/**
 * {@code taskgov audit verify}: has quota-service walk every service's audit hash chain and prints, per chain, its
 * length and head or its first broken link; exit code 1 when any link is broken (so a cron job or CI can alarm).
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check the audit trail's hash chains (one per service) and name the first broken link: an edited, "
                + "deleted or inserted record. Exit code 1 when one is broken.")
public class AuditVerifyCommand extends AnswerCommand {

    @Override
    protected int run() {
        JsonNode v = endpoints.quotaHttp().get("/audit/verify");
        boolean intact = v.path("intact").asBoolean(false);
        if (printedAsData(v)) return intact ? 0 : CliException.FAILED;
        Table t = new Table("CHAIN", "RECORDS", "HEAD", "STATUS");
        for (JsonNode c : v.path("chains")) {
            String head = "#" + c.path("headSeq").asLong() + " " + c.path("headHash").asText("").substring(0,
                    Math.min(16, c.path("headHash").asText("").length()));
            t.row(c.path("chain").asText(), c.path("records").asLong(), head,
                    c.path("intact").asBoolean() ? "intact" : "BROKEN at #" + c.path("brokenAt").asLong() + ": " + c.path("problem").asText());
        }
        if (t.isEmpty()) out().println("No audit chains yet.");
        else t.print(out());
        long unchained = v.path("unchained").asLong();
        if (unchained > 0) {
            out().println(unchained + " record(s) from before the chain existed are not covered by it.");
        }
        for (JsonNode id : v.path("insertedOutsideChain")) {
            out().println("BROKEN: record " + SafeText.escape(id.asText()) + " was inserted outside any chain");
        }
        if (intact) {
            out().println("Audit trail intact. Keep the heads above somewhere else: a later verify against them also "
                    + "catches a chain rewritten from its first record.");
            return 0;
        }
        err().println("error: the audit trail is broken (see above)");
        return CliException.FAILED;
    }
}
