package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.events.DeadLetter;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad inputs, each through a real broker: every one ends on the dead-letter topic
 * with a reason naming the field and the rule, or as a workload whose status says why, never
 * admitted as something else than what was written.
 */
class StrictContractTest {

    private static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");

    /** A good submission's JSON, with {@code %ID%} and {@code %COUNT%} to fill in. */
    private static final String TEMPLATE = "{\"workloadId\":\"%ID%\",\"namespace\":\"hyperpod-ns-team-a\","
            + "\"priorityClass\":\"training-priority\",\"jobKind\":\"PyTorchJob\",\"submittedAt\":\"2026-11-30T10:00:00Z\","
            + "\"podSets\":[{\"name\":\"worker\",\"count\":%COUNT%,\"instanceType\":\"" + Fixtures.TYPE + "\","
            + "\"requests\":{\"accelerators\":1,\"vcpu\":4,\"memoryGiB\":32}}]}";

    private static byte[] submission(String id, String count) {
        return TEMPLATE.replace("%ID%", id).replace("%COUNT%", count).getBytes(StandardCharsets.UTF_8);
    }

    /** A record sent with its key, and what its dead letter's reason must name. */
    record Refused(String key, byte[] value, List<String> reasonNames) {
    }

    @Test
    void eachBadRecordEndsDeadLetteredNamingTheFieldOrPendingAsInadmissibleWithTheNumbers() {
        try (LiveCluster c = new LiveCluster("strict-contract")) {
            Fixtures.cluster(c, 4, Map.of("team-a", 16L, "team-b", 16L));
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            String longId = "a".repeat(100_000);

            Map<String, Refused> refused = new LinkedHashMap<>();
            refused.put("fractional-count", new Refused("fractional-count", submission("fractional-count", "1.5"),
                    List.of("$.podSets[0].count", "1.5")));
            refused.put("count-as-text", new Refused("count-as-text", submission("count-as-text", "\"3\""),
                    List.of("$.podSets[0].count", "String")));
            byte[] good = submission("trailing-garbage", "1");
            byte[] garbage = new byte[good.length + 3];
            System.arraycopy(good, 0, garbage, 0, good.length);
            System.arraycopy("xyz".getBytes(StandardCharsets.UTF_8), 0, garbage, good.length, 3);
            refused.put("trailing-garbage", new Refused("trailing-garbage", garbage, List.of("$", "xyz")));
            refused.put("long-id", new Refused(null, submission(longId, "1"), List.of("workloadId", "at most 253 characters", "100000")));
            refused.put("path-id", new Refused(null, submission("../../etc/passwd", "1"), List.of("workloadId", "'../../etc/passwd'",
                    "lowercase letters, digits")));
            refused.put("key-differs", new Refused("someone-else", submission("key-differs", "1"),
                    List.of("key", "'someone-else'", "workloadId 'key-differs'")));
            refused.put("unknown-outcome", new Refused("finish-unknown-outcome",
                    "{\"workloadId\":\"finish-unknown-outcome\",\"finishedAt\":\"2026-11-30T10:00:05Z\",\"outcome\":\"Exploded\"}"
                            .getBytes(StandardCharsets.UTF_8), List.of("$.outcome", "Exploded", "Succeeded")));

            for (Map.Entry<String, Refused> e : refused.entrySet()) {
                String topic = e.getKey().equals("unknown-outcome") ? c.topics.finished() : c.topics.submitted();
                c.publishRaw(topic, e.getValue().key(), e.getValue().value());
            }
            c.publish(c.topics.submitted(), "never-fits", Fixtures.workload("never-fits", "team-a", 800_000, AT), true);
            c.publish(c.topics.submitted(), "fits", Fixtures.workload("fits", "team-a", 2, AT.plusSeconds(1)), true);
            c.awaitQuiet(d);

            List<DeadLetter> letters = c.readAll(c.topics.deadLetter()).stream()
                    .map(r -> EventCodec.read(r.value(), DeadLetter.class)).toList();
            assertThat(letters).hasSize(refused.size());
            Map<String, DeadLetter> byValue = letters.stream().collect(Collectors.toMap(
                    l -> new String(l.originalBytes(), StandardCharsets.UTF_8), l -> l));
            refused.forEach((name, r) -> {
                DeadLetter l = byValue.get(new String(r.value(), StandardCharsets.UTF_8));
                assertThat(l).as("dead letter of %s", name).isNotNull();
                assertThat(l.reason()).as("reason of %s", name).contains(r.reasonNames());
            });

            // none of them became a workload; the long id is not echoed whole in the reason
            assertThat(d.reads().workloads(null, null, null).stream().map(WorkloadRecord::workloadId))
                    .containsExactlyInAnyOrder("never-fits", "fits");
            assertThat(byValue.get(new String(refused.get("long-id").value(), StandardCharsets.UTF_8)).reason()).hasSizeLessThan(1_000);

            WorkloadRecord never = d.reads().workload("never-fits").orElseThrow();
            assertThat(never.state()).isEqualTo(WorkloadState.Pending);
            assertThat(never.reason()).isEqualTo("Inadmissible");
            assertThat(never.message()).contains("asks for 800000 accelerators of " + Fixtures.TYPE,
                    "team team-a may hold at most 16 nominal + ", "nodes offer 32");
            assertThat(d.reads().workload("fits").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
        }
    }

    @Test
    void aSubmissionWhoseKeyIsItsIdOrAbsentIsTheSameWorkload() {
        try (LiveCluster c = new LiveCluster("identity")) {
            Fixtures.cluster(c, 1, Map.of("team-a", 8L));
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            WorkloadSubmitted w = Fixtures.workload("keyless", "team-a", 1, AT);
            c.publish(c.topics.submitted(), null, w, false);
            c.publish(c.topics.submitted(), "keyed", Fixtures.workload("keyed", "team-a", 1, AT), false);
            c.awaitQuiet(d);
            assertThat(d.reads().workload("keyless").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
            assertThat(d.reads().workload("keyed").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }
}
