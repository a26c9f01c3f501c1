package dev.taskgov.cli;

import dev.taskgov.client.support.auth.ProfileFile;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code taskgov credentials ...} and {@code taskgov audit} against a recorded quota-service, and the profile file. */
class CredentialsCommandsTest {

    StubServer quota;

    @BeforeEach
    void start() {
        quota = new StubServer()
                .answer("POST /credentials", 201, "{\"accessKeyId\":\"TGAKNEWKEY\",\"secretAccessKey\":\"s3cr3t\","
                        + "\"principal\":\"team-a\",\"roles\":[\"team:team-a\"]}")
                .answer("GET /credentials", 200, "{\"accessKeys\":[{\"accessKeyId\":\"TGAKNEWKEY\",\"principal\":\"team-a\","
                        + "\"roles\":[\"team:team-a\"],\"status\":\"Active\",\"createdAt\":\"2026-12-01T10:00:00Z\",\"createdBy\":\"admin\"}]}")
                .answer("DELETE /credentials/TGAKNEWKEY", 200, "{\"accessKeyId\":\"TGAKNEWKEY\",\"principal\":\"team-a\",\"status\":\"Revoked\"}")
                .answer("GET /audit?principal=team-a", 200, "{\"events\":[{\"at\":\"2026-12-01T10:00:01Z\",\"principal\":\"team-a\","
                        + "\"service\":\"admission-service\",\"operation\":\"SubmitWorkload\",\"target\":\"workload w\",\"outcome\":\"Allowed\"}]}")
                .answer("GET /audit", 403, "{\"__type\":\"AccessDeniedException\",\"message\":\"only an admin or a viewer reads the audit trail\"}");
    }

    @AfterEach
    void stop() {
        quota.close();
    }

    @Test
    void createWritesTheNewKeyToTheProfileFileAndNeverPrintsItsSecretThen() throws Exception {
        Path profile = Files.createTempDirectory("taskgov-profile").resolve("credentials");
        ProfileFile.write(profile, Cli.KEY);
        Cli.Result r = Cli.run("credentials", "create", "--quota-url", quota.url(), "--profile-file", profile.toString(),
                "--principal", "team-a", "--role", "team:team-a", "--write-profile", "team-a");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("TGAKNEWKEY", "stored as profile [team-a]").doesNotContain("s3cr3t");
        assertThat(ProfileFile.read(profile, "team-a")).isEqualTo(new ProfileFile.Credentials("team-a", "TGAKNEWKEY", "s3cr3t"));
        assertThat(ProfileFile.read(profile, "admin")).isEqualTo(Cli.KEY);
        assertThat(quota.requests.get(0).body()).contains("\"principal\":\"team-a\"", "\"roles\":[\"team:team-a\"]");
        assertThat(quota.requests.get(0).header("Authorization")).contains("Credential=" + Cli.KEY.accessKeyId() + "/");
    }

    @Test
    void listRevokeAndAuditShowWhatQuotaServiceAnswersAndARefusalKeepsItsAwsErrorType() {
        Cli.Result list = Cli.run("credentials", "list", "--quota-url", quota.url());
        assertThat(list.out()).contains("TGAKNEWKEY", "team-a", "team:team-a", "Active");
        Cli.Result revoke = Cli.run("credentials", "revoke", "TGAKNEWKEY", "--quota-url", quota.url());
        assertThat(revoke.out()).contains("revoked TGAKNEWKEY (team-a)");
        Cli.Result audit = Cli.run("audit", "--principal", "team-a", "--quota-url", quota.url());
        assertThat(audit.out()).contains("SubmitWorkload", "workload w", "Allowed");
        Cli.Result refused = Cli.run("audit", "--quota-url", quota.url());
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).contains("AccessDeniedException: only an admin or a viewer reads the audit trail");
    }

    @Test
    void aMissingProfileIsAClearErrorNamingTheFile() {
        Cli.Result r = Cli.run("credentials", "list", "--quota-url", quota.url(), "--profile-file", "/nonexistent/credentials");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("/nonexistent/credentials", "taskgov-local up");
        assertThat(quota.requests).isEmpty();
    }
}
