package dev.taskgov.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Kueue profiles restated in taskgov's terms, and the figures the benchmark derives from them. */
class KueueBenchProfileTest {

    @Test
    void baselineIsKueuesMixOn600AcceleratorsWithA66SecondBound() {
        KueueBenchProfile p = KueueBenchProfile.named("baseline", 1.0);
        assertThat(p.teams()).isEqualTo(30);
        assertThat(p.totalWorkloads()).isEqualTo(15_000);
        assertThat(p.capacity()).isEqualTo(600);
        // per team 350 x 1 x 0.2 + 100 x 5 x 0.5 + 50 x 20 x 1 = 1,320 accelerator-seconds; x 30 / 600
        assertThat(p.workUnitSeconds()).isEqualTo(39_600.0);
        assertThat(p.capacityBoundSeconds()).isEqualTo(66.0);
        assertThat(p.arrivals()).hasSize(15_000);
        assertThat(p.arrivals().get(p.arrivals().size() - 1).atMs()).isEqualTo(58_800); // the 50th large of a team
    }

    @Test
    void largeScaleIsKueuesThousandQueueMixOn20000AcceleratorsWithItsPublishedMeans() {
        KueueBenchProfile p = KueueBenchProfile.named("large-scale", 1.0);
        assertThat(p.teams()).isEqualTo(1_000);
        assertThat(p.totalWorkloads()).isEqualTo(50_000);
        assertThat(p.nodes()).isEqualTo(2_500);
        assertThat(p.capacity()).isEqualTo(20_000);
        // per team 35 x 1 x 0.15 + 11 x 5 x 0.35 + 4 x 20 x 0.7 = 80.5 accelerator-seconds; x 1,000 / 20,000
        assertThat(p.workUnitSeconds()).isCloseTo(80_500.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(p.capacityBoundSeconds()).isCloseTo(4.025, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.arrivals().get(p.arrivals().size() - 1).atMs()).isEqualTo(3_000); // the 11th medium of a team
        KueueBenchProfile.KueuePublished k = p.kueuePublished().orElseThrow();
        assertThat(k.wallSeconds()).isEqualTo(1179.4);
        assertThat(k.usageOfNominalPercent()).isEqualTo(38.64);
        assertThat(k.meanTimeToAdmissionSeconds()).containsEntry("large", 105.6).containsEntry("medium", 256.4).containsEntry("small", 700.4);
        assertThat(BenchKueueCommand.published(k).path("meanTimeToAdmissionMs").path("small").asLong()).isEqualTo(700_400);
        assertThat(KueueBenchProfile.named("depth", 1.0).kueuePublished()).isEmpty();
    }

    @Test
    void tasHasTenRacksOf64OneAcceleratorNodesAndRotatesTopologyRequests() {
        KueueBenchProfile p = KueueBenchProfile.named("tas", 1.0);
        assertThat(p.nodes()).isEqualTo(640);
        assertThat(p.racks()).isEqualTo(10);
        assertThat(p.inventory().path("nodes")).hasSize(640);
        assertThat(p.inventory().path("nodes").get(639).path("labels").path(KueueBenchProfile.LAYER_3).asText()).isEqualTo("nn-bench-r09");
        KueueBenchProfile.WorkloadClass small = p.classes().get(0);
        assertThat(List.of(small.topologyOf(0), small.topologyOf(1), small.topologyOf(2))).containsExactly(
                KueueBenchProfile.Topology.REQUIRED_RACK, KueueBenchProfile.Topology.PREFERRED_RACK, KueueBenchProfile.Topology.NONE);
    }

    @Test
    void scaleKeepsTheMixAndShrinksTheTeamsAndNodes() {
        KueueBenchProfile p = KueueBenchProfile.named("baseline", 0.1);
        assertThat(p.teams()).isEqualTo(3);
        assertThat(p.capacity()).isEqualTo(64); // 60 accelerators of quota, rounded up to whole 8-accelerator nodes
        assertThat(p.capacityBoundSeconds()).isEqualTo(66.0);
        assertThatThrownBy(() -> KueueBenchProfile.named("baseline", 0)).hasMessageContaining("--scale must be in (0, 1]");
        assertThatThrownBy(() -> KueueBenchProfile.named("nope", 1)).hasMessageContaining("--profile must be one of baseline, tas, large-scale, throughput, depth, soak, depth-soak");
    }

    @Test
    void taskgovsOwnProfilesLoadBaselinesQuotasWithOneAccelerator50MsWorkloads() {
        KueueBenchProfile throughput = KueueBenchProfile.named("throughput", 1.0);
        assertThat(throughput.capacity()).isEqualTo(600);
        assertThat(throughput.totalWorkloads()).isEqualTo(30_000);
        // 30 teams, one each every 10 ms: 3,000 per second for 10 s; 150 accelerators busy at that rate
        assertThat(throughput.arrivals().stream().filter(a -> a.atMs() < 1000)).hasSize(3_000);
        assertThat(throughput.capacityBoundSeconds()).isEqualTo(10.04);

        KueueBenchProfile depth = KueueBenchProfile.named("depth", 0.1);
        assertThat(depth.teams()).isEqualTo(30);
        assertThat(depth.totalWorkloads()).isEqualTo(9_990); // 333 per team
        assertThat(depth.arrivals()).allMatch(a -> a.atMs() == 0);

        KueueBenchProfile soak = KueueBenchProfile.named("soak", 1.0, 2);
        assertThat(soak.teams()).isEqualTo(5);
        assertThat(soak.totalWorkloads()).isEqualTo(60_000); // 500 per second for 2 minutes
        assertThatThrownBy(() -> KueueBenchProfile.named("soak", 1.0, 0)).hasMessageContaining("--minutes must be at least 1");
    }

    @Test
    void depthSoakSubmitsDepthsBurstAndHoldsTheQueueThatDeepForItsMinutes() {
        KueueBenchProfile held = KueueBenchProfile.named("depth-soak", 1.0, 30);
        KueueBenchProfile depth = KueueBenchProfile.named("depth", 1.0);
        assertThat(held.totalWorkloads()).isEqualTo(depth.totalWorkloads()).isEqualTo(99_990);
        assertThat(held.teams()).isEqualTo(30);
        assertThat(held.capacity()).isEqualTo(600);
        assertThat(held.arrivals()).allMatch(a -> a.atMs() == 0);
        assertThat(held.holdsDepth()).isTrue();
        assertThat(held.holdMinutes()).isEqualTo(30);
        // 5 s runs on 600 accelerators: about 120 admissions a second to replace while the queue is held
        assertThat(held.classes()).singleElement().satisfies(c -> {
            assertThat(c.runtimeMs()).isEqualTo(KueueBenchProfile.HOLD_RUNTIME_MS).isEqualTo(5_000);
            assertThat(c.units()).isEqualTo(1);
        });
        assertThat(KueueBenchProfile.named("depth-soak", 0.1, 10).totalWorkloads()).isEqualTo(9_990);
        assertThat(depth.holdsDepth()).isFalse();
        assertThat(KueueBenchProfile.named("soak", 1.0, 30).holdsDepth()).isFalse();
        assertThatThrownBy(() -> KueueBenchProfile.named("depth-soak", 1.0, 0)).hasMessageContaining("--minutes must be at least 1");
    }

    @Test
    void aHeldQueueIsToppedUpToItsDepthAFewAtATime() {
        assertThat(KueueBenchProfile.topUp(100_000, 99_880, 1_000)).isEqualTo(120);
        assertThat(KueueBenchProfile.topUp(100_000, 90_000, 1_000)).isEqualTo(1_000);
        assertThat(KueueBenchProfile.topUp(100_000, 100_000, 1_000)).isZero();
        assertThat(KueueBenchProfile.topUp(100_000, 100_004, 1_000)).isZero();
    }

    @Test
    void recorderCountsPendingAndTheEndToEndAdmissionRate() {
        KueueBenchRecorder r = new KueueBenchRecorder();
        for (String id : List.of("a", "b", "c")) {
            r.planned(id, "tiny", 1, 50);
            r.submitted(id, 0);
        }
        r.admitted("a", 100);
        r.admitted("b", 500);
        assertThat(r.pendingCount()).isEqualTo(1);
        assertThat(r.runningUnits()).isEqualTo(2);
        r.finished("a", 150);
        assertThat(r.runningUnits()).isEqualTo(1);
        // 2 first admissions over the 500 ms from the first submission to the last of them
        assertThat(r.summary(List.of("tiny"), 1).admissionsPerSecond()).isEqualTo(4.0);
    }

    @Test
    void recorderCountsTimeToAdmissionFromTheFirstAdmissionAndUsageOverTheWallTime() {
        KueueBenchRecorder r = new KueueBenchRecorder();
        r.planned("a", "small", 1, 100);
        r.planned("b", "large", 2, 100);
        r.submitted("a", 0);
        r.submitted("b", 0);
        r.admitted("a", 10);
        r.admitted("b", 20);
        r.preempted("b", 70);      // ran 50 ms on 2 units
        r.finished("a", 110);      // ran 100 ms on 1 unit
        r.admitted("b", 200);      // waits counted from the first admission, not this one
        r.finished("b", 300);      // ran 100 ms on 2 units
        KueueBenchRecorder.Summary s = r.summary(List.of("small", "large"), 4);
        assertThat(s.wallSeconds()).isEqualTo(0.3);
        assertThat(s.byClass().get("small").meanMs()).isEqualTo(10.0);
        assertThat(s.byClass().get("large").meanMs()).isEqualTo(20.0);
        assertThat(s.preemptions()).isEqualTo(1);
        // (50 x 2 + 100 x 1 + 100 x 2) unit-ms over 4 units x 300 ms
        assertThat(s.usageOfNominalPercent()).isCloseTo(100.0 * 400 / 1200, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(KueueBenchRecorder.percentile(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 90)).isEqualTo(9);
    }

    @Test
    void aReadmissionReadBeforeItsPreemptionRunsOnceThePreemptionIsRead() {
        KueueBenchRecorder r = new KueueBenchRecorder();
        r.planned("b", "large", 2, 100);
        r.submitted("b", 0);
        assertThat(r.admitted("b", 10, false)).isTrue();
        assertThat(r.admitted("b", 60, true)).isFalse();     // a new placement of the running workload: not a new run
        assertThat(r.admitted("b", 70, false)).isFalse();    // the re-admission, its preemption not read yet
        r.preempted("b", 80);                                 // ran 70 ms on 2 units
        assertThat(r.readmittedEarly("b", 80)).isTrue();     // runs again from here: the pipeline finishes it later
        assertThat(r.readmittedEarly("b", 80)).isFalse();
        assertThat(r.runningUnits()).isEqualTo(2);
        r.finished("b", 180);
        KueueBenchRecorder.Summary s = r.summary(List.of("large"), 2);
        assertThat(s.finished()).isEqualTo(1);
        assertThat(s.preemptions()).isEqualTo(1);
        assertThat(s.byClass().get("large").meanMs()).isEqualTo(10.0);
        // (70 + 100) ms on 2 units over 2 units x 180 ms
        assertThat(s.usageOfNominalPercent()).isCloseTo(100.0 * 340 / 360, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aPreemptionReadInOrderLeavesNoEarlyReadmission() {
        KueueBenchRecorder r = new KueueBenchRecorder();
        r.planned("b", "large", 2, 100);
        r.submitted("b", 0);
        r.admitted("b", 10, false);
        r.admitted("b", 60, true);                            // a new placement only
        r.preempted("b", 80);
        assertThat(r.readmittedEarly("b", 80)).isFalse();    // waits for its re-admission
        assertThat(r.runningUnits()).isZero();
        assertThat(r.admitted("b", 120, false)).isTrue();
    }
}
