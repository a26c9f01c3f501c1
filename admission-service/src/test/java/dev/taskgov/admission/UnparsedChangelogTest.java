package dev.taskgov.admission;

import dev.taskgov.admission.AdmissionState.Mode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.service.support.PartitionScope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The changelog records a state keeps unparsed (a decider while it builds, a read replica until a read needs them):
 * each read gives back the latest record of each workload as written, a tombstone forgets it, and a record that does
 * not parse is skipped, whether the state keeps them as they came (a decider) or deflated (a replica).
 */
class UnparsedChangelogTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static AdmissionState state(Mode mode) {
        return new AdmissionState(Clock.fixed(T0, ZoneOffset.UTC), PartitionScope.WHOLE, "taskgov.admission.changelog", mode);
    }

    private static WorkloadRecord pending(String id, String message) {
        return WorkloadRecord.first(Fixtures.workload(id, "team-a", 2, T0), "team-a", null, 0, T0, WorkloadState.Pending,
                "QuotaExceeded", message, T0);
    }

    private static byte[] json(WorkloadRecord r) {
        return EventCodec.write(r).getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"BUILDING", "FOLLOWING"})
    void theLatestRecordOfEachWorkloadParsesBackAsWritten(Mode mode) {
        AdmissionState s = state(mode);
        WorkloadRecord first = pending("w-1", "needs 2 accelerators; team-a has 0 free");
        WorkloadRecord later = first.moveTo(WorkloadState.Pending, "QuotaExceeded", "needs 2 accelerators; team-a has 1 free",
                T0.plusSeconds(5));
        WorkloadRecord other = pending("w-2", "needs 2 accelerators; team-a has 0 free");
        s.keepUnparsed("w-1", json(first));
        s.keepUnparsed("w-2", json(other));
        s.keepUnparsed("w-1", json(later));
        assertThat(s.unparsedCount()).isEqualTo(2);

        List<WorkloadRecord> parsed = s.parseChangelog();

        assertThat(parsed).containsExactlyInAnyOrder(later, other);
        assertThat(s.workloads.get("w-1")).isEqualTo(later);
        assertThat(s.workloads.get("w-2")).isEqualTo(other);
        assertThat(s.workloads.size()).isEqualTo(2);
        assertThat(s.unparsedCount()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"BUILDING", "FOLLOWING"})
    void aTombstoneForgetsTheWorkloadAndARecordThatDoesNotParseIsSkipped(Mode mode) {
        AdmissionState s = state(mode);
        s.keepUnparsed("w-1", json(pending("w-1", "waits")));
        s.keepUnparsed("w-1", null);
        s.keepUnparsed("w-2", "{not json".getBytes(StandardCharsets.UTF_8));
        WorkloadRecord kept = pending("w-3", "waits");
        s.keepUnparsed("w-3", json(kept));

        assertThat(s.parseChangelog()).containsExactly(kept);
        assertThat(s.workloads.values()).containsExactly(kept);
    }

    @org.junit.jupiter.api.Test
    void aReplicaKeepsItsRecordsInAThirdOfTheBytesADeciderBuildingKeeps() {
        AdmissionState decider = state(Mode.BUILDING);
        AdmissionState replica = state(Mode.FOLLOWING);
        for (int i = 0; i < 100; i++) {
            byte[] record = json(pending("w-" + i, "needs 2 accelerators of ml.p5.48xlarge; team-a has 0 of its quota free"));
            decider.keepUnparsed("w-" + i, record);
            replica.keepUnparsed("w-" + i, record);
        }
        assertThat(replica.unparsedBytes()).isLessThan(decider.unparsedBytes() / 2);
        assertThat(replica.parseChangelog()).containsExactlyInAnyOrderElementsOf(decider.parseChangelog());
    }

    /** A record that deflates to more than the compressor's first buffer, then small ones again, each kept whole. */
    @org.junit.jupiter.api.Test
    void aReplicaKeepsARecordLargerThanItsCompressorsBufferWhole() {
        AdmissionState replica = state(Mode.FOLLOWING);
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        StringBuilder noise = new StringBuilder();
        while (noise.length() < 40_000) noise.append(Long.toString(random.nextLong(), 36)); // hardly compresses
        WorkloadRecord small = pending("w-1", "waits");
        WorkloadRecord large = pending("w-2", noise.toString());
        WorkloadRecord smallAgain = pending("w-3", "waits too");
        replica.keepUnparsed("w-1", json(small));
        replica.keepUnparsed("w-2", json(large));
        replica.keepUnparsed("w-3", json(smallAgain));

        assertThat(replica.unparsedBytes()).isGreaterThan(20_000);
        assertThat(replica.parseChangelog()).containsExactlyInAnyOrder(small, large, smallAgain);
    }
}
