package dev.taskgov.watcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadAdmitted.AdmittedPodSet;
import dev.taskgov.core.events.WorkloadAdmitted.Domain;
import dev.taskgov.core.events.WorkloadAdmitted.NodeCount;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.ResourceArg;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * What today's HyperPod CLI creates ({@code hyp create hyp-pytorch-job}: a HyperPodPyTorchJob,
 * {@code sagemaker.amazonaws.com/v1}, with a {@code replicaSpecs} list) governed like a PyTorchJob,
 * on fabric8's mock API server and a real broker: submitted (replicas plus spares), admitted
 * (unsuspended in {@code spec.runPolicy.suspend}, the domain as node selector and no scheduling gate,
 * since the ungater does not know the HyperPod operator's pods), preempted (suspended, selectors
 * restored, a Preempted Event on the HyperPodPyTorchJob), then finished by its Completed condition.
 */
@QuarkusTest
@TestProfile(WatcherTestProfile.class)
@WithTestResource(value = KafkaTestResource.class,
        initArgs = @ResourceArg(name = KafkaTestResource.VERIFIES_REQUESTS, value = "false"))
@WithKubernetesTestServer(crud = true, https = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HyperPodPyTorchJobWatcherTest {
    static final String NS = "hyperpod-ns-team-name";
    static final String NAME = "sample-pytorch-job";
    static final String P5 = "ml.p5.48xlarge";
    static final Duration WAIT = Duration.ofSeconds(60);

    @KubernetesTestServer
    KubernetesServer server;


    KubernetesClient k8s;

    @BeforeEach
    void client() {
        k8s = server.getClient();
    }

    @Test
    @Order(1)
    void theJobHypCreatesIsSubmittedWithItsReplicasAndSparesPriorityAndPreferredTopology() {
        GenericKubernetesResource created = jobs().resource(Serialization.unmarshal(
                getClass().getResourceAsStream("/manifests/hyperpodpytorchjob-seed-000.yaml"), GenericKubernetesResource.class)).create();
        String id = "team-name-" + NAME + "-" + created.getMetadata().getUid().substring(0, 8);

        WorkloadSubmitted expected = new WorkloadSubmitted(id, NS, "hyperpod-ns-team-name-localqueue", "high-priority",
                "HyperPodPyTorchJob", Instant.parse(created.getMetadata().getCreationTimestamp()),
                List.of(new PodSetSpec("pod", 3, P5, new ResourceAmounts(new BigDecimal("8"), null, null), null, TopologyLevels.LAYER_1)),
                // no taskgov.dev/max-retry although the job has runPolicy.jobMaxRetryCount: 1: the operator retries inside the
                // admission, and the Failed the watcher reports after that is final (docs/architecture.md, "Retry after failure")
                Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest"));
        assertThat(EventCodec.read(awaitOne(Names.WORKLOAD_SUBMITTED, id).value(), WorkloadSubmitted.class)).isEqualTo(expected);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(job().getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.SUBMITTED)
                    .containsEntry(JobStates.WORKLOAD_ID, id);
            assertThat(events()).extracting(Event::getReason).contains("Submitted");
        });
    }

    @Test
    @Order(2)
    void anAdmissionOverSeveralHostsUnsuspendsItWithTheDomainSelectorAndNoGate() {
        String id = workloadId();
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "team-name", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("pod", P5, new Domain(TopologyLevels.LAYER_1, "nn-1"),
                        List.of(new NodeCount("p5-a", 2), new NodeCount("p5-b", 1))))));
        await().atMost(WAIT).untilAsserted(() -> {
            GenericKubernetesResource job = job();
            assertThat(JobEditor.suspended(JobKind.HYPERPOD_PYTORCH_JOB, job)).isFalse();
            assertThat(podSpec(job).getNodeSelector()).isEqualTo(Map.of("node.kubernetes.io/instance-type", P5,
                    TopologyLevels.LAYER_1, "nn-1"));
            assertThat(podSpec(job).getSchedulingGates()).isEmpty();
            assertThat(job.getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.ADMITTED);
            assertThat(events()).extracting(Event::getReason).contains("Admitted");
        });
    }

    @Test
    @Order(3)
    void aPreemptionSuspendsItRestoresTheSelectorsAndExplainsWhyOnTheJob() {
        String id = workloadId();
        send(Names.WORKLOAD_PREEMPTED, id, new WorkloadPreempted(id, "team-name", "team-owner-big-job",
                PreemptionReason.ReclaimLentCapacity, "team-owner reclaims its lent quota", Instant.now()));
        await().atMost(WAIT).untilAsserted(() -> {
            GenericKubernetesResource job = job();
            assertThat(JobEditor.suspended(JobKind.HYPERPOD_PYTORCH_JOB, job)).isTrue();
            assertThat(podSpec(job).getNodeSelector()).isEqualTo(Map.of("node.kubernetes.io/instance-type", P5));
            assertThat(job.getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.PREEMPTED)
                    .containsEntry(JobStates.REASON, "ReclaimLentCapacity");
            assertThat(events()).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("Preempted");
                assertThat(e.getInvolvedObject().getKind()).isEqualTo("HyperPodPyTorchJob");
                assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("sagemaker.amazonaws.com/v1");
            });
        });
    }

    @Test
    @Order(4)
    void itsCompletedConditionFinishesTheWorkloadAsSucceeded() {
        String id = workloadId();
        jobs().withName(NAME).edit(j -> {
            j.getAdditionalProperties().put("status", Map.of("conditions",
                    List.of(Map.of("type", "Completed", "status", "True"))));
            return j;
        });
        WorkloadFinished finished = EventCodec.read(awaitOne(Names.WORKLOAD_FINISHED, id).value(), WorkloadFinished.class);
        assertThat(finished.outcome()).isEqualTo(WorkloadFinished.Outcome.Succeeded);
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> jobs() {
        return k8s.genericKubernetesResources(JobKind.HYPERPOD_PYTORCH_JOB.context()).inNamespace(NS);
    }

    private GenericKubernetesResource job() {
        return jobs().withName(NAME).get();
    }

    private String workloadId() {
        return "team-name-" + NAME + "-" + job().getMetadata().getUid().substring(0, 8);
    }

    private static PodSpec podSpec(GenericKubernetesResource job) {
        return Serialization.unmarshal(Serialization.asJson(JobMaps.map(JobEditor.template(JobKind.HYPERPOD_PYTORCH_JOB, job, "pod")
                .get("spec"))), PodSpec.class);
    }

    private List<Event> events() {
        return k8s.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> NAME.equals(e.getInvolvedObject().getName())).toList();
    }

    private ConsumerRecord<String, String> awaitOne(String topic, String key) {
        return await().atMost(WAIT).until(() -> TopicRecords.withKey(topic, key), l -> l.size() == 1).get(0);
    }

    private void send(String topic, String key, Object event) {
        TopicRecords.send(topic, key, EventCodec.write(event));
    }
}
