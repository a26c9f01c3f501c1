package dev.taskgov.cli;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.client.support.auth.ProfileFile;
import dev.taskgov.testsupport.FreePorts;
import dev.taskgov.testsupport.ProjectLayout;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TestCredentials;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The CLI run with a team's key (a profile of the profile file, like {@code ~/.aws/credentials}) against the real
 * admission-service (its built app, a child process, on this JVM's real broker with access control on): team-a's
 * profile submits, dry-runs and reads for team-a, and is refused with a clear 403 for team-b's workloads and queue;
 * with team-a's Kafka login, {@code submit --kafka} writes team-a's own submission topic and the broker refuses
 * the topic a team-b submission would go to.
 */
class TeamProfileAccessTest {

    static final String TYPE = "ml.p4d.24xlarge";
    static final String TEAM_A = "team-a";
    static final String TEAM_B = "team-b";
    static final String ADMIN = "admin";

    static Process admission;
    static String admissionUrl;
    static Path profiles;
    static Path logs;

    @BeforeAll
    static void startAdmissionService() throws Exception {
        SharedKafka.addTeams(TEAM_A, TEAM_B);
        publishCluster();
        int port = FreePorts.distinct(1).get(0);
        admissionUrl = "http://127.0.0.1:" + port;
        Path app = ProjectLayout.root().resolve("admission-service/target/quarkus-app/quarkus-run.jar");
        assertThat(app).as("the built admission-service (the reactor builds that module before this one)").isRegularFile();
        logs = Path.of("target", "team-profile-access").toAbsolutePath();
        Files.createDirectories(logs);
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", app.toString())
                .redirectErrorStream(true).redirectOutput(logs.resolve("admission-service.log").toFile());
        pb.environment().put("TASKGOV_KAFKA_BOOTSTRAP", SharedKafka.bootstrapServers());
        String password = SharedKafka.password(KafkaAccess.ADMISSION_SERVICE);
        if (password != null) pb.environment().put("TASKGOV_KAFKA_PASSWORD", password);
        pb.environment().put("TASKGOV_AUTH_MASTER_KEY", TestCredentials.MASTER_KEY);
        pb.environment().put("TASKGOV_HTTP_HOST", "127.0.0.1");
        pb.environment().put("TASKGOV_ADMISSION_PORT", String.valueOf(port));
        admission = pb.start();

        // the keys as quota-service publishes them, and the profile file as the local runtime writes one
        profiles = Files.createTempDirectory("taskgov-team-profiles").resolve("credentials");
        for (String team : List.of(TEAM_A, TEAM_B)) {
            TestCredentials.Key key = TestCredentials.onTopic(team, "team:" + team);
            ProfileFile.write(profiles, new ProfileFile.Credentials(team, key.accessKeyId(), key.secret()));
        }
        TestCredentials.Key admin = TestCredentials.onTopic("cli-admin", "admin");
        ProfileFile.write(profiles, new ProfileFile.Credentials(ADMIN, admin.accessKeyId(), admin.secret()));
        await("admission-service up, deciding and knowing both keys").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                .until(() -> as(TEAM_A, "queue", TEAM_A).exit() == 0 && as(TEAM_B, "queue", TEAM_B).exit() == 0);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (admission == null) return;
        admission.destroy();
        if (!admission.waitFor(30, TimeUnit.SECONDS)) admission.destroyForcibly();
    }

    /** Two nodes of 8 accelerators, and 8 accelerators of quota for each team, as topology- and quota-service publish them. */
    private static void publishCluster() {
        Resources node = Resources.of(8, 96_000, 1_152 * 1024);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(SharedKafka.adminClientProperties(), new StringSerializer(),
                new ByteArraySerializer())) {
            String quota = TopicCatalog.QUOTA.defaultName();
            producer.send(new ProducerRecord<>(quota, QuotaRecords.SCHEDULER_CONFIG_KEY,
                    EventCodec.bytes(QuotaRecords.schedulerConfig(new SchedulerConfig(Map.of("training", 50), false)))));
            for (String team : List.of(TEAM_A, TEAM_B)) {
                producer.send(new ProducerRecord<>(quota, team, EventCodec.bytes(QuotaRecords.effectiveQuota(
                        TeamQuota.of(team, Map.of(TYPE, Resources.of(8, 96_000, 1_152 * 1024)))))));
            }
            for (int i = 0; i < 2; i++) {
                String name = "cli-node-" + i;
                producer.send(new ProducerRecord<>(TopicCatalog.TOPOLOGY.defaultName(), name, EventCodec.bytes(new NodeRecord(name,
                        "i-cli-" + i, TYPE, Map.of(TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_2, "nn-1-1",
                        TopologyLevels.LAYER_3, "nn-1-1-" + i), ResourceAmounts.of(node), true))));
            }
            producer.flush();
        }
    }

    /** The CLI signing with the profile {@code team} of the profile file, against the admission-service started here. */
    private static Cli.Result as(String team, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--admission-url", admissionUrl, "--profile-file", profiles.toString(), "--credentials-profile", team));
        return Cli.run(all.toArray(String[]::new));
    }

    private static String[] job(String command, String name, String team, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "--job-name", name, "--team", team, "--instance-type", TYPE,
                "--pods", "1", "--accelerators", "1"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void aTeamKeyWorksForItsOwnTeamAndGetsAClearRefusalForAnotherTeamsWorkloads() {
        Cli.Result own = as(TEAM_A, job("submit", "team-a-own", TEAM_A));
        assertThat(own.exit()).as(own.err()).isZero();
        assertThat(own.out()).contains("workload/team-a-own submitted (team team-a");
        Cli.Result dryRun = as(TEAM_A, job("dry-run", "team-a-maybe", TEAM_A));
        assertThat(dryRun.exit()).as(dryRun.err()).isZero();
        assertThat(dryRun.out()).contains("Workload:   team-a-maybe (team team-a)", "Verdict:");
        await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_A, "describe", "workload", "team-a-own").exit() == 0);
        // the queue orders by the platform's receipt; the time the CLI sent is shown apart
        assertThat(as(TEAM_A, "describe", "workload", "team-a-own").out()).contains("team-a-own", "Admitted", "Submitted:",
                "Client:", "(the time the submitter sent; the queue orders by Submitted)");
        Cli.Result theirs = as(TEAM_B, job("submit", "team-b-own", TEAM_B));
        assertThat(theirs.exit()).as(theirs.err()).isZero();
        await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_B, "describe", "workload", "team-b-own").exit() == 0);

        String who = "admission-service answered 403 to ";
        String principal = "AccessDeniedException: User: team-a [team:team-a] is not authorized to perform: ";
        Cli.Result submit = as(TEAM_A, job("submit", "team-b-forged", TEAM_B));
        assertThat(submit.exit()).isEqualTo(CliException.FAILED);
        assertThat(submit.err()).contains(who + "POST /workloads: " + principal + "SubmitWorkload",
                "only team 'team-b' (or an admin) submits for team 'team-b'; this key submits only for team(s) [team-a]");
        Cli.Result dry = as(TEAM_A, job("dry-run", "team-b-what-if", TEAM_B));
        assertThat(dry.exit()).isEqualTo(CliException.FAILED);
        assertThat(dry.err()).contains(who + "POST /workloads:dry-run: " + principal + "DryRunWorkload",
                "only team 'team-b' (or an admin) submits for team 'team-b'");
        // another team's workload id reads as one nobody submitted
        Cli.Result describe = as(TEAM_A, "describe", "workload", "team-b-own");
        assertThat(describe.exit()).isEqualTo(CliException.FAILED);
        assertThat(describe.err()).isEqualTo(as(TEAM_A, "describe", "workload", "team-b-none").err().replace("team-b-none", "team-b-own"));
        assertThat(describe.err()).contains("no workload with id 'team-b-own'").doesNotContain("403", "belongs");
        Cli.Result queue = as(TEAM_A, "queue", TEAM_B);
        assertThat(queue.exit()).isEqualTo(CliException.FAILED);
        assertThat(queue.err()).contains(who, principal + "ListPendingWorkloads", "it belongs to team 'team-b'");
        Cli.Result list = as(TEAM_A, "get", "workloads", "--team", TEAM_B);
        assertThat(list.exit()).isEqualTo(CliException.FAILED);
        assertThat(list.err()).contains(who, principal + "ListWorkloads", "it belongs to team 'team-b'");
        // none of it reached team-b: the forged submission is not a workload
        Cli.Result forged = as(TEAM_B, "describe", "workload", "team-b-forged");
        assertThat(forged.exit()).isNotZero();
        assertThat(forged.err()).doesNotContain("403");
    }

    @Test
    void anotherTeamsWorkloadIdIsRefusedWithAClearError() {
        // team-a takes an id in team-b's naming scheme first
        Cli.Result first = as(TEAM_A, job("submit", "team-b-train-7", TEAM_A));
        assertThat(first.exit()).as(first.err()).isZero();
        await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_A, "describe", "workload", "team-b-train-7").exit() == 0);

        Cli.Result taken = as(TEAM_B, job("submit", "team-b-train-7", TEAM_B));

        assertThat(taken.exit()).isEqualTo(CliException.FAILED);
        assertThat(taken.err()).isEqualTo("error: WorkloadIdTaken: the workload id is another team's\n  workloadId: 'team-b-train-7' is taken:"
                + " a workload id belongs to the team that first submitted it, and team 'team-b' is not that team; choose another id\n");
        assertThat(as(TEAM_A, "describe", "workload", "team-b-train-7").out()).contains("team-a");
    }

    @Test
    void aTeamKafkaLoginWritesItsOwnSubmissionTopicAndTheBrokerRefusesAnotherTeams() throws IOException {
        String teamA = SharedKafka.clientConfigFile(KafkaAccess.teamPrincipal(TEAM_A)).toString();
        Cli.Result own = as(TEAM_A, job("submit", "team-a-by-kafka", TEAM_A, "--kafka", "--kafka-config", teamA,
                "--kafka-bootstrap", SharedKafka.bootstrapServers(), "--kafka-retry", "0"));
        assertThat(own.exit()).as(own.err()).isZero();
        assertThat(own.out()).contains("written to taskgov.workload.submitted.team-a");
        await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_A, "describe", "workload", "team-a-by-kafka").exit() == 0);

        Cli.Result forged = as(TEAM_A, job("submit", "team-b-by-kafka", TEAM_B, "--kafka", "--kafka-config", teamA,
                "--kafka-bootstrap", SharedKafka.bootstrapServers(), "--kafka-retry", "0"));
        assertThat(forged.exit()).isEqualTo(CliException.FAILED);
        assertThat(forged.err()).contains("cannot write to Kafka topic taskgov.workload.submitted at " + SharedKafka.bootstrapServers(),
                "the broker refuses this login there", "a team writes only its own topic taskgov.workload.submitted.<team>");
        Cli.Result finish = as(TEAM_A, "finish", "team-b-own", "--kafka-config", teamA, "--kafka-bootstrap",
                SharedKafka.bootstrapServers(), "--kafka-retry", "0");
        assertThat(finish.exit()).isEqualTo(CliException.FAILED);
        assertThat(finish.err()).contains("cannot write to Kafka topic taskgov.workload.finished", "the broker refuses this login there");
    }

    /**
     * A team member's TASKGOV_HOME as the local runtime leaves it: the Kafka logins of the administrator and of
     * team-a. With team-a's profile the CLI must not finish (or delete) through the administrator's login: team-b's
     * workload is refused and stays as it was, and team-a's own is finished.
     */
    @Test
    void aTeamProfileFinishesDeletesAndReportsReadyOnlyItsOwnTeamsWorkloads() throws IOException {
        Path home = Files.createTempDirectory("taskgov-home");
        Path clients = Files.createDirectories(home.resolve("kafka").resolve("clients"));
        for (String principal : List.of(KafkaAccess.ADMIN, KafkaAccess.teamPrincipal(TEAM_A))) {
            Files.copy(SharedKafka.clientConfigFile(principal), clients.resolve(principal + ".properties"));
        }
        System.setProperty("taskgov.home", home.toString());
        try {
            assertThat(as(TEAM_A, job("submit", "team-a-to-finish", TEAM_A)).exit()).isZero();
            assertThat(as(TEAM_B, job("submit", "team-b-keeps", TEAM_B)).exit()).isZero();
            await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_A, "describe", "workload", "team-a-to-finish").out().contains("Admitted")
                    && as(TEAM_B, "describe", "workload", "team-b-keeps").out().contains("Admitted"));
            String[] kafka = {"--kafka-bootstrap", SharedKafka.bootstrapServers(), "--kafka-retry", "0"};

            Cli.Result finish = as(TEAM_A, concat(new String[] {"finish", "team-b-keeps"}, kafka));
            assertThat(finish.exit()).as(finish.out()).isEqualTo(CliException.FAILED);
            assertThat(finish.err()).contains("no workload with id 'team-b-keeps' of team(s) [team-a]");
            Cli.Result delete = as(TEAM_A, concat(new String[] {"delete", "hyp-pytorch-job", "--job-name", "team-b-keeps"}, kafka));
            assertThat(delete.exit()).as(delete.out()).isEqualTo(CliException.FAILED);
            assertThat(delete.err()).contains("no workload with id 'team-b-keeps' of team(s) [team-a]");

            // gang admission's readiness: the same rights as a finish
            Cli.Result othersReady = as(TEAM_A, concat(new String[] {"pods-ready", "team-b-keeps"}, kafka));
            assertThat(othersReady.exit()).as(othersReady.out()).isEqualTo(CliException.FAILED);
            assertThat(othersReady.err()).contains("no workload with id 'team-b-keeps' of team(s) [team-a]");
            Cli.Result ready = as(TEAM_A, concat(new String[] {"pods-ready", "team-a-to-finish"}, kafka));
            assertThat(ready.exit()).as(ready.err()).isZero();
            assertThat(ready.out()).contains("workload/team-a-to-finish pods ready");
            await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_A, "describe", "workload", "team-a-to-finish").out().contains("PodsReady"));

            Cli.Result own = as(TEAM_A, concat(new String[] {"finish", "team-a-to-finish"}, kafka));
            assertThat(own.exit()).as(own.err()).isZero();
            assertThat(own.out()).contains("workload/team-a-to-finish finished (Succeeded)");
            await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_A, "describe", "workload", "team-a-to-finish").out().contains("Finished"));
            Cli.Result untouched = as(TEAM_B, "describe", "workload", "team-b-keeps");
            assertThat(untouched.out()).contains("Admitted").doesNotContain("Finished");

            // The administrator's profile writes the finished topic with its Kafka login, having asked admission-service
            // first: an unknown id is an error naming it, an ended workload is said to have ended, neither is written.
            Cli.Result unknown = as(ADMIN, concat(new String[] {"delete", "hyp-pytorch-job", "--job-name", "nobody-submitted-this"}, kafka));
            assertThat(unknown.exit()).as(unknown.out()).isEqualTo(CliException.FAILED);
            assertThat(unknown.out()).isEmpty();
            assertThat(unknown.err()).isEqualTo("error: no workload with id 'nobody-submitted-this': admission-service knows none, so nothing"
                    + " was finished (taskgov get workloads lists them)\n");
            Cli.Result again = as(ADMIN, concat(new String[] {"finish", "team-a-to-finish", "--outcome", "Failed"}, kafka));
            assertThat(again.exit()).as(again.err()).isZero();
            assertThat(again.out()).isEqualTo("workload/team-a-to-finish had already ended (Finished, Succeeded); nothing changes\n");
            Cli.Result deleted = as(ADMIN, concat(new String[] {"delete", "hyp-pytorch-job", "--job-name", "team-b-keeps"}, kafka));
            assertThat(deleted.exit()).as(deleted.err()).isZero();
            assertThat(deleted.out()).isEqualTo("workload/team-b-keeps finished (Cancelled)\n");
            await().atMost(Duration.ofMinutes(1)).until(() -> as(TEAM_B, "describe", "workload", "team-b-keeps").out().contains("Finished"));

            // a team's own Kafka login is the default for --kafka with its profile, never the administrator's
            Cli.Result forged = as(TEAM_A, concat(job("submit", "team-b-by-default-login", TEAM_B, "--kafka"), kafka));
            assertThat(forged.exit()).isEqualTo(CliException.FAILED);
            assertThat(forged.err()).contains("the broker refuses this login there");
        } finally {
            System.clearProperty("taskgov.home");
        }
    }

    private static String[] concat(String[] a, String[] b) {
        List<String> all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(String[]::new);
    }
}
