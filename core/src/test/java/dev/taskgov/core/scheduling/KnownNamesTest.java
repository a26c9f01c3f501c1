package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyRequest;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A submitted workload's team and instance type names are replaced by the instances the scheduler was given by its
 * quotas and instance types, so that its checks' look-ups by name compare references; nothing else about it changes.
 */
class KnownNamesTest {

    /** Names of their own, as a decoder gives each submission. */
    private static Workload decoded(String id, String team, int pods, Map<String, String> nodeSelector) {
        return new Workload(new String(id), new String(team), "normal", 10, Instant.EPOCH, List.of(
                new PodSetRequest("worker", pods, new String(Cluster.G5), Resources.accelerators(1), TopologyRequest.NONE,
                        nodeSelector)), 2);
    }

    private static Cluster cluster() {
        return Cluster.gpus(8).team("team-a", 4).team("team-b", 4);
    }

    @Test
    void aSubmittedWorkloadTakesTheSchedulersNamesAndIsOtherwiseTheSame() {
        Scheduler s = cluster().replay().scheduler();
        String team = s.ledger().quota("team-a").team();
        Workload submitted = decoded("w-1", "team-a", 2, Map.of("zone", "a"));

        SubmitResult result = s.submit(submitted);

        Workload queued = s.pendingWorkload("w-1");
        assertThat(queued).isEqualTo(submitted).isNotSameAs(submitted);
        assertThat(queued.team()).isSameAs(team);
        assertThat(queued.podSets().get(0).instanceType()).isSameAs(Cluster.G5_TYPE.name());
        assertThat(result).isEqualTo(new SubmitResult.Accepted(submitted));
    }

    @Test
    void aWorkloadOfAnUnknownTeamOrTypeKeepsItsNames() {
        Scheduler s = cluster().replay().scheduler();
        Workload submitted = new Workload("w-1", "team-z", "normal", 10, Instant.EPOCH, List.of(
                new PodSetRequest("worker", 1, "ml.unknown", Resources.accelerators(1), TopologyRequest.NONE)));

        s.submit(submitted);

        assertThat(s.pendingWorkload("w-1")).isSameAs(submitted);
    }

    @Test
    void decodedNamesDecideAsSharedOnes() {
        Cluster shared = cluster();
        Cluster copies = cluster();
        for (int i = 0; i < 12; i++) {
            String id = "w-" + i;
            String team = i % 3 == 0 ? "team-b" : "team-a";
            int pods = 1 + i % 3;
            shared.then(s -> s.submit(new Workload(id, team, "normal", 10, Instant.EPOCH, List.of(new PodSetRequest("worker",
                    pods, Cluster.G5, Resources.accelerators(1), TopologyRequest.NONE)), 2)));
            copies.then(s -> s.submit(decoded(id, team, pods, Map.of())));
        }
        shared.finish("w-0").finish("w-4");
        copies.finish("w-0").finish("w-4");

        Cluster.Replay a = shared.replay();
        Cluster.Replay b = copies.replay();

        assertThat(b.decisions()).isEqualTo(a.decisions());
        assertThat(b.outcome()).isEqualTo(a.outcome());
        assertThat(a.outcome().admitted()).isNotEmpty();
    }
}
