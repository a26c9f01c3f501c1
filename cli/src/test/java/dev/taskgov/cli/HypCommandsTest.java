package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.testsupport.SeedCommands;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TaskgovTopics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seeds' own {@code hyp} commands, run verbatim with {@code taskgov} in place of {@code hyp},
 * against a real Kafka broker: each writes its workload to the submissions topic. The endpoints come
 * from the environment (system properties here, standing in for TASKGOV_SUBMIT_KAFKA,
 * TASKGOV_KAFKA_BOOTSTRAP and TASKGOV_ADMISSION_URL); admission-service is a stub that answers
 * {@code GET /teams} with the team's quota, whose instance type seed 000's command (it has no
 * --instance-type) runs on.
 */
class HypCommandsTest {

    static final String SEED_000 = SeedCommands.SEED_000;
    static final String SEED_002 = SeedCommands.SEED_002;

    /** {@code GET /teams}' answer: the seeds' team's one quota, on ml.p5.48xlarge (and a type it only borrows). */
    static final String TEAM_NAME_TEAMS = teams("arn:aws:sagemaker:us-west-2:123456789012:cluster/taskgovdemo1", "ml.p5.48xlarge");

    /** admission-service's {@code GET /teams} for one cluster: team-name's nominal on {@code type}, a borrowed g5 beside it. */
    static String teams(String cluster, String type) {
        return """
                {"clusterArn": "%s", "count": 2, "teams": [
                  {"team": "other-team", "pending": 0, "pendingByReason": {}, "instanceTypes": {"ml.c5.large": {
                    "nominal": {"accelerators": 0, "vcpu": 8, "memoryGiB": 16}}}},
                  {"team": "team-name", "pending": 0, "pendingByReason": {}, "instanceTypes": {
                    "%s": {"nominal": {"accelerators": 16, "vcpu": 384, "memoryGiB": 4096}, "used": {"accelerators": 0, "vcpu": 0, "memoryGiB": 0}},
                    "ml.g5.48xlarge": {"nominal": {"accelerators": 0, "vcpu": 0, "memoryGiB": 0}, "borrowed": {"accelerators": 8, "vcpu": 192, "memoryGiB": 768}}}}]}
                """.formatted(cluster, type);
    }

    static StubServer admission;

    @BeforeAll
    static void environment() {
        admission = new StubServer().answer("GET /teams", 200, TEAM_NAME_TEAMS);
        System.setProperty("taskgov.submit.kafka", "true");
        System.setProperty("taskgov.kafka.bootstrap", SharedKafka.bootstrapServers());
        System.setProperty("taskgov.kafka.config", SharedKafka.clientConfigFile(KafkaAccess.ADMIN).toString());
        System.setProperty("taskgov.admission.url", admission.url());
    }

    @AfterAll
    static void clear() {
        System.clearProperty("taskgov.submit.kafka");
        System.clearProperty("taskgov.kafka.bootstrap");
        System.clearProperty("taskgov.kafka.config");
        System.clearProperty("taskgov.admission.url");
        admission.close();
    }

    @Test
    void seed000SubmitsTheJobOnTheTeamQuotaInstanceTypeWithPriorityQueueAndPreferredTopology() throws Exception {
        Cli.Result r = Cli.run(asTaskgov(SEED_000));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("hyp-pytorch-job/sample-pytorch-job submitted as workload sample-pytorch-job",
                "1 pod on ml.p5.48xlarge, the instance type of the team's compute quota",
                "--image: 123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest", "--pull-policy: Always",
                "--tasks-per-node: 1 (processes per pod", "Honoured:\n  --max-retry: 1 (taskgov.dev/max-retry: a Failed finish queues the workload again, up to 1 time");
        assertThat(r.out().substring(r.out().indexOf("Recorded, not enforced"))).doesNotContain("--max-retry");

        ConsumerRecord<String, String> record = submitted("sample-pytorch-job");
        assertThat(EventCodec.mapper().readTree(record.value())).isEqualTo(EventCodec.mapper().readTree("""
                {"workloadId": "sample-pytorch-job", "namespace": "hyperpod-ns-team-name",
                 "queueName": "hyperpod-ns-team-name-localqueue", "priorityClass": "high-priority",
                 "jobKind": "HyperPodPyTorchJob", "submittedAt": "%s",
                 "podSets": [{"name": "pod", "count": 1, "instanceType": "ml.p5.48xlarge", "requests": {},
                              "preferredTopology": "topology.k8s.aws/network-node-layer-1"}],
                 "annotations": {"taskgov.dev/image": "123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest",
                                 "taskgov.dev/max-retry": "1"}}
                """.formatted(EventCodec.mapper().readTree(record.value()).path("submittedAt").asText())));
        assertThat(headers(record)).containsEntry("ce_type", "dev.taskgov.workload.submitted");
    }

