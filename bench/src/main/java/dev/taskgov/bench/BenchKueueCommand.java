package dev.taskgov.bench;

import dev.taskgov.cli.AdmissionClient;
import dev.taskgov.cli.CliCommand;
import dev.taskgov.cli.CliException;
import dev.taskgov.cli.DemoCommand;
import dev.taskgov.cli.Endpoints;
import dev.taskgov.cli.SageMakerClients;
import dev.taskgov.cli.TaskgovMain;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.client.support.ProducerPartitions;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaConfig;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaTarget;
import software.amazon.awssdk.services.sagemaker.model.ConflictException;
import software.amazon.awssdk.services.sagemaker.model.PriorityClass;
import software.amazon.awssdk.services.sagemaker.model.ResourceSharingConfig;
import software.amazon.awssdk.services.sagemaker.model.SchedulerConfig;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * {@code taskgov bench kueue}: Kueue's scheduler performance test replayed against a running
 * platform the way a pipeline drives it: teams and policy through the SageMaker API, submissions in
 * real time over Kafka, each workload finished {@code runtime} after its admitted event reaches the
 * pipeline. Reports what Kueue's checker reports (wall time, mean time to admission per class,
 * usage of nominal) with percentiles, the capacity bound, preemptions, the submit-to-admitted
 * latency on a free cluster beside the raw Kafka round trip measured in the same run, and the
 * platform processes' CPU seconds and peak memory.
 */
@Command(name = "kueue", mixinStandardHelpOptions = true,
        description = {"Replay Kueue's scheduler performance test (profiles baseline, tas, large-scale) against the running platform,",
                "or taskgov's own load profiles (throughput: 3,000 submissions/s; depth: a queue of up to 100,000; soak: 500/s for --minutes;",
                "depth-soak: depth's queue held that deep for --minutes).",
                "The platform needs the profile's nodes and cluster: write them with --write-cluster FILE and start the platform on them",
                "(TASKGOV_CLUSTERS_CONFIG=FILE.clusters.properties deploy/local/taskgov-local up), with no other teams' quotas."})
public class BenchKueueCommand extends CliCommand {

    static final String SUBMITTED = dev.taskgov.core.events.TopicCatalog.Names.WORKLOAD_SUBMITTED;
    static final String FINISHED = dev.taskgov.core.events.TopicCatalog.Names.WORKLOAD_FINISHED;
    static final String ADMITTED = dev.taskgov.core.events.TopicCatalog.Names.WORKLOAD_ADMITTED;
    static final String PREEMPTED = dev.taskgov.core.events.TopicCatalog.Names.WORKLOAD_PREEMPTED;
    static final String ROUND_TRIP = "taskgov.bench.roundtrip";
    /** Records through the exactly-once floor's loop before it is measured: its JVM is the bench's, cold. */
    static final int FLOOR_WARM_UP = 300;
    /** Workloads a timed-out run names among those it still waited for. */
    static final int UNFINISHED_REPORTED = 20;
    /** At most this many submissions per 50 ms while {@code depth-soak} holds its queue (20,000 a second). */
    static final int HOLD_TOP_UP_MAX = 1_000;
    private static final String SOURCE = CloudEvents.source("cli-bench");

    @Option(names = "--profile", defaultValue = "baseline",
            description = "baseline, tas, large-scale, throughput, depth, soak or depth-soak (default ${DEFAULT-VALUE}).")
    String profileName;

    @Option(names = "--minutes", defaultValue = "30",
            description = "How long the soak profile submits, and depth-soak holds its queue (default ${DEFAULT-VALUE}).")
    int minutes;

    @Option(names = "--sample-every", defaultValue = "60s",
            description = "Interval of the platform processes' memory samples during the load (default ${DEFAULT-VALUE}).")
    String sampleEvery;

    @Option(names = "--scale", defaultValue = "1.0", description = "Fraction of the profile's teams, in (0, 1] (default ${DEFAULT-VALUE}).")
    double scale;

    @Option(names = "--write-cluster", paramLabel = "FILE",
            description = "Write the profile's node inventory (topology-service's static file) to FILE and exit.")
    Path writeCluster;

    @Option(names = "--free-cluster-samples", defaultValue = "200",
            description = "Submissions at 100/s on the free cluster for the latency figures, before the load (0: skip; default ${DEFAULT-VALUE}).")
    int latencySamples;

    @Option(names = "--timeout", defaultValue = "15m", description = "Give up waiting for the last finish after this long (default ${DEFAULT-VALUE}).")
    String timeout;

    @Option(names = "--processes", paramLabel = "DIR", defaultValue = "${env:TASKGOV_HOME:-.taskgov}/run",
            description = "The local runtime's pid files, for CPU and memory per process (default ${DEFAULT-VALUE}).")
    Path processes;

    @Option(names = "--by-key", description = "Send every record by its key (Kafka's default partitioner, as a pipeline that"
            + " does not compute the cluster's partition would), so that the owner where it lands forwards it; by default the"
            + " records name the bench's cluster and go straight to its partition, as taskgov's own producers send them.")
    boolean byKey;

    @Option(names = "--estimate-every", paramLabel = "N", defaultValue = "0",
            description = "Read GET /workloads/{id} right after every N-th submission and compare its estimated start with its "
                    + "admission, per class (default ${DEFAULT-VALUE}: off).")
    int estimateEvery;

    @Option(names = "--declare-runtime", description = "Every submission declares its class's run time "
            + "(taskgov.dev/expected-runtime), for start estimates; without it they are learned from finished workloads.")
    boolean declareRuntime;

