package dev.taskgov.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.events.DeadLetter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad records never stop the decider: unreadable ones go to the dead-letter topic with their
 * bytes, coordinates and reason; well-formed submissions that break a rule end Rejected with the
 * reason; a workload id seen again is the same workload.
 */
class BadInputTest {

    /** Ten kinds of unreadable submission, fifty of each. */
    private static final List<byte[]> MALFORMED = List.of(
            "not json at all".getBytes(StandardCharsets.UTF_8),
            new byte[]{(byte) 0xC3, (byte) 0x28, (byte) 0xFF, 0x00},
            "[1,2,3]".getBytes(StandardCharsets.UTF_8),
            "{\"namespace\":\"hyperpod-ns-team-a\"}".getBytes(StandardCharsets.UTF_8),
            "{\"workloadId\":\"x\",\"podSets\":[{\"name\":\"w\",\"count\":\"many\"}]}".getBytes(StandardCharsets.UTF_8),
            "{\"workloadId\":\"x\",\"submittedAt\":\"yesterday\"}".getBytes(StandardCharsets.UTF_8),
            "{\"workloadId\":".getBytes(StandardCharsets.UTF_8),
            "null".getBytes(StandardCharsets.UTF_8),
            "{\"workloadId\":\"\"}".getBytes(StandardCharsets.UTF_8),
            "{\"workloadId\":\"x\",\"podSets\":{\"name\":\"w\"}}".getBytes(StandardCharsets.UTF_8));