    @Test
    void seed002SubmitsRequestsAndReportsLimits() throws Exception {
        Cli.Result r = Cli.run(asTaskgov(SEED_002));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("limits: accelerators 1, vcpu 4, memory 2 GiB");
        JsonNode podSet = EventCodec.mapper().readTree(submitted("sample-job").value()).path("podSets").path(0);
        assertThat(podSet.path("instanceType").asText()).isEqualTo("sample-instance-type");
        assertThat(podSet.path("requests").toString()).isEqualTo("{\"accelerators\":1,\"vcpu\":3,\"memoryGiB\":1}");
    }

    @Test
    void theManifestIsAHyperpodPytorchJobWithReplicaSpecsRunPolicyAndBothResourceMaps() {
        List<String> args = new ArrayList<>(List.of(asTaskgov(SEED_002)));
        args.add("--print-manifest");
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("apiVersion: \"sagemaker.amazonaws.com/v1\"", "kind: \"HyperPodPyTorchJob\"",
                "replicaSpecs:", "jobMaxRetryCount: 1", "nprocPerNode: \"1\"", "kueue.x-k8s.io/priority-class: \"high-priority\"",
                "nvidia.com/gpu: \"1\"", "memory: \"2Gi\"", "cpu: \"4\"", "node.kubernetes.io/instance-type: \"sample-instance-type\"");
    }

