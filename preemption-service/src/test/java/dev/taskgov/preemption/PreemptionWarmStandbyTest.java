package dev.taskgov.preemption;

import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.PartitionScope;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A preemption decider that takes a partition over from its warm standby (it followed the state topics and the
 * partition's changelog while another instance decided, then read only the tail after fencing it) holds what a
 * rebuild from the beginning holds: the same running workloads, the same victims in their grace period, and the
 * room reserved for preemptors, so that repeated requests evict nothing more. A standby opened when a state topic
 * had no partitions yet (just created) reads it once it has.
 */
class PreemptionWarmStandbyTest {

    private static final Map<String, Integer> CLASSES = Map.of("low", 10, "mid", 50, "high", 90);
    private static final Map<String, Duration> GRACES = Map.of("mid", Duration.ofHours(1));

    @Test
    void aTakeoverFromTheWarmStandbyHoldsWhatARebuildHoldsAndEvictsNothingTwice() {
        try (TestCluster c = new TestCluster("preemption-standby")) {
            Fixture f = new Fixture(c).nodes(8, 1).config(CLASSES, false).quota("team-a", 8, 50);
            for (int i = 1; i <= 4; i++) f.running("low-" + i, "team-a", "low-priority", "n" + i);
            for (int i = 5; i <= 8; i++) f.running("mid-" + (i - 4), "team-a", "mid-priority", "n" + i);
            PreemptionDecider first = c.startDecider(GRACES, Clock.systemUTC());
            PreemptionDecider second = c.startDecider(GRACES, Clock.systemUTC());
            int home = c.home(c.topics.preemptionRequested());
            // One decides for the unnamed cluster, the other keeps a warm standby of its partition.
            await().atMost(Duration.ofMinutes(2)).until(() -> first.processor() != null && second.loop().standbyPartitions().contains(home)
                    || second.processor() != null && first.loop().standbyPartitions().contains(home));
            PreemptionDecider active = first.processor() != null ? first : second;
            PreemptionDecider standby = active == first ? second : first;

            // A history: evictions with room reserved (high-1, high-2), victims in their grace period (high-3's), and
            // one preemptor admitted since (its reservation is over).
            WorkloadSubmitted h1 = f.submit("high-1", "team-a", "high-priority", 2);
            WorkloadSubmitted h2 = f.submit("high-2", "team-a", "high-priority", 2);
            WorkloadSubmitted h3 = f.submit("high-3", "team-a", "high-priority", 2);
            f.requestPreemption(h1, 90);
            f.requestPreemption(h2, 90);
            f.requestPreemption(h3, 90);
            awaitHandled(c, active, home);
            f.admit("high-1", "team-a", "n4", "n3");
            List<WorkloadPreempted> before = c.readAll(c.topics.preempted(), WorkloadPreempted.class);
            assertThat(before).extracting(WorkloadPreempted::workloadId).containsExactlyInAnyOrder("low-1", "low-2", "low-3", "low-4");
            assertThat(active.processor().pendingGraces()).extracting(ChangelogRecords.PendingGrace::workloadId)
                    .containsExactlyInAnyOrder("mid-3", "mid-4");
            await().atMost(Duration.ofMinutes(1)).until(() -> standby.loop().standbyPartitions().contains(home));
            long warmBefore = standby.loop().warmTakeovers();

            active.close();
            await().atMost(Duration.ofMinutes(2)).until(() -> standby.isDecider() && standby.processor() != null);

            assertThat(standby.loop().warmTakeovers()).as("taken over from the warm standby, not rebuilt").isGreaterThan(warmBefore);
            PreemptionProcessor taken = standby.processor();
            PreemptionProcessor rebuilt = rebuiltFromTheBeginning(c, new PartitionScope(home, standby.loop().inputPartitions()));
            // The workloads that may be chosen as victims: not the evicted ones, not those already in their grace period.
            assertThat(taken.running()).isEqualTo(rebuilt.running()).containsExactly("high-1", "mid-1", "mid-2");
            assertThat(taken.pendingGraces()).containsExactlyInAnyOrderElementsOf(rebuilt.pendingGraces());
            assertThat(taken.pendingGraces()).extracting(ChangelogRecords.PendingGrace::workloadId).containsExactlyInAnyOrder("mid-3", "mid-4");
            rebuilt.revoked();

            // The room made for high-2 and the victims in grace for high-3 were taken over: asking again evicts nothing.
            f.requestPreemption(h2, 90);
            f.requestPreemption(h3, 90);
            awaitHandled(c, standby, home);
            assertThat(c.readAll(c.topics.preempted(), WorkloadPreempted.class)).hasSameSizeAs(before);
        }
    }

    /** Waits until the decider has committed its work on every request published so far to partition {@code n}. */
    private static void awaitHandled(TestCluster c, PreemptionDecider decider, int n) {
        TopicPartition partition = new TopicPartition(c.topics.preemptionRequested(), n);
        await().atMost(Duration.ofMinutes(2)).until(() -> decider.isDecider()
                && decider.processedOffsets().getOrDefault(partition.toString(), -1L) >= c.endOffsets(c.topics.preemptionRequested()).get(partition));
    }

    /** A processor of the partition built the cold way: the state topics read to their end, then its changelog partition. */
    private static PreemptionProcessor rebuiltFromTheBeginning(TestCluster c, PartitionScope scope) {
        PreemptionProcessor p = new PreemptionProcessor(new PreemptionProcessor.Settings(c.topics, GRACES, Duration.ofMinutes(5)),
                Clock.systemUTC(), PreemptionObserver.NONE, scope);
        p.rebuild(c.client, Duration.ofMinutes(1));
        List<org.apache.kafka.clients.consumer.ConsumerRecord<String, byte[]>> changelog = new ArrayList<>();
        CompactedTopicReader.readAll(c.client, List.of(c.topics.changelog()), Duration.ofMinutes(1), changelog::add);
        changelog.stream().filter(r -> r.partition() == scope.partition()).forEach(r -> p.restoreSide(r, p.decode(r)));
        return p;
    }

    @Test
    void aStandbyOpenedBeforeAStateTopicHasPartitionsReadsItFromItsBeginning() {
        try (TestCluster c = new TestCluster("preemption-standby-late-topic", false)) {
            // Every topic but the finished one, which comes later (as a just-created topic's metadata does).
            dev.taskgov.service.support.Topics.ensure(c.client, c.topics.specs(dev.taskgov.core.events.TopicCatalog.PREEMPTION_CHANGELOG)
                    .stream().filter(s -> !s.name().equals(c.topics.finished())).toList());
            Fixture f = new Fixture(c).nodes(4, 1).config(CLASSES, false).quota("team-a", 4, 50);
            for (int i = 1; i <= 4; i++) f.running("low-" + i, "team-a", "low-priority", "n" + i);
            PartitionScope scope = new PartitionScope(c.home(c.topics.preemptionRequested()),
                    c.endOffsets(c.topics.preemptionRequested()).size());
            PreemptionProcessor standby = new PreemptionProcessor(new PreemptionProcessor.Settings(c.topics, GRACES, Duration.ofMinutes(5)),
                    Clock.systemUTC(), PreemptionObserver.NONE, scope);
            standby.startFollowing(c.client, Duration.ofMinutes(1));

            c.createTopics();
            f.finish("low-2");
            standby.follow(true); // the takeover: to the end of every state topic

            PreemptionProcessor rebuilt = rebuiltFromTheBeginning(c, scope);
            assertThat(standby.running()).isEqualTo(rebuilt.running()).containsExactly("low-1", "low-3", "low-4");
            standby.revoked();
            rebuilt.revoked();
        }
    }
}