    @Option(names = {"-o", "--output"}, defaultValue = "table", description = "table or json (default ${DEFAULT-VALUE}).")
    String output;

    @Mixin
    Endpoints endpoints;

    private final long t0 = System.nanoTime();

    /**
     * The benchmark client's own start: {@code taskgov bench kueue} (the CLI's launcher) runs this class from the
     * bench module's jar in a JVM of its own, with the words after {@code kueue}.
     */
    public static void main(String[] args) {
        TaskgovMain.quietLibraryLogging();
        System.exit(new CommandLine(new BenchKueueCommand()).setCommandName("taskgov bench kueue").execute(args));
    }

    /** The processes' resident memory during the load, one row per sample: {"atSeconds", "rssMiB": {process: MiB}}. */
    // From the node factory, not the mapper: picocli makes this command for every --help, and building taskgov's
    // mapper there was about a tenth of --help's time (docs/benchmarks.md, "CLI start time").
    private final ArrayNode memory = JsonNodeFactory.instance.arrayNode();

    private long nowMs() {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Override
    protected int run() {
        KueueBenchProfile profile = KueueBenchProfile.named(profileName, scale, minutes);
        if (!output.equals("table") && !output.equals("json")) throw CliException.invalid("--output must be table or json, was '" + output + "'");
        if (writeCluster != null) {
            // The platform must govern the bench's cluster alone (quota-service refuses quotas for an
            // undeclared ClusterArn), so the nodes come with a clusters file declaring only that cluster.
            Path clusters = writeCluster.resolveSibling(writeCluster.getFileName() + ".clusters.properties");
            try {
                Files.writeString(writeCluster, EventCodec.write(profile.inventory()) + "\n");
                Files.writeString(clusters, "# The one cluster of taskgov bench kueue (--profile " + profile.name() + ")\n"
                        + "taskgov.topology.cluster-arn=" + KueueBenchProfile.CLUSTER_ARN + "\n"
                        + "taskgov.topology.static-file.path=" + writeCluster.toAbsolutePath() + "\n");
            } catch (IOException e) {
                throw CliException.failed("cannot write " + writeCluster + ": " + e.getMessage());
            }
            out().println("wrote " + profile.nodes() + " nodes (" + profile.capacity() + " accelerators) to " + writeCluster
                    + " and its cluster to " + clusters + "; start the platform on them: TASKGOV_CLUSTERS_CONFIG="
                    + clusters.toAbsolutePath() + " deploy/local/taskgov-local up");
            return 0;
        }
        Duration limit = DemoCommand.parseDuration(timeout);
        String run = Long.toString(System.currentTimeMillis() % 46_656, 36);
        err().println("bench: profile " + profile.name() + ", " + profile.teams() + " teams, " + profile.totalWorkloads()
                + " workloads, run " + run);
        err().flush();
        ObjectNode report = EventCodec.mapper().createObjectNode();
        setUp(profile, report.putObject("setUp"));
        Map<String, ProcessSample> cpuBefore = ProcessSample.all(processes);
        report.put("profile", profile.name());
        report.put("teams", profile.teams());
        report.put("workloads", profile.totalWorkloads());
        report.put("capacityAccelerators", profile.capacity());
        try (Pipeline pipeline = new Pipeline(profile)) {
            if (latencySamples > 0) report.set("freeCluster", pipeline.freeClusterLatency(run, latencySamples));
            report.set("load", pipeline.load(run, limit));
        }
        Map<String, ProcessSample> cpuAfter = ProcessSample.all(processes);
        ObjectNode procs = report.putObject("processes");
        cpuAfter.forEach((name, after) -> {
            ProcessSample before = cpuBefore.get(name);
            ObjectNode p = procs.putObject(name);
            p.put("cpuSeconds", round(after.cpuSeconds() - (before == null || before.pid() != after.pid() ? 0 : before.cpuSeconds())));
            p.put("peakRssMiB", after.peakRssKiB() / 1024);
        });
        report.set("memory", memory);
        profile.kueuePublished().ifPresent(k -> report.set("kueuePublished", published(k)));
        print(report, profile);
        return 0;
    }

    /**
     * The policy (classes small < medium < large, FairShare as the profile says) and one quota per team, timed: the
     * quotas through the SageMaker API, then until the deciders have them all.
     */
    private void setUp(KueueBenchProfile profile, ObjectNode timing) {
        long start = nowMs();
        SageMakerClients.call(endpoints, sm -> {
            List<PriorityClass> classes = profile.classes().stream()
                    .map(c -> PriorityClass.builder().name(c.name()).weight(c.priorityWeight()).build()).toList();
            SchedulerConfig config = SchedulerConfig.builder().priorityClasses(classes)
                    .fairShare(profile.fairShare() ? "Enabled" : "Disabled").build();
            try {
                sm.createClusterSchedulerConfig(b -> b.name("bench-policy").clusterArn(KueueBenchProfile.CLUSTER_ARN).schedulerConfig(config));
            } catch (ConflictException e) {
                // A re-run: bring the policy to this profile's (found by name; the API addresses it by id).
                String id = sm.listClusterSchedulerConfigs(b -> b.nameContains("bench-policy")).clusterSchedulerConfigSummaries().stream()
                        .filter(c -> "bench-policy".equals(c.name())).findFirst()
                        .orElseThrow(() -> CliException.failed("bench-policy exists but is not listed: " + e.getMessage()))
                        .clusterSchedulerConfigId();
                var known = sm.describeClusterSchedulerConfig(b -> b.clusterSchedulerConfigId(id));
                sm.updateClusterSchedulerConfig(b -> b.clusterSchedulerConfigId(id)
                        .targetVersion(known.clusterSchedulerConfigVersion()).schedulerConfig(config));
            }
            createQuotas(sm, profile);
            return null;
        });
        long quotas = nowMs();
        timing.put("policyAndQuotasSeconds", round((quotas - start) / 1000.0));
        awaitQuotas(profile);
        timing.put("quotasReachDecidersSeconds", round((nowMs() - quotas) / 1000.0));
        err().println("bench: " + profile.teams() + " quotas set in " + timing.path("policyAndQuotasSeconds").asDouble()
                + " s, in the deciders " + timing.path("quotasReachDecidersSeconds").asDouble() + " s later");
        err().flush();
    }

    /**
     * Requests at once while the quotas are created: each is a round trip of a few milliseconds that quota-service
     * spends mostly on its own (signature, audit, the row and its outbox record), so a thousand teams one after the
     * other took minutes on a loaded machine. quota-service still checks them one at a time against the cluster.
     */
    static final int QUOTA_WRITERS = 8;

    private static void createQuotas(SageMakerClient sm, KueueBenchProfile profile) {
        ExecutorService writers = Executors.newFixedThreadPool(QUOTA_WRITERS, r -> {
            Thread t = new Thread(r, "bench-quotas");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < profile.teams(); t++) {
                String team = profile.team(t);
                done.add(writers.submit(() -> createQuota(sm, profile, team)));
            }
            for (Future<?> f : done) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    // the SDK's own exception, for SageMakerClients.call to report as it reports any refusal
                    if (e.getCause() instanceof RuntimeException r) throw r;
                    throw CliException.failed("cannot create the quotas: " + e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted while the quotas were created");
        } finally {
            writers.shutdownNow();
        }
    }

    private static void createQuota(SageMakerClient sm, KueueBenchProfile profile, String team) {
        ComputeQuotaConfig config = ComputeQuotaConfig.builder()
                .computeQuotaResources(ComputeQuotaResourceConfig.builder().instanceType(profile.instanceType())
                        .accelerators(profile.nominal()).build())
                .resourceSharingConfig(ResourceSharingConfig.builder().strategy("LendAndBorrow")
                        .borrowLimit(profile.borrowLimitPercent()).build())
                .preemptTeamTasks("LowerPriority").build();
        String name = team + "-quota";
        try {
            sm.createComputeQuota(b -> b.name(name).clusterArn(KueueBenchProfile.CLUSTER_ARN).computeQuotaConfig(config)
                    .computeQuotaTarget(ComputeQuotaTarget.builder().teamName(team).fairShareWeight(1).build())
                    .activationState("Enabled"));
        } catch (ConflictException e) {
            // A re-run: the quota is already there, as this profile makes it.
        }
    }

    /** Until admission-service's dry run admits a one-accelerator workload of the last team: the quotas reached it. */
    private void awaitQuotas(KueueBenchProfile profile) {
        AdmissionClient admission = endpoints.admission();
        String team = profile.team(profile.teams() - 1);
        WorkloadSubmitted probe = submission("bench-probe", team, profile.classes().get(0).name(), 1, profile.instanceType(), 1, null, null);
        long deadline = nowMs() + 120_000;
        String last = "";
        while (nowMs() < deadline) {
            try {
                String verdict = admission.dryRun(probe).path("verdict").asText("");
                if (verdict.startsWith("Admitted")) return;
                last = "dry run says " + verdict;
            } catch (CliException e) {
                last = e.getMessage();
            }
            DemoCommand.pause(500);
        }
        throw CliException.failed("admission-service did not admit a probe of " + team + " within 2 minutes (" + last
                + "); is the platform up on the profile's nodes (--write-cluster) and without other quotas?");
    }

    static WorkloadSubmitted submission(String id, String team, String priorityClass, int pods, String instanceType,
                                        int acceleratorsPerPod, String required, String preferred) {
        ResourceAmounts perPod = new ResourceAmounts(BigDecimal.valueOf(acceleratorsPerPod), null, null);
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", priorityClass, "Job", null,
                List.of(new PodSetSpec("main", pods, instanceType, perPod, required, preferred)), KueueBenchProfile.CLUSTER_ARN);
    }

    /** The producer, the consumer of decisions and the finisher, for one run. */
    private final class Pipeline implements AutoCloseable {
        private final KueueBenchProfile profile;
        private final KafkaProducer<String, String> producer;
        private final ScheduledExecutorService finisher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-finisher");
            t.setDaemon(true);
            return t;
        });
        private final PendingFinishes finishes = new PendingFinishes(finisher);
        /** A held queue's time is up ({@code depth-soak}): each workload finishes as soon as its admission is read. */
        private volatile boolean draining;
        private final AtomicReference<Throwable> sendFailure = new AtomicReference<>();
        /** The run's start estimate sampler ({@code --estimate-every}), its figures once the run is over. */
        private volatile StartEstimateSampler estimates;
        private ObjectNode estimateReport;

