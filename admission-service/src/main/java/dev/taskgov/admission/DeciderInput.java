package dev.taskgov.admission;

import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.events.InputOffsets;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.QuotaChange;
import dev.taskgov.core.events.QuotaRecordTranslator;
import dev.taskgov.core.events.TopologyChange;
import dev.taskgov.core.events.TopologyRecordTranslator;
import dev.taskgov.core.events.Translation;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPodsReady;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.RecordValue;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.function.Function;

/**
 * One record admission reads, decoded once where the loop takes it ({@link #decode}): routing
 * ({@link AdmissionProcessor#home}) and application ({@link AdmissionProcessor#apply}) both dispatch on this value, so
 * a record is parsed once and both read it the same way. A new kind of input is a new case here, in {@link #decode},
 * and in the two dispatches.
 */
public sealed interface DeciderInput {

    /**
     * A submission, on the shared topic ({@code topicTeam} null: only trusted services write it) or on a team's own
     * topic ({@code topicTeam}: only that team's principal may write it, the broker's ACLs), with the cluster
     * admission chooses for it ({@link WorkloadCluster}, as the clusters are when it is decoded: right before it is
     * routed and applied), so routing and application agree on it and choose once.
     */
    record Submitted(WorkloadSubmitted submission, String topicTeam, WorkloadCluster.Result where) implements DeciderInput {
    }

    /** A workload's end (succeeded or failed) as its runner reports it. */
    record Finished(WorkloadFinished finish) implements DeciderInput {
    }

    /**
     * Gang admission's report that every pod of a workload is ready, on the shared readiness topic ({@code topicTeam}
     * null: only trusted services write it) or on a team's own one ({@code topicTeam}: only that team's principal may
     * write it, and it counts only for that team's workloads).
     */
    record PodsReady(WorkloadPodsReady ready, String topicTeam) implements DeciderInput {
    }

    /**
     * A workload evicted, as preemption-service publishes it: a preemption it planned, or an eviction admission
     * decided itself and handed to it to publish (read back, it changes nothing).
     */
    record Preempted(WorkloadPreempted preemption) implements DeciderInput {
    }

    /**
     * A record of the quota topic (a team's quota, a cluster's scheduler config, or their removal), translated by
     * {@link QuotaRecordTranslator} (refused: the field and rule its dead letter names).
     */
    record QuotaChanged(Translation<QuotaChange> translation) implements DeciderInput {
    }

    /**
     * A record of the topology topic (a node, its removal, or a cluster's declaration), translated by
     * {@link TopologyRecordTranslator} (refused: the field and rule its dead letter names).
     */
    record TopologyChanged(Translation<TopologyChange> translation) implements DeciderInput {
    }

    /**
     * A record of the decider's own changelog (a workload's latest record; {@code value} null: it was forgotten), kept
     * as it is until the state settles or a read needs it: most are replaced before anyone does.
     */
    record Changelog(String workloadId, byte[] value) implements DeciderInput {
    }

    /**
     * A changelog record where the decider's loop keeps its input offsets ({@link InputOffsets}): the loop's, not a
     * workload; nothing to apply or restore.
     */
    record LoopOffsets() implements DeciderInput {
    }

    /** A record that cannot be what its topic carries: refused where it is, with the reason. */
    record Unreadable(DeadLetterMetrics.Reason category, String reason) implements DeciderInput {
    }

    /**
     * What {@code record} is, by its topic; never throws for a bad record (a value that does not parse is
     * {@link Unreadable}).
     *
     * @param clusters the cluster a submission goes to (or why none), as admission chooses it now
     */
    static DeciderInput decode(DeciderTopics topics, ConsumerRecord<String, byte[]> record,
                               Function<WorkloadSubmitted, WorkloadCluster.Result> clusters) {
        String topic = record.topic();
        String topicTeam = topic.equals(topics.submitted()) ? null : KafkaAccess.teamOfSubmissionTopic(topics.submitted(), topic);
        if (topic.equals(topics.submitted()) || topicTeam != null) {
            return workload(record, WorkloadSubmitted.class, s -> new Submitted(s, topicTeam, clusters.apply(s)));
        }
        if (topic.equals(topics.finished())) return workload(record, WorkloadFinished.class, Finished::new);
        String readinessTeam = topic.equals(topics.podsReady()) ? null : KafkaAccess.teamOfPodsReadyTopic(topics.podsReady(), topic);
        if (topic.equals(topics.podsReady()) || readinessTeam != null) {
            return workload(record, WorkloadPodsReady.class, r -> new PodsReady(r, readinessTeam));
        }
        if (topic.equals(topics.preempted())) return workload(record, WorkloadPreempted.class, Preempted::new);
        if (topic.equals(topics.quota())) return new QuotaChanged(QuotaRecordTranslator.translate(record.key(), record.value()));
        if (topic.equals(topics.topology())) {
            return new TopologyChanged(TopologyRecordTranslator.translate(record.key(), record.value()));
        }
        if (topic.equals(topics.changelog())) {
            return InputOffsets.isKey(record.key()) ? new LoopOffsets() : new Changelog(record.key(), record.value());
        }
        return new Unreadable(DeadLetterMetrics.Reason.INVALID, "unexpected topic " + topic);
    }

    private static <T> DeciderInput workload(ConsumerRecord<String, byte[]> record, Class<T> type,
                                             Function<T, DeciderInput> input) {
        RecordValue<T> value = RecordValue.of(record, type);
        if (value instanceof RecordValue.Refused<T> refused) return new Unreadable(refused.category(), refused.reason());
        return input.apply(((RecordValue.Read<T>) value).value());
    }
}
