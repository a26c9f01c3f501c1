package dev.taskgov.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Kueue profiles restated in taskgov's terms, and the figures the benchmark derives from them. */
class KueueBenchProfileTest {

    @Test
    void baseline_is_kueues_mix_on_600_accelerators_with_a_66_second_bound() {
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
    void tas_has_ten_racks_of_64_one_accelerator_nodes_and_rotates_topology_requests() {
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
    void scale_keeps_the_mix_and_shrinks_the_teams_and_nodes() {
        KueueBenchProfile p = KueueBenchProfile.named("baseline", 0.1);
        assertThat(p.teams()).isEqualTo(3);
        assertThat(p.capacity()).isEqualTo(64); // 60 accelerators of quota, rounded up to whole 8-accelerator nodes
        assertThat(p.capacityBoundSeconds()).isEqualTo(66.0);
        assertThatThrownBy(() -> KueueBenchProfile.named("baseline", 0)).hasMessageContaining("--scale must be in (0, 1]");
        assertThatThrownBy(() -> KueueBenchProfile.named("nope", 1)).hasMessageContaining("--profile must be baseline, tas or large-scale");
    }

    @Test
    void recorder_counts_time_to_admission_from_the_first_admission_and_usage_over_the_wall_time() {
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
}
