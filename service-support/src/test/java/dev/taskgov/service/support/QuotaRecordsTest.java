package dev.taskgov.service.support;

import dev.taskgov.core.events.ComputeQuotaTranslator;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.SchedulerConfigTranslator;
import dev.taskgov.core.model.ComputeQuotaRequest;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class QuotaRecordsTest {

    private static final Map<String, InstanceType> TYPES = Map.of(
            "ml.g5.8xlarge", new InstanceType("ml.g5.8xlarge", Resources.of(1, 32_000, 128 * 1024)),
            "ml.g5.12xlarge", new InstanceType("ml.g5.12xlarge", Resources.of(4, 48_000, 192 * 1024)));

    record Case(String name, TeamQuota quota) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        TeamQuota base = TeamQuota.of("team-a", Map.of("ml.g5.8xlarge", Resources.of(3, 96_500, 1000)));
        return Stream.of(
                new Case("defaults", base),
                new Case("dont lend, never preempt, weight 7", base.withStrategy(SharingStrategy.DontLend)
                        .withPreemptTeamTasks(PreemptTeamTasks.Never).withFairShareWeight(7)),
                new Case("borrow limit 150, inactive", base.withBorrowLimit(150).withActive(false)),
                new Case("absolute borrow limits, one of a type without nominal", base.withAbsoluteBorrowLimits(Map.of(
                        "ml.g5.8xlarge", Resources.of(2, 64_000, 2048), "ml.g5.12xlarge", Resources.of(4, 48_000, 192 * 1024)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theEffectiveQuotaReadsBackEqual(Case c) {
        byte[] value = EventCodec.bytes(QuotaRecords.effectiveQuota(c.quota()));
        ComputeQuotaRequest read = ComputeQuotaTranslator.translate(value).orThrow();
        assertThat(ComputeQuotas.fromRequest(read, TYPES)).isEqualTo(c.quota());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void theSchedulerConfigReadsBackEqual(SchedulerConfig config) {
        assertThat(SchedulerConfigTranslator.translate(EventCodec.bytes(QuotaRecords.schedulerConfig(config))).orThrow()).isEqualTo(config);
    }

    static Stream<SchedulerConfig> configs() {
        return Stream.of(SchedulerConfig.DEFAULT, new SchedulerConfig(Map.of("inference", 90, "training", 50), true),
                new SchedulerConfig(Map.of("training", 50), false, true));
    }
}