    @Test
    void memoryIsANumberOfGibAsHypTakesItAndAUnitIsRefusedNamingTheFlag() {
        Cli.Result unit = Cli.run("create", "hyp-pytorch-job", "--job-name", "j", "--image", "i",
                "--namespace", "hyperpod-ns-team-name", "--instance-type", "ml.p5.48xlarge", "--memory", "32Gi");
        assertThat(unit.exit()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(unit.err()).contains("--memory: must be a number of GiB, as hyp's --memory takes it (e.g. 32 or 0.5), was '32Gi'")
                .doesNotContain("NumberFormatException");
        Cli.Result limit = Cli.run("create", "hyp-pytorch-job", "--job-name", "j", "--image", "i",
                "--namespace", "hyperpod-ns-team-name", "--instance-type", "ml.p5.48xlarge", "--memory", "32", "--memory-limit", "16");
        assertThat(limit.exit()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(limit.err()).contains("--memory-limit: must be at least --memory (32), was 16");
    }

    @Test
    void acceleratorPartitionFlagsAreCheckedNamingTheFlag() {
        String[] base = {"create", "hyp-pytorch-job", "--job-name", "j", "--image", "i", "--namespace", "hyperpod-ns-team-name",
                "--instance-type", "ml.p5.48xlarge"};
        Map<List<String>, String> cases = new java.util.LinkedHashMap<>();
        cases.put(List.of("--accelerator-partition-count", "1"),
                "--accelerator-partition-type: required with --accelerator-partition-count or --accelerator-partition-limit");
        cases.put(List.of("--accelerator-partition-type", "mig-1g.10gb"),
                "--accelerator-partition-type: give --accelerator-partition-count or --accelerator-partition-limit");
        cases.put(List.of("--accelerator-partition-type", "mig-9g.1tb", "--accelerator-partition-count", "1"),
                "--accelerator-partition-type: must be one of mig-1g.5gb | mig-1g.10gb");
        cases.put(List.of("--accelerator-partition-type", "mig-1g.5gb", "--accelerator-partition-count", "1"),
                "--accelerator-partition-type: instance type 'ml.p5.48xlarge' offers mig-1g.10gb, mig-1g.20gb, mig-2g.20gb, mig-3g.40gb, "
                        + "mig-4g.40gb, mig-7g.80gb, not 'mig-1g.5gb'");
        cases.put(List.of("--accelerator-partition-type", "mig-1g.10gb", "--accelerator-partition-count", "2",
                        "--accelerator-partition-limit", "1"),
                "--accelerator-partition-limit: must be at least --accelerator-partition-count (2), was 1");
        cases.put(List.of("--accelerator-partition-type", "mig-1g.10gb", "--accelerator-partition-count", "1", "--accelerators", "1"),
                "--accelerator-partition-type: a pod asks for whole accelerators or for partitions, not both");
        cases.forEach((flags, message) -> {
            List<String> args = new ArrayList<>(List.of(base));
            args.addAll(flags);
            Cli.Result r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exit()).as(flags + ": " + r.err()).isEqualTo(CliException.INVALID_INPUT);
            assertThat(r.err()).as(flags.toString()).contains(message);
        });
    }

    @Test
    void listAcceleratorPartitionTypePrintsTheProfilesOfEachInstanceType() {
        Cli.Result hyp = Cli.run("list-accelerator-partition-type", "--instance-type", "ml.p5.48xlarge");
        assertThat(hyp.exit()).as(hyp.err()).isZero();
        assertThat(hyp.out().lines().toList()).as("as hyp prints it: one type a line, sorted").containsExactly(
                "mig-1g.10gb", "mig-1g.20gb", "mig-2g.20gb", "mig-3g.40gb", "mig-4g.40gb", "mig-7g.80gb");
        Cli.Result r = Cli.run("list-accelerator-partition-type", "--instance-type", "ml.p5.48xlarge", "-o", "wide");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines().map(l -> String.join(" ", l.trim().split("\\s{2,}"))).toList()).containsExactly(
                "INSTANCE TYPE ACCELERATOR PARTITION TYPE GPU PER GPU PER INSTANCE KUBERNETES RESOURCE",
                "ml.p5.48xlarge mig-1g.10gb NVIDIA H100 80GB 7 56 nvidia.com/mig-1g.10gb",
                "ml.p5.48xlarge mig-1g.20gb NVIDIA H100 80GB 7 56 nvidia.com/mig-1g.20gb",
                "ml.p5.48xlarge mig-2g.20gb NVIDIA H100 80GB 3 24 nvidia.com/mig-2g.20gb",
                "ml.p5.48xlarge mig-3g.40gb NVIDIA H100 80GB 2 16 nvidia.com/mig-3g.40gb",
                "ml.p5.48xlarge mig-4g.40gb NVIDIA H100 80GB 1 8 nvidia.com/mig-4g.40gb",
                "ml.p5.48xlarge mig-7g.80gb NVIDIA H100 80GB 1 8 nvidia.com/mig-7g.80gb");
        Cli.Result all = Cli.run("list-accelerator-partition-type", "-o", "json");
        assertThat(all.exit()).as(all.err()).isZero();
        assertThat(all.out()).contains("\"instanceType\" : \"ml.p4d.24xlarge\"", "\"acceleratorPartitionType\" : \"mig-1g.5gb\"",
                "\"kubernetesResource\" : \"nvidia.com/mig-7g.186gb\"");
        Cli.Result none = Cli.run("list-accelerator-partition-type", "--instance-type", "ml.g5.8xlarge");
        assertThat(none.exit()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(none.err()).contains("--instance-type: 'ml.g5.8xlarge' offers no accelerator partitions");
    }

    @Test
    void versionIsTheTemplateVersionHereAndTaskgovOwnVersionElsewhere() {
        Cli.Result bad = Cli.run("create", "hyp-pytorch-job", "--version", "9.9", "--job-name", "j", "--image", "i",
                "--namespace", "hyperpod-ns-team-name", "--instance-type", "ml.p5.48xlarge");
        assertThat(bad.exit()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(bad.err()).contains("--version: hyp-pytorch-job template version must be one of [1.0, 1.1], was '9.9'");
        assertThat(Cli.run("--version").out()).contains("taskgov 0.1.0");
        assertThat(Cli.run("quota", "describe", "-h").out()).contains("--version", "ComputeQuotaVersion", "--help");
        // submit and dry-run take taskgov's own flags: hyp's --version there is an error, not a silent exit 0
        Cli.Result submit = Cli.run("submit", "--version", "1.1", "--job-name", "j");
        assertThat(submit.exit()).isNotZero();
        assertThat(submit.err()).contains("Unknown option", "--version");
    }

    /**
     * Without --instance-type, a team whose quota names several instance types is told to give one; a team without a
     * quota in the cluster is told that, and how an administrator gives it one (an instance type would not help).
     */
    @Test
    void withoutInstanceTypeATeamWithSeveralInstanceTypesIsToldToGiveOneAndATeamWithoutQuotaIsToldItHasNone() {
        String cluster = "arn:aws:sagemaker:us-west-2:123456789012:cluster/taskgovdemo1";
        String several = teams(cluster, "ml.p5.48xlarge").replace("\"ml.g5.48xlarge\": {\"nominal\": {\"accelerators\": 0",
                "\"ml.g5.48xlarge\": {\"nominal\": {\"accelerators\": 8");
        try (StubServer none = new StubServer().answer("GET /teams", 200, teams(cluster, "ml.p5.48xlarge").replace("team-name", "another-team"));
             StubServer two = new StubServer().answer("GET /teams", 200, several)) {
            String[] seed = asTaskgov(SEED_000.replace("sample-pytorch-job", "no-type-job"));
            System.setProperty("taskgov.admission.url", none.url());
            Cli.Result noQuota = Cli.run(seed);
            assertThat(noQuota.exit()).isEqualTo(CliException.INVALID_INPUT);
            assertThat(noQuota.err()).contains("team 'team-name' has no compute quota in cluster taskgovdemo1 (" + cluster + "), so it can run"
                    + " nothing there; an administrator gives it one: taskgov quota create --name team-name-quota --team-name team-name"
                    + " --cluster-arn " + cluster + " --resource InstanceType=TYPE,Count=N").doesNotContain("--instance-type");
            System.setProperty("taskgov.admission.url", two.url());
            Cli.Result twoTypes = Cli.run(seed);
            assertThat(twoTypes.exit()).isEqualTo(CliException.INVALID_INPUT);
            assertThat(twoTypes.err()).contains("compute quota names several: [ml.g5.48xlarge, ml.p5.48xlarge] in cluster taskgovdemo1 ("
                    + cluster + "); give --instance-type");
        } finally {
            System.setProperty("taskgov.admission.url", admission.url());
        }
    }

    /**
     * hyp's own habit on a deployment of several clusters: {@code hyp set-cluster-context} first, then the seed's
     * command verbatim lands in that cluster (and takes the instance type of the team's quota there, not another
     * cluster's).
     */
    @Test
    void afterSetClusterContextTheSeedCommandRunsVerbatimInThatClusterOfSeveral() throws Exception {
        String demo = "arn:aws:sagemaker:us-west-2:123456789012:cluster/taskgovdemo1";
        String small = "arn:aws:sagemaker:us-west-2:123456789012:cluster/taskgovsmall";
        try (StubServer clusters = new StubServer().answer("GET /clusters", 200,
                "{\"clusters\": [{\"clusterArn\": \"" + demo + "\"}, {\"clusterArn\": \"" + small + "\"}]}")
                .answer("GET /teams?cluster=" + URLEncoder.encode(small, StandardCharsets.UTF_8), 200, teams(small, "ml.g5.8xlarge"))
                .answer("GET /teams?cluster=" + URLEncoder.encode(demo, StandardCharsets.UTF_8), 200, teams(demo, "ml.p5.48xlarge"))) {
            java.nio.file.Path context = java.nio.file.Files.createTempDirectory("taskgov-context").resolve("context");
            System.setProperty("taskgov.context", context.toString());
            System.setProperty("taskgov.admission.url", clusters.url());
            try {
                Cli.Result none = Cli.run("get-cluster-context");
                assertThat(none.exit()).isEqualTo(CliException.INVALID_INPUT);
                assertThat(none.err()).contains("no cluster context is set", "set-cluster-context --cluster-name NAME");

                Cli.Result unknown = Cli.run("set-cluster-context", "--cluster-name", "nope");
                assertThat(unknown.exit()).isEqualTo(CliException.INVALID_INPUT);
                assertThat(unknown.err()).contains("--cluster-name: no governed cluster is named 'nope'", demo, small);

                Cli.Result set = Cli.run("set-cluster-context", "--cluster-name", "taskgovdemo1", "--region", "us-west-2");
                assertThat(set.exit()).as(set.err()).isZero();
                assertThat(set.out()).contains("Cluster context set to " + demo);
                assertThat(EventCodec.mapper().readTree(Cli.run("get-cluster-context").out()).path("clusterArn").asText()).isEqualTo(demo);

                String seed = SEED_000.replace("sample-pytorch-job", "ctx-pytorch-job");
                Cli.Result r = Cli.run(asTaskgov(seed));
                assertThat(r.exit()).as(r.err()).isZero();
                assertThat(r.out()).contains("1 pod on ml.p5.48xlarge, the instance type of the team's compute quota");
                ConsumerRecord<String, String> record = submitted("ctx-pytorch-job");
                JsonNode submission = EventCodec.mapper().readTree(record.value());
                assertThat(submission.path("clusterArn").asText()).isEqualTo(demo);
                // Straight to the cluster's partition (1 of 3), where Kafka's partitioner would put the key (0): no forwarding.
                assertThat(record.partition()).isEqualTo(ClusterPartitions.of(demo, TaskgovTopics.PARTITIONS));
                assertThat(submission.path("podSets").path(0).path("instanceType").asText()).isEqualTo("ml.p5.48xlarge");
            } finally {
                System.setProperty("taskgov.admission.url", admission.url());
                System.setProperty("taskgov.context", context.resolveSibling("none").toString());
            }
        }
    }

    /** The seed's command as argv, {@code hyp} dropped (the CLI's own command path follows it). */
    static String[] asTaskgov(String shell) {
        return SeedCommands.taskgovArguments(shell).toArray(String[]::new);
    }

    private static ConsumerRecord<String, String> submitted(String key) {
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(Names.WORKLOAD_SUBMITTED).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(rec -> {
                    if (key.equals(rec.key())) found.add(rec);
                });
                return !found.isEmpty();
            });
        }
        return found.get(found.size() - 1);
    }

    private static Map<String, String> headers(ConsumerRecord<String, String> r) {
        Map<String, String> out = new HashMap<>();
        r.headers().forEach(h -> out.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
        return out;
    }
}
