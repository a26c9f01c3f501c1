package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.SafeText;
import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.testsupport.DatabaseAddress;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedPostgres;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit trail cannot be forged, emptied or bypassed from a request: every control character (and ESC sequences)
 * in every recorded field of quota-service's doors is stored escaped and the refusal is recorded; the hash chain stays
 * whole under concurrent writers, and {@code GET /audit/verify} names an edited and a deleted row (changed here as a
 * database superuser would, past the append-only triggers).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AuditTrailIntegrityTest {

    @TestHTTPResource("/")
    URL service;

    /** Every C0 control character, DEL, and escape sequences that clear the screen, colour text or set a title. */
    static Map<String, String> hostile() {
        Map<String, String> all = new LinkedHashMap<>();
        for (char c = 0; c < 0x20; c++) all.put(String.format("0x%02X", (int) c), String.valueOf(c));
        all.put("0x7F", "\u007F");
        all.put("ESC clear", "\u001B[2J\u001B[H");
        all.put("ESC colour", "\u001B[31mred\u001B[0m");
        all.put("ESC title", "\u001B]0;owned\u0007");
        all.put("forged line", "x\nadmin   quota-service   DeleteComputeQuota   q-1   Allowed");
        return all;
    }

    private URI uri(String pathAndQuery) {
        return URI.create("http://localhost:" + service.getPort() + pathAndQuery);
    }

    private static String pct(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Test
    void everyControlCharacterInEveryRecordedFieldIsRecordedEscaped() throws Exception {
        TestCredentials.Key admin = QuotaTestKit.admin();
        TestCredentials.Key viewer = TestCredentials.inDatabase("auditor", "viewer");
        List<String> problems = new ArrayList<>();
        Map<String, String> markers = new LinkedHashMap<>();
        int i = 0;
        for (Map.Entry<String, String> h : hostile().entrySet()) {
            String payload = h.getValue();
            String tag = "k" + (i++) + UUID.randomUUID().toString().substring(0, 8);
            // Path, unsigned: refused before any key is known.
            String m = tag + "a" + payload;
            expect4xx(problems, h.getKey() + " path unsigned",
                    TestCredentials.send(null, "DELETE", uri("/credentials/" + pct(m)), null));
            markers.put(h.getKey() + " path unsigned", tag + "a");
            // Path, signed by the admin: an id that is not an access key id is a 400, recorded (it answered 500).
            m = tag + "b" + payload;
            expect4xx(problems, h.getKey() + " path admin",
                    TestCredentials.send(admin, "DELETE", uri("/credentials/" + pct(m)), null));
            markers.put(h.getKey() + " path admin", tag + "b");
            // Query: a viewer's since= that is no instant is a 400, recorded with the value it refused.
            m = tag + "g" + payload;
            expect4xx(problems, h.getKey() + " query",
                    TestCredentials.send(viewer, "GET", uri("/audit?since=" + pct(m)), null));
            markers.put(h.getKey() + " query", tag + "g");
            // Body field: the target a refused change names (a viewer may not change quotas).
            m = tag + "c" + payload;
            expect4xx(problems, h.getKey() + " body",
                    QuotaTestKit.wire(service, viewer, "SageMaker.DeleteComputeQuota", JSON.createObjectNode()
                            .put("ComputeQuotaId", m).toString()));
            markers.put(h.getKey() + " body", tag + "c");
            m = tag + "d" + payload;
            expect4xx(problems, h.getKey() + " body create unsigned",
                    QuotaTestKit.wire(service, null, "SageMaker.CreateComputeQuota", JSON.createObjectNode()
                            .put("Name", m).toString()));
            markers.put(h.getKey() + " body create unsigned", tag + "d");
            // Headers that are recorded: X-Amz-Target (the operation) and the access key id an Authorization names.
            // Sent raw: an HTTP client refuses such headers. The server's HTTP parser (Netty) answers 400 itself to a
            // header value holding a control character other than tab, before any door: no service runs, no identity
            // is claimed, nothing changes, so there is nothing a door could record; such answers are told apart by
            // having no AWS error type. Whatever reaches a door is recorded.
            m = tag + "e" + payload;
            String answer = raw("POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: SageMaker." + m
                    + "\r\nContent-Type: application/x-amz-json-1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
            classify(problems, markers, h.getKey() + " header target", tag + "e", answer);
            m = tag + "f" + payload;
            answer = raw("POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: SageMaker.ListComputeQuotas"
                    + "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=" + m + "/20261204/us-east-1/sagemaker/aws4_request, "
                    + "SignedHeaders=host;x-amz-date, Signature=00\r\nX-Amz-Date: 20261204T000000Z"
                    + "\r\nContent-Type: application/x-amz-json-1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
            classify(problems, markers, h.getKey() + " header key id", tag + "f", answer);
        }
        DatabaseAddress db = SharedPostgres.address();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             PreparedStatement find = c.prepareStatement("select principal, operation, target, outcome from audit_event "
                     + "where operation like ?1 or target like ?1 or outcome like ?1".replace("?1", "?"))) {
            for (Map.Entry<String, String> marker : markers.entrySet()) {
                String like = "%" + marker.getValue() + "%";
                find.setString(1, like);
                find.setString(2, like);
                find.setString(3, like);
                try (ResultSet rs = find.executeQuery()) {
                    if (!rs.next()) {
                        problems.add(marker.getKey() + ": no audit record");
                        continue;
                    }
                    if (marker.getKey().contains("body") && !String.valueOf(rs.getString(3)).contains(marker.getValue())) {
                        problems.add(marker.getKey() + ": the refused change's record does not name its target: " + rs.getString(3));
                    }
                    for (int col = 1; col <= 4; col++) {
                        if (!SafeText.isSafe(rs.getString(col))) {
                            problems.add(marker.getKey() + ": stored unescaped: " + SafeText.escape(rs.getString(col)));
                        }
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
        // Tab reaches the doors in a header and is recorded; every other control character in a header is the parser's.
        assertThat(markers).containsKeys("0x09 header target", "0x09 header key id");
        assertThat(parserRefused).doesNotContain("0x09 header target", "0x09 header key id");
        // The answer of GET /audit carries them escaped too (what `taskgov audit` prints).
        JsonNode events = JSON.readTree(TestCredentials.send(admin, "GET", uri("/audit"), null).body()).path("events");
        for (JsonNode e : events) {
            e.fields().forEachRemaining(f -> {
                if (f.getValue().isTextual()) assertThat(SafeText.isSafe(f.getValue().asText())).as(f.getKey()).isTrue();
            });
        }
        assertThat(verify(admin).path("intact").asBoolean()).as(verify(admin).toString()).isTrue();
    }

    /** A raw answer: refused at a door (then its record is looked for) or by the HTTP parser before any door. */
    private void classify(List<String> problems, Map<String, String> markers, String what, String marker, String answer) {
        int status = Integer.parseInt(answer.substring(9, 12));
        if (status < 400 || status >= 500) {
            problems.add(what + ": status " + status);
        } else if (answer.toLowerCase(java.util.Locale.ROOT).contains("x-amzn-errortype")) {
            markers.put(what, marker);
        } else {
            parserRefused.add(what);
        }
    }

    private final List<String> parserRefused = new ArrayList<>();

    private static void expect4xx(List<String> problems, String what, HttpResponse<String> r) {
        if (r.statusCode() < 400 || r.statusCode() >= 500) problems.add(what + ": status " + r.statusCode() + " " + r.body());
    }

    private String raw(String request) throws Exception {
        try (Socket s = new Socket("localhost", service.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) > 0) {
                got.write(buf, 0, n);
                if (got.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) break;
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private JsonNode verify(TestCredentials.Key key) {
        HttpResponse<String> r = TestCredentials.send(key, "GET", uri("/audit/verify"), null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        try {
            return JSON.readTree(r.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode chain(JsonNode verify, String chain) {
        for (JsonNode c : verify.path("chains")) if (c.path("chain").asText().equals(chain)) return c;
        throw new AssertionError("no chain " + chain + " in " + verify);
    }

    @Test
    void aRecordFromTheTopicHoldingNulAndEscapesIsStoredEscapedNotDeadLettered() throws Exception {
        // As a service that did not escape would have written it: JSON carries NUL and ESC as \u0000 and \u001b.
        String id = "raw-" + UUID.randomUUID();
        String json = JSON.createObjectNode().put("eventId", id).put("at", "2026-12-01T10:00:00Z")
                .put("service", "topology-service").put("principal", "anonymous").put("operation", "GetTopology")
                .put("target", "/topology\u0000\nadmin Allowed\u001b[2J").put("outcome", "Refused: x").toString();
        QuotaTestKit.send(Names.AUDIT, id, json);
        DatabaseAddress db = SharedPostgres.address();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).untilAsserted(() -> {
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
                 PreparedStatement ps = c.prepareStatement("select target, chain from audit_event where event_id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("/topology\\x00\\nadmin Allowed\\x1B[2J");
                    assertThat(rs.getString(2)).isEqualTo("topology-service");
                }
            }
        });
    }

    @Test
    void concurrentWritersKeepOneWholeChain() throws Exception {
        TestCredentials.Key admin = QuotaTestKit.admin();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<HttpResponse<String>>> all = new ArrayList<>();
            for (int n = 0; n < 80; n++) {
                String id = "concurrent" + n;
                all.add(pool.submit(() -> TestCredentials.send(n_odd(id) ? null : admin, "DELETE", uri("/credentials/" + id), null)));
            }
            for (Future<HttpResponse<String>> f : all) assertThat(f.get().statusCode()).isBetween(400, 499);
        } finally {
            pool.shutdownNow();
        }
        JsonNode v = verify(admin);
        assertThat(v.path("intact").asBoolean()).as(v.toString()).isTrue();
    }

    private static boolean n_odd(String id) {
        return (id.charAt(id.length() - 1) - '0') % 2 == 1;
    }

    @Test
    void verifyNamesAnEditedRowAndADeletedRow() throws Exception {
        TestCredentials.Key admin = QuotaTestKit.admin();
        for (int n = 0; n < 3; n++) {
            TestCredentials.send(null, "DELETE", uri("/credentials/tamper" + n), null);
        }
        assertThat(verify(admin).path("intact").asBoolean()).isTrue();
        DatabaseAddress app = SharedPostgres.address();
        try (Connection c = DriverManager.getConnection(app.jdbcUrl(), app.username(), app.password());
             Statement st = c.createStatement()) {
            // The service's own role may not even try (it holds no UPDATE or DELETE right on the table).
            assertThat(catchSql(() -> st.executeUpdate("update audit_event set principal = 'x' where target = 'tamper1'")))
                    .contains("permission denied");
            assertThat(catchSql(() -> st.executeUpdate("delete from audit_event where target = 'tamper1'")))
                    .contains("permission denied");
        }
        // The tables' owner, which may: append-only still refuses it, until it disables the triggers as a superuser could.
        DatabaseAddress db = SharedPostgres.owner();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password())) {
            c.setAutoCommit(true);
            // Append-only: an ordinary UPDATE or DELETE is refused.
            try (Statement st = c.createStatement()) {
                assertThat(catchSql(() -> st.executeUpdate("update audit_event set principal = 'x' where target = 'tamper1'")))
                        .contains("append-only");
                assertThat(catchSql(() -> st.executeUpdate("delete from audit_event where target = 'tamper1'")))
                        .contains("append-only");
            }
            String[] row = row(c, "tamper1");
            String eventId = row[0];
            long seq = Long.parseLong(row[1]);
            // The row is deleted below: the consumer must have read the record back first, or it stores it again.
            QuotaTestKit.awaitAuditRecordReadBack(eventId);
            // Edited, as a superuser would (past the triggers).
            try (Statement st = c.createStatement()) {
                st.execute("alter table audit_event disable trigger user");
                try {
                    st.executeUpdate("update audit_event set principal = 'someone-else' where event_id = '" + eventId + "'");
                    JsonNode chain = chain(verify(admin), "quota-service");
                    assertThat(chain.path("intact").asBoolean()).isFalse();
                    assertThat(chain.path("brokenAt").asLong()).isEqualTo(seq);
                    assertThat(chain.path("brokenEventId").asText()).isEqualTo(eventId);
                    assertThat(chain.path("problem").asText()).contains("edited");
                    st.executeUpdate("update audit_event set principal = 'anonymous' where event_id = '" + eventId + "'");
                    assertThat(verify(admin).path("intact").asBoolean()).isTrue();

                    // Deleted, then put back as it was.
                    st.executeUpdate("create temporary table saved as select * from audit_event where event_id = '" + eventId + "'");
                    st.executeUpdate("delete from audit_event where event_id = '" + eventId + "'");
                    chain = chain(verify(admin), "quota-service");
                    assertThat(chain.path("intact").asBoolean()).isFalse();
                    assertThat(chain.path("brokenAt").asLong()).isEqualTo(seq);
                    assertThat(chain.path("problem").asText()).contains("#" + seq + " missing (deleted)");
                    st.executeUpdate("insert into audit_event select * from saved");
                    assertThat(verify(admin).path("intact").asBoolean()).isTrue();

                    // A row without a place in a chain is refused even to a superuser (unless the constraint goes too).
                    assertThat(catchSql(() -> st.executeUpdate("insert into audit_event (event_id, at, service, principal, "
                            + "operation, target, outcome) values ('forged-" + UUID.randomUUID() + "', now(), 'quota-service', "
                            + "'admin', 'DeleteComputeQuota', 'q', 'Allowed')"))).contains("audit_event_chained");
                    // Inserted after the last record with a well-formed hash, the head left as it was.
                    String forged = "forged-" + UUID.randomUUID();
                    long next;
                    String prev;
                    try (ResultSet rs = st.executeQuery("select seq, hash from audit_chain_head where chain = 'quota-service'")) {
                        rs.next();
                        next = rs.getLong(1) + 1;
                        prev = rs.getString(2);
                    }
                    String at = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS).toString();
                    String hash = dev.taskgov.core.auth.AuditChain.hash(prev, next, forged, at, "quota-service", "admin",
                            "DeleteComputeQuota", "q", "Allowed", null, null);
                    st.executeUpdate("insert into audit_event (event_id, at, service, principal, operation, target, outcome, "
                            + "chain, seq, prev_hash, hash) values ('" + forged + "', '" + at + "', 'quota-service', 'admin', "
                            + "'DeleteComputeQuota', 'q', 'Allowed', 'quota-service', " + next + ", '" + prev + "', '" + hash + "')");
                    chain = chain(verify(admin), "quota-service");
                    assertThat(chain.path("intact").asBoolean()).isFalse();
                    assertThat(chain.path("problem").asText()).contains("records inserted");
                    st.executeUpdate("delete from audit_event where event_id = '" + forged + "'");
                } finally {
                    st.execute("alter table audit_event enable trigger user");
                }
            }
        }
        assertThat(verify(admin).path("intact").asBoolean()).isTrue();
    }

    private static String[] row(Connection c, String target) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select event_id, seq from audit_event where target = ? order by seq desc")) {
            ps.setString(1, target);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new String[]{rs.getString(1), Long.toString(rs.getLong(2))};
            }
        }
    }

    private interface SqlAction {
        void run() throws SQLException;
    }

    private static String catchSql(SqlAction a) {
        try {
            a.run();
            return "no error";
        } catch (SQLException e) {
            return e.getMessage();
        }
    }
}
