package dev.taskgov.core.sim;

import dev.taskgov.core.scheduling.Scheduler;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replays every scenario of the repository's {@code scenarios/} and, when present, of
 * {@code ../shared/scenarios/} (relative to the repository root; or the directory named by the
 * {@code TASKGOV_SHARED_SCENARIOS} environment variable) in both scheduler modes (in-process, and
 * delegated with the simulator playing the preemption service) and asserts that all expectations hold.
 */
class ScenarioFilesTest {

    @TestFactory
    Stream<DynamicTest> everyScenarioHolds() throws IOException {
        List<Path> files = ScenarioFiles.all(Path.of(""));
        assertThat(files).as("scenario files").isNotEmpty();
        return files.stream().flatMap(f -> Stream.of(Scheduler.Mode.values()).map(mode ->
                DynamicTest.dynamicTest(f.getParent().getFileName() + "/" + f.getFileName() + " (" + mode + ")", () -> {
                    ScenarioResult r = Simulator.run(Scenario.read(f), f.toString(), mode);
                    assertThat(r.ok()).as(r.toJson()).isTrue();
                })));
    }
}
