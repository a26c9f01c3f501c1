package dev.taskgov.admission;

import dev.taskgov.admission.config.AdmissionServiceConfig;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.WaitForPodsReady;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Gang admission's deployment setting per cluster ({@code taskgov.admission.wait-for-pods-ready.*}): off by default,
 * Kueue's defaults when on, a cluster's own values over the common ones, and a value the rules refuse stops the
 * startup naming its property.
 */
class WaitForPodsReadySettingTest {

    private static final ClusterArn DEMO = ClusterArn.of("arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1");
    private static final ClusterArn SMALL = ClusterArn.of("arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovsmall");

    @Test
    void offByDefaultInEveryCluster() {
        WaitForPodsReadyByCluster setting = AdmissionRuntime.waitForPodsReady(config(false, OptionalInt.empty(), Map.of()));
        assertThat(setting.of(DEMO)).isNull();
        assertThat(setting.of(ClusterArn.UNNAMED)).isNull();
    }

    @Test
    void onItHasKueuesDefaults() {
        WaitForPodsReady on = AdmissionRuntime.waitForPodsReady(config(true, OptionalInt.empty(), Map.of())).of(DEMO);
        assertThat(on).isEqualTo(new WaitForPodsReady(Duration.ofMinutes(10), Duration.ofSeconds(60), Duration.ofSeconds(3600), null));
    }

    @Test
    void aClustersOwnValuesReplaceTheCommonOnesAndTheRestIsInherited() {
        WaitForPodsReadyByCluster setting = AdmissionRuntime.waitForPodsReady(config(false, OptionalInt.of(3),
                Map.of("taskgovdemo1", cluster(Optional.of(true), Optional.of(Duration.ofSeconds(60)), OptionalInt.empty()))));
        assertThat(setting.of(DEMO)).isEqualTo(new WaitForPodsReady(Duration.ofSeconds(60), Duration.ofSeconds(60),
                Duration.ofSeconds(3600), 3));
        assertThat(setting.of(SMALL)).as("not named: the common setting, off").isNull();
    }

    @Test
    void aRefusedValueNamesItsProperty() {
        assertThatThrownBy(() -> AdmissionRuntime.waitForPodsReady(config(false, OptionalInt.empty(),
                Map.of("taskgovdemo1", cluster(Optional.of(true), Optional.of(Duration.ZERO), OptionalInt.of(-1))))))
                .hasMessageContaining("taskgov.admission.wait-for-pods-ready.clusters.taskgovdemo1.timeout: must be a positive duration")
                .hasMessageContaining("taskgov.admission.wait-for-pods-ready.clusters.taskgovdemo1.backoff-limit-count: must not be negative");
    }

    private static AdmissionServiceConfig.WaitForPodsReadyConfig config(boolean enabled, OptionalInt limit,
                                                                       Map<String, AdmissionServiceConfig.ClusterWaitForPodsReady> clusters) {
        return new AdmissionServiceConfig.WaitForPodsReadyConfig() {
            public boolean enabled() {
                return enabled;
            }

            public Duration timeout() {
                return Duration.ofMinutes(10);
            }

            public long backoffBaseSeconds() {
                return 60;
            }

            public long backoffMaxSeconds() {
                return 3600;
            }

            public OptionalInt backoffLimitCount() {
                return limit;
            }

            public Map<String, AdmissionServiceConfig.ClusterWaitForPodsReady> clusters() {
                return clusters;
            }
        };
    }

    private static AdmissionServiceConfig.ClusterWaitForPodsReady cluster(Optional<Boolean> enabled, Optional<Duration> timeout,
                                                                          OptionalInt limit) {
        return new AdmissionServiceConfig.ClusterWaitForPodsReady() {
            public Optional<Boolean> enabled() {
                return enabled;
            }

            public Optional<Duration> timeout() {
                return timeout;
            }

            public OptionalLong backoffBaseSeconds() {
                return OptionalLong.empty();
            }

            public OptionalLong backoffMaxSeconds() {
                return OptionalLong.empty();
            }

            public OptionalInt backoffLimitCount() {
                return limit;
            }
        };
    }
}
