package dev.taskgov.core.events;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Live, the platform's time of first receipt is a workload's place in the queue; a client's time is information only. */
class PlatformTimeTest {

    private static final Instant RECEIVED = Instant.parse("2026-12-04T21:00:00Z");

    private static WorkloadSubmitted sent(Instant submittedAt) {
        return new WorkloadSubmitted("w-1", "hyperpod-ns-team-1", null, null, "PyTorchJob", submittedAt,
                List.of(new PodSetSpec("worker", 1, "ml.g5.8xlarge", null, null, null)));
    }

    @Test
    void aClientsEarlyTimeIsKeptApartAndTheReceiptTimeQueues() {
        WorkloadSubmitted kept = sent(Instant.parse("2001-01-01T00:00:00Z")).receivedAt(RECEIVED);
        assertThat(kept.submittedAt()).isEqualTo(RECEIVED);
        assertThat(kept.clientSubmittedAt()).isEqualTo(Instant.parse("2001-01-01T00:00:00Z"));
        // survives the codec (the changelog and the submissions topic carry it)
        WorkloadSubmitted back = EventCodec.read(EventCodec.bytes(kept), WorkloadSubmitted.class);
        assertThat(back).isEqualTo(kept);
        assertThat(new String(EventCodec.bytes(kept))).contains("\"clientSubmittedAt\":\"2001-01-01T00:00:00Z\"");
    }

    @Test
    void withoutAClientsTimeNothingIsKeptApart() {
        WorkloadSubmitted kept = sent(null).receivedAt(RECEIVED);
        assertThat(kept.submittedAt()).isEqualTo(RECEIVED);
        assertThat(kept.clientSubmittedAt()).isNull();
        assertThat(new String(EventCodec.bytes(kept))).doesNotContain("clientSubmittedAt");
    }

    @Test
    void aClientCannotMoveItsPlaceWithClientSubmittedAtEither() {
        WorkloadSubmitted early = new WorkloadSubmitted("w-1", "hyperpod-ns-team-1", null, null, "PyTorchJob", null,
                List.of(new PodSetSpec("worker", 1, "ml.g5.8xlarge", null, null, null)), null, java.util.Map.of(),
                Instant.parse("2001-01-01T00:00:00Z"));
        WorkloadSubmitted kept = early.receivedAt(RECEIVED);
        assertThat(kept.submittedAt()).isEqualTo(RECEIVED);
        assertThat(kept.clientSubmittedAt()).isEqualTo(Instant.parse("2001-01-01T00:00:00Z"));
    }
}
