package dev.taskgov.preemption;

import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A decider whose session starts before its topics are in the broker's metadata (a deployment starting together
 * creates them moments before; a just-created topic can be missing from the metadata for a while) learns how many
 * partitions the requests have before it takes any: each partition's owner then holds its own clusters only and
 * writes its decisions to its own partition, where its clusters' records are, in order. (Taking the count as 1 made
 * every owner send its evictions by key hash, spread over the partitions: a cluster's evictions out of order.)
 */
class DeciderStartTest {

    @Test
    void aDeciderStartedBeforeItsTopicsExistDecidesOnTheirRealPartitions() {
        try (TestCluster c = new TestCluster("decider-start", false)) {
            PreemptionDecider decider = c.start(Map.of(), Clock.systemUTC());
            c.createTopics();
            Fixture fixture = new Fixture(c).nodes(4, 1).config(PreemptionDeciderTest.CLASSES, false).quota("team-a", 4, 50);
            for (int i = 1; i <= 4; i++) fixture.running("low-" + i, "team-a", "low-priority", "n" + i);
            await().atMost(Duration.ofMinutes(2)).until(decider::isDecider);
            int partitions = c.endOffsets(c.topics.preemptionRequested()).size();
            assertThat(partitions).isGreaterThan(1);
            assertThat(decider.loop().inputPartitions()).isEqualTo(partitions);

            WorkloadSubmitted h1 = fixture.submit("high-1", "team-a", "high-priority", 2);
            WorkloadSubmitted h2 = fixture.submit("high-2", "team-a", "high-priority", 2);
            fixture.requestPreemption(h1, 90);
            fixture.requestPreemption(h2, 90);
            c.awaitHandled(decider);

            List<ConsumerRecord<String, byte[]>> evictions = c.readAll(c.topics.preempted());
            assertThat(evictions).extracting(ConsumerRecord::partition).containsOnly(c.home(c.topics.preempted()));
            assertThat(c.readAll(c.topics.preempted(), WorkloadPreempted.class)).extracting(WorkloadPreempted::workloadId)
                    .containsExactly("low-4", "low-3", "low-2", "low-1");
            assertThat(decider.processor()).as("the owner of the unnamed cluster's partition").isNotNull();
            assertThat(decider.processorsByPartition()).containsKey(c.home(c.topics.preemptionRequested()))
                    .allSatisfy((n, p) -> assertThat(p.decidesDefaultCluster()).isEqualTo(n == c.home(c.topics.preemptionRequested())));
        }
    }
}
