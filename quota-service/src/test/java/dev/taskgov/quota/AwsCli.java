package dev.taskgov.quota;

import dev.taskgov.testsupport.TestCredentials;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code aws} command-line client (v1, {@code pip install awscli}) pointed at the service
 * under test with {@code --endpoint-url}, an access key of the test database (admin unless given) and no user
 * configuration.
 */
final class AwsCli {

    record Result(int exitCode, String stdout, String stderr) {
    }

    private AwsCli() {
    }

    static Result sagemaker(URL service, String... args) {
        return sagemaker(service, QuotaTestKit.admin(), args);
    }

    static Result sagemaker(URL service, TestCredentials.Key key, String... args) {
        List<String> command = new ArrayList<>(List.of("aws", "sagemaker"));
        command.addAll(List.of(args));
        command.addAll(List.of("--endpoint-url", "http://localhost:" + service.getPort(), "--output", "json"));
        try {
            Path out = Files.createTempFile("aws-out", ".txt");
            Path err = Files.createTempFile("aws-err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            Map<String, String> env = pb.environment();
            env.put("AWS_ACCESS_KEY_ID", key.accessKeyId());
            env.put("AWS_SECRET_ACCESS_KEY", key.secret());
            env.put("AWS_DEFAULT_REGION", "us-west-2");
            env.put("AWS_CONFIG_FILE", "/nonexistent/taskgov-test-aws-config");
            env.put("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/taskgov-test-aws-credentials");
            env.remove("AWS_PROFILE");
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("aws " + String.join(" ", args) + " did not finish in 120 s");
            }
            Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            return r;
        } catch (IOException e) {
            throw new AssertionError("the aws CLI is needed by this test (pip install awscli): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
