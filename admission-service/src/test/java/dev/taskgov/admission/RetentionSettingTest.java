package dev.taskgov.admission;

import dev.taskgov.core.model.FinishedRetention;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The retention admission-service starts with: the configured period and bound as given, and a negative one stops
 * the startup naming its configuration property and the rule FinishedRetention refused it by.
 */
class RetentionSettingTest {

    @Test
    void theConfiguredPeriodAndBoundAreTheRetention() {
        assertThat(AdmissionRuntime.finishedRetention(Duration.ofMinutes(5), 7))
                .isEqualTo(new FinishedRetention(Duration.ofMinutes(5), 7));
        assertThat(AdmissionRuntime.finishedRetention(Duration.ZERO, 0)).isEqualTo(new FinishedRetention(Duration.ZERO, 0));
    }

    @Test
    void aNegativePeriodNamesItsProperty() {
        assertThatThrownBy(() -> AdmissionRuntime.finishedRetention(Duration.ofSeconds(-1), 7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskgov.admission.finished-retention: finished retention: must be zero or positive, was PT-1S");
    }

    @Test
    void aNegativeBoundNamesItsProperty() {
        assertThatThrownBy(() -> AdmissionRuntime.finishedRetention(Duration.ofHours(1), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskgov.admission.finished-retention-max: finished retention max-ended: must be zero or positive,"
                        + " was -1");
    }

    @Test
    void bothNegativeNameThePeriodFirst() {
        assertThatThrownBy(() -> AdmissionRuntime.finishedRetention(Duration.ofSeconds(-1), -1))
                .hasMessageStartingWith("taskgov.admission.finished-retention: ");
    }
}
