package dev.taskgov.admission;

import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.model.WorkloadState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What reaches the decider through Kafka, past every HTTP door, is in the audit trail: each submission (with the
 * team whose own topic carried it, or the shared topic's writers) and each finish, in the decision's transaction,
 * with the record's coordinates as event id (so a retried transaction records it once).
 */
class DeciderAuditTest {

    @Test
    void teamSubmissionsAndFinishesReadFromKafkaAreRecordedWithWhoWroteTheirTopic() throws Exception {
        try (LiveCluster c = new LiveCluster("decider-audit"); Admin admin = Admin.create(c.client)) {
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            String teamA = KafkaAccess.submissionTopic(c.topics.submitted(), "team-a");
            String audit = c.id + "." + TopicCatalog.Names.AUDIT;
            admin.createTopics(List.of(new NewTopic(teamA, TopicCatalog.WORKLOAD_PARTITIONS, (short) 1),
                    new NewTopic(audit, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
            AdmissionDecider.Settings base = c.deciderSettings();
            AdmissionDecider d = new AdmissionDecider(new AdmissionDecider.Settings(base.clientProps(), base.topics(),
                    base.groupId(), base.transactionalIdPrefix(), base.source(), base.pollTimeout(), base.rebuildTimeout(),
                    base.createTopics(), base.membership(), base.turns(), audit), Clock.systemUTC(), AdmissionObserver.NONE);
            d.start();
            try {
                Instant at = Instant.parse("2026-12-01T10:00:00Z");
                c.publish(teamA, "audited-own", Fixtures.workload("audited-own", "team-a", 1, at), true);
                c.publish(teamA, "audited-forged", Fixtures.workload("audited-forged", "team-b", 1, at), true);
                c.publish(c.topics.submitted(), "audited-shared", Fixtures.workload("audited-shared", "team-b", 1, at), true);
                await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> assertThat(d.isDecider() ? d.reads().workload("audited-own") : java.util.Optional.empty())
                        .hasValueSatisfying(w -> assertThat(w.state()).isEqualTo(WorkloadState.Admitted)));
                c.publish(c.topics.finished(), "audited-own", new WorkloadFinished("audited-own", at.plusSeconds(60),
                        WorkloadFinished.Outcome.Succeeded), true);
                c.publish(c.topics.finished(), "nobody", new WorkloadFinished("nobody", at.plusSeconds(60),
                        WorkloadFinished.Outcome.Succeeded), true);

                await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
                    List<AuditEvent> events = c.readAll(audit).stream()
                            .map(r -> AuditEvent.fromJson(new String(r.value(), StandardCharsets.UTF_8))).toList();
                    assertThat(events).anySatisfy(e -> {
                        assertThat(e.operation()).isEqualTo("SubmitWorkload");
                        assertThat(e.target()).isEqualTo("workload audited-own");
                        assertThat(e.principal()).isEqualTo(KafkaAccess.teamPrincipal("team-a"));
                        assertThat(e.outcome()).isEqualTo(AuditEvent.ALLOWED);
                        assertThat(e.service()).isEqualTo("admission-service");
                        assertThat(e.eventId()).startsWith("kafka:" + teamA + "-");
                    });
                    assertThat(events).anySatisfy(e -> {
                        assertThat(e.target()).isEqualTo("workload audited-forged");
                        assertThat(e.principal()).isEqualTo(KafkaAccess.teamPrincipal("team-a"));
                        assertThat(e.outcome()).startsWith("Refused: AccessDeniedException: namespace");
                    });
                    assertThat(events).anySatisfy(e -> {
                        assertThat(e.target()).isEqualTo("workload audited-shared");
                        assertThat(e.principal()).startsWith("kafka:" + c.topics.submitted());
                    });
                    assertThat(events).anySatisfy(e -> {
                        assertThat(e.operation()).isEqualTo("FinishWorkload");
                        assertThat(e.target()).isEqualTo("workload audited-own");
                        assertThat(e.principal()).startsWith("kafka:" + c.topics.finished());
                        assertThat(e.outcome()).isEqualTo("Allowed (Succeeded)");
                    });
                    assertThat(events).anySatisfy(e -> {
                        assertThat(e.operation()).isEqualTo("FinishWorkload");
                        assertThat(e.target()).isEqualTo("workload nobody");
                        assertThat(e.outcome()).isEqualTo("Unchanged: no such workload");
                    });
                    // One record per input record, however often a transaction was retried.
                    assertThat(events.stream().map(AuditEvent::eventId).distinct().count()).isEqualTo(events.size());
                });
            } finally {
                d.close();
            }
        }
    }
}
