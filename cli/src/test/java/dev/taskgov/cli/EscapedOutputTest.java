package dev.taskgov.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.auth.SafeText;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the CLI prints from a service is escaped: an audit record stored raw (before records were escaped on write),
 * a team's annotation in {@code describe workload}; and {@code taskgov audit verify} prints the chains and fails on a
 * broken one.
 */
class EscapedOutputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    StubServer quota;
    StubServer admission;

    /** Every C0 control character, DEL, C1's CSI and an ESC sequence that clears the screen. */
    private static String hostile() {
        StringBuilder sb = new StringBuilder();
        for (char c = 0; c < 0x20; c++) sb.append('[').append(c).append(']');
        return sb.append("\u007F\u009B\u001B[2J\u001B[H").toString();
    }

    @BeforeEach
    void start() throws Exception {
        ObjectNode events = JSON.createObjectNode();
        ArrayNode list = events.putArray("events");
        ObjectNode e = list.addObject();
        e.put("at", "2026-12-01T10:00:01Z");
        e.put("principal", "anonymous");
        e.put("service", "quota-service");
        e.put("operation", "RevokeAccessKey");
        e.put("target", "/x\n2026-12-01T10:00:02Z   admin   quota-service   DeleteComputeQuota   q-1   Allowed" + hostile());
        e.put("outcome", "Refused: MissingAuthenticationTokenException" + hostile());
        ObjectNode workload = JSON.createObjectNode();
        workload.put("workloadId", "team-a-train-001");
        workload.put("team", "team-a");
        workload.put("state", "Pending");
        workload.putObject("annotations").put("note\u001B[2J", "fine\nStatus:\n  State: Admitted" + hostile());
        quota = new StubServer()
                .answer("GET /audit", 200, JSON.writeValueAsString(events))
                .answer("GET /audit/verify", 200, "{\"intact\":false,\"unchained\":0,\"insertedOutsideChain\":[],\"chains\":["
                        + "{\"chain\":\"admission-service\",\"records\":3,\"headSeq\":3,\"headHash\":\"abcdef0123456789abcdef\",\"intact\":true},"
                        + "{\"chain\":\"quota-service\",\"records\":5,\"headSeq\":6,\"headHash\":\"0123\",\"intact\":false,\"brokenAt\":4,"
                        + "\"brokenEventId\":\"e4\",\"problem\":\"record #4 missing (deleted): #3 is followed by #5 (event e5)\"}]}");
        admission = new StubServer().answer("GET /workloads/team-a-train-001", 200, JSON.writeValueAsString(workload));
    }

    @AfterEach
    void stop() {
        quota.close();
        admission.close();
    }

    @Test
    void auditPrintsEveryFieldEscapedOneRecordPerLine() {
        // -o wide: every field whole (by default long targets and outcomes are cut to fit 120 columns, escaped as well)
        Cli.Result r = Cli.run("audit", "-o", "wide", "--quota-url", quota.url());
        assertThat(r.exit()).as(r.err()).isZero();
        String[] lines = r.out().split("\n");
        assertThat(lines).hasSize(2); // the header and the one record: no forged second line
        assertThat(SafeText.isSafe(r.out().replace("\n", ""))).as(r.out()).isTrue();
        assertThat(r.out()).contains("/x\\n2026-12-01T10:00:02Z", "[\\x00]", "[\\x1B]", "\\x7F", "\\x9B", "\\x1B[2J");
    }

    @Test
    void describeWorkloadPrintsATeamsAnnotationEscaped() {
        Cli.Result r = Cli.run("describe", "workload", "team-a-train-001", "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(SafeText.isSafe(r.out().replace("\n", ""))).as(r.out()).isTrue();
        assertThat(r.out()).contains("note\\x1B[2J: fine\\nStatus:\\n  State: Admitted");
        assertThat(r.out().lines().filter(l -> l.startsWith("Status:"))).hasSize(1);
    }

    @Test
    void auditVerifyPrintsEachChainAndFailsNamingTheFirstBrokenLink() {
        Cli.Result r = Cli.run("audit", "verify", "--quota-url", quota.url());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("admission-service", "intact", "quota-service", "BROKEN at #4: record #4 missing (deleted)");
        assertThat(r.err()).contains("the audit trail is broken");
    }
}
