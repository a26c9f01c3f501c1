package dev.taskgov.preemption;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.preemption.RunningWorkload;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The evictions admission-service decides itself without a preemptor (NodeFailure, QuotaRemoved) reach the preempted
 * topic through preemption-service, its only writer: admission hands each one over on the requests topic
 * ({@link EvictionDecided}, its own ce_type) and the decider publishes it once, as admission decided it, and counts it
 * in its view at once. One team, four 1-accelerator nodes, four low-priority workloads running.
 */
class EvictionRelayTest {

    static final Instant EVICTED_AT = Instant.parse("2026-11-30T11:00:00Z");

    TestCluster cluster;
    Fixture fixture;

    @BeforeEach
    void setUp(TestInfo info) {
        cluster = new TestCluster(info.getTestMethod().orElseThrow().getName());
        fixture = new Fixture(cluster).nodes(4, 1).config(Map.of("low", 10, "high", 90), false).quota("team-a", 4, 50);
        for (int i = 1; i <= 4; i++) fixture.running("low-" + i, "team-a", "low-priority", "n" + i);
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    /** As admission-service hands one over: keyed by the workload, its ce_id the workload record's version. */
    private void relay(EvictionDecided eviction, String ceId) {
        cluster.publishRaw(cluster.topics.preemptionRequested(), eviction.workloadId(), EventCodec.bytes(eviction), EvictionDecided.TYPE, ceId);
    }

    /** The workloads the decider would plan with as running, once it has read the state topics to their end. */
    private static List<String> running(PreemptionDecider decider) {
        return decider.processor().planningView(ClusterArn.UNNAMED).running("team-a").stream().map(RunningWorkload::id)
                .sorted().toList();
    }

    private static EvictionDecided nodeFailure(String id) {
        return new EvictionDecided(id, "team-a", PreemptionReason.NodeFailure, "node n2 left the cluster; the 1 pod(s) found no room",
                EVICTED_AT, null);
    }

    @Test
    void anEvictionAdmissionDecidedIsPublishedOnceAsDecidedAndCountsInTheViewAtOnce() {
        PreemptionDecider decider = cluster.startDecider();
        relay(nodeFailure("low-2"), "low-2:7");
        relay(new EvictionDecided("low-3", "team-a", PreemptionReason.QuotaRemoved,
                "the compute quota of team team-a (team-a-quota) was deleted", EVICTED_AT, null), "low-3:4");
        cluster.awaitHandled(decider);

        List<ConsumerRecord<String, byte[]>> raw = cluster.readAll(cluster.topics.preempted());
        assertThat(raw).extracting(ConsumerRecord::key).containsExactly("low-2", "low-3");
        assertThat(raw).extracting(r -> TestCluster.header(r, "ce_type")).containsOnly(WorkloadPreempted.TYPE);
        // the id admission gave the eviction, so a consumer that drops repeated events by ce_id sees one
        assertThat(raw).extracting(r -> TestCluster.header(r, "ce_id")).containsExactly("low-2:7", "low-3:4");
        WorkloadPreempted published = EventCodec.read(raw.get(0).value(), WorkloadPreempted.class);
        assertThat(published).isEqualTo(new WorkloadPreempted("low-2", "team-a", null, PreemptionReason.NodeFailure,
                "node n2 left the cluster; the 1 pod(s) found no room", EVICTED_AT, null));
        assertThat(EventCodec.read(raw.get(1).value(), WorkloadPreempted.class).reason()).isEqualTo(PreemptionReason.QuotaRemoved);
        assertThat(running(decider)).containsExactly("low-1", "low-4");

        // the view knows two nodes are free: a 3-pod preemptor needs one victim, not three
        WorkloadSubmitted high = fixture.submit("high-1", "team-a", "high-priority", 3);
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(decider);
        List<WorkloadPreempted> all = cluster.readAll(cluster.topics.preempted(), WorkloadPreempted.class);
        assertThat(all).extracting(WorkloadPreempted::workloadId).containsExactly("low-2", "low-3", "low-4");
        assertThat(all.get(2).preemptorWorkloadId()).isEqualTo("high-1");

        // a second decider (a restart) rebuilds its view from the topics and publishes nothing again
        decider.close();
        PreemptionDecider next = cluster.startDecider();
        cluster.awaitHandled(next);
        assertThat(cluster.readAll(cluster.topics.preempted())).hasSize(3);
        assertThat(running(next)).containsExactly("low-1");
    }

    @Test
    void aWorkloadAdmittedAgainBeforeItsRelayedEvictionIsPublishedRunsInTheView() {
        PreemptionDecider decider = cluster.startDecider();
        // admission evicted low-1 and admitted it again on another node in the same transaction, before this decider
        // handled the eviction: the admission is on the admitted topic first
        fixture.admit("low-1", "team-a", "n1");
        relay(nodeFailure("low-1"), "low-1:3");
        cluster.awaitHandled(decider);
        assertThat(cluster.readAll(cluster.topics.preempted(), WorkloadPreempted.class)).extracting(WorkloadPreempted::workloadId)
                .containsExactly("low-1");
        assertThat(running(decider)).containsExactly("low-1", "low-2", "low-3", "low-4");
    }

    @Test
    void aRelayedEvictionThatBreaksARuleGoesToTheDeadLetterTopicNamingTheField() {
        PreemptionDecider decider = cluster.startDecider();
        relay(new EvictionDecided("low-1", "team-a", PreemptionReason.InTeamPriority, "m", EVICTED_AT, null), "a:1");
        relay(new EvictionDecided("Low_2", null, PreemptionReason.NodeFailure, "m", null, "not-an-arn"), "b:1");
        cluster.publishRaw(cluster.topics.preemptionRequested(), "low-3", "{\"workloadId\":\"low-3\",\"reason\":\"Tired\"}"
                .getBytes(StandardCharsets.UTF_8), EvictionDecided.TYPE, "c:1");
        cluster.publishRaw(cluster.topics.preemptionRequested(), "low-4", EventCodec.bytes(nodeFailure("low-3")), EvictionDecided.TYPE, "d:1");
        cluster.publishRaw(cluster.topics.preemptionRequested(), "low-4", EventCodec.bytes(nodeFailure("low-4")), EvictionDecided.TYPE, null);
        relay(nodeFailure("low-4"), "low-4:2");
        cluster.awaitHandled(decider);

        List<DeadLetter> letters = cluster.readAll(cluster.topics.deadLetter(), DeadLetter.class);
        assertThat(letters).extracting(DeadLetter::key).containsExactly("low-1", "Low_2", "low-3", "low-4", "low-4");
        assertThat(letters.get(0).reason()).isEqualTo("reason: an eviction admission-service decides itself has no preemptor: "
                + "NodeFailure, QuotaRemoved or PodsReadyTimeout, was InTeamPriority (preemption-service decides that one)");
        assertThat(letters.get(1).reason()).startsWith("workloadId: ").contains("team: is required", "evictedAt: is required",
                "clusterArn: ");
        assertThat(letters.get(2).reason()).startsWith("unreadable EvictionDecided").contains("reason");
        assertThat(letters.get(3).reason()).isEqualTo("key: the record key must be absent or the workloadId 'low-3'");
        assertThat(letters.get(4).reason()).startsWith("ce_id: is required");
        assertThat(letters).allSatisfy(l -> assertThat(l.topic()).isEqualTo(cluster.topics.preemptionRequested()));
        // the loop went on: the good one after them is published
        assertThat(cluster.readAll(cluster.topics.preempted(), WorkloadPreempted.class)).extracting(WorkloadPreempted::workloadId)
                .containsExactly("low-4");
    }
}
