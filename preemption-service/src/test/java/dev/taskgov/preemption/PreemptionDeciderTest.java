package dev.taskgov.preemption;

import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.service.support.QuotaRecords;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decider against a real broker, with the cluster state published as the other services would:
 * one team, four 1-accelerator nodes, four low-priority workloads running.
 */
class PreemptionDeciderTest {

    static final Map<String, Integer> CLASSES = Map.of("low", 10, "high", 90);

    TestCluster cluster;
    Fixture fixture;

    @BeforeEach
    void setUp(TestInfo info) {
        cluster = new TestCluster(info.getTestMethod().orElseThrow().getName());
        fixture = new Fixture(cluster).nodes(4, 1).config(CLASSES, false).quota("team-a", 4, 50);
        for (int i = 1; i <= 4; i++) fixture.running("low-" + i, "team-a", "low-priority", "n" + i);
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    private List<WorkloadPreempted> preempted() {
        return cluster.readAll(cluster.topics.preempted(), WorkloadPreempted.class);
    }

    @Test
    void evictsTheMostRecentlyAdmittedLowerPriorityWorkloadsAndNamesPreemptorAndReason() {
        PreemptionDecider decider = cluster.startDecider();
        WorkloadSubmitted high = fixture.submit("high-1", "team-a", "high-priority", 2);
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(decider);

        List<WorkloadPreempted> out = preempted();
        assertThat(out).extracting(WorkloadPreempted::workloadId).containsExactly("low-4", "low-3");
        assertThat(out).allSatisfy(p -> {
            assertThat(p.team()).isEqualTo("team-a");
            assertThat(p.preemptorWorkloadId()).isEqualTo("high-1");
            assertThat(p.reason()).isEqualTo(PreemptionReason.InTeamPriority);
            assertThat(p.message()).contains("priority 90").contains("lower priority 10");
            assertThat(p.preemptedAt()).isNotNull();
        });
        List<ConsumerRecord<String, byte[]>> raw = cluster.readAll(cluster.topics.preempted());
        assertThat(raw).allSatisfy(r -> {
            assertThat(r.key()).isEqualTo(EventCodec.read(r.value(), WorkloadPreempted.class).workloadId());
            assertThat(TestCluster.header(r, "ce_type")).isEqualTo(WorkloadPreempted.TYPE);
            assertThat(TestCluster.header(r, "ce_specversion")).isEqualTo("1.0");
            assertThat(TestCluster.header(r, "ce_source")).isEqualTo("urn:taskgov:test");
            assertThat(TestCluster.header(r, "ce_id")).isNotBlank();
            assertThat(TestCluster.header(r, "ce_time")).isNotBlank();
        });
    }

    @Test
    void aRequestThatProtectsWorkloadsAdmittedInTheDecidersRunNeverEvictsThem() {
        PreemptionDecider decider = cluster.startDecider();
        WorkloadSubmitted high = fixture.submit("high-1", "team-a", "high-priority", 2);
        // The preemptor was itself evicted in admission's current run: low-4 and low-3, admitted since, are protected
        PreemptionRequested request = Fixture.request(high, 90);
        request = new PreemptionRequested(request.workloadId(), request.team(), request.priority(), request.workload(),
                request.lacking(), request.message(), request.requestedAt(), request.clusterArn(), java.util.Set.of("low-4", "low-3"));
        cluster.publish(cluster.topics.preemptionRequested(), high.workloadId(), request, PreemptionRequested.TYPE);
        cluster.awaitHandled(decider);

        assertThat(preempted()).extracting(WorkloadPreempted::workloadId).containsExactly("low-2", "low-1");
    }

    @Test
    void aRepeatedRequestAndACompetingOneNeverEvictAVictimTwice() {
        PreemptionDecider decider = cluster.startDecider();
        WorkloadSubmitted h1 = fixture.submit("high-1", "team-a", "high-priority", 2);
        WorkloadSubmitted h2 = fixture.submit("high-2", "team-a", "high-priority", 2);
        WorkloadSubmitted h3 = fixture.submit("high-3", "team-a", "high-priority", 1);
        fixture.requestPreemption(h1, 90);
        fixture.requestPreemption(h1, 90); // stale duplicate: room is made already
        fixture.requestPreemption(h2, 90); // must take the other two, not the same ones
        fixture.requestPreemption(h3, 90); // nothing left that may be preempted
        cluster.awaitHandled(decider);

        List<WorkloadPreempted> out = preempted();
        assertThat(out).extracting(WorkloadPreempted::workloadId).containsExactly("low-4", "low-3", "low-2", "low-1");
        assertThat(out).extracting(WorkloadPreempted::preemptorWorkloadId).containsExactly("high-1", "high-1", "high-2", "high-2");
    }

    @Test
    void aStaleRequestEvictsNothingNeedlesslyAndPlansUseTheFreshView() {
        PreemptionDecider decider = cluster.startDecider();
        // Admitted meanwhile (low-1 finished): nothing to do.
        WorkloadSubmitted admitted = fixture.submit("high-admitted", "team-a", "high-priority", 1);
        fixture.finish("low-1");
        fixture.admit("high-admitted", "team-a", "n1");
        fixture.requestPreemption(admitted, 90);
        // Cancelled meanwhile: nothing to do.
        WorkloadSubmitted cancelled = fixture.submit("high-cancelled", "team-a", "high-priority", 1);
        fixture.finish("high-cancelled");
        fixture.requestPreemption(cancelled, 90);
        // Fits now: low-2 finished after admission asked.
        WorkloadSubmitted fits = fixture.submit("high-fits", "team-a", "high-priority", 1);
        fixture.finish("low-2");
        fixture.requestPreemption(fits, 90);
        // Never submitted.
        fixture.requestPreemption(Fixture.workload("high-unknown", "team-a", "high-priority", 1), 90);
        cluster.awaitHandled(decider);
        assertThat(preempted()).isEmpty();

        // low-4 finished before the request is handled: the plan sees it and takes only low-3.
        WorkloadSubmitted big = fixture.submit("high-big", "team-a", "high-priority", 3);
        fixture.finish("low-4");
        fixture.requestPreemption(big, 90);
        cluster.awaitHandled(decider);
        assertThat(preempted()).extracting(WorkloadPreempted::workloadId).containsExactly("low-3");
    }

    @Test
    void badRequestsGoToTheDeadLetterTopicWithTheReason() {
        PreemptionDecider decider = cluster.startDecider();
        cluster.publishRaw(cluster.topics.preemptionRequested(), "x", "{not json".getBytes(StandardCharsets.UTF_8), PreemptionRequested.TYPE);
        cluster.publishRaw(cluster.topics.preemptionRequested(), "y", null, PreemptionRequested.TYPE);
        cluster.publishRaw(cluster.topics.preemptionRequested(), "z", "{\"workloadId\":\"z\",\"team\":\"team-a\"}".getBytes(StandardCharsets.UTF_8),
                PreemptionRequested.TYPE);
        WorkloadSubmitted unknownType = new WorkloadSubmitted("w", "hyperpod-ns-team-a", null, "high-priority", null, null,
                List.of(new dev.taskgov.core.events.PodSetSpec("worker", 1, "ml.unknown", null, null, null)));
        fixture.requestPreemption(unknownType, 90);
        WorkloadSubmitted good = fixture.submit("high-1", "team-a", "high-priority", 1);
        // the requests topic dispatches on ce_type: a request without one, or of a type nobody writes there, is refused
        byte[] request = EventCodec.bytes(Fixture.request(good, 90));
        cluster.publishRaw(cluster.topics.preemptionRequested(), "no-type", request);
        cluster.publishRaw(cluster.topics.preemptionRequested(), "other-type", request, WorkloadPreempted.TYPE);
        fixture.requestPreemption(good, 90);
        cluster.awaitHandled(decider);

        List<DeadLetter> letters = cluster.readAll(cluster.topics.deadLetter(), DeadLetter.class);
        assertThat(letters).extracting(DeadLetter::key).containsExactly("x", "y", "z", "w", "no-type", "other-type");
        assertThat(letters.get(0).reason()).startsWith("unreadable PreemptionRequested");
        assertThat(letters.get(1).reason()).contains("no value");
        assertThat(letters.get(2).reason()).startsWith("workload: is required");
        assertThat(letters.get(3).reason()).contains("UnknownInstanceType").contains("ml.unknown");
        assertThat(letters.get(4).reason()).isEqualTo("ce_type: a record on " + cluster.topics.preemptionRequested() + " must be "
                + PreemptionRequested.TYPE + " (a preemption request) or " + EvictionDecided.TYPE
                + " (an eviction admission-service decided), was absent");
        assertThat(letters.get(5).reason()).endsWith("was '" + WorkloadPreempted.TYPE + "'");
        assertThat(letters).allSatisfy(l -> assertThat(l.topic()).isEqualTo(cluster.topics.preemptionRequested()));
        // The loop went on: the good request after them was served.
        assertThat(preempted()).extracting(WorkloadPreempted::workloadId).containsExactly("low-4");
    }

    @Test
    void badQuotaAndTopologyRecordsGoToTheDeadLetterTopicWithTheReasonAndTheViewKeepsTheGoodOnes() {
        PreemptionDecider decider = cluster.startDecider();
        // read while handling the request below, in its batch: refused as admission refuses them
        cluster.publishRaw(cluster.topics.topology(), "no-type", "{\"name\": \"no-type\"}".getBytes(StandardCharsets.UTF_8));
        cluster.publishRaw(cluster.topics.topology(), "garbled", "{not json".getBytes(StandardCharsets.UTF_8));
        cluster.publishRaw(cluster.topics.quota(), "team-b", ("{\"ComputeQuotaTarget\": {\"TeamName\": \"team-b\"}, \"ComputeQuotaConfig\": "
                + "{\"ComputeQuotaResources\": [{\"InstanceType\": \"" + Fixture.TYPE + "\", \"Count\": -1}]}}").getBytes(StandardCharsets.UTF_8));
        cluster.publishRaw(cluster.topics.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY,
                "{\"FairShare\": \"Sometimes\"}".getBytes(StandardCharsets.UTF_8));
        WorkloadSubmitted high = fixture.submit("high-1", "team-a", "high-priority", 1);
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(decider);

        Map<String, DeadLetter> letters = cluster.readAll(cluster.topics.deadLetter(), DeadLetter.class).stream()
                .collect(java.util.stream.Collectors.toMap(DeadLetter::key, l -> l));
        assertThat(letters).containsOnlyKeys("no-type", "garbled", "team-b", QuotaRecords.SCHEDULER_CONFIG_KEY);
        assertThat(letters.get("no-type").reason()).isEqualTo("instanceType: is required");
        assertThat(letters.get("no-type").topic()).isEqualTo(cluster.topics.topology());
        assertThat(letters.get("garbled").reason()).startsWith("unreadable NodeRecord: $: ");
        assertThat(letters.get("team-b").reason())
                .isEqualTo("quota: ComputeQuotaConfig.ComputeQuotaResources[0].Count: must not be negative, was -1");
        assertThat(letters.get("team-b").topic()).isEqualTo(cluster.topics.quota());
        assertThat(letters.get(QuotaRecords.SCHEDULER_CONFIG_KEY).reason())
                .isEqualTo("scheduler config: FairShare: must be Enabled or Disabled, was 'Sometimes'");
        // the refused config changed nothing: the classes still rank high above low, so the request was served
        assertThat(preempted()).extracting(WorkloadPreempted::workloadId).containsExactly("low-4");
    }
}
