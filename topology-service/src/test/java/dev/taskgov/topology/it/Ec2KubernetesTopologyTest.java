package dev.taskgov.topology.it;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.topology.ec2.Ec2TopologyStub;
import dev.taskgov.topology.ec2.InstanceTopologyEntry;
import dev.taskgov.topology.inventory.InventoryRefresher;
import dev.taskgov.topology.inventory.TopologyPublisher;
import dev.taskgov.topology.kubernetes.KubernetesNodeMapper;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * EC2 stub + mock Kubernetes API server + a real broker: the labels on the nodes and the records on
 * the topology topic match the stub's topology exactly, and follow a change within one poll.
 */
@QuarkusTest
@TestProfile(Ec2KubernetesProfile.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(Ec2StubResource.class)
@WithKubernetesTestServer(crud = true, https = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class Ec2KubernetesTopologyTest {

    static final Resources P5 = Resources.of(8, 192_000, 2048 * 1024);
    static final Duration WAIT = Duration.ofMinutes(3);

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    InventoryRefresher refresher;

    @Inject
    TopologyPublisher publisher;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    Ec2TopologyStub stub;
    KubernetesClient k8s;

    static final List<InstanceTopologyEntry> BASE = List.of(
            instance("i-01", "nn-1", "nn-b1", "nn-b1-r1"),
            instance("i-02", "nn-1", "nn-b1", "nn-b1-r1"),
            instance("i-03", "nn-1", "nn-b2", "nn-b2-r1"),
            instance("i-04", "nn-2", "nn-b3", "nn-b3-r1"));
    static boolean clusterCreated;

    /**
     * One cluster for the whole story (the tests run in order): four p5 nodes in Kubernetes, their
     * instances in EC2 over two pages.
     */
    @BeforeEach
    void cluster() {
        stub = Ec2StubResource.stub;
        stub.clearFaults();
        k8s = server.getClient();
        if (!clusterCreated) {
            stub.setInstances(BASE);
            for (int i = 1; i <= 4; i++) {
                k8s.nodes().resource(k8sNode("p5-" + i, "i-0" + i)).create();
            }
            await().atMost(WAIT).until(() -> refresher.pollNow().nodes() == 4);
            clusterCreated = true;
        }
    }

    @Test
    @Order(1)
    void labelsAndRecordsMatchTheStubExactly() {
        assertClusterMatchesStub();
        List<ConsumerRecord<String, String>> records = TopicView.records(bootstrap, Ec2KubernetesProfile.TOPIC);
        ConsumerRecord<String, String> last = records.get(records.size() - 1);
        assertThat(TopicView.header(last, "ce_specversion")).isEqualTo("1.0");
        assertThat(TopicView.header(last, "ce_source")).isEqualTo(TopologyPublisher.EVENT_SOURCE);
        assertThat(TopicView.header(last, "ce_type")).isIn(NodeRecord.TYPE, NodeRecord.REMOVED_TYPE);
        assertThat(TopicView.header(last, "ce_id")).isNotBlank();
        assertThat(TopicView.header(last, "ce_time")).isNotBlank();
    }

    @Test
    @Order(2)
    void anUnchangedInventoryPublishesNothingEvenAfterReadingTheTopicBack() {
        int before = TopicView.records(bootstrap, Ec2KubernetesProfile.TOPIC).size();

        publisher.restore(Duration.ofSeconds(30));
        InventoryRefresher.Outcome outcome = refresher.pollNow();

        assertThat(outcome.published().isEmpty()).isTrue();
        assertThat(outcome.labelsWritten()).isZero();
        assertThat(TopicView.records(bootstrap, Ec2KubernetesProfile.TOPIC)).hasSize(before);
    }

    @Test
    @Order(4)
    void followsAChangeInTheStubWithinOnePoll() {
        stub.setInstances(List.of(
                instance("i-01", "nn-1", "nn-b1", "nn-b1-r2"),
                instance("i-02", "nn-2", "nn-b3", "nn-b3-r2"),
                instance("i-03", "nn-1", "nn-b2", "nn-b2-r2"),
                instance("i-04", "nn-2", "nn-b3", "nn-b3-r1")));

        InventoryRefresher.Outcome outcome = refresher.pollNow();

        assertThat(outcome.published().upserted()).containsExactly("p5-2", "p5-3");
        assertThat(outcome.labelsWritten()).isEqualTo(2);
        assertClusterMatchesStub();
    }

    @Test
    @Order(3)
    void aThrottledRequestIsRetriedWithinThePoll() {
        stub.failNext(Ec2TopologyStub.Fault.THROTTLE);
        stub.setInstances(List.of(
                instance("i-01", "nn-1", "nn-b1", "nn-b1-r2"),
                instance("i-02", "nn-1", "nn-b1", "nn-b1-r1"),
                instance("i-03", "nn-1", "nn-b2", "nn-b2-r1"),
                instance("i-04", "nn-2", "nn-b3", "nn-b3-r1")));

        InventoryRefresher.Outcome outcome = refresher.pollNow();

        assertThat(outcome.sourcesFailed()).isFalse();
        assertThat(outcome.published().upserted()).containsExactly("p5-1");
        assertClusterMatchesStub();
    }

    @Test
    @Order(5)
    void aFailedPollKeepsEveryKnownNodeAndItsLabels() {
        Map<String, String> before = TopicView.compacted(bootstrap, Ec2KubernetesProfile.TOPIC);
        double errorsBefore = pollErrors();
        List<InstanceTopologyEntry> good = stub.instances();
        stub.setInstances(good.subList(0, 1));
        stub.failNext(Ec2TopologyStub.Fault.MALFORMED);
        stub.failNext(Ec2TopologyStub.Fault.MALFORMED);

        InventoryRefresher.Outcome malformed = refresher.pollNow();
        stub.clearFaults();
        stub.failNext(Ec2TopologyStub.Fault.THROTTLE);
        stub.failNext(Ec2TopologyStub.Fault.THROTTLE);
        InventoryRefresher.Outcome throttled = refresher.pollNow();

        assertThat(malformed.sourcesFailed()).isTrue();
        assertThat(throttled.sourcesFailed()).isTrue();
        assertThat(malformed.published().isEmpty()).isTrue();
        assertThat(throttled.published().isEmpty()).isTrue();
        assertThat(TopicView.compacted(bootstrap, Ec2KubernetesProfile.TOPIC)).isEqualTo(before);
        stub.setInstances(good);
        assertClusterMatchesStub();
        assertThat(pollErrors()).isEqualTo(errorsBefore + 2);
    }

    @Test
    @Order(7)
    void aNodeThatLeavesGetsATombstone() {
        k8s.nodes().withName("p5-3").delete();

        await().atMost(WAIT).untilAsserted(() ->
                assertThat(TopicView.compacted(bootstrap, Ec2KubernetesProfile.TOPIC)).containsOnlyKeys("p5-1", "p5-2", "p5-4"));
        List<ConsumerRecord<String, String>> records = TopicView.records(bootstrap, Ec2KubernetesProfile.TOPIC);
        ConsumerRecord<String, String> lastForNode = records.stream().filter(r -> "p5-3".equals(r.key())).reduce((a, b) -> b).orElseThrow();
        assertThat(lastForNode.value()).isNull();
        assertThat(TopicView.header(lastForNode, "ce_type")).isEqualTo(NodeRecord.REMOVED_TYPE);
    }

    @Test
    @Order(6)
    void aNodeTurningNotReadyIsRepublishedNotReady() {
        k8s.nodes().withName("p5-4").editStatus(n -> new NodeBuilder(n).editStatus().editFirstCondition()
                .withStatus("False").withReason("KubeletNotReady").endCondition().endStatus().build());

        await().atMost(WAIT).untilAsserted(() -> assertThat(
                EventCodec.read(TopicView.compacted(bootstrap, Ec2KubernetesProfile.TOPIC).get("p5-4"), NodeRecord.class).toValidNode(java.util.Map.of()).ready()).isFalse());
        TopologyReads.asViewer().get("/topology").then().statusCode(200)
                .body("readyNodes", org.hamcrest.Matchers.equalTo(3))
                .body("notReadyNodes", org.hamcrest.Matchers.equalTo(1));
    }

    /** Kubernetes labels and the compacted topic against what the stub reports now. */
    private void assertClusterMatchesStub() {
        Map<String, Node> expected = new TreeMap<>();
        for (io.fabric8.kubernetes.api.model.Node n : k8s.nodes().list().getItems()) {
            String instanceId = KubernetesNodeMapper.instanceIdOf(n.getSpec().getProviderID()).orElseThrow();
            InstanceTopologyEntry e = stub.instances().stream().filter(i -> i.instanceId().equals(instanceId)).findFirst().orElseThrow();
            Map<String, String> layers = Map.of(TopologyLevels.LAYER_1, e.networkNodes().get(0),
                    TopologyLevels.LAYER_2, e.networkNodes().get(1), TopologyLevels.LAYER_3, e.networkNodes().get(2));
            assertThat(n.getMetadata().getLabels()).as("labels of %s", n.getMetadata().getName()).containsAllEntriesOf(layers);
            Map<String, String> labels = new TreeMap<>(layers);
            labels.put(TopologyLevels.HOSTNAME, n.getMetadata().getName());
            expected.put(n.getMetadata().getName(), new Node(n.getMetadata().getName(), instanceId, "ml.p5.48xlarge", labels, P5,
                    KubernetesNodeMapper.isReady(n)));
        }
        Map<String, Node> published = new TreeMap<>();
        TopicView.compacted(bootstrap, Ec2KubernetesProfile.TOPIC).forEach((k, v) -> published.put(k, EventCodec.read(v, NodeRecord.class).toValidNode(java.util.Map.of())));
        assertThat(published).isEqualTo(expected);
    }

    private static double pollErrors() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("taskgov_topology_poll_errors_total{") && l.contains("source=\"ec2\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    static InstanceTopologyEntry instance(String id, String... networkNodes) {
        return new InstanceTopologyEntry(id, "p5.48xlarge", "pg-train", List.of(networkNodes));
    }

    static io.fabric8.kubernetes.api.model.Node k8sNode(String name, String instanceId) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels(KubernetesNodeMapper.INSTANCE_TYPE_LABEL, "ml.p5.48xlarge").endMetadata()
                .withNewSpec().withProviderID("aws:///us-west-2a/" + instanceId).endSpec()
                .withNewStatus().addToAllocatable("nvidia.com/gpu", new Quantity("8")).addToAllocatable("cpu", new Quantity("192"))
                .addToAllocatable("memory", new Quantity("2Ti")).addToAllocatable("pods", new Quantity("110"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }
}
