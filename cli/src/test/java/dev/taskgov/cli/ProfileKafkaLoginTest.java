package dev.taskgov.cli;

import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.client.support.auth.ProfileFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which Kafka login and which path the CLI takes for a profile, where the local runtime's TASKGOV_HOME holds the
 * administrator's login: never that login for another profile (no broker needed: each case stops before one).
 */
class ProfileKafkaLoginTest {

    private Path profiles;

    @BeforeEach
    void home() throws Exception {
        Path home = Files.createTempDirectory("taskgov-home");
        Path clients = Files.createDirectories(home.resolve("kafka").resolve("clients"));
        Files.writeString(clients.resolve(KafkaAccess.ADMIN + ".properties"), "security.protocol=SASL_PLAINTEXT\n");
        System.setProperty("taskgov.home", home.toString());
        profiles = home.resolve("credentials");
        ProfileFile.write(profiles, new ProfileFile.Credentials("team-z", "TGAKTEAMZ00000000001", "s"));
        ProfileFile.write(profiles, new ProfileFile.Credentials("ci_bot", "TGAKCIBOT00000000001", "s"));
    }

    @AfterEach
    void clear() {
        System.clearProperty("taskgov.home");
    }

    private Cli.Result as(String profile, String... args) {
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of(
                "--credentials-profile", profile, "--profile-file", profiles.toString(), "--admission-url", "http://127.0.0.1:1",
                "--kafka-bootstrap", "127.0.0.1:1", "--kafka-retry", "0")).toArray(String[]::new);
        return Cli.run(all);
    }

    @Test
    void aTeamProfileWithoutAKafkaLoginOfItsOwnIsToldSoNotGivenTheAdministrators() {
        Cli.Result r = as("team-z", "submit", "--job-name", "team-z-1", "--team", "team-z", "--instance-type", "ml.p5.48xlarge",
                "--pods", "1", "--accelerators", "1", "--kafka");
        assertThat(r.exit()).as(r.err()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(r.err()).contains("--credentials-profile team-z: the profile has no Kafka login of its own",
                "team.team-z.properties", "never writes to Kafka with the administrator's login");
        Cli.Result bot = as("ci_bot", "submit", "--job-name", "team-z-2", "--team", "team-z", "--instance-type", "ml.p5.48xlarge",
                "--pods", "1", "--accelerators", "1", "--kafka");
        assertThat(bot.exit()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(bot.err()).contains("it names no team");
    }

    @Test
    void aTeamProfileFinishesThroughAdmissionServiceWithItsKeyNotThroughKafka() {
        Cli.Result r = as("team-z", "finish", "team-z-1");
        assertThat(r.exit()).isEqualTo(CliException.FAILED);
        assertThat(r.err()).contains("cannot reach admission-service at http://127.0.0.1:1").doesNotContain("Kafka");
        Cli.Result delete = as("team-z", "delete", "hyp-pytorch-job", "--job-name", "team-z-1");
        assertThat(delete.exit()).isEqualTo(CliException.FAILED);
        assertThat(delete.err()).contains("cannot reach admission-service at http://127.0.0.1:1").doesNotContain("Kafka");
    }
}
