package dev.taskgov.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;


import dev.taskgov.quota.outbox.OutboxEvent;
import dev.taskgov.quota.outbox.OutboxPublisher;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.DatabaseAddress;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedPostgres;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.DriverManager;

/** A Panache entity round-trips through a real PostgreSQL whose schema Flyway created at start. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class OutboxPersistenceTest {

    @Inject
    OutboxPublisher publisher;

    /** The relay would publish (and stamp) the rows these tests write and read back. */
    @BeforeEach
    void holdTheRelay() {
        publisher.suspend();
    }

    @AfterEach
    void releaseTheRelay() {
        publisher.resume();
    }

    @Test
    void flywayAppliedV1ToARealPostgresql() throws Exception {
        // The migrations' history is the owner role's (Flyway migrates as it); the service's own role may not read it.
        DatabaseAddress owner = SharedPostgres.owner();
        try (var connection = DriverManager.getConnection(owner.jdbcUrl(), owner.username(), owner.password());
             var statement = connection.createStatement();
             var result = statement.executeQuery(
                     "select version, success from flyway_schema_history where version = '1'")) {
            assertThat(connection.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
            assertThat(result.next()).as("flyway_schema_history has version 1").isTrue();
            assertThat(result.getBoolean("success")).isTrue();
        }
    }

    @Test
    void anOutboxEventIsStoredAndReadBack() {
        Instant createdAt = Instant.parse("2026-11-30T10:00:00.123456Z");
        Long id = QuarkusTransaction.requiringNew().call(() -> {
            OutboxEvent event = OutboxEvent.of("taskgov.quota", "team-a", "{\"team\":\"team-a\"}", createdAt);
            event.persist();
            return event.id;
        });

        OutboxEvent stored = QuarkusTransaction.requiringNew().call(() -> OutboxEvent.findById(id));

        assertThat(stored.topic).isEqualTo("taskgov.quota");
        assertThat(stored.recordKey).isEqualTo("team-a");
        assertThat(stored.payload).isEqualTo("{\"team\":\"team-a\"}");
        assertThat(stored.createdAt).isEqualTo(createdAt.truncatedTo(ChronoUnit.MICROS));
        assertThat(stored.publishedAt).isNull();
    }

    @Test
    @Transactional
    void unpublishedListsOnlyRecordsWithoutPublishedAt() {
        OutboxEvent published = OutboxEvent.of("taskgov.quota", "team-b", "{}", Instant.parse("2026-11-30T10:00:01Z"));
        published.publishedAt = Instant.parse("2026-11-30T10:00:02Z");
        published.persist();
        OutboxEvent pending = OutboxEvent.of("taskgov.quota", "team-c", "{}", Instant.parse("2026-11-30T10:00:03Z"));
        pending.persist();

        assertThat(OutboxEvent.unpublished(1000)).extracting(event -> event.recordKey)
                .contains("team-c")
                .doesNotContain("team-b");
    }
}
