package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code taskgov what-if} against a real broker: the recorded hour is written to the platform's topics as the services
 * write it, and the command reads it back with the administrator's login and replays it through core.
 */
class WhatIfCommandTest {

    static final String TYPE = "ml.p5.48xlarge";
    static final String CLUSTER = "arn:aws:sagemaker:us-west-2:000000000000:cluster/" + id();
    static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    static final Instant T0 = NOW.minusSeconds(3600);
    static Path quotaDir;

    @BeforeAll
    static void recordAnHour() throws Exception {
        CliCommand.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        quotaDir = Files.createTempDirectory("whatif");
        try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(SharedKafka.adminClientProperties(), new StringSerializer(),
                new ByteArraySerializer())) {
            // two 8-accelerator nodes, and a node of another cluster (so that a submission naming no cluster is neither's)
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, CLUSTER + "#p5-1", node("p5-1", CLUSTER));
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, CLUSTER + "#p5-2", node("p5-2", CLUSTER));
            String other = "arn:aws:sagemaker:us-west-2:000000000000:cluster/" + id();
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, other + "#o-1", node("o-1", other));
            send(p, TopicCatalog.Names.QUOTA, -7000, CLUSTER + "#team-a", quota("team-a", "LendAndBorrow").getBytes(StandardCharsets.UTF_8));
            send(p, TopicCatalog.Names.QUOTA, -7000, CLUSTER + "#team-b", quota("team-b", "LendAndBorrow").getBytes(StandardCharsets.UTF_8));
            // team-b runs b1 within its quota and b2 on team-a's idle quota; team-a's a1 reclaims it for ten minutes
            workload(p, "b1", "team-b", 0, 0, 1800);
            workload(p, "b2", "team-b", 0, 0, null);
            send(p, TopicCatalog.Names.WORKLOAD_ADMITTED, 1200, "b2", admitted("b2", "team-b", 1200));
            workload(p, "a1", "team-a", 600, 600, 1200);
            // a submission of this hour that is not this cluster's, and one that does not decode
            send(p, TopicCatalog.Names.WORKLOAD_SUBMITTED, 30, "elsewhere", EventCodec.bytes(submission("elsewhere", "team-a", other)));
            send(p, TopicCatalog.Names.WORKLOAD_SUBMITTED, 40, "broken", "{\"workloadId\": 7}".getBytes(StandardCharsets.UTF_8));
        }
        Files.writeString(quotaDir.resolve("team-a-dontlend.json"), quota("team-a", "DontLend"));
        Files.writeString(quotaDir.resolve("elsewhere.json"), quota("team-a", "DontLend").replace(CLUSTER, other()));
    }

    @AfterAll
    static void systemClock() {
        CliCommand.clock = Clock.systemUTC();
    }

    @Test
    void aLenderThatStopsLendingShowsTheBorrowerWaitingAndNoReclaim() {
        Cli.Result r = whatIf("--quota", quotaDir.resolve("team-a-dontlend.json").toString(), "--since", "1h");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("What-if on " + CLUSTER.substring(CLUSTER.lastIndexOf('/') + 1) + ", " + T0 + " to " + NOW
                + " (1h, 3 workloads): team-a quota replaced\n");
        assertThat(r.out()).contains("""
                TEAM     ADMITTED   MEAN WAIT   P90 WAIT    PREEMPTED   PREEMPTING   BORROWED H   LENT H       USED H
                team-a   1          0s          0s          0           1 -> 0       0.0          2.7 -> 0.0   1.3
                team-b   3 -> 2     0s -> 15m   0s -> 30m   1 -> 0      0            2.7 -> 0.0   0.0          10.7 -> 8.0
                """);
        assertThat(r.out()).contains("Made now, the change evicts nothing at once.");
        assertThat(r.err()).contains("left out of the replay", "key 'broken'");
    }

    @Test
    void deletingAQuotaPredictsTheEvictionsOfMakingItNowAndJsonHasTheFigures() throws Exception {
        Cli.Result r = whatIf("--delete-quota", "team-b", "--since", T0.toString(), "-o", "json");

        assertThat(r.exit()).as(r.err() + r.out()).isZero();
        JsonNode report = EventCodec.mapper().readTree(r.out());
        assertThat(report.path("change").asText()).isEqualTo("team-b quota deleted");
        assertThat(report.path("evictedIfMadeNow")).hasSize(1);
        assertThat(report.path("evictedIfMadeNow").get(0).path("workloadId").asText()).isEqualTo("b2");
        assertThat(report.path("evictedIfMadeNow").get(0).path("reason").asText()).isEqualTo("QuotaRemoved");
        JsonNode teamB = teamRow(report, "team-b");
        assertThat(teamB.path("asRecorded").path("admissions").asInt()).isEqualTo(3);
        assertThat(teamB.path("withChange").path("admissions").asInt()).isZero();
        assertThat(teamB.path("withChange").path("pendingAtEnd").asInt()).as(teamB.toString()).isEqualTo(2);
        assertThat(teamB.path("withChange").path("meanWaitSeconds").asDouble()).isEqualTo(3600.0);
        assertThat(r.out()).contains("\"meanWaitSeconds\" : 3600.0", "\"from\" : \"" + T0 + "\"");
    }

    @Test
    void theWholeTopicsReplayTheClustersWorkFromItsFirstSubmissionAndTheClusterIsNamedByItsId() {
        String id = CLUSTER.substring(CLUSTER.lastIndexOf('/') + 1);
        Cli.Result r = whatIf("--delete-quota", "team-b", "--from-topics", "--cluster", id);

        assertThat(r.exit()).as(r.err()).isZero();
        // the nodes and quotas recorded before the first submission are the cluster at the window's start
        assertThat(r.out()).startsWith("What-if on " + id + ", " + T0 + " to " + NOW + " (1h, 3 workloads): team-b quota deleted\n");
        assertThat(r.out()).contains("team-b   3 -> 0", "b2 (team-b, QuotaRemoved");
    }

    @Test
    void madeNowStartsFromWhatTheRecordsSayRunsNowNotFromWhereTheReplayEnds() throws Exception {
        String cluster = "arn:aws:sagemaker:us-west-2:000000000000:cluster/" + id();
        try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(SharedKafka.adminClientProperties(), new StringSerializer(),
                new ByteArraySerializer())) {
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, cluster + "#m-1", node("m-1", cluster));
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, cluster + "#m-2", node("m-2", cluster));
            for (String team : List.of("team-a", "team-b")) {
                send(p, TopicCatalog.Names.QUOTA, -7000, cluster + "#" + team,
                        quota(team, "LendAndBorrow").replace(CLUSTER, cluster).getBytes(StandardCharsets.UTF_8));
            }
            // "ended" ran before the window and finished 100 s ago: a replay of the last 30 minutes starts it again at the
            // window's start and it is still running where the replay ends. "evicted" was preempted and waits now.
            running(p, cluster, "ended", "team-b", 600, "m-1");
            send(p, TopicCatalog.Names.WORKLOAD_FINISHED, 3500, "ended", EventCodec.bytes(
                    new WorkloadFinished("ended", T0.plusSeconds(3500), WorkloadFinished.Outcome.Succeeded, cluster)));
            running(p, cluster, "evicted", "team-b", 1000, "m-2");
            send(p, TopicCatalog.Names.WORKLOAD_PREEMPTED, 2900, "evicted", EventCodec.bytes(new WorkloadPreempted("evicted", "team-b",
                    null, PreemptionReason.FairSharing, "preempted", T0.plusSeconds(2900), cluster)));
            running(p, cluster, "runs", "team-b", 3000, "m-2");
            running(p, cluster, "a-runs", "team-a", 3550, "m-1");
        }

        Cli.Result r = whatIf("--delete-quota", "team-b", "--since", "30m", "--cluster", cluster);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("Made now, the change evicts at once:\n  runs (team-b, QuotaRemoved)\n")
                .doesNotContain("ended (", "evicted (", "a-runs (");
    }

    private static void running(KafkaProducer<String, byte[]> p, String cluster, String id, String team, int second, String node)
            throws Exception {
        send(p, TopicCatalog.Names.WORKLOAD_SUBMITTED, second, id, EventCodec.bytes(submission(id, team, cluster)));
        send(p, TopicCatalog.Names.WORKLOAD_ADMITTED, second, id, EventCodec.bytes(new WorkloadAdmitted(id, team, T0.plusSeconds(second),
                Map.of(), List.of(new WorkloadAdmitted.AdmittedPodSet("worker", TYPE, null, List.of(new WorkloadAdmitted.NodeCount(node, 1)))),
                null, cluster)));
    }

    /** The context set last does not override a proposal that names its cluster (as kubectl takes a manifest's namespace). */
    @Test
    void aProposalThatNamesItsClusterIsReplayedThereWhateverClusterTheContextSays() throws Exception {
        new ClusterContext(other(), null).save();
        try {
            Cli.Result r = Cli.run("what-if", "--kafka-bootstrap", SharedKafka.bootstrapServers(),
                    "--kafka-config", SharedKafka.clientConfigFile(KafkaAccess.ADMIN).toString(),
                    "--quota", quotaDir.resolve("team-a-dontlend.json").toString(), "--since", "1h");
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).startsWith("What-if on " + CLUSTER.substring(CLUSTER.lastIndexOf('/') + 1) + ", ");
        } finally {
            Files.deleteIfExists(ClusterContext.file());
        }
    }

    @Test
    void badInputIsRefusedNamingTheOptionAndTheRule() {
        Cli.Result unknownId = whatIf("--delete-quota", "team-b", "--cluster", "nosuchclustr");
        assertThat(unknownId.exit()).isEqualTo(2);
        assertThat(unknownId.err()).startsWith("error: --cluster: no cluster with id 'nosuchclustr' on the topology topic (it holds ");


        Cli.Result none = whatIf("--since", "1h");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).isEqualTo("error: name a change: --quota FILE, --delete-quota TEAM or --scheduler-config FILE\n");

        Path elsewhere = quotaDir.resolve("elsewhere.json");
        Cli.Result otherCluster = whatIf("--quota", elsewhere.toString(), "--cluster", CLUSTER);
        assertThat(otherCluster.exit()).isEqualTo(2);
        assertThat(otherCluster.err()).startsWith("error: --quota " + elsewhere + ": ClusterArn: names cluster " + other()
                + " but the what-if replays " + CLUSTER);

        Cli.Result since = whatIf("--delete-quota", "team-b", "--since", "yesterday");
        assertThat(since.exit()).isEqualTo(2);
        assertThat(since.err()).contains("--since: 'yesterday' is neither an instant");
    }

    private static Cli.Result whatIf(String... args) {
        List<String> all = new ArrayList<>(List.of("what-if", "--kafka-bootstrap", SharedKafka.bootstrapServers(),
                "--kafka-config", SharedKafka.clientConfigFile(KafkaAccess.ADMIN).toString()));
        if (!List.of(args).contains("--cluster")) all.addAll(List.of("--cluster", CLUSTER));
        all.addAll(List.of(args));
        return Cli.run(all.toArray(String[]::new));
    }

    private static JsonNode teamRow(JsonNode report, String team) {
        for (JsonNode t : report.path("teams")) if (t.path("team").asText().equals(team)) return t;
        throw new AssertionError("no row for " + team + " in " + report);
    }

    private static void workload(KafkaProducer<String, byte[]> p, String id, String team, int submitted, int admitted, Integer finished)
            throws Exception {
        send(p, TopicCatalog.Names.WORKLOAD_SUBMITTED, submitted, id, EventCodec.bytes(submission(id, team, CLUSTER)));
        send(p, TopicCatalog.Names.WORKLOAD_ADMITTED, admitted, id, admitted(id, team, admitted));
        if (finished != null) {
            send(p, TopicCatalog.Names.WORKLOAD_FINISHED, finished, id, EventCodec.bytes(
                    new WorkloadFinished(id, T0.plusSeconds(finished), WorkloadFinished.Outcome.Succeeded, CLUSTER)));
        }
    }

    private static WorkloadSubmitted submission(String id, String team, String cluster) {
        ResourceAmounts perPod = new ResourceAmounts(BigDecimal.valueOf(8), BigDecimal.valueOf(160), BigDecimal.valueOf(1600));
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, null, null, "PyTorchJob", null,
                List.of(new PodSetSpec("worker", 1, TYPE, perPod, null, null)), cluster);
    }

    private static byte[] admitted(String id, String team, int second) {
        return EventCodec.bytes(new WorkloadAdmitted(id, team, T0.plusSeconds(second), Map.of(), List.of(), null, CLUSTER));
    }

    private static byte[] node(String name, String cluster) {
        return EventCodec.bytes(new NodeRecord(name, "i-" + name, TYPE, Map.of("kubernetes.io/hostname", name),
                new ResourceAmounts(BigDecimal.valueOf(8), BigDecimal.valueOf(192), BigDecimal.valueOf(2048)), true, cluster));
    }

    private static String quota(String team, String strategy) {
        return """
                {"Name": "%s-quota", "ClusterArn": "%s",
                 "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "%s", "Count": 1}],
                   "ResourceSharingConfig": {"Strategy": "%s", "BorrowLimit": 100}},
                 "ComputeQuotaTarget": {"TeamName": "%s"}}""".formatted(team, CLUSTER, TYPE, strategy, team);
    }

    private static void send(KafkaProducer<String, byte[]> p, String topic, int second, String key, byte[] value) throws Exception {
        p.send(new ProducerRecord<>(topic, null, T0.plusSeconds(second).toEpochMilli(), key, value)).get();
    }

    private static String other() {
        return "arn:aws:sagemaker:us-west-2:000000000000:cluster/otherclustr2";
    }

    private static String id() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }
}
