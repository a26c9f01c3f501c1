package dev.taskgov.service.support;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deciders' assignor: partition number i of every input topic to one member, balanced, sticky, and
 * cooperative (never straight from one live owner to another).
 */
class ClusterPartitionAssignorTest {

    private static final List<String> TOPICS = List.of("submitted", "finished", "preempted");
    private final ClusterPartitionAssignor assignor = new ClusterPartitionAssignor();

    private static Cluster cluster(int partitions) {
        Node node = new Node(1, "localhost", 9092);
        List<PartitionInfo> infos = new ArrayList<>();
        for (String t : TOPICS) {
            for (int p = 0; p < partitions; p++) infos.add(new PartitionInfo(t, p, node, new Node[]{node}, new Node[]{node}));
        }
        return new Cluster("c", List.of(node), infos, Set.of(), Set.of());
    }

    private static Subscription member(Set<Integer> owned) {
        List<TopicPartition> parts = new ArrayList<>();
        for (String t : TOPICS) owned.forEach(p -> parts.add(new TopicPartition(t, p)));
        return new Subscription(TOPICS, null, parts);
    }

    private Map<String, Set<Integer>> assign(int partitions, Map<String, Set<Integer>> owned) {
        Map<String, Subscription> subs = new HashMap<>();
        owned.forEach((m, ps) -> subs.put(m, member(ps)));
        GroupAssignment a = assignor.assign(cluster(partitions), new GroupSubscription(subs));
        Map<String, Set<Integer>> out = new HashMap<>();
        a.groupAssignment().forEach((m, as) -> {
            Set<Integer> numbers = new TreeSet<>();
            for (String t : TOPICS) {
                Set<Integer> ofTopic = new TreeSet<>();
                as.partitions().stream().filter(tp -> tp.topic().equals(t)).forEach(tp -> ofTopic.add(tp.partition()));
                if (numbers.isEmpty()) numbers.addAll(ofTopic);
                assertThat(ofTopic).as("partition i of every topic goes to one member").isEqualTo(numbers);
            }
            out.put(m, numbers);
        });
        return out;
    }

    @Test
    void threeNewMembersShareEightPartitionsThreeThreeTwoEachNumberOnce() {
        Map<String, Set<Integer>> a = assign(8, Map.of("a", Set.of(), "b", Set.of(), "c", Set.of()));
        assertThat(a.values()).extracting(Set::size).containsExactlyInAnyOrder(3, 3, 2);
        Set<Integer> all = new TreeSet<>();
        a.values().forEach(all::addAll);
        assertThat(all).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void aDeadMembersPartitionsMoveAtOnceAndTheOthersKeepTheirs() {
        Map<String, Set<Integer>> a = assign(8, Map.of("a", Set.of(0, 1, 2), "b", Set.of(3, 4, 5)));
        assertThat(a.get("a")).containsAll(Set.of(0, 1, 2));
        assertThat(a.get("b")).containsAll(Set.of(3, 4, 5));
        Set<Integer> moved = new TreeSet<>(a.get("a"));
        moved.addAll(a.get("b"));
        assertThat(moved).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void aJoiningMemberGetsPartitionsOnlyAfterTheirOwnerGaveThemUp() {
        Map<String, Set<Integer>> first = assign(8, Map.of("a", Set.of(0, 1, 2, 3, 4, 5, 6, 7), "b", Set.of()));
        assertThat(first.get("b")).as("nothing straight from a live owner").isEmpty();
        assertThat(first.get("a")).hasSize(4);
        Map<String, Set<Integer>> second = assign(8, Map.of("a", first.get("a"), "b", Set.of()));
        assertThat(second.get("a")).isEqualTo(first.get("a"));
        assertThat(second.get("b")).hasSize(4).doesNotContainAnyElementsOf(first.get("a"));
    }

    @Test
    void onePartitionHasOneOwnerWhichKeepsItWhenAStandbyJoins() {
        Map<String, Set<Integer>> a = assign(1, Map.of("a", Set.of(), "b", Set.of(0)));
        assertThat(a.get("b")).containsExactly(0);
        assertThat(a.get("a")).isEmpty();
    }
}
