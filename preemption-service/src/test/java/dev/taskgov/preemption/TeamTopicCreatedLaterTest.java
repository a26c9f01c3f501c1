package dev.taskgov.preemption;

import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A team's submission topic created after the decider started (a team created moments ago): its admitted workloads
 * are in the very next plan, not only after the decider's next unasked look for new topics, which comes seconds later.
 */
class TeamTopicCreatedLaterTest {

    @Test
    void theAdmittedWorkloadsOfATeamWhoseTopicIsNewAreVictimsOfTheNextPlan() throws Exception {
        try (TestCluster cluster = new TestCluster("team-topic-later")) {
            Fixture fixture = new Fixture(cluster).nodes(2, 1).config(PreemptionDeciderTest.CLASSES, false)
                    .quota("team-b", 2, 50);
            PreemptionDecider decider = cluster.startDecider();

            String teamTopic = KafkaAccess.submissionTopic(cluster.topics.submitted(), "team-b");
            try (Admin admin = Admin.create(cluster.client)) {
                int partitions = admin.describeTopics(List.of(cluster.topics.submitted())).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get(cluster.topics.submitted()).partitions().size();
                admin.createTopics(List.of(new NewTopic(teamTopic, Optional.of(partitions), Optional.empty()))).all().get(30, TimeUnit.SECONDS);
            }
            fixture.submit(teamTopic, "b-low-1", "team-b", "low-priority", 1);
            fixture.admit("b-low-1", "team-b", "n1");
            fixture.submit(teamTopic, "b-low-2", "team-b", "low-priority", 1);
            fixture.admit("b-low-2", "team-b", "n2");
            WorkloadSubmitted high = fixture.submit(teamTopic, "b-high-1", "team-b", "high-priority", 1);
            fixture.requestPreemption(high, 90);
            cluster.awaitHandled(decider);

            assertThat(cluster.readAll(cluster.topics.preempted(), WorkloadPreempted.class))
                    .extracting(WorkloadPreempted::workloadId, WorkloadPreempted::preemptorWorkloadId)
                    .containsExactly(tuple("b-low-2", "b-high-1"));
        }
    }
}
