package dev.taskgov.service.support;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The turns a decider starts with: the configured commit interval with the loop's second poll, and an interval out of
 * range stops the startup naming its configuration property and the rule.
 */
class DeciderTurnsConfigTest {

    private static DeciderTurnsConfig interval(Duration d) {
        return () -> d;
    }

    @Test
    void theConfiguredIntervalIsTheLoopsWithTheDefaultSecondPoll() {
        assertThat(DeciderTurnsConfig.turns(interval(Duration.ofMillis(20)), "taskgov.admission"))
                .isEqualTo(new TransactionalLoop.Turns(TransactionalLoop.CATCH_UP_WAIT, Duration.ofMillis(20)));
        assertThat(DeciderTurnsConfig.turns(interval(Duration.ZERO), "taskgov.preemption"))
                .isEqualTo(TransactionalLoop.Turns.DEFAULTS);
        assertThat(DeciderTurnsConfig.turns(interval(TransactionalLoop.MAX_COMMIT_INTERVAL), "taskgov.admission").commitInterval())
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aNegativeIntervalNamesItsPropertyAndTheRange() {
        assertThatThrownBy(() -> DeciderTurnsConfig.turns(interval(Duration.ofMillis(-5)), "taskgov.admission"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskgov.admission.commit-interval: the commit interval must be from 0 to 1000 ms, not -5 ms");
    }

    @Test
    void anIntervalOverASecondNamesItsPropertyAndTheRange() {
        assertThatThrownBy(() -> DeciderTurnsConfig.turns(interval(Duration.ofMillis(1500)), "taskgov.preemption"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskgov.preemption.commit-interval: the commit interval must be from 0 to 1000 ms, not 1500 ms");
    }

    @Test
    void aNegativeSecondPollWaitIsRefused() {
        assertThatThrownBy(() -> new TransactionalLoop.Turns(Duration.ofMillis(-1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the second poll's wait must be zero or more, not PT-0.001S");
    }
}
