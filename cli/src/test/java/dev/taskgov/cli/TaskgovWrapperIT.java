package dev.taskgov.cli;

import dev.taskgov.client.support.auth.ProfileFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code taskgov} wrapper at the repository's root and its class-data-sharing archive (docs/benchmarks.md, "CLI
 * start time"), run as a user runs it on this module's package: a copy of the script in a directory of its own whose
 * {@code cli/target/quarkus-app} links to this build, so the archive it writes is the test's own.
 */
class TaskgovWrapperIT {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Path BUILD = REPOSITORY.resolve("cli/target/quarkus-app");

    @TempDir
    Path root;
    private Path app;
    private Path archive;

    @BeforeEach
    void copyTheWrapperBesideThisBuild() throws IOException {
        Files.copy(REPOSITORY.resolve("taskgov"), root.resolve("taskgov"), StandardCopyOption.COPY_ATTRIBUTES);
        app = Files.createDirectories(root.resolve("cli/target/quarkus-app"));
        Files.createSymbolicLink(app.resolve("app"), BUILD.resolve("app"));
        Files.createSymbolicLink(app.resolve("lib"), BUILD.resolve("lib"));
        Files.createSymbolicLink(app.resolve("taskgov-cli-direct.jar"), BUILD.resolve("taskgov-cli-direct.jar"));
        Files.copy(BUILD.resolve("quarkus-run.jar"), app.resolve("quarkus-run.jar"));
        archive = app.resolve("taskgov-cli.jsa");
    }

    @Test
    void theFirstRunAfterABuildWritesAnArchiveThatHoldsTheSigningAndHttpPath() throws Exception {
        Run help = wrapper(Map.of(), "--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Usage: taskgov");
        assertThat(archive).isNotEmptyFile();
        assertThat(Files.getLastModifiedTime(archive)).isGreaterThan(Files.getLastModifiedTime(app.resolve("quarkus-run.jar")));
        try (Stream<Path> files = Files.list(app)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no partial archive is left behind")
                    .noneMatch(name -> name.startsWith("taskgov-cli.jsa."));
        }
        assertThat(app.resolve("startup-training.log")).as("every training command succeeded").isEmptyFile();

        // A signed command started from the archive (as the wrapper starts it, -Xshare:on so an unusable archive fails
        // loudly) finds the SDK's signer, the HTTP client and picocli (Java 5 classes, which only a static archive
        // holds) in it, though the run that wrote it was --help.
        Path profile = root.resolve("credentials");
        ProfileFile.write(profile, Cli.KEY);
        Run signed;
        // get workloads also reads the governed clusters (one table over all of them): both requests are signed.
        try (StubServer admission = new StubServer().answer("GET /workloads", 200, "[]")
                .answer("GET /clusters", 200, "{\"count\": 1, \"clusters\": [{\"clusterArn\": \"arn:aws:sagemaker:us-west-2:123456789012:cluster/a1b2c3d4e5f6\"}]}")) {
            signed = java(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:SharedArchiveFile=" + archive, "-Xshare:on",
                    "-Xlog:class+load=info", "-cp", classpath(), "dev.taskgov.cli.TaskgovMain",
                    "get", "workloads", "--admission-url", admission.url(), "--profile-file", profile.toString()));
            assertThat(admission.requests).extracting(StubServer.Request::uri).contains("/workloads");
            assertThat(admission.requests).allSatisfy(r -> assertThat(r.header("Authorization")).startsWith("AWS4-HMAC-SHA256"));
        }
        assertThat(signed.exit()).isZero();
        assertThat(signed.err()).contains("No workloads found.");
        assertThat(signed.out())
                .contains("software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner source: shared objects file")
                .contains("sun.net.www.protocol.http.HttpURLConnection source: shared objects file")
                .contains("com.fasterxml.jackson.databind.ObjectMapper source: shared objects file")
                .contains("picocli.CommandLine source: shared objects file");
        assertThat(signed.out()).as("the HTTP client's platform logger is the CLI's, and the JBoss LogManager does not start")
                .contains("dev.taskgov.cli.CliLoggerFinder source: shared objects file")
                .doesNotContain("org.jboss.logmanager.LogContext ");
    }

    @Test
    void aNewBuildTrainsANewArchive() throws Exception {
        assertThat(wrapper(Map.of(), "--version").exit()).isZero();
        // the build moved on since the archive was written: its launcher jar is newer
        FileTime built = Files.getLastModifiedTime(app.resolve("quarkus-run.jar"));
        FileTime old = FileTime.fromMillis(built.toMillis() - 60_000);
        Files.setLastModifiedTime(archive, old);

        Run again = wrapper(Map.of(), "--version");

        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("taskgov 0.1.0");
        assertThat(Files.getLastModifiedTime(archive)).isGreaterThan(built);
    }

    @Test
    void withTheArchiveSwitchedOffNoneIsWritten() throws Exception {
        Run help = wrapper(Map.of("TASKGOV_CDS", "0"), "--version");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("taskgov 0.1.0");
        assertThat(archive).doesNotExist();
    }

    record Run(int exit, String out, String err) {
    }

    private Run wrapper(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(root.resolve("taskgov").toString()));
        command.addAll(List.of(args));
        return run(command, env);
    }

    private Run java(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(args);
        return run(command, Map.of());
    }

    private Run run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("TASKGOV_HOME", root.resolve("home").toString());
        pb.environment().putAll(env);
        Path out = root.resolve("out.txt");
        Path err = root.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        int exit = pb.start().waitFor();
        return new Run(exit, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** The wrapper's class path (the build's jars in one), which a run must repeat word for word to use its archive. */
    private String classpath() {
        return app + "/taskgov-cli-direct.jar";
    }
}
