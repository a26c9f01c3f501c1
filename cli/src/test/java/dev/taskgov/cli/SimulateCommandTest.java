package dev.taskgov.cli;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code taskgov simulate}: one JSON result per file; exit 0 all hold, 1 one fails, 2 invalid file. */
@QuarkusMainTest
class SimulateCommandTest {

    static final Path SCENARIO = Path.of("../scenarios/seed-borrow-idle-quota.json");

    @Test
    void allExpectationsHold(QuarkusMainLauncher launcher) {
        LaunchResult r = launcher.launch("simulate", SCENARIO.toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.getOutput()).contains("\"name\" : \"seed-borrow-idle-quota\"").contains("\"ok\" : true");
    }

    @Test
    void aFailedExpectationExitsOne(QuarkusMainLauncher launcher) throws Exception {
        Path file = Files.createTempFile("failing", ".json");
        Files.writeString(file, Files.readString(SCENARIO).replace("\"preemptedSinceLastExpect\": [\n     \"b-2\"", "\"preemptedSinceLastExpect\": [\n     \"b-1\""));
        LaunchResult r = launcher.launch("simulate", file.toString());
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void anInvalidFileExitsTwoWithTheJsonPath(QuarkusMainLauncher launcher) throws Exception {
        Path file = Files.createTempFile("invalid", ".json");
        Files.writeString(file, Files.readString(SCENARIO).replaceFirst("\"count\": 2", "\"count\": 0"));
        LaunchResult r = launcher.launch("simulate", file.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.getOutput()).contains("$.steps[0].submit.podSets[0].count: must be >= 1, was 0");
    }
}
