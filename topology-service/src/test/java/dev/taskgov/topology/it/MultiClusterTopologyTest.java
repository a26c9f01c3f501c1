package dev.taskgov.topology.it;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import dev.taskgov.core.events.KafkaAccess;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * topology-service governing two clusters, each from its own source (the demo's static file and the small
 * cluster's): both declared on the topic, every node keyed and marked with its cluster, one tree per cluster.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
@TestProfile(MultiClusterTopologyTest.TwoClusters.class)
class MultiClusterTopologyTest {

    static final String DEMO = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1";
    static final String SMALL = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovsmall";
    static final String TOPIC = "taskgov.topology.two-clusters";

    public static class TwoClusters implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("taskgov.topology.cluster-arn", DEMO,
                    "taskgov.topology.clusters.small.arn", SMALL,
                    "taskgov.topology.clusters.small.source", "static",
                    "taskgov.topology.clusters.small.static-file-path", "../deploy/local/small-cluster.json",
                    "taskgov.topics.topology", TOPIC,
                    // a topic of its own, which the broker's grants do not name: the service logs in as the administrator
                    "taskgov.kafka.username", KafkaAccess.ADMIN);
        }
    }

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void bothClustersAreDeclaredAndEachNodeIsKeyedByItsCluster() {
        await().atMost(Duration.ofMinutes(3)).until(() -> TopicView.compacted(bootstrap, TOPIC).size() == 2 + 32 + 4);
        Map<String, String> latest = TopicView.compacted(bootstrap, TOPIC);
        ClusterDeclared small = EventCodec.read(latest.get(SMALL), ClusterDeclared.class);
        assertThat(small).isEqualTo(new ClusterDeclared(SMALL, "small", "static", null));
        assertThat(EventCodec.read(latest.get(DEMO), ClusterDeclared.class).clusterArn()).isEqualTo(DEMO);
        latest.forEach((key, value) -> {
            ClusterScopedKey k = ClusterScopedKey.parse(key);
            if (k.isDeclaration()) return;
            NodeRecord n = EventCodec.read(value, NodeRecord.class);
            assertThat(n.name()).isEqualTo(k.name());
            assertThat(n.clusterArn()).as(key).isEqualTo(k.cluster().value());
            assertThat(n.name()).as(key).startsWith(k.cluster().equals(ClusterArn.of(SMALL)) ? "p5s-" : "p5-b");
        });
        assertThat(latest.keySet().stream().filter(k -> k.startsWith(SMALL + "#"))).hasSize(4);
        assertThat(latest.keySet().stream().filter(k -> k.startsWith(DEMO + "#"))).hasSize(32);
    }

    @Test
    void eachClusterHasItsOwnTreeAndAnUnnamedRequestNamesTheField() {
        await().atMost(Duration.ofMinutes(3)).untilAsserted(() ->
                TopologyReads.asViewer().queryParam("cluster", SMALL).get("/topology").then().statusCode(200).body("readyNodes", equalTo(4)));
        TopologyReads.asViewer().queryParam("cluster", DEMO).get("/topology").then().statusCode(200)
                .body("readyNodes", equalTo(32)).body("capacity.accelerators", equalTo(256));
        TopologyReads.asViewer().get("/topology").then().statusCode(400).body("message", containsString("cluster: is required"));
        TopologyReads.asViewer().queryParam("cluster", "arn:aws:sagemaker:us-west-2:000000000000:cluster/nosuchcluste").get("/topology")
                .then().statusCode(404).body("message", containsString("is not governed"));
    }
}
