package dev.taskgov.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** completion, demo plan, and the simulate command's exit codes. */
class MiscCommandsTest {

    @Test
    void completionPrintsABashScriptCoveringTheSubcommands() {
        Cli.Result r = Cli.run("completion", "bash");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("complete -F _complete_taskgov", "submit", "describe", "quota", "--required-topology");
        assertThat(Cli.run("completion", "fish")).isEqualTo(new Cli.Result(2, "",
                "error: SHELL must be bash or zsh (the bash script also runs in zsh), was 'fish'\n"));
    }

    @ParameterizedTest(name = "{0} = {1}s")
    @CsvSource({"90s, 90", "3m, 180", "1h30m, 5400", "45, 45", "PT2M, 120"})
    void demoDurations(String text, long seconds) {
        assertThat(DemoCommand.parseDuration(text)).isEqualTo(Duration.ofSeconds(seconds));
    }

    @Test
    void aBadDemoDurationIsInvalidInput() {
        assertThatThrownBy(() -> DemoCommand.parseDuration("soon")).isInstanceOfSatisfying(CliException.class,
                e -> assertThat(e.getMessage()).isEqualTo("--duration: 'soon' is not a duration such as 90s, 3m, 1h30m"));
    }

    @Test
    void aBadNodeFailureTimeIsInvalidInputBeforeAnythingIsContacted() {
        assertThat(Cli.run("demo", "--fail-node", "p5-b1r1h1", "--fail-for", "a while")).isEqualTo(new Cli.Result(2, "",
                "error: --fail-for: 'a while' is not a duration such as 90s, 3m, 1h30m\n"));
    }

    @Test
    void theDemoOpeningBorrowsThenReclaimsWaitsForARackAndHasOneJobThatNeverGetsReady() {
        var opening = DemoCommand.opening("r1");

        assertThat(opening).extracting(p -> p.submission().workloadId()).containsExactly("team-3-train-borrow-r1", "team-4-train-r1",
                "team-5-train-large-r1", "team-1-train-rack-r1", "team-2-experiment-sweep-r1", "team-2-inference-r1",
                "team-1-never-ready-r1");
        assertThat(opening).filteredOn(DemoCommand.Planned::neverReady).extracting(p -> p.submission().workloadId())
                .containsExactly("team-1-never-ready-r1");
        assertThat(opening).allSatisfy(p -> assertThat(dev.taskgov.core.events.WorkloadValidation.checkFields(
                p.submission().withSubmittedAt(java.time.Instant.EPOCH))).isEmpty());
    }

    @Test
    void simulateOfAMissingFileIsInvalid() {
        Cli.Result r = Cli.run("simulate", "/no/such/scenario.json");

        assertThat(r.exit()).isEqualTo(2);
    }
}
