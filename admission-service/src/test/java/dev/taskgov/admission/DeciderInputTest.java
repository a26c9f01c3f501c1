package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.InputOffsets;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.QuotaRecordTranslator;
import dev.taskgov.core.events.TopologyRecordTranslator;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPodsReady;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What admission makes of each record it reads, decoded once before it is routed and applied: its kind by topic, the
 * submission's team topic and chosen cluster, and for a value that cannot be what its topic carries, the reason its
 * dead letter gives.
 */
class DeciderInputTest {

    static final DeciderTopics TOPICS = DeciderTopics.defaults(TopicCatalog.ADMISSION_CHANGELOG);
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    static RecordOn on(String topic) {
        return new RecordOn(topic);
    }

    /** A record on one topic, built up: key, then value (absent: a tombstone). */
    static final class RecordOn {
        final String topic;
        String key;
        byte[] value;

        RecordOn(String topic) {
            this.topic = topic;
        }

        RecordOn key(String key) {
            this.key = key;
            return this;
        }

        RecordOn json(String json) {
            this.value = json.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        RecordOn event(Object event) {
            this.value = EventCodec.bytes(event);
            return this;
        }

        DeciderInput decoded() {
            return DeciderInput.decode(TOPICS, new ConsumerRecord<>(topic, 0, 0L, key, value),
                    s -> WorkloadCluster.choose(s.clusterArn(), List.of()));
        }
    }

    static Consumer<DeciderInput> unreadable(DeadLetterMetrics.Reason category, String reason) {
        return in -> assertThat(in).isEqualTo(new DeciderInput.Unreadable(category, reason));
    }

    static Stream<Arguments> scenarios() {
        String teamTopic = KafkaAccess.submissionTopic(TOPICS.submitted(), "team-a");
        String teamReadiness = KafkaAccess.podsReadyTopic(TOPICS.podsReady(), "team-a");
        String cluster = "arn:aws:sagemaker:us-east-1:123456789012:cluster/gang";
        return Stream.of(
                Arguments.of("a submission on the shared topic, for the one cluster there is",
                        on(TOPICS.submitted()).key("w-1").event(Fixtures.workload("w-1", "team-a", 1, T0)),
                        (Consumer<DeciderInput>) in -> {
                            DeciderInput.Submitted s = (DeciderInput.Submitted) in;
                            assertThat(s.submission().workloadId()).isEqualTo("w-1");
                            assertThat(s.topicTeam()).isNull();
                            assertThat(s.where()).isEqualTo(new WorkloadCluster.Chosen(ClusterArn.UNNAMED));
                        }),
                Arguments.of("a submission on a team's own topic names the team the broker let write it",
                        on(teamTopic).key("w-2").event(Fixtures.workload("w-2", "team-a", 1, T0)),
                        (Consumer<DeciderInput>) in -> assertThat(((DeciderInput.Submitted) in).topicTeam()).isEqualTo("team-a")),
                Arguments.of("a submission naming a cluster nobody governs carries the refusal of its cluster",
                        on(TOPICS.submitted()).key("w-3")
                                .event(Fixtures.workload("w-3", "team-a", 1, T0).withClusterArn("arn:aws:sagemaker:us-east-1:123456789012:cluster/none")),
                        (Consumer<DeciderInput>) in -> assertThat(((DeciderInput.Submitted) in).where())
                                .isInstanceOf(WorkloadCluster.Refused.class)),
                Arguments.of("a tombstone on the submission topic is no submission",
                        on(TOPICS.submitted()).key("w-4"),
                        unreadable(DeadLetterMetrics.Reason.UNREADABLE,
                                "the record has no value (a tombstone is not a WorkloadSubmitted)")),
                Arguments.of("JSON null on the finish topic is no finish",
                        on(TOPICS.finished()).key("w-5").json("null"),
                        unreadable(DeadLetterMetrics.Reason.UNREADABLE, "the value is JSON null, not a WorkloadFinished")),
                Arguments.of("a finish is read as one",
                        on(TOPICS.finished()).key("w-6").event(new WorkloadFinished("w-6", T0, WorkloadFinished.Outcome.Succeeded)),
                        (Consumer<DeciderInput>) in -> assertThat(((DeciderInput.Finished) in).finish().workloadId()).isEqualTo("w-6")),
                Arguments.of("a readiness report on the shared topic keeps the cluster it names, for routing",
                        on(TOPICS.podsReady()).key("w-9").event(new WorkloadPodsReady("w-9", T0, cluster)),
                        (Consumer<DeciderInput>) in -> {
                            DeciderInput.PodsReady r = (DeciderInput.PodsReady) in;
                            assertThat(r.ready().workloadId()).isEqualTo("w-9");
                            assertThat(r.ready().clusterArn()).isEqualTo(cluster);
                            assertThat(r.topicTeam()).isNull();
                        }),
                Arguments.of("a readiness report on a team's own topic names the team the broker let write it",
                        on(teamReadiness).key("w-10").event(new WorkloadPodsReady("w-10", T0)),
                        (Consumer<DeciderInput>) in -> assertThat(((DeciderInput.PodsReady) in).topicTeam()).isEqualTo("team-a")),
                Arguments.of("a tombstone on the readiness topic is no report",
                        on(TOPICS.podsReady()).key("w-11"),
                        unreadable(DeadLetterMetrics.Reason.UNREADABLE,
                                "the record has no value (a tombstone is not a WorkloadPodsReady)")),
                Arguments.of("a value that is not JSON on the preempted topic says why",
                        on(TOPICS.preempted()).key("w-7").json("{not json"),
                        (Consumer<DeciderInput>) in -> assertThat(((DeciderInput.Unreadable) in).reason())
                                .startsWith("unreadable WorkloadPreempted: ")),
                Arguments.of("a quota record's removal is translated as one",
                        on(TOPICS.quota()).key("team-a"),
                        (Consumer<DeciderInput>) in -> assertThat(((DeciderInput.QuotaChanged) in).translation())
                                .isEqualTo(QuotaRecordTranslator.translate("team-a", null))),
                Arguments.of("a topology record's removal is translated as one",
                        on(TOPICS.topology()).key("node-1"),
                        (Consumer<DeciderInput>) in -> assertThat(((DeciderInput.TopologyChanged) in).translation())
                                .isEqualTo(TopologyRecordTranslator.translate("node-1", null))),
                Arguments.of("a changelog record is kept as it is, a tombstone as a removal",
                        on(TOPICS.changelog()).key("w-8"),
                        (Consumer<DeciderInput>) in -> {
                            DeciderInput.Changelog c = (DeciderInput.Changelog) in;
                            assertThat(c.workloadId()).isEqualTo("w-8");
                            assertThat(c.value()).isNull();
                        }),
                Arguments.of("the loop's input offsets in the changelog are no workload: nothing to apply or restore",
                        on(TOPICS.changelog()).key(new InputOffsets(TOPICS.submitted(), 3, 42).key())
                                .json("{\"topic\":\"" + TOPICS.submitted() + "\",\"partition\":3,\"nextOffset\":42}"),
                        (Consumer<DeciderInput>) in -> assertThat(in).isInstanceOf(DeciderInput.LoopOffsets.class)),
                Arguments.of("a record of a topic admission does not read is refused naming the topic",
                        on("somewhere.else").key("x").json("{}"),
                        unreadable(DeadLetterMetrics.Reason.INVALID, "unexpected topic somewhere.else")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void eachRecordIsDecodedOnceIntoWhatItIs(String name, RecordOn record, Consumer<DeciderInput> expected) {
        expected.accept(record.decoded());
    }
}
