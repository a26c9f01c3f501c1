package dev.taskgov.core.events;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.ComputeQuotaRequest;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.Violation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A {@code taskgov.quota} record, key and value, into a quota, a quota gone, a scheduler config, or each broken rule with its field. */
class QuotaRecordTranslatorTest {

    static final String ARN = "arn:aws:sagemaker:us-west-2:123456789012:cluster/demo00000001";
    static final ClusterArn DEMO = ClusterArn.of(ARN);
    static final String KEYS = "<ClusterArn>#<team> or <ClusterArn>#_scheduler-config";
    static final String QUOTA = "{\"ComputeQuotaTarget\": {\"TeamName\": \"team-a\"}, \"ComputeQuotaConfig\": "
            + "{\"ComputeQuotaResources\": [{\"InstanceType\": \"t\", \"Count\": 2}]}}";

    record Case(String name, String key, String value, Translation<QuotaChange> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Translation<QuotaChange> invalid(String subject, String field, String rule) {
        return Translation.invalid(subject, List.of(new Violation(field, rule)));
    }

    static Stream<Case> cases() {
        ComputeQuotaRequest teamA = new ComputeQuotaRequest(null, "team-a", 0,
                List.of(new ComputeQuotaRequest.ResourceRequest("t", BigDecimal.valueOf(2), null, null, null)),
                SharingStrategy.LendAndBorrow, 50, List.of(), PreemptTeamTasks.LowerPriority, true);
        return Stream.of(
                new Case("a team's quota", ARN + "#team-a", QUOTA, Translation.translated(new QuotaChange.QuotaSet(DEMO, "team-a", teamA))),
                new Case("a bare team name: the unnamed cluster", "team-a", QUOTA,
                        Translation.translated(new QuotaChange.QuotaSet(ClusterArn.UNNAMED, "team-a", teamA))),
                new Case("a quota's tombstone", ARN + "#team-a", null, Translation.translated(new QuotaChange.QuotaRemoved(DEMO, "team-a"))),
                new Case("a scheduler config", ARN + "#_scheduler-config", "{\"SchedulerConfig\": {\"PriorityClasses\": "
                        + "[{\"Name\": \"high\", \"Weight\": 90}], \"FairShare\": \"Disabled\"}}",
                        Translation.translated(new QuotaChange.SchedulerConfigSet(DEMO, new SchedulerConfig(Map.of("high", 90), false)))),
                new Case("a scheduler config's tombstone: the default config", ARN + "#_scheduler-config", null,
                        Translation.translated(new QuotaChange.SchedulerConfigSet(DEMO, SchedulerConfig.DEFAULT))),
                new Case("no key", null, QUOTA, invalid(null, "key", "is required (<ClusterArn>#<name>, or <name> for a deployment "
                        + "whose records name no cluster) (a quota record is keyed " + KEYS + ")")),
                new Case("a key with two '#'", ARN + "#a#b", QUOTA, invalid(null, "key", "has more than one '#' (a quota record is keyed " + KEYS + ")")),
                new Case("a cluster's key without a team", ARN, QUOTA,
                        invalid(null, "key", "'" + ARN + "' names a cluster but no team; a quota is keyed " + KEYS)),
                new Case("a quota that breaks a rule names the subject, field and rule", ARN + "#team-a",
                        QUOTA.replace("\"Count\": 2", "\"Count\": -2"),
                        invalid("quota", "ComputeQuotaConfig.ComputeQuotaResources[0].Count", "must not be negative, was -2")),
                new Case("a scheduler config that breaks a rule", ARN + "#_scheduler-config", "{\"FairShare\": \"Sometimes\"}",
                        invalid("scheduler config", "FairShare", "must be Enabled or Disabled, was 'Sometimes'")),
                new Case("a quota that is not JSON", ARN + "#team-a", "",
                        new Translation.Refused<>(Translation.Kind.UNREADABLE, "unreadable quota", List.of(new Violation("$", "the record has no value"))))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void translates(Case c) {
        assertThat(QuotaRecordTranslator.translate(c.key(), c.value() == null ? null : c.value().getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(c.expected());
    }
}