        Pipeline(KueueBenchProfile profile) {
            this.profile = profile;
            Properties p = new Properties();
            p.putAll(endpoints.kafkaClient());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            p.put(ProducerConfig.LINGER_MS_CONFIG, "1");
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "taskgov-bench");
            producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        }

        private void send(String topic, String key, Object event, String ceType) {
            RecordHeaders h = new RecordHeaders();
            CloudEvents.write(h::add, ceType, SOURCE, UUID.randomUUID().toString(), clock.instant(), key, true);
            Integer partition = byKey ? null : ProducerPartitions.ofNamed(producer, topic, event);
            producer.send(new ProducerRecord<>(topic, partition, key, EventCodec.write(event), h), (m, e) -> {
                if (e != null) sendFailure.compareAndSet(null, e);
            });
        }

        private void finish(String id) {
            send(FINISHED, id, new WorkloadFinished(id, clock.instant(), WorkloadFinished.Outcome.Succeeded, KueueBenchProfile.CLUSTER_ARN),
                    WorkloadFinished.TYPE);
        }

        private KafkaConsumer<String, String> decisions(Collection<String> topics) {
            Properties p = new Properties();
            p.putAll(endpoints.kafkaClient());
            p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
            KafkaConsumer<String, String> c = CompactedTopicReader.groupless(p, new StringDeserializer());
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : topics) c.partitionsFor(topic).forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            c.assign(parts);
            c.seekToEnd(parts);
            parts.forEach(c::position); // resolve the end now, before anything is submitted
            return c;
        }

        /**
         * Free cluster: one submission every 10 ms, each finished as soon as its admission is seen;
         * latency from send to the admitted event read back, beside a raw produce-to-consume round
         * trip on the same broker and the exactly-once floor ({@link ExactlyOnceFloor}).
         */
        ObjectNode freeClusterLatency(String run, int samples) {
            ObjectNode out = EventCodec.mapper().createObjectNode();
            String team = profile.team(0);
            Map<String, Long> sentAt = new ConcurrentHashMap<>();
            List<Long> latencies = new ArrayList<>();
            try (KafkaConsumer<String, String> c = decisions(List.of(ADMITTED))) {
                for (int i = 0; i < samples; i++) {
                    String id = "bench-" + run + "-free-" + i;
                    sentAt.put(id, nowMs());
                    Instant at = clock.instant();
                    freeSubmittedAt.put(id, at);
                    send(SUBMITTED, id, submission(id, team, profile.classes().get(0).name(), 1, profile.instanceType(), 1, null, null).withSubmittedAt(at),
                            WorkloadSubmitted.TYPE);
                    producer.flush();
                    long until = nowMs() + 10;
                    while (nowMs() < until) drainFree(c, sentAt, latencies, Duration.ofMillis(2));
                }
                long deadline = nowMs() + 30_000;
                while (latencies.size() < samples && nowMs() < deadline) drainFree(c, sentAt, latencies, Duration.ofMillis(50));
            }
            KueueBenchRecorder.ClassFigures f = KueueBenchRecorder.figures(latencies);
            out.put("samples", f.count());
            out.put("submitToAdmittedP50Ms", f.p50Ms());
            out.put("submitToAdmittedP99Ms", f.p99Ms());
            out.put("submitToAdmittedMaxMs", f.maxMs());
            KueueBenchRecorder.ClassFigures d = KueueBenchRecorder.figures(decided);
            KueueBenchRecorder.ClassFigures b = KueueBenchRecorder.figures(readBack);
            out.put("submitToDecisionP50Ms", d.p50Ms());
            out.put("submitToDecisionP99Ms", d.p99Ms());
            out.put("decisionToReadBackP50Ms", b.p50Ms());
            out.put("decisionToReadBackP99Ms", b.p99Ms());
            KueueBenchRecorder.ClassFigures rt = roundTrip(samples);
            out.put("kafkaRoundTripP50Ms", rt.p50Ms());
            out.put("kafkaRoundTripP99Ms", rt.p99Ms());
            // The same loop as the deciders', deciding nothing: what exactly-once costs on this broker (ExactlyOnceFloor).
            KueueBenchRecorder.ClassFigures floor = KueueBenchRecorder.figures(
                    ExactlyOnceFloor.measure(endpoints.kafkaClient(), producer, FLOOR_WARM_UP, samples, run));
            out.put("exactlyOnceFloorP50Ms", floor.p50Ms());
            out.put("exactlyOnceFloorP99Ms", floor.p99Ms());
            return out;
        }

        private void drainFree(KafkaConsumer<String, String> c, Map<String, Long> sentAt, List<Long> latencies, Duration wait) {
            for (ConsumerRecord<String, String> r : c.poll(wait)) {
                Long sent = sentAt.remove(r.key());
                if (sent == null) continue;
                latencies.add(nowMs() - sent);
                // The decider's own clock splits the latency: until it decided, and until the decision was read back.
                WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                Instant submittedAt = freeSubmittedAt.remove(r.key());
                if (submittedAt != null && a.admittedAt() != null) {
                    decided.add(Duration.between(submittedAt, a.admittedAt()).toMillis());
                    readBack.add(Duration.between(a.admittedAt(), clock.instant()).toMillis());
                }
                finish(r.key());
            }
        }

        private final Map<String, Instant> freeSubmittedAt = new ConcurrentHashMap<>();
        private final List<Long> decided = new ArrayList<>();
        private final List<Long> readBack = new ArrayList<>();

        private KueueBenchRecorder.ClassFigures roundTrip(int samples) {
            Properties ap = new Properties();
            ap.putAll(endpoints.kafkaClient());
            try (Admin admin = Admin.create(ap)) {
                admin.createTopics(List.of(new NewTopic(ROUND_TRIP, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw CliException.failed("cannot create " + ROUND_TRIP + ": " + e.getMessage());
                }
            }
            List<Long> rts = new ArrayList<>();
            Map<String, Long> sent = new HashMap<>();
            try (KafkaConsumer<String, String> c = decisions(List.of(ROUND_TRIP))) {
                for (int i = 0; i < samples; i++) {
                    String key = "rt-" + i;
                    sent.put(key, System.nanoTime());
                    producer.send(new ProducerRecord<>(ROUND_TRIP, key, "{}"));
                    producer.flush();
                    long until = nowMs() + 10;
                    while (nowMs() < until) {
                        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(2))) {
                            Long s = sent.remove(r.key());
                            if (s != null) rts.add((System.nanoTime() - s) / 1_000_000);
                        }
                    }
                }
                long deadline = nowMs() + 10_000;
                while (!sent.isEmpty() && nowMs() < deadline) {
                    for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(20))) {
                        Long s = sent.remove(r.key());
                        if (s != null) rts.add((System.nanoTime() - s) / 1_000_000);
                    }
                }
            }
            return KueueBenchRecorder.figures(rts);
        }

        /** The load itself: every arrival at its time, until every workload has finished. */
        ObjectNode load(String run, Duration limit) {
            KueueBenchRecorder rec = new KueueBenchRecorder();
            List<KueueBenchProfile.Arrival> arrivals = profile.arrivals();
            // How far behind its arrival time each submission was sent: whether the client kept up with the profile.
            long[] late = new long[arrivals.size()];
            Map<KueueBenchProfile.Arrival, String> ids = new LinkedHashMap<>();
            for (KueueBenchProfile.Arrival a : arrivals) {
                String id = "bench-" + run + "-" + a.team() + "-" + a.workloadClass().name() + "-" + a.index();
                ids.put(a, id);
                rec.planned(id, a.workloadClass().name(), a.workloadClass().units(), a.workloadClass().runtimeMs());
            }
            AtomicBoolean done = new AtomicBoolean();
            Thread consumer;
            Timeline timeline;
            try (KafkaConsumer<String, String> c = decisions(List.of(ADMITTED, PREEMPTED));
                 StartEstimateSampler sampler = new StartEstimateSampler(endpoints.admission(), estimateEvery)) {
                estimates = sampler;
                consumer = new Thread(() -> consume(c, rec, done), "bench-decisions");
                long start = nowMs();
                consumer.start();
                timeline = new Timeline(rec, start, DemoCommand.parseDuration(sampleEvery).toSeconds());
                int sent = 0;
                for (KueueBenchProfile.Arrival a : arrivals) {
                    long due = start + a.atMs();
                    while (nowMs() < due) DemoCommand.pause(Math.max(1, Math.min(5, due - nowMs())));
                    KueueBenchProfile.WorkloadClass wc = a.workloadClass();
                    KueueBenchProfile.Topology topo = wc.topologyOf(a.index());
                    String id = ids.get(a);
                    WorkloadSubmitted s = submission(id, profile.team(a.team()), wc.name(), wc.pods(), profile.instanceType(),
                            wc.acceleratorsPerPod(), topo == KueueBenchProfile.Topology.REQUIRED_RACK ? KueueBenchProfile.LAYER_3 : null,
                            topo == KueueBenchProfile.Topology.PREFERRED_RACK ? KueueBenchProfile.LAYER_3 : null);
                    if (declareRuntime) {
                        s = s.withAnnotations(Map.of(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, Duration.ofMillis(wc.runtimeMs()).toString()));
                    }
                    rec.submitted(id, nowMs());
                    Instant sentAt = clock.instant();
                    send(SUBMITTED, id, s.withSubmittedAt(sentAt), WorkloadSubmitted.TYPE);
                    late[sent++] = nowMs() - due;
                    sampler.submitted(id, wc.name(), sentAt);
                    if (sendFailure.get() != null) throw CliException.failed("cannot write to Kafka: " + sendFailure.get().getMessage());
                    timeline.tick();
                }
                if (profile.holdsDepth()) sent += hold(run, rec, sampler, timeline, start);
                producer.flush();
                long deadline = nowMs() + limit.toMillis();
                while (rec.finishedCount() < sent && nowMs() < deadline) {
                    DemoCommand.pause(200);
                    timeline.tick();
                }
                done.set(true);
                try {
                    consumer.join(5000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (estimateEvery > 0) {
                    estimateReport = sampler.report(profile.classes().stream().map(KueueBenchProfile.WorkloadClass::name).toList());
                }
            }
            int nominalUnits = profile.teams() * profile.nominal();
            int zeroSeconds = 0;
            for (int[] s : timeline.perSecond) if (s[0] == 0 && s[1] < nominalUnits && s[2] > 0) zeroSeconds++;
            List<String> order = profile.classes().stream().map(KueueBenchProfile.WorkloadClass::name).toList();
            KueueBenchRecorder.Summary sum = rec.summary(order, profile.teams() * profile.nominal());
            ObjectNode out = EventCodec.mapper().createObjectNode();
            out.put("wallSeconds", round(sum.wallSeconds()));
            out.put("capacityBoundSeconds", round(profile.capacityBoundSeconds()));
            out.put("wallOverBound", round(sum.wallSeconds() / profile.capacityBoundSeconds()));
            out.put("usageOfNominalPercent", round(sum.usageOfNominalPercent()));
            out.put("finished", sum.finished());
            out.put("preemptions", sum.preemptions());
            out.put("secondsWithNoAdmissionWhileQuotaIdle", zeroSeconds);
            out.put("admissionsPerSecond", round(sum.admissionsPerSecond()));
            out.put("peakPending", timeline.perSecond.stream().mapToInt(x -> x[2]).max().orElse(0));
            Map<String, String> unfinished = rec.unfinished(UNFINISHED_REPORTED);
            if (!unfinished.isEmpty()) {
                // The run timed out: name what it still waited for, as the pipeline saw it.
                unfinished.forEach(out.putObject("unfinishedAtTimeout")::put);
            }
            java.util.Arrays.sort(late);
            ObjectNode lateness = out.putObject("sentLateMs");
            lateness.put("p50", KueueBenchRecorder.percentile(late, 50));
            lateness.put("p99", KueueBenchRecorder.percentile(late, 99));
            lateness.put("max", late.length == 0 ? 0 : late[late.length - 1]);
            ObjectNode classes = out.putObject("timeToAdmissionMs");
            sum.byClass().forEach((name, f) -> {
                ObjectNode c = classes.putObject(name);
                c.put("count", f.count());
                c.put("mean", Math.round(f.meanMs()));
                c.put("p50", f.p50Ms());
                c.put("p90", f.p90Ms());
                c.put("p99", f.p99Ms());
                c.put("max", f.maxMs());
            });
            if (estimateReport != null) out.set("startEstimate", estimateReport);
            ArrayNode admittedEach = out.putArray("admittedEachSecond");
            ArrayNode pendingEach = out.putArray("pendingEachSecond");
            for (int[] s : timeline.perSecond) {
                admittedEach.add(s[0]);
                pendingEach.add(s[2]);
            }
            return out;
        }

        /**
         * {@code depth-soak} after its burst: until {@code --minutes} from the load's start, every 50 ms as many new
         * submissions (teams in turn) as were first admitted since, so the queue stays as deep as the burst made it;
         * then every workload is finished as soon as its admission is read, and the queue drains. Answers how many it
         * submitted.
         */
        private int hold(String run, KueueBenchRecorder rec, StartEstimateSampler sampler, Timeline timeline, long start) {
            KueueBenchProfile.WorkloadClass wc = profile.classes().get(0);
            int depth = profile.totalWorkloads();
            long end = start + profile.holdMinutes() * 60_000L;
            int next = 0;
            while (nowMs() < end) {
                int n = KueueBenchProfile.topUp(depth, rec.pendingCount(), HOLD_TOP_UP_MAX);
                for (int i = 0; i < n; i++, next++) {
                    int team = next % profile.teams();
                    String id = "bench-" + run + "-" + team + "-" + wc.name() + "-" + (wc.count() + next / profile.teams());
                    rec.planned(id, wc.name(), wc.units(), wc.runtimeMs());
                    rec.submitted(id, nowMs());
                    Instant sentAt = clock.instant();
                    send(SUBMITTED, id, submission(id, profile.team(team), wc.name(), wc.pods(), profile.instanceType(),
                            wc.acceleratorsPerPod(), null, null).withSubmittedAt(sentAt), WorkloadSubmitted.TYPE);
                    sampler.submitted(id, wc.name(), sentAt);
                }
                if (sendFailure.get() != null) throw CliException.failed("cannot write to Kafka: " + sendFailure.get().getMessage());
                timeline.tick();
                DemoCommand.pause(50);
            }
            draining = true;
            return next;
        }

        /**
         * Once a second during the load: first admissions in that second, units running and workloads pending at its
         * end; every {@code sampleSeconds} the processes' resident memory.
         */
        private final class Timeline {
            final List<int[]> perSecond = new ArrayList<>();
            private final KueueBenchRecorder rec;
            private final long start;
            private final long sampleSeconds;
            private long nextSecond;
            private int admittedBefore;

            Timeline(KueueBenchRecorder rec, long start, long sampleSeconds) {
                this.rec = rec;
                this.start = start;
                this.sampleSeconds = Math.max(1, sampleSeconds);
                this.nextSecond = start + 1000;
                sampleMemory(0);
            }

            void tick() {
                if (nowMs() < nextSecond) return;
                int admitted = rec.admittedCount();
                perSecond.add(new int[] {admitted - admittedBefore, rec.runningUnits(), rec.pendingCount()});
                admittedBefore = admitted;
                long second = (nextSecond - start) / 1000;
                nextSecond += 1000;
                if (second % sampleSeconds == 0) sampleMemory(second);
            }

            private void sampleMemory(long second) {
                ObjectNode row = memory.addObject();
                row.put("atSeconds", second);
                ObjectNode rss = row.putObject("rssMiB");
                ProcessSample.all(processes).forEach((name, p) -> rss.put(name, p.rssKiB() / 1024));
            }
        }

        private void consume(KafkaConsumer<String, String> c, KueueBenchRecorder rec, AtomicBoolean done) {
            while (!done.get()) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(50))) {
                    String id = r.key();
                    if (id == null || !rec.knows(id)) continue;
                    long now = nowMs();
                    if (r.topic().equals(ADMITTED)) {
                        WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                        if (!a.isNodeReplacement() && estimates != null) estimates.admitted(a.workloadId(), a.admittedAt());
                        if (rec.admitted(a.workloadId(), now, a.isNodeReplacement())) finishLater(id, rec);
                    } else {
                        WorkloadPreempted p = EventCodec.read(r.value(), WorkloadPreempted.class);
                        if (finishes.takeBack(p.workloadId())) {
                            rec.preempted(p.workloadId(), now);
                            if (rec.readmittedEarly(p.workloadId(), now)) finishLater(p.workloadId(), rec);
                        }
                    }
                }
            }
        }

        /** The pipeline's part of a run: finish the workload its class's runtime from now. */
        private void finishLater(String id, KueueBenchRecorder rec) {
            finishes.schedule(id, runtimeOf(id), () -> {
                rec.finished(id, nowMs());
                finish(id);
            });
        }

        private long runtimeOf(String id) {
            if (draining) return 0;
            String cls = id.substring(0, id.lastIndexOf('-'));
            cls = cls.substring(cls.lastIndexOf('-') + 1);
            for (KueueBenchProfile.WorkloadClass c : profile.classes()) if (c.name().equals(cls)) return c.runtimeMs();
            return 0;
        }

        @Override
        public void close() {
            finisher.shutdownNow();
            producer.close(Duration.ofSeconds(10));
        }
    }

    private void print(ObjectNode report, KueueBenchProfile profile) {
        if (output.equals("json")) {
            out().println(EventCodec.write(report));
            return;
        }
        var load = report.path("load");
        out().printf("profile %s: %d teams, %d workloads, %d accelerators%n", profile.name(), profile.teams(), profile.totalWorkloads(),
                profile.capacity());
        out().printf("wall %.1f s, capacity bound %.1f s (wall/bound %.2f), usage of nominal %.1f%%, preemptions %d, finished %d%n",
                load.path("wallSeconds").asDouble(), load.path("capacityBoundSeconds").asDouble(), load.path("wallOverBound").asDouble(),
                load.path("usageOfNominalPercent").asDouble(), load.path("preemptions").asInt(), load.path("finished").asInt());
        load.path("unfinishedAtTimeout").fields().forEachRemaining(e ->
                out().printf("still waited for %s: %s%n", e.getKey(), e.getValue().asText()));
        out().printf("set-up: policy and %d quotas %.1f s, until the deciders had them %.1f s; submissions sent behind their"
                        + " arrival time p50 %d ms, p99 %d ms, max %d ms%n", profile.teams(),
                report.path("setUp").path("policyAndQuotasSeconds").asDouble(), report.path("setUp").path("quotasReachDecidersSeconds").asDouble(),
                load.path("sentLateMs").path("p50").asLong(), load.path("sentLateMs").path("p99").asLong(), load.path("sentLateMs").path("max").asLong());
        out().printf("seconds with no admission while quota was idle and workloads waited: %d%n",
                load.path("secondsWithNoAdmissionWhileQuotaIdle").asInt());
        out().printf("admitted %.0f per second end to end; at most %d pending at a second's end%n",
                load.path("admissionsPerSecond").asDouble(), load.path("peakPending").asInt());
        if (report.has("kueuePublished")) {
            var k = report.path("kueuePublished");
            StringBuilder means = new StringBuilder();
            k.path("meanTimeToAdmissionMs").fields().forEachRemaining(e -> means.append(means.isEmpty() ? "" : ", ")
                    .append(e.getKey()).append(' ').append(e.getValue().asLong()).append(" ms"));
            out().printf("Kueue's published means (full scale): wall %.1f s, usage of nominal %.1f%%, mean time to admission %s%n",
                    k.path("wallSeconds").asDouble(), k.path("usageOfNominalPercent").asDouble(), means);
        }
        out().printf("%-8s %7s %9s %9s %9s %9s %9s%n", "class", "count", "mean ms", "p50", "p90", "p99", "max");
        load.path("timeToAdmissionMs").fields().forEachRemaining(e -> out().printf("%-8s %7d %9d %9d %9d %9d %9d%n", e.getKey(),
                e.getValue().path("count").asInt(), e.getValue().path("mean").asLong(), e.getValue().path("p50").asLong(),
                e.getValue().path("p90").asLong(), e.getValue().path("p99").asLong(), e.getValue().path("max").asLong()));
        if (load.has("startEstimate")) {
            var est = load.path("startEstimate");
            out().printf("start estimate read after every %d-th submission vs first admission (|error| p50 / p90, signed p50; s):%n",
                    est.path("every").asInt());
            for (var cls : profile.classes()) {
                var c = est.path(cls.name());
                out().printf("  %-8s sampled %d, estimated %d (%.2f / %.2f s, signed %.2f s, %d too early), unknown %d, admitted before read %d%n",
                        cls.name(), c.path("sampled").asInt(), c.path("estimated").asInt(), c.path("absErrorP50Ms").asLong() / 1000.0,
                        c.path("absErrorP90Ms").asLong() / 1000.0, c.path("signedErrorP50Ms").asLong() / 1000.0, c.path("tooEarly").asInt(),
                        c.path("unknown").asInt(), c.path("admittedBeforeRead").asInt());
            }
        }
        if (report.has("freeCluster")) {
            var f = report.path("freeCluster");
            out().printf("free cluster: submit->admitted p50 %d ms, p99 %d ms (%d samples); raw Kafka round trip p50 %d ms, p99 %d ms%n",
                    f.path("submitToAdmittedP50Ms").asLong(), f.path("submitToAdmittedP99Ms").asLong(), f.path("samples").asInt(),
                    f.path("kafkaRoundTripP50Ms").asLong(), f.path("kafkaRoundTripP99Ms").asLong());
            out().printf("  of which submit->decision (decider's admittedAt) p50 %d ms, p99 %d ms; decision->read back p50 %d ms, p99 %d ms%n",
                    f.path("submitToDecisionP50Ms").asLong(), f.path("submitToDecisionP99Ms").asLong(),
                    f.path("decisionToReadBackP50Ms").asLong(), f.path("decisionToReadBackP99Ms").asLong());
            out().printf("  exactly-once floor (the deciders' loop deciding nothing) p50 %d ms, p99 %d ms%n",
                    f.path("exactlyOnceFloorP50Ms").asLong(), f.path("exactlyOnceFloorP99Ms").asLong());
        }
        report.path("processes").fields().forEachRemaining(e -> out().printf("process %-20s cpu %8.1f s, peak RSS %6d MiB%n", e.getKey(),
                e.getValue().path("cpuSeconds").asDouble(), e.getValue().path("peakRssMiB").asLong()));
        for (var row : report.path("memory")) {
            StringBuilder line = new StringBuilder(String.format("RSS at %5d s:", row.path("atSeconds").asLong()));
            row.path("rssMiB").fields().forEachRemaining(e -> line.append(' ').append(e.getKey()).append(' ').append(e.getValue().asLong()).append(" MiB"));
            out().println(line);
        }
    }

    /** Kueue's published means beside taskgov's figures: wall, usage, mean time to admission per class (ms, as the load's). */
    static ObjectNode published(KueueBenchProfile.KueuePublished k) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("source", "kubernetes-sigs/kueue test/performance/scheduler/" + k.source());
        out.put("wallSeconds", k.wallSeconds());
        out.put("usageOfNominalPercent", k.usageOfNominalPercent());
        ObjectNode classes = out.putObject("meanTimeToAdmissionMs");
        k.meanTimeToAdmissionSeconds().entrySet().stream().sorted(Map.Entry.comparingByValue())
                .forEach(e -> classes.put(e.getKey(), Math.round(e.getValue() * 1000)));
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /** One platform process's CPU time, resident memory and its peak, from /proc (Linux). */
    record ProcessSample(long pid, double cpuSeconds, long rssKiB, long peakRssKiB) {

        /** Every process named by a {@code NAME.pid} file of the folder that runs now, and the PostgreSQL server beside it. */
        static Map<String, ProcessSample> all(Path dir) {
            Map<String, ProcessSample> out = new LinkedHashMap<>();
            if (!Files.isDirectory(dir)) return out;
            Map<Long, List<Long>> children; // one pass over /proc for every process sampled
            try {
                children = childrenByParent();
            } catch (IOException e) {
                return out;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".pid")).sorted().toList()) {
                    String name = f.getFileName().toString().replaceFirst("\\.pid$", "");
                    try {
                        long pid = Long.parseLong(Files.readString(f).trim());
                        of(pid, children).ifPresent(s -> out.put(name, s));
                    } catch (IOException | NumberFormatException e) {
                        // a component that stopped or a half-written pid file: not measured
                    }
                }
            } catch (IOException e) {
                return out;
            }
            // The local runtime's PostgreSQL server runs detached from the launcher its pid file names (pg_ctl starts
            // it), so the server and its backends are measured from the server's own pid file, beside the run folder.
            Path postmaster = dir.resolveSibling("postgres").resolve("postmaster.pid");
            if (Files.isReadable(postmaster)) {
                try {
                    of(Long.parseLong(Files.readAllLines(postmaster).get(0).trim()), children)
                            .ifPresent(s -> out.put("postgres-server", s));
                } catch (IOException | RuntimeException e) {
                    // the server stopping: not measured
                }
            }
            return out;
        }

        /**
         * The process's CPU with that of every process below it: PostgreSQL's work is done by backends the postmaster
         * starts, one per connection. Each process counts its own time and that of its children it has reaped
         * (utime, stime, cutime, cstime: fields 14-17), so a backend that ended during the run is still counted.
         */
        static java.util.Optional<ProcessSample> of(long pid) {
            try {
                return of(pid, childrenByParent());
            } catch (IOException e) {
                return java.util.Optional.empty();
            }
        }

        private static java.util.Optional<ProcessSample> of(long pid, Map<Long, List<Long>> children) {
            try {
                long ticks = 0;
                java.util.ArrayDeque<Long> tree = new java.util.ArrayDeque<>(List.of(pid));
                while (!tree.isEmpty()) {
                    long p = tree.pop();
                    try {
                        String[] f = statFields(Files.readString(Path.of("/proc", Long.toString(p), "stat")));
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
                    } catch (IOException | RuntimeException gone) {
                        if (p == pid) throw gone;
                        continue;
                    }
                    tree.addAll(children.getOrDefault(p, List.of()));
                }
                long rss = 0;
                long peak = 0;
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                    if (line.startsWith("VmRSS:")) rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    if (line.startsWith("VmHWM:")) peak = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
                return java.util.Optional.of(new ProcessSample(pid, ticks / 100.0, rss, peak));
            } catch (IOException | RuntimeException e) {
                return java.util.Optional.empty();
            }
        }

        /** Every running process's children, by parent pid, from /proc. */
        private static Map<Long, List<Long>> childrenByParent() throws IOException {
            Map<Long, List<Long>> children = new HashMap<>();
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                for (Path p : procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                    try {
                        String[] f = statFields(Files.readString(p.resolve("stat")));
                        children.computeIfAbsent(Long.parseLong(f[1]), k -> new ArrayList<>())
                                .add(Long.parseLong(p.getFileName().toString()));
                    } catch (IOException | RuntimeException gone) {
                        // a process that ended while the list was read
                    }
                }
            }
            return children;
        }

        /** The fields of a /proc/PID/stat line after the command name (state, ppid, ...). */
        private static String[] statFields(String stat) {
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        }
    }
}
