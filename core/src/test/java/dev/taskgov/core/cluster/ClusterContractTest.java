package dev.taskgov.core.cluster;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cluster contract: the ARN rule, keys per cluster, and which cluster a submission belongs to. */
class ClusterContractTest {

    static final String A = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1";
    static final String B = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovsmall";

    @Test
    void anArnFollowsSageMakersRule() {
        assertThat(ClusterArn.of(A).value()).isEqualTo(A);
        assertThat(ClusterArn.of(A).shortId()).isEqualTo("taskgovdemo1");
        assertThat(ClusterArn.problem("arn:aws:sagemaker:us-west-2:000000000000:cluster/demo")).get().asString()
                .contains("ID 12 lowercase letters or digits").contains("cluster/demo");
        assertThat(ClusterArn.problem(null)).contains("is required");
        assertThatThrownBy(() -> ClusterArn.of("my-cluster")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HyperPod cluster ARN");
        assertThat(ClusterArn.ofNullable(null)).isEqualTo(ClusterArn.UNNAMED);
        assertThat(ClusterArn.UNNAMED.orNull()).isNull();
    }

    @Test
    void keysNameTheClusterAndReadBack() {
        ClusterArn a = ClusterArn.of(A);
        assertThat(ClusterScopedKey.of(a, "team-a")).isEqualTo(A + "#team-a");
        assertThat(ClusterScopedKey.schedulerConfig(a)).isEqualTo(A + "#_scheduler-config");
        assertThat(ClusterScopedKey.parse(A + "#team-a")).isEqualTo(new ClusterScopedKey(a, "team-a"));
        assertThat(ClusterScopedKey.parse(A + "#_scheduler-config").isSchedulerConfig()).isTrue();
        assertThat(ClusterScopedKey.parse(A).isDeclaration()).isTrue();
        // the keys of a deployment whose records name no cluster keep their meaning
        assertThat(ClusterScopedKey.parse("team-a")).isEqualTo(new ClusterScopedKey(ClusterArn.UNNAMED, "team-a"));
        assertThat(ClusterScopedKey.parse("_scheduler-config").isSchedulerConfig()).isTrue();
        assertThat(ClusterScopedKey.of(ClusterArn.UNNAMED, "team-a")).isEqualTo("team-a");
        assertThatThrownBy(() -> ClusterScopedKey.parse("arn:aws:sagemaker:x#team-a")).hasMessageStartingWith("key: the part before '#'");
        assertThatThrownBy(() -> ClusterScopedKey.parse(A + "#")).hasMessageContaining("is empty");
        assertThatThrownBy(() -> ClusterScopedKey.parse(" ")).hasMessageContaining("is required");
    }

    @Test
    void aSubmissionMayOmitItsClusterOnlyWhileTheDeploymentGovernsOne() {
        ClusterArn a = ClusterArn.of(A);
        ClusterArn b = ClusterArn.of(B);
        assertThat(WorkloadCluster.choose(null, Set.of())).isEqualTo(new WorkloadCluster.Chosen(ClusterArn.UNNAMED));
        assertThat(WorkloadCluster.choose(null, Set.of(a))).isEqualTo(new WorkloadCluster.Chosen(a));
        assertThat(WorkloadCluster.choose(B, Set.of(a, b))).isEqualTo(new WorkloadCluster.Chosen(b));

        WorkloadCluster.Result omitted = WorkloadCluster.choose(null, Set.of(a, b));
        assertThat(omitted).isInstanceOf(WorkloadCluster.Refused.class);
        assertThat(((WorkloadCluster.Refused) omitted).violation().toString())
                .startsWith("clusterArn: is required: this deployment governs 2 clusters").contains(A).contains(B);

        WorkloadCluster.Result unknown = WorkloadCluster.choose(B, Set.of(a));
        assertThat(((WorkloadCluster.Refused) unknown).violation().toString())
                .isEqualTo("clusterArn: cluster " + B + " is not governed by this deployment (it governs [" + A + "])");
        WorkloadCluster.Result malformed = WorkloadCluster.choose("prod", Set.of(a));
        assertThat(((WorkloadCluster.Refused) malformed).violation().field()).isEqualTo("clusterArn");
    }

    @Test
    void aReadMayOmitItsClusterOnlyWhileTheDeploymentGovernsOneAndARefusalSpeaksOfTheRead() {
        ClusterArn a = ClusterArn.of(A);
        ClusterArn b = ClusterArn.of(B);
        assertThat(WorkloadCluster.chooseToRead(null, Set.of(a))).isEqualTo(new WorkloadCluster.Chosen(a));
        assertThat(WorkloadCluster.chooseToRead(B, Set.of(a, b))).isEqualTo(new WorkloadCluster.Chosen(b));

        WorkloadCluster.Result omitted = WorkloadCluster.chooseToRead(null, Set.of(a, b));
        assertThat(((WorkloadCluster.Refused) omitted).violation().toString())
                .startsWith("cluster: is required: this deployment governs 2 clusters").contains(A).contains(B)
                .endsWith("; name the one to read with ?cluster=ARN (admission-service's GET /clusters lists them)")
                .doesNotContain("workload");
        WorkloadCluster.Result unknown = WorkloadCluster.chooseToRead(B, Set.of(a));
        assertThat(((WorkloadCluster.Refused) unknown).violation().toString())
                .isEqualTo("cluster: cluster " + B + " is not governed by this deployment (it governs [" + A + "])");
        WorkloadCluster.Result malformed = WorkloadCluster.chooseToRead("prod", Set.of(a));
        assertThat(((WorkloadCluster.Refused) malformed).violation().field()).isEqualTo("cluster");
    }

    @Test
    void workloadRecordsCarryTheClusterAndLeaveItOutWhenUnnamed() {
        String json = "{\"workloadId\":\"w1\",\"namespace\":\"hyperpod-ns-a\",\"clusterArn\":\"" + A + "\","
                + "\"podSets\":[{\"name\":\"worker\",\"count\":1,\"instanceType\":\"ml.p5.48xlarge\"}]}";
        WorkloadSubmitted s = EventCodec.read(json, WorkloadSubmitted.class);
        assertThat(s.cluster()).isEqualTo(ClusterArn.of(A));
        assertThat(s.withSubmittedAt(Instant.EPOCH).clusterArn()).isEqualTo(A);
        assertThat(EventCodec.read(json.replace(",\"clusterArn\":\"" + A + "\"", ""), WorkloadSubmitted.class).cluster())
                .isEqualTo(ClusterArn.UNNAMED);
        assertThatThrownBy(() -> EventCodec.read(json.replace("\"" + A + "\"", "7"), WorkloadSubmitted.class))
                .isInstanceOf(EventCodec.EventFormatException.class).hasMessageStartingWith("$.clusterArn");

        WorkloadAdmitted admitted = new WorkloadAdmitted("w1", "a", Instant.EPOCH, Map.of(), List.of());
        assertThat(EventCodec.write(admitted)).doesNotContain("clusterArn");
        assertThat(EventCodec.write(admitted.withClusterArn(A))).contains("\"clusterArn\":\"" + A + "\"");
        WorkloadStatus status = new WorkloadStatus("w1", "a", WorkloadState.Pending, "Queued", "m", Instant.EPOCH, A);
        assertThat(EventCodec.read(EventCodec.write(status), WorkloadStatus.class)).isEqualTo(status);
    }
}
