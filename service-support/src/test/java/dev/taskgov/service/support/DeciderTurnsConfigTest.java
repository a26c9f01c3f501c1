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
        return interval(d, 500);
    }

    private static DeciderTurnsConfig interval(Duration d, int fromRate) {
        return new DeciderTurnsConfig() {
            @Override
            public Duration commitInterval() {
                return d;
            }

            @Override
            public int commitIntervalFromRate() {
                return fromRate;
            }
        };
    }

    @Test
    void theConfiguredIntervalIsTheLoopsWithTheDefaultSecondPoll() {
        assertThat(DeciderTurnsConfig.turns(interval(Duration.ofMillis(20)), "taskgov.admission"))
                .isEqualTo(new TransactionalLoop.Turns(TransactionalLoop.CATCH_UP_WAIT, Duration.ofMillis(20), 500));
        assertThat(DeciderTurnsConfig.turns(interval(Duration.ZERO, 0), "taskgov.preemption"))
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
    void aNegativeRateNamesItsPropertyAndTheRule() {
        assertThatThrownBy(() -> DeciderTurnsConfig.turns(interval(Duration.ofMillis(50), -1), "taskgov.admission"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskgov.admission.commit-interval-from-rate: the rate from which turns batch must be zero or more "
                        + "records per second, not -1");
    }

    @Test
    void aNegativeSecondPollWaitIsRefused() {
        assertThatThrownBy(() -> new TransactionalLoop.Turns(Duration.ofMillis(-1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the second poll's wait must be zero or more, not PT-0.001S");
    }
}
