package dev.taskgov.watcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
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
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.ResourceArg;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;

/**
 * Seed 000's Job (required topology) and PyTorchJob (preferred topology) through the whole story on
 * fabric8's mock API server (CRUD) and a real broker: submitted, admitted (unsuspended, placed),
 * preempted (suspended, selectors restored), pending with a reason, finished; a restart of the watcher
 * submits nothing twice; malformed jobs get Warning Events and publish nothing; a deleted pending job is
 * cancelled; gated Job and Kubeflow pods get their hosts; a queue-labelled job created running is
 * suspended, explained and submitted. The tests run in order on one cluster.
 */
@QuarkusTest
@TestProfile(WatcherTestProfile.class)
@WithTestResource(value = KafkaTestResource.class,
        initArgs = @ResourceArg(name = KafkaTestResource.VERIFIES_REQUESTS, value = "false"))
@WithKubernetesTestServer(crud = true, https = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JobWatcherTest {
    static final String NS = "hyperpod-ns-team-name";
    static final String P5 = "ml.p5.48xlarge";
    static final Duration WAIT = Duration.ofSeconds(60);

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    JobWatcher watcher;


    KubernetesClient k8s;

    @BeforeEach
    void client() {
        k8s = server.getClient();
    }

    @Test
    @Order(1)
    void seedJobWithRequiredTopologyIsSubmittedAsOneWholeRecord() {
        Job job = k8s.batch().v1().jobs().resource(load("job-required-topology.yaml", Job.class)).create();
        String id = "team-name-test-tas-job-" + job.getMetadata().getUid().substring(0, 8);

        WorkloadSubmitted expected = new WorkloadSubmitted(id, NS, "hyperpod-ns-team-name-localqueue", "training-priority",
                "Job", Instant.parse(job.getMetadata().getCreationTimestamp()),
                List.of(new PodSetSpec("main", 10, P5, new ResourceAmounts(null, new BigDecimal("100"), null),
                        TopologyLevels.LAYER_3, null, Map.of(TopologyLevels.LAYER_3, "nn-b1-r2"))),
                Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "gcr.io/k8s-staging-perf-tests/sleep:v0.1.0"));
        ConsumerRecord<String, String> record = awaitOne(Names.WORKLOAD_SUBMITTED, id);
        assertThat(EventCodec.read(record.value(), WorkloadSubmitted.class)).isEqualTo(expected);
        assertThat(header(record, "ce_type")).isEqualTo(WorkloadSubmitted.TYPE);
        assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(record, "ce_id")).isNotBlank();

        await().atMost(WAIT).untilAsserted(() -> {
            Map<String, String> ann = job("test-tas-job").getMetadata().getAnnotations();
            assertThat(ann).containsEntry(JobStates.STATE, JobStates.SUBMITTED).containsEntry(JobStates.WORKLOAD_ID, id);
            assertThat(reasons("test-tas-job")).contains("Submitted");
        });
    }

    @Test
    @Order(2)
    void seedPyTorchJobWithPreferredTopologyIsOneWorkloadWithMasterAndWorkerPodSets() {
        GenericKubernetesResource created = pytorch().resource(load("pytorchjob-preferred-topology.yaml",
                GenericKubernetesResource.class)).create();
        String id = "team-name-tas-test-pytorch-job-" + created.getMetadata().getUid().substring(0, 8);

        WorkloadSubmitted expected = new WorkloadSubmitted(id, NS, "hyperpod-ns-team-name-localqueue", null, "PyTorchJob",
                Instant.parse(created.getMetadata().getCreationTimestamp()),
                List.of(new PodSetSpec("master", 1, P5, new ResourceAmounts(null, null, null), null, null),
                        new PodSetSpec("worker", 10, P5,
                                new ResourceAmounts(null, new BigDecimal("1"), new BigDecimal("0.1953125")),
                                null, TopologyLevels.LAYER_3)),
                Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727"));
        assertThat(EventCodec.read(awaitOne(Names.WORKLOAD_SUBMITTED, id).value(), WorkloadSubmitted.class))
                .isEqualTo(expected);
    }

    @Test
    @Order(3)
    void anAdmissionUnsuspendsTheJobWithTheDomainSelectorAndTheTopologyGate() {
        String id = workloadId("test-tas-job");
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "team-name", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("main", P5, new Domain(TopologyLevels.LAYER_3, "nn-b1-r2"),
                        List.of(new NodeCount("p5-b1r2h1", 8), new NodeCount("p5-b1r2h2", 2))))));

        await().atMost(WAIT).untilAsserted(() -> {
            Job job = job("test-tas-job");
            assertThat(job.getSpec().getSuspend()).isFalse();
            PodSpec pod = job.getSpec().getTemplate().getSpec();
            assertThat(pod.getNodeSelector()).isEqualTo(Map.of(TopologyLevels.LAYER_3, "nn-b1-r2"));
            assertThat(pod.getSchedulingGates()).extracting(g -> g.getName()).containsExactly(JobEditor.TOPOLOGY_GATE);
            assertThat(job.getSpec().getTemplate().getMetadata().getAnnotations())
                    .containsEntry(JobEditor.NODE_ASSIGNMENT, "{\"p5-b1r2h1\":8,\"p5-b1r2h2\":2}");
            assertThat(job.getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.ADMITTED);
            assertThat(reasons("test-tas-job")).contains("Admitted");
        });
    }

    @Test
    @Order(4)
    void aPreemptionSuspendsTheJobAndRestoresTheUsersSelectorsAndExplainsWhy() {
        String id = workloadId("test-tas-job");
        send(Names.WORKLOAD_PREEMPTED, id, new WorkloadPreempted(id, "team-name", "team-owner-big-job",
                PreemptionReason.ReclaimLentCapacity, "team-owner reclaims its lent quota for team-owner-big-job", Instant.now()));

        await().atMost(WAIT).untilAsserted(() -> {
            Job job = job("test-tas-job");
            assertThat(job.getSpec().getSuspend()).isTrue();
            PodSpec pod = job.getSpec().getTemplate().getSpec();
            assertThat(pod.getNodeSelector()).isEqualTo(Map.of(TopologyLevels.LAYER_3, "nn-b1-r2"));
            assertThat(pod.getSchedulingGates()).isEmpty();
            assertThat(job.getSpec().getTemplate().getMetadata().getAnnotations()).doesNotContainKey(JobEditor.NODE_ASSIGNMENT);
            assertThat(job.getMetadata().getAnnotations())
                    .containsEntry(JobStates.STATE, JobStates.PREEMPTED)
                    .containsEntry(JobStates.REASON, "ReclaimLentCapacity")
                    // the preemptor is another team's workload: this team sees it counted, not named
                    .containsEntry(JobStates.MESSAGE, "preempted by a workload of another team (ReclaimLentCapacity): "
                            + "team-owner reclaims its lent quota for a workload of another team");
            assertThat(events("test-tas-job")).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("Preempted");
                assertThat(e.getInvolvedObject().getKind()).isEqualTo("Job");
                assertThat(e.getMessage()).contains("ReclaimLentCapacity").doesNotContain("team-owner-big-job");
            });
        });
    }

    @Test
    @Order(5)
    void aPendingStatusIsTheJobsStateWithTheSchedulersReason() {
        String id = workloadId("test-tas-job");
        String message = "TopologyPlacementFailed: allows to fit only 6 out of 10 pods";
        send(Names.WORKLOAD_STATUS, id, new WorkloadStatus(id, "team-name", WorkloadState.Pending,
                "TopologyPlacementFailed", message, Instant.now()));

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(job("test-tas-job").getMetadata().getAnnotations())
                    .containsEntry(JobStates.STATE, JobStates.PENDING)
                    .containsEntry(JobStates.REASON, "TopologyPlacementFailed")
                    .containsEntry(JobStates.MESSAGE, message);
            assertThat(events("test-tas-job")).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("Pending");
                assertThat(e.getMessage()).contains("only 6 out of 10");
            });
        });
    }

    @Test
    @Order(6)
    void aReadmittedJobThatCompletesPublishesSucceeded() {
        String id = workloadId("test-tas-job");
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "team-name", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("main", P5, new Domain(TopologyLevels.LAYER_3, "nn-b1-r2"),
                        List.of(new NodeCount("p5-b1r2h3", 10))))));
        await().atMost(WAIT).untilAsserted(() -> {
            Job job = job("test-tas-job");
            assertThat(job.getSpec().getSuspend()).isFalse();
            assertThat(job.getSpec().getTemplate().getSpec().getNodeSelector()).isEqualTo(
                    Map.of(TopologyLevels.LAYER_3, "nn-b1-r2", TopologyLevels.HOSTNAME, "p5-b1r2h3"));
            assertThat(job.getSpec().getTemplate().getSpec().getSchedulingGates()).isEmpty();
        });

        k8s.batch().v1().jobs().inNamespace(NS).withName("test-tas-job").editStatus(j -> {
            j.setStatus(new JobStatusBuilder().withSucceeded(10).addToConditions(new JobConditionBuilder()
                    .withType("Complete").withStatus("True").build()).build());
            return j;
        });

        WorkloadFinished finished = EventCodec.read(awaitOne(Names.WORKLOAD_FINISHED, id).value(), WorkloadFinished.class);
        assertThat(finished.workloadId()).isEqualTo(id);
        assertThat(finished.outcome()).isEqualTo(WorkloadFinished.Outcome.Succeeded);
        await().atMost(WAIT).untilAsserted(() -> assertThat(job("test-tas-job").getMetadata().getAnnotations())
                .containsEntry(JobStates.STATE, JobStates.FINISHED));
    }

    @Test
    @Order(7)
    void aPyTorchJobGetsOneNodeForItsMasterAndGatedWorkersThenFails() {
        String id = workloadId("tas-test-pytorch-job");
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "team-name", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("master", P5, null, List.of(new NodeCount("p5-a", 1))),
                        new AdmittedPodSet("worker", P5, new Domain(TopologyLevels.LAYER_3, "nn-b1-r1"),
                                List.of(new NodeCount("p5-b", 8), new NodeCount("p5-c", 2))))));

        await().atMost(WAIT).untilAsserted(() -> {
            GenericKubernetesResource job = pytorch().withName("tas-test-pytorch-job").get();
            assertThat(JobEditor.suspended(JobKind.PYTORCH_JOB, job)).isFalse();
            assertThat(podSpec(job, "master").getNodeSelector()).isEqualTo(Map.of(TopologyLevels.HOSTNAME, "p5-a"));
            assertThat(podSpec(job, "master").getSchedulingGates()).isEmpty();
            assertThat(podSpec(job, "worker").getNodeSelector()).isEqualTo(Map.of(TopologyLevels.LAYER_3, "nn-b1-r1"));
            assertThat(podSpec(job, "worker").getSchedulingGates()).extracting(g -> g.getName())
                    .containsExactly(JobEditor.TOPOLOGY_GATE);
        });

        pytorch().withName("tas-test-pytorch-job").edit(j -> {
            j.getAdditionalProperties().put("status", Map.of("conditions",
                    List.of(Map.of("type", "Failed", "status", "True", "reason", "PyTorchJobFailed"))));
            return j;
        });
        WorkloadFinished finished = EventCodec.read(awaitOne(Names.WORKLOAD_FINISHED, id).value(), WorkloadFinished.class);
        assertThat(finished.outcome()).isEqualTo(WorkloadFinished.Outcome.Failed);
    }

    @Test
    @Order(8)
    void aRestartedWatcherRelistsAndSubmitsNothingTwice() {
        watcher.stop();
        watcher.start();
        await().atMost(WAIT).until(watcher::synced);

        // A job created after the restart is submitted: the watcher works again...
        Job fresh = load("job-required-topology.yaml", Job.class);
        fresh.getMetadata().setName("after-restart");
        fresh = k8s.batch().v1().jobs().resource(fresh).create();
        String freshId = "team-name-after-restart-" + fresh.getMetadata().getUid().substring(0, 8);
        awaitOne(Names.WORKLOAD_SUBMITTED, freshId);

        // ...and the jobs it had already submitted were not submitted again.
        await().during(Duration.ofSeconds(3)).atMost(WAIT).untilAsserted(() -> {
            assertThat(TopicRecords.withKey(Names.WORKLOAD_SUBMITTED, workloadId("test-tas-job"))).hasSize(1);
            assertThat(TopicRecords.withKey(Names.WORKLOAD_SUBMITTED,
                    workloadId("tas-test-pytorch-job"))).hasSize(1);
        });
    }

    @Test
    @Order(9)
    void aJobDeletedWhilePendingIsCancelled() {
        String id = workloadId("after-restart");
        k8s.batch().v1().jobs().inNamespace(NS).withName("after-restart").delete();
        WorkloadFinished finished = EventCodec.read(awaitOne(Names.WORKLOAD_FINISHED, id).value(), WorkloadFinished.class);
        assertThat(finished.outcome()).isEqualTo(WorkloadFinished.Outcome.Cancelled);
    }

    @Test
    @Order(10)
    void malformedJobsGetAWarningEventWithTheReasonAndPublishNothing() {
        Map<String, String> expectedReasons = Map.of(
                "no-queue-label", "MissingQueueName",
                "zero-requests", "NoRequests",
                "bad-level", "InvalidTopology",
                "no-instance-type", "UnknownInstanceType");
        for (HasMetadata item : k8s.load(manifest("job-malformed.yaml")).items()) {
            k8s.resource(item).create();
        }
        await().atMost(WAIT).untilAsserted(() -> expectedReasons.forEach((name, reason) -> {
            String ns = name.equals("no-instance-type") ? "hyperpod-ns-other-team" : NS;
            List<Event> events = k8s.v1().events().inNamespace(ns).list().getItems().stream()
                    .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
            assertThat(events).as(name).anySatisfy(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReason()).isEqualTo(reason);
            });
            Job job = k8s.batch().v1().jobs().inNamespace(ns).withName(name).get();
            assertThat(job.getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.INVALID)
                    .containsEntry(JobStates.REASON, reason);
        }));
        List<String> keys = TopicRecords.all(Names.WORKLOAD_SUBMITTED).stream().map(ConsumerRecord::key).toList();
        assertThat(keys).noneMatch(k -> k.contains("no-queue-label") || k.contains("zero-requests")
                || k.contains("bad-level") || k.contains("no-instance-type"));
    }

    @Test
    @Order(11)
    void theUngaterGivesEachGatedJobPodAHostByThePlacementsCounts() {
        for (int i = 0; i < 3; i++) {
            k8s.pods().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                    .withNewMetadata().withName("gated-job-" + i).withNamespace(NS)
                    .addToLabels(TopologyUngater.JOB_NAME_LABEL, "gated-job")
                    .addToAnnotations(JobEditor.NODE_ASSIGNMENT, "{\"p5-h1\":2,\"p5-h2\":1}").endMetadata()
                    .withNewSpec().addToNodeSelector(TopologyLevels.LAYER_3, "nn-b1-r2")
                    .addNewSchedulingGate(JobEditor.TOPOLOGY_GATE)
                    .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
        }
        await().atMost(WAIT).untilAsserted(() -> {
            List<io.fabric8.kubernetes.api.model.Pod> pods = k8s.pods().inNamespace(NS)
                    .withLabel(TopologyUngater.JOB_NAME_LABEL, "gated-job").list().getItems();
            assertThat(pods).hasSize(3).allSatisfy(p -> {
                assertThat(p.getSpec().getSchedulingGates()).isEmpty();
                assertThat(p.getSpec().getNodeSelector()).containsEntry(TopologyLevels.LAYER_3, "nn-b1-r2");
            });
            assertThat(pods.stream().collect(java.util.stream.Collectors.groupingBy(
                    p -> p.getSpec().getNodeSelector().get(TopologyLevels.HOSTNAME), java.util.stream.Collectors.counting())))
                    .isEqualTo(Map.of("p5-h1", 2L, "p5-h2", 1L));
        });
    }

    @Test
    @Order(12)
    void theUngaterGivesKubeflowPodsTheirHostsPerReplicaType() {
        // Master and worker share host p5-a: their counts are separate, one per replica type's template.
        kubeflowPod("kf-master-0", "Master", "{\"p5-a\":1}");
        for (int i = 0; i < 3; i++) kubeflowPod("kf-worker-" + i, "Worker", "{\"p5-a\":1,\"p5-b\":2}");
        await().atMost(WAIT).untilAsserted(() -> {
            List<io.fabric8.kubernetes.api.model.Pod> pods = k8s.pods().inNamespace(NS)
                    .withLabel(TopologyUngater.KUBEFLOW_JOB_NAME_LABEL, "kf-job").list().getItems();
            assertThat(pods).hasSize(4).allSatisfy(p -> assertThat(p.getSpec().getSchedulingGates()).isEmpty());
            assertThat(pods.stream().filter(p -> p.getMetadata().getName().startsWith("kf-master"))
                    .map(p -> p.getSpec().getNodeSelector().get(TopologyLevels.HOSTNAME))).containsExactly("p5-a");
            assertThat(pods.stream().filter(p -> p.getMetadata().getName().startsWith("kf-worker")).collect(
                    java.util.stream.Collectors.groupingBy(p -> p.getSpec().getNodeSelector().get(TopologyLevels.HOSTNAME),
                            java.util.stream.Collectors.counting()))).isEqualTo(Map.of("p5-a", 1L, "p5-b", 2L));
        });
    }

    @Test
    @Order(13)
    void aQueueLabelledJobCreatedRunningIsSuspendedWithAnEventThenSubmitted() {
        Job running = load("job-required-topology.yaml", Job.class);
        running.getMetadata().setName("created-running");
        running.getSpec().setSuspend(false);
        Job created = k8s.batch().v1().jobs().resource(running).create();
        String id = "team-name-created-running-" + created.getMetadata().getUid().substring(0, 8);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(job("created-running").getSpec().getSuspend()).isTrue();
            assertThat(k8s.v1().events().inNamespace(NS).list().getItems().stream()
                    .filter(e -> "created-running".equals(e.getInvolvedObject().getName())))
                    .anySatisfy(e -> {
                        assertThat(e.getType()).isEqualTo("Warning");
                        assertThat(e.getReason()).isEqualTo("SuspendedByTaskgov");
                        assertThat(e.getMessage()).startsWith("created without spec.suspend: true; taskgov suspended it");
                    });
        });
        assertThat(EventCodec.read(awaitOne(Names.WORKLOAD_SUBMITTED, id).value(), WorkloadSubmitted.class).workloadId())
                .isEqualTo(id);
    }

    @Test
    @Order(14)
    void aNodeReplacedPlacementGivesTheJobsRecreatedPodsTheNewHosts() {
        Job template = load("job-required-topology.yaml", Job.class);
        template.getMetadata().setName("replaced-job");
        Job job = k8s.batch().v1().jobs().resource(template).create();
        String id = "team-name-replaced-job-" + job.getMetadata().getUid().substring(0, 8);
        awaitOne(Names.WORKLOAD_SUBMITTED, id);
        Domain rack = new Domain(TopologyLevels.LAYER_3, "nn-b1-r2");
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "team-name", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("main", P5, rack, List.of(new NodeCount("p5-h1", 1), new NodeCount("p5-h2", 1))))));
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(job("replaced-job").getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.ADMITTED));

        // p5-h1 failed: its pod goes to p5-h3
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "team-name", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("main", P5, rack, List.of(new NodeCount("p5-h2", 1), new NodeCount("p5-h3", 1)))),
                WorkloadAdmitted.NODE_REPLACED));
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(job("replaced-job").getMetadata().getAnnotations())
                    .containsEntry(JobEditor.NODE_ASSIGNMENTS, "{\"main\":{\"p5-h2\":1,\"p5-h3\":1}}")
                    .containsEntry(JobStates.STATE, JobStates.ADMITTED);
            assertThat(reasons("replaced-job")).contains(WorkloadAdmitted.NODE_REPLACED);
        });

        // the Job controller recreates the lost pod from the template, which still names the old hosts
        Job owner = job("replaced-job");
        var ref = new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
                .withName("replaced-job").withUid(owner.getMetadata().getUid()).withController(true).build();
        k8s.pods().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName("replaced-job-live").withNamespace(NS).addToLabels(TopologyUngater.JOB_NAME_LABEL, "replaced-job")
                .withOwnerReferences(ref).endMetadata()
                .withNewSpec().addToNodeSelector(TopologyLevels.HOSTNAME, "p5-h2")
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
        k8s.pods().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName("replaced-job-new").withNamespace(NS).addToLabels(TopologyUngater.JOB_NAME_LABEL, "replaced-job")
                .addToAnnotations(JobEditor.NODE_ASSIGNMENT, "{\"p5-h1\":1,\"p5-h2\":1}").withOwnerReferences(ref).endMetadata()
                .withNewSpec().addNewSchedulingGate(JobEditor.TOPOLOGY_GATE)
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
        await().atMost(WAIT).untilAsserted(() -> {
            var pod = k8s.pods().inNamespace(NS).withName("replaced-job-new").get();
            assertThat(pod.getSpec().getSchedulingGates()).isEmpty();
            assertThat(pod.getSpec().getNodeSelector()).containsEntry(TopologyLevels.HOSTNAME, "p5-h3");
        });
    }

    private void kubeflowPod(String name, String replicaType, String assignment) {
        k8s.pods().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels(TopologyUngater.KUBEFLOW_JOB_NAME_LABEL, "kf-job")
                .addToLabels(TopologyUngater.KUBEFLOW_REPLICA_TYPE_LABEL, replicaType.toLowerCase(java.util.Locale.ROOT))
                .addToAnnotations(JobEditor.NODE_ASSIGNMENT, assignment).endMetadata()
                .withNewSpec().addNewSchedulingGate(JobEditor.TOPOLOGY_GATE)
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
    }

    // ---- helpers ----

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> pytorch() {
        return k8s.genericKubernetesResources(JobKind.PYTORCH_JOB.context()).inNamespace(NS);
    }

    /**
     * The namespace is the team (the cluster's RBAC, deploy/k8s/teams, lets a team's group
     * create jobs only in its own namespace). A job that a member of team-name put in team-other's namespace,
     * labelled as if it were team-name's (its queue, a team label), is governed as team-other's.
     */
    @Test
    @Order(15)
    void aJobIsGovernedAsItsNamespacesTeamWhateverItsLabelsClaim() {
        String otherNs = "hyperpod-ns-team-other";
        Job claiming = load("job-required-topology.yaml", Job.class);
        claiming.getMetadata().setName("claims-team-name");
        claiming.getMetadata().setNamespace(otherNs);
        claiming.getMetadata().getLabels().put("sagemaker.amazonaws.com/team", "team-name");
        claiming.getMetadata().getLabels().put(JobTranslator.QUEUE_LABEL, NS + "-localqueue");
        // team-other has no configured instance type: the pod template names it
        claiming.getSpec().getTemplate().getSpec().getNodeSelector().put(JobTranslator.INSTANCE_TYPE_LABEL, P5);
        Job created = k8s.batch().v1().jobs().inNamespace(otherNs).resource(claiming).create();
        String id = "team-other-claims-team-name-" + created.getMetadata().getUid().substring(0, 8);

        WorkloadSubmitted submitted = EventCodec.read(awaitOne(Names.WORKLOAD_SUBMITTED, id).value(),
                WorkloadSubmitted.class);
        assertThat(submitted.namespace()).isEqualTo(otherNs);
        assertThat(submitted.team()).isEqualTo("team-other");
        assertThat(TopicRecords.withKey(Names.WORKLOAD_SUBMITTED, "team-name-claims-team-name-"
                + created.getMetadata().getUid().substring(0, 8))).as("nothing submitted as team-name's").isEmpty();
    }

    /**
     * Gang admission: once every pod its admission placed runs ready, the watcher reports the workload's readiness
     * once (a pod not ready yet holds it back), marks the job and says so in an Event.
     */
    @Test
    @Order(17)
    void anAdmittedJobWhosePodsAreAllReadyIsReportedOnce() {
        Job template = load("job-required-topology.yaml", Job.class);
        template.getMetadata().setName("gang-job");
        Job job = k8s.batch().v1().jobs().resource(template).create();
        String id = "team-name-gang-job-" + job.getMetadata().getUid().substring(0, 8);
        awaitOne(Names.WORKLOAD_SUBMITTED, id);
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "team-name", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("main", P5, new Domain(TopologyLevels.LAYER_3, "nn-b1-r2"),
                        List.of(new NodeCount("p5-g1", 1), new NodeCount("p5-g2", 1))))));
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(job("gang-job").getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.ADMITTED));

        Job owner = job("gang-job");
        gangPod(owner, "gang-job-a", true);
        gangPod(owner, "gang-job-b", false);
        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() ->
                TopicRecords.withKey(Names.WORKLOAD_PODS_READY, id).isEmpty());

        gangPod(owner, "gang-job-b", true);
        ConsumerRecord<String, String> report = awaitOne(Names.WORKLOAD_PODS_READY, id);
        assertThat(EventCodec.read(report.value(), dev.taskgov.core.events.WorkloadPodsReady.class).workloadId()).isEqualTo(id);
        assertThat(header(report, "ce_type")).isEqualTo(dev.taskgov.core.events.WorkloadPodsReady.TYPE);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(job("gang-job").getMetadata().getAnnotations()).containsEntry(JobStates.PODS_READY, "true");
            assertThat(reasons("gang-job")).contains("PodsReady");
        });
        // another pod event changes nothing: one report per admission
        gangPod(owner, "gang-job-a", true);
        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() ->
                TopicRecords.withKey(Names.WORKLOAD_PODS_READY, id).size() == 1);
    }

    /** A running pod of the batch Job {@code owner}, Ready or not (created, or replaced with that status). */
    private void gangPod(Job owner, String name, boolean ready) {
        var ref = new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).withController(true).build();
        var pod = new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels(TopologyUngater.JOB_NAME_LABEL, owner.getMetadata().getName()).withOwnerReferences(ref).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
                .endCondition().endStatus().build();
        k8s.pods().inNamespace(NS).resource(pod).createOr(existing -> existing.update());
    }

    private static PodSpec podSpec(GenericKubernetesResource job, String podSet) {
        return Serialization.unmarshal(Serialization.asJson(JobMaps.map(JobEditor.template(JobKind.PYTORCH_JOB, job, podSet)
                .get("spec"))), PodSpec.class);
    }

    @Test
    @Order(16)
    void aSubmissionRefusedBecauseItsIdIsAnotherTeamsIsAWarningOnTheJobAndNoOtherTeamsDecisionTouchesIt() {
        Job created = load("job-required-topology.yaml", Job.class);
        created.getMetadata().setName("taken-id-job");
        created = k8s.batch().v1().jobs().resource(created).create();
        String id = "team-name-taken-id-job-" + created.getMetadata().getUid().substring(0, 8);
        ConsumerRecord<String, String> submitted = awaitOne(Names.WORKLOAD_SUBMITTED, id);
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(job("taken-id-job").getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.SUBMITTED));

        // the owner of the id is another team: its admission is not this job's
        send(Names.WORKLOAD_ADMITTED, id, new WorkloadAdmitted(id, "another-team", Instant.now(), Map.of(),
                List.of(new AdmittedPodSet("main", P5, new Domain(TopologyLevels.LAYER_3, "nn-b1-r2"),
                        List.of(new NodeCount("p5-b1r2h1", 8), new NodeCount("p5-b1r2h2", 2))))));
        // the decider refused this job's submission, as it does: a dead letter with the reason
        String reason = new dev.taskgov.core.model.WorkloadIdTaken(id, "team-name").message();
        send(Names.DEADLETTER, id, dev.taskgov.core.events.DeadLetter.of(submitted.topic(), submitted.partition(),
                submitted.offset(), id, submitted.value().getBytes(java.nio.charset.StandardCharsets.UTF_8), reason, Instant.now()));

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(job("taken-id-job").getMetadata().getAnnotations()).containsEntry(JobStates.STATE, JobStates.INVALID)
                    .containsEntry(JobStates.REASON, "WorkloadIdTaken");
            assertThat(events("taken-id-job")).anySatisfy(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReason()).isEqualTo("WorkloadIdTaken");
                assertThat(e.getMessage()).contains("workloadId: '" + id + "' is taken");
            });
        });
        assertThat(job("taken-id-job").getSpec().getSuspend()).isTrue();
        assertThat(reasons("taken-id-job")).doesNotContain("Admitted");
    }

    private Job job(String name) {
        return k8s.batch().v1().jobs().inNamespace(NS).withName(name).get();
    }

    private String workloadId(String name) {
        GenericKubernetesResource g = name.equals("tas-test-pytorch-job") ? pytorch().withName(name).get()
                : k8s.genericKubernetesResources(JobKind.JOB.context()).inNamespace(NS).withName(name).get();
        return "team-name-" + name + "-" + g.getMetadata().getUid().substring(0, 8);
    }

    private List<Event> events(String name) {
        return k8s.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
    }

    private List<String> reasons(String name) {
        return events(name).stream().map(Event::getReason).toList();
    }

    private ConsumerRecord<String, String> awaitOne(String topic, String key) {
        return await().atMost(WAIT).until(() -> TopicRecords.withKey(topic, key), l -> l.size() == 1).get(0);
    }

    private void send(String topic, String key, Object event) {
        TopicRecords.send(topic, key, EventCodec.write(event));
    }

    private static String header(ConsumerRecord<String, String> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static InputStream manifest(String file) {
        return JobWatcherTest.class.getResourceAsStream("/manifests/" + file);
    }

    private static <T> T load(String file, Class<T> type) {
        return Serialization.unmarshal(manifest(file), type);
    }
}
