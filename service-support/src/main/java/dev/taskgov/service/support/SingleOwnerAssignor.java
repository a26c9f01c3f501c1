package dev.taskgov.service.support;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives every partition of every subscribed topic to ONE member of the group, so that one
 * instance decides for the cluster whatever the partition counts are; the others stand by.
 * The current owner keeps ownership across rebalances (it says so in its subscription user
 * data) so that a new standby joining does not force a needless handover; otherwise the member
 * with the smallest id wins.
 *
 * <p>Configure with {@code partition.assignment.strategy} = this class; the loop passes its
 * ownership flag through the consumer config key {@link #OWNER_FLAG}.
 */
public final class SingleOwnerAssignor implements ConsumerPartitionAssignor, Configurable {

    /** Consumer config key holding the {@link AtomicBoolean} that is true while this member decides. */
    public static final String OWNER_FLAG = "taskgov.single.owner.flag";

    private AtomicBoolean owner = new AtomicBoolean(false);

    @Override
    public void configure(Map<String, ?> configs) {
        Object flag = configs.get(OWNER_FLAG);
        if (flag instanceof AtomicBoolean b) owner = b;
    }

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        return ByteBuffer.wrap(new byte[]{(byte) (owner.get() ? 1 : 0)});
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> subs = groupSubscription.groupSubscription();
        String chosen = null;
        for (String member : new TreeSet<>(subs.keySet())) {
            ByteBuffer data = subs.get(member).userData();
            if (data != null && data.remaining() > 0 && data.get(data.position()) == 1) {
                chosen = member;
                break;
            }
        }
        if (chosen == null && !subs.isEmpty()) chosen = new TreeSet<>(subs.keySet()).first();
        Set<String> topics = new TreeSet<>();
        subs.values().forEach(s -> topics.addAll(s.topics()));
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : topics) {
            List<PartitionInfo> infos = metadata.partitionsForTopic(topic);
            infos.forEach(i -> all.add(new TopicPartition(i.topic(), i.partition())));
        }
        Map<String, Assignment> out = new HashMap<>();
        for (String member : subs.keySet()) {
            out.put(member, new Assignment(member.equals(chosen) ? all : List.of()));
        }
        return new GroupAssignment(out);
    }

    @Override
    public String name() {
        return "taskgov-single-owner";
    }
}
