package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.quota.auth.AuditTrail;
import dev.taskgov.testsupport.DatabaseAddress;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SharedPostgres;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The audit topic's records are stored a poll at a time (one transaction, each chain's head locked once): many records
 * read together land on their service's chain in the order they were written, as one whole chain, and records read
 * again (stored before a crash kept the consumer from committing its offsets) are not stored twice.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AuditTopicBatchTest {

    @TestHTTPResource("/")
    URL service;

    @Inject
    AuditTrail audit;

    @Test
    void manyRecordsReadTogetherAreStoredInTheirOrderOnOneWholeChain() throws Exception {
        String chain = "batch-" + UUID.randomUUID().toString().substring(0, 8);
        List<AuditEvent> events = decisions(chain, 1500);
        // One hostile target among them: escaped on the way in, as every record is.
        events.set(700, new AuditEvent(events.get(700).eventId(), events.get(700).at(), chain, "team.team-a",
                "SubmitWorkload", "workload x\n\u001B[2Jforged", AuditEvent.ALLOWED, null, null));
        publish(events);

        await().atMost(Duration.ofMinutes(2)).until(() -> count(chain) == events.size());
        List<String> stored = new ArrayList<>();
        DatabaseAddress db = SharedPostgres.address();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             PreparedStatement ps = c.prepareStatement("select event_id, seq, target from audit_event where chain = ? order by seq")) {
            ps.setString(1, chain);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    stored.add(rs.getString(1));
                    assertThat(rs.getLong(2)).isEqualTo(stored.size());
                    if (stored.size() == 701) assertThat(rs.getString(3)).isEqualTo("workload x\\n\\x1B[2Jforged");
                }
            }
        }
        assertThat(stored).containsExactlyElementsOf(events.stream().map(AuditEvent::eventId).toList());
        JsonNode chainVerified = verifiedChain(chain);
        assertThat(chainVerified.path("intact").asBoolean()).as(chainVerified.toString()).isTrue();
        assertThat(chainVerified.path("records").asLong()).isEqualTo(events.size());
    }

    @Test
    void recordsReadAgainAfterACrashAreNotStoredTwice() throws Exception {
        String chain = "replay-" + UUID.randomUUID().toString().substring(0, 8);
        List<AuditEvent> events = decisions(chain, 600);
        List<String> ids = events.stream().map(AuditEvent::eventId).toList();

        // A poll's batch is stored, then the consumer stops before committing its offsets: the same batch comes again.
        assertThat(audit.storeFromTopic(events.subList(0, 400))).hasSize(400);
        assertThat(audit.storeFromTopic(events.subList(0, 400))).isEmpty();
        // A batch holding some stored records, new ones, and one new record twice (a producer's retry).
        List<AuditEvent> mixed = new ArrayList<>(events.subList(300, 600));
        mixed.add(events.get(450));
        assertThat(audit.storeFromTopic(mixed)).extracting(AuditEvent::eventId).containsExactlyElementsOf(ids.subList(400, 600));
        assertThat(count(chain)).isEqualTo(600);

        // All of them on the topic again, then one new record after them on the same partition: once that is stored,
        // the consumer has read every one before it.
        List<AuditEvent> replay = new ArrayList<>(events);
        replay.add(decisions(chain, 601).get(600));
        publish(replay);
        await().atMost(Duration.ofMinutes(2)).until(() -> count(chain) > 600);
        assertThat(count(chain)).isEqualTo(601);
        JsonNode chainVerified = verifiedChain(chain);
        assertThat(chainVerified.path("intact").asBoolean()).as(chainVerified.toString()).isTrue();
        assertThat(chainVerified.path("headSeq").asLong()).isEqualTo(601);
    }

    @Test
    void aRecordThatCannotBeReadOrStoredIsDeadLetteredAndTheRestOfItsBatchIsStored() throws Exception {
        String chain = "mixed-" + UUID.randomUUID().toString().substring(0, 8);
        List<AuditEvent> events = decisions(chain, 6);
        AuditEvent tooLong = new AuditEvent("kafka:" + chain + "-0@long", Instant.parse("2026-12-01T10:00:00Z"), chain,
                "p".repeat(200), "SubmitWorkload", "workload long", AuditEvent.ALLOWED, null, null);
        List<String[]> records = new ArrayList<>();
        for (int n = 0; n < events.size(); n++) {
            records.add(new String[]{events.get(n).eventId(), events.get(n).toJson()});
            if (n == 1) records.add(new String[]{chain + "-unreadable", "{\"eventId\": \"" + chain + "-unreadable\", "});
            if (n == 3) records.add(new String[]{tooLong.eventId(), tooLong.toJson()});
        }
        publishRaw(records);

        await().atMost(Duration.ofMinutes(2)).until(() -> count(chain) == events.size());
        JsonNode chainVerified = verifiedChain(chain);
        assertThat(chainVerified.path("intact").asBoolean()).as(chainVerified.toString()).isTrue();
        assertThat(chainVerified.path("records").asLong()).isEqualTo(events.size());
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
            List<JsonNode> letters = new ArrayList<>();
            for (var r : QuotaTestKit.readTopic(Names.DEADLETTER)) {
                JsonNode letter = JSON.readTree(r.value());
                if (letter.path("topic").asText().equals(Names.AUDIT) && letter.path("value").asText().contains(chain)) {
                    letters.add(letter);
                }
            }
            assertThat(letters).hasSize(2);
            assertThat(letters).anySatisfy(l -> assertThat(l.path("reason").asText()).startsWith("audit record: "));
            assertThat(letters).anySatisfy(l -> assertThat(l.path("reason").asText())
                    .isEqualTo("principal: an audit record's principal has at most 128 characters, this one 200"));
        });
    }

    /** Decisions of the admission decider as it writes them: the input record's coordinates as event id. */
    private static List<AuditEvent> decisions(String chain, int count) {
        Instant at = Instant.parse("2026-12-01T10:00:00Z");
        List<AuditEvent> events = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            events.add(new AuditEvent("kafka:" + chain + "-0@" + n, at.plusMillis(n), chain, "team.team-a",
                    n % 2 == 0 ? "SubmitWorkload" : "FinishWorkload", "workload w-" + (n / 2), AuditEvent.ALLOWED, null, null));
        }
        return events;
    }

    /** Written to one partition of the audit topic, in order, as fast as the producer batches them. */
    private static void publish(List<AuditEvent> events) throws Exception {
        publishRaw(events.stream().map(e -> new String[]{e.eventId(), e.toJson()}).toList());
    }

    /** Keys and values, written to one partition of the audit topic in order. */
    private static void publishRaw(List<String[]> records) throws Exception {
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (String[] r : records) producer.send(new ProducerRecord<>(Names.AUDIT, 0, r[0], r[1]));
            producer.flush();
        }
    }

    private static long count(String chain) throws Exception {
        DatabaseAddress db = SharedPostgres.address();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             PreparedStatement ps = c.prepareStatement("select count(*) from audit_event where chain = ?")) {
            ps.setString(1, chain);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private JsonNode verifiedChain(String chain) throws Exception {
        var r = TestCredentials.send(QuotaTestKit.admin(), "GET",
                URI.create("http://localhost:" + service.getPort() + "/audit/verify"), null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        for (JsonNode c : JSON.readTree(r.body()).path("chains")) if (c.path("chain").asText().equals(chain)) return c;
        throw new AssertionError("no chain " + chain + " in " + r.body());
    }
}
