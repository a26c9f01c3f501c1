package dev.taskgov.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.model.WorkloadState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * Each team's own submission topic (docs/security.md): only the team's principal may write it (the broker's ACLs,
 * test-support's BrokerAuthorizationTest), and the decider, subscribed by pattern, takes a record there only for
 * that team, including from a team topic created after it started.
 */
class TeamSubmissionTopicsTest {

    @Test
    void aTeamsTopicCarriesOnlyThatTeamsWorkloadsAndANewTeamsTopicJoins() throws Exception {
        try (LiveCluster c = new LiveCluster("team-topics"); Admin admin = Admin.create(c.client)) {
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            String teamA = KafkaAccess.submissionTopic(c.topics.submitted(), "team-a");
            String teamB = KafkaAccess.submissionTopic(c.topics.submitted(), "team-b");
            admin.createTopics(List.of(new NewTopic(teamA, TopicCatalog.WORKLOAD_PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            Instant at = Instant.parse("2026-12-01T10:00:00Z");

            c.publish(teamA, "own", Fixtures.workload("own", "team-a", 1, at), true);
            c.publish(teamA, "forged", Fixtures.workload("forged", "team-b", 1, at), true);
            admin.createTopics(List.of(new NewTopic(teamB, TopicCatalog.WORKLOAD_PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
            c.publish(teamB, "late", Fixtures.workload("late", "team-b", 1, at), true);

            await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
                assertThat(d.isDecider()).isTrue();
                assertThat(d.reads().workload("own")).hasValueSatisfying(w -> assertThat(w.state()).isEqualTo(WorkloadState.Admitted));
                assertThat(d.reads().workload("late")).hasValueSatisfying(w -> assertThat(w.state()).isEqualTo(WorkloadState.Admitted));
            });
            // The forged one may first be forwarded to its cluster's partition of the topic, and refused there.
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                List<DeadLetter> letters = c.readAll(c.topics.deadLetter()).stream()
                        .map(r -> EventCodec.read(r.value(), DeadLetter.class)).toList();
                assertThat(letters).singleElement().satisfies(l -> {
                    assertThat(l.key()).isEqualTo("forged");
                    assertThat(l.topic()).isEqualTo(teamA);
                    assertThat(l.reason()).contains("must be for team team-a", "hyperpod-ns-team-b");
                });
            });
            assertThat(d.reads().workload("forged")).isEmpty();
        }
    }
}
