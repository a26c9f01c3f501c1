package dev.taskgov.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The wrapper's training run: every command it trains on succeeds, so the archive holds their whole path. */
class StartupTrainingTest {

    @Test
    void everyTrainingCommandSucceedsAgainstTheStandIn() {
        assertThat(StartupTraining.run()).isEmpty();
    }
}
