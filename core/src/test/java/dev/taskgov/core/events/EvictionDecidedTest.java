package dev.taskgov.core.events;

import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.Violation;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An eviction admission-service decided without a preemptor, as it hands it to preemption-service on
 * {@code taskgov.preemption.requested}, and the {@code taskgov.workload.preempted} record that becomes of it.
 */
class EvictionDecidedTest {

    static final Instant AT = Instant.parse("2026-11-30T10:00:05Z");
    static final String ARN = "arn:aws:sagemaker:us-west-2:123456789012:cluster/a1b2c3d4e5f6";

    @Test
    void carriesTheEvictionAsDecidedAndBecomesTheSameWorkloadPreemptedWithoutAPreemptor() {
        WorkloadPreempted decided = new WorkloadPreempted("team-a-train-1", "team-a", null, PreemptionReason.NodeFailure,
                "node n1 left the cluster", AT, ARN);
        EvictionDecided handed = EvictionDecided.of(decided);
        assertThat(EventCodec.write(handed)).isEqualTo("{\"workloadId\":\"team-a-train-1\",\"team\":\"team-a\","
                + "\"reason\":\"NodeFailure\",\"message\":\"node n1 left the cluster\",\"evictedAt\":\"2026-11-30T10:00:05Z\","
                + "\"clusterArn\":\"" + ARN + "\"}");
        EvictionDecided read = EventCodec.read(EventCodec.bytes(handed), EvictionDecided.class);
        assertThat(read.violations()).isEmpty();
        assertThat(read.toEvent()).isEqualTo(decided);
        assertThat(read.cluster().value()).isEqualTo(ARN);
    }

    @Test
    void onlyTheReasonsWithoutAPreemptorAreAdmissionsOwn() {
        assertThat(Arrays.stream(PreemptionReason.values()).filter(r -> !r.hasPreemptor()))
                .containsExactly(PreemptionReason.NodeFailure, PreemptionReason.QuotaRemoved, PreemptionReason.PodsReadyTimeout);
        for (PreemptionReason r : PreemptionReason.values()) {
            EvictionDecided e = new EvictionDecided("w", "team-a", r, "m", AT, null);
            assertThat(e.violations().isEmpty()).as("%s", r).isEqualTo(!r.hasPreemptor());
        }
    }

    @Test
    void eachBrokenRuleIsNamedByItsField() {
        assertThat(new EvictionDecided("W_1", " ", null, null, null, "cluster/x").violations()).extracting(Violation::field)
                .containsExactly("workloadId", "team", "reason", "message", "evictedAt", "clusterArn");
        assertThat(new EvictionDecided("w", "team-a", PreemptionReason.FairSharing, "m", AT, null).violations())
                .singleElement().satisfies(v -> assertThat(v.toString()).isEqualTo("reason: an eviction admission-service "
                        + "decides itself has no preemptor: NodeFailure, QuotaRemoved or PodsReadyTimeout, was FairSharing (preemption-service "
                        + "decides that one)"));
    }
}
