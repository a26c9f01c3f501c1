package dev.taskgov.service.support;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Shares the partitions of the deciders' input topics among the members of their group, by partition
 * NUMBER: partition {@code i} of every subscribed topic goes to the same member, because partition {@code i}
 * of each workload topic holds the same clusters ({@code ClusterPartitions}) and one decider must see all of
 * a cluster's inputs. Kafka's own cooperative-sticky assignor balances topic-partitions one by one and would
 * split them.
 *
 * <p>Balanced (every member owns {@code floor(n/m)} or {@code ceil(n/m)} partition numbers), sticky (a member
 * keeps what it owns up to its share, so a member joining or leaving moves only the partitions it must) and
 * cooperative: a partition owned by a live member is never handed straight to another; it is first taken away
 * (its owner revokes it and rejoins at once) and given in the next round, so two members never decide for one
 * cluster at the same time, and the members not concerned keep deciding through the rebalance. A dead
 * member's partitions are owned by nobody alive and move in the first round.
 */
public final class ClusterPartitionAssignor implements ConsumerPartitionAssignor {

    @Override
    public List<RebalanceProtocol> supportedProtocols() {
        return List.of(RebalanceProtocol.COOPERATIVE);
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> subs = new TreeMap<>(groupSubscription.groupSubscription());
        Set<String> topics = new TreeSet<>();
        subs.values().forEach(s -> topics.addAll(s.topics()));
        Map<String, Set<Integer>> partitionsByTopic = new TreeMap<>();
        Set<Integer> numbers = new TreeSet<>();
        for (String topic : topics) {
            List<PartitionInfo> infos = metadata.partitionsForTopic(topic);
            Set<Integer> ps = new TreeSet<>();
            if (infos != null) infos.forEach(i -> ps.add(i.partition()));
            partitionsByTopic.put(topic, ps);
            numbers.addAll(ps);
        }
        Map<String, Set<Integer>> owned = new TreeMap<>();
        Map<Integer, String> ownerOf = new HashMap<>();
        subs.forEach((member, s) -> {
            Set<Integer> mine = new TreeSet<>();
            for (TopicPartition tp : s.ownedPartitions()) {
                // Two members claiming one number (a zombie's stale claim) : the first in id order keeps it.
                if (numbers.contains(tp.partition()) && ownerOf.putIfAbsent(tp.partition(), member) == null) mine.add(tp.partition());
                else if (member.equals(ownerOf.get(tp.partition()))) mine.add(tp.partition());
            }
            owned.put(member, mine);
        });
        Map<String, Set<Integer>> target = balance(List.copyOf(subs.keySet()), numbers, owned);
        Map<String, Assignment> out = new HashMap<>();
        for (String member : subs.keySet()) {
            List<TopicPartition> parts = new ArrayList<>();
            for (int n : target.get(member)) {
                String previous = ownerOf.get(n);
                if (previous != null && !previous.equals(member)) continue; // given next round, once revoked
                for (String topic : subs.get(member).topics()) {
                    if (partitionsByTopic.getOrDefault(topic, Set.of()).contains(n)) parts.add(new TopicPartition(topic, n));
                }
            }
            out.put(member, new Assignment(parts));
        }
        return new GroupAssignment(out);
    }

    /** The target: each member keeps what it owns up to its share; the rest fills the members below theirs. */
    static Map<String, Set<Integer>> balance(List<String> members, Set<Integer> numbers, Map<String, Set<Integer>> owned) {
        Map<String, Set<Integer>> target = new TreeMap<>();
        if (members.isEmpty()) return target;
        int base = numbers.size() / members.size();
        int extra = numbers.size() % members.size();
        // The members owning the most get the larger shares, so fewer partitions move.
        List<String> byOwned = new ArrayList<>(members);
        byOwned.sort(Comparator.<String>comparingInt(m -> -owned.getOrDefault(m, Set.of()).size()).thenComparing(m -> m));
        Map<String, Integer> share = new HashMap<>();
        for (int i = 0; i < byOwned.size(); i++) share.put(byOwned.get(i), base + (i < extra ? 1 : 0));
        Set<Integer> free = new TreeSet<>(numbers);
        for (String m : members) {
            Set<Integer> keep = new TreeSet<>();
            for (int n : owned.getOrDefault(m, Set.of())) {
                if (keep.size() < share.get(m)) keep.add(n);
            }
            free.removeAll(keep);
            target.put(m, keep);
        }
        var it = free.iterator();
        for (String m : members) {
            while (target.get(m).size() < share.get(m) && it.hasNext()) target.get(m).add(it.next());
        }
        return target;
    }

    @Override
    public String name() {
        return "taskgov-cluster-partitions";
    }
}