    @Test
    void fiveHundredMalformedRecordsAreDeadLetteredAndTheGoodOnesStillProcessed() {
        try (LiveCluster c = new LiveCluster("bad-input")) {
            Fixtures.cluster(c, 8, Map.of("team-a", 64L));
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            Instant t0 = Instant.parse("2026-11-30T10:00:00Z");
            List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                byte[] bad = MALFORMED.get(i % MALFORMED.size());
                c.publishRaw(c.topics.submitted(), "bad-" + i, bad);
                sent.add(bad);
                if (i % 10 == 0) {
                    c.publishAsync(c.topics.submitted(), "good-" + i, Fixtures.workload("good-" + i, "team-a", 1, t0.plusSeconds(i)));
                }
            }
            c.publishRaw(c.topics.submitted(), "tombstone", null);
            c.flush();
            c.awaitQuiet(d);

            List<DeadLetter> letters = c.readAll(c.topics.deadLetter()).stream()
                    .map(r -> EventCodec.read(r.value(), DeadLetter.class)).toList();
            assertThat(letters).hasSize(501);
            assertThat(letters).allSatisfy(l -> {
                assertThat(l.topic()).isEqualTo(c.topics.submitted());
                assertThat(l.reason()).isNotBlank();
                assertThat(l.failedAt()).isNotNull();
            });
            Map<String, DeadLetter> byKey = letters.stream().collect(Collectors.toMap(DeadLetter::key, l -> l));
            for (int i = 0; i < 500; i++) {
                assertThat(byKey.get("bad-" + i).originalBytes()).as("original bytes of bad-%d", i).isEqualTo(sent.get(i));
            }
            assertThat(byKey.get("bad-1").valueEncoding()).isEqualTo(DeadLetter.BASE64);
            assertThat(byKey.get("bad-4").reason()).contains("count");
            assertThat(byKey.get("bad-3").reason()).contains("workloadId");
            assertThat(byKey.get("tombstone").value()).isNull();

            List<WorkloadRecord> good = d.reads().workloads(null, "team-a", null);
            assertThat(good).hasSize(50).allMatch(r -> r.state() == WorkloadState.Admitted);
        }
    }

    @Test
    void wellFormedSubmissionsThatBreakARuleAreRejectedWithTheReason() {
        try (LiveCluster c = new LiveCluster("rules")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            Instant at = Instant.parse("2026-11-30T10:00:00Z");
            WorkloadSubmitted ok = Fixtures.workload("fine", "team-a", 2, at);
            c.publish(c.topics.submitted(), "unknown-team", rename(Fixtures.workload("unknown-team", "team-z", 1, at)), true);
            c.publish(c.topics.submitted(), "unknown-type", withPodSet(ok, "unknown-type",
                    new PodSetSpec("worker", 1, "ml.nope", ok.podSets().get(0).requests(), null, null)), false);
            c.publish(c.topics.submitted(), "negative-count", withPodSet(ok, "negative-count",
                    new PodSetSpec("worker", -1, Fixtures.TYPE, ok.podSets().get(0).requests(), null, null)), false);
            c.publish(c.topics.submitted(), "too-big", withPodSet(ok, "too-big",
                    new PodSetSpec("worker", 1, Fixtures.TYPE, new ResourceAmounts(BigDecimal.valueOf(9), null, null), null, null)), false);
            c.publish(c.topics.submitted(), "both-topologies", withPodSet(ok, "both-topologies",
                    new PodSetSpec("worker", 1, Fixtures.TYPE, ok.podSets().get(0).requests(),
                            "topology.k8s.aws/network-node-layer-3", "topology.k8s.aws/network-node-layer-2")), false);
            c.publish(c.topics.submitted(), "unknown-class", new WorkloadSubmitted("unknown-class", ok.namespace(),
                    ok.queueName(), "gold-priority", ok.jobKind(), at, ok.podSets()), false);
            c.publish(c.topics.submitted(), "fine", ok, true);
            c.awaitQuiet(d);

            Map<String, String> reasons = new HashMap<>();
            for (WorkloadRecord r : d.reads().workloads(null, null, null)) reasons.put(r.workloadId(), r.state() + "/" + r.reason());
            assertThat(reasons).containsEntry("unknown-team", "Rejected/UnknownTeam")
                    .containsEntry("unknown-type", "Rejected/UnknownInstanceType")
                    .containsEntry("negative-count", "Rejected/InvalidWorkload")
                    .containsEntry("too-big", "Rejected/PodFitsNoNode")
                    .containsEntry("both-topologies", "Rejected/InvalidWorkload")
                    .containsEntry("unknown-class", "Rejected/UnknownPriorityClass")
                    .containsEntry("fine", "Admitted/null");
            assertThat(d.reads().workload("negative-count").orElseThrow().message()).contains("podSets[0].count");
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
            JsonNode status = tree(c.readAll(c.topics.status()).stream().filter(r -> r.key().equals("too-big")).reduce((a, b) -> b).orElseThrow());
            assertThat(status.get("state").asText()).isEqualTo("Rejected");
            assertThat(status.get("message").asText()).contains("podSets[0].requests");
        }
    }

    @Test
    void aWorkloadIdSeenTwiceIsOneWorkload() {
        try (LiveCluster c = new LiveCluster("duplicates")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            Instant at = Instant.parse("2026-11-30T10:00:00Z");
            c.publish(c.topics.submitted(), "same", Fixtures.workload("same", "team-a", 2, at), true);
            c.publish(c.topics.submitted(), "same", Fixtures.workload("same", "team-a", 4, at.plusSeconds(5)), false);
            c.publish(c.topics.submitted(), "same", Fixtures.workload("same", "team-a", 2, at), true);
            c.awaitQuiet(d);
            c.publish(c.topics.finished(), "same", new dev.taskgov.core.events.WorkloadFinished("same", at.plusSeconds(9),
                    dev.taskgov.core.events.WorkloadFinished.Outcome.Succeeded), true);
            c.awaitQuiet(d);
            c.publish(c.topics.submitted(), "same", Fixtures.workload("same", "team-a", 2, at), true);
            c.awaitQuiet(d);

            List<ConsumerRecord<String, byte[]>> admitted = c.readAll(c.topics.admitted());
            assertThat(admitted).hasSize(1);
            WorkloadAdmitted a = EventCodec.read(admitted.get(0).value(), WorkloadAdmitted.class);
            assertThat(a.podSets().get(0).nodes().stream().mapToInt(WorkloadAdmitted.NodeCount::count).sum())
                    .as("the first submission counts").isEqualTo(2);
            WorkloadRecord r = d.reads().workload("same").orElseThrow();
            assertThat(r.state()).isEqualTo(WorkloadState.Finished);
            assertThat(r.history().stream().map(h -> h.state().name()).toList())
                    .isEqualTo(List.of("Pending", "Admitted", "Finished"));
        }
    }

    private static WorkloadSubmitted rename(WorkloadSubmitted w) {
        return w;
    }

    private static WorkloadSubmitted withPodSet(WorkloadSubmitted w, String id, PodSetSpec podSet) {
        return new WorkloadSubmitted(id, w.namespace(), w.queueName(), w.priorityClass(), w.jobKind(), w.submittedAt(),
                List.of(podSet));
    }

    private static JsonNode tree(ConsumerRecord<String, byte[]> r) {
        return EventCodec.read(r.value(), JsonNode.class);
    }

    @SuppressWarnings("unused")
    private static String text(byte[] b) {
        return Arrays.toString(b);
    }
}
