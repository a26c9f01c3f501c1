package dev.taskgov.core.events;

import dev.taskgov.core.model.ComputeQuotaRequest;
import dev.taskgov.core.model.ComputeQuotaRequest.ResourceRequest;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A compute quota record (a CreateComputeQuota body) into typed values with the SageMaker defaults, or each broken rule with its field. */
class ComputeQuotaTranslatorTest {

    private static final String R0 = "ComputeQuotaConfig.ComputeQuotaResources[0]";

    /** A body: team-a, one resource entry, and what a case adds. */
    static final class Body {
        private String team = "\"team-a\"";
        private final List<String> resources = new ArrayList<>(List.of("{\"InstanceType\": \"ml.g5.8xlarge\", \"Accelerators\": 1}"));
        private final List<String> target = new ArrayList<>();
        private final List<String> config = new ArrayList<>();
        private final List<String> sharing = new ArrayList<>();
        private final List<String> top = new ArrayList<>();

        static Body quota() {
            return new Body();
        }

        Body team(String json) {
            team = json;
            return this;
        }

        Body resources(String... entries) {
            resources.clear();
            resources.addAll(List.of(entries));
            return this;
        }

        Body target(String member) {
            target.add(member);
            return this;
        }

        Body config(String member) {
            config.add(member);
            return this;
        }

        Body sharing(String member) {
            sharing.add(member);
            return this;
        }

        Body top(String member) {
            top.add(member);
            return this;
        }

        String json() {
            List<String> t = new ArrayList<>(target);
            if (team != null) t.add(0, "\"TeamName\": " + team);
            List<String> c = new ArrayList<>(config);
            c.add(0, "\"ComputeQuotaResources\": [" + String.join(", ", resources) + "]");
            if (!sharing.isEmpty()) c.add("\"ResourceSharingConfig\": {" + String.join(", ", sharing) + "}");
            List<String> all = new ArrayList<>(List.of("\"Name\": \"q\"", "\"ComputeQuotaTarget\": {" + String.join(", ", t) + "}",
                    "\"ComputeQuotaConfig\": {" + String.join(", ", c) + "}"));
            all.addAll(top);
            return "{" + String.join(", ", all) + "}";
        }
    }

    record Case(String name, String json, Translation<ComputeQuotaRequest> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static ResourceRequest entry(String type, String count, String accelerators, String vcpu, String memory) {
        return new ResourceRequest(type, decimal(count), decimal(accelerators), decimal(vcpu), decimal(memory));
    }

    private static BigDecimal decimal(String s) {
        return s == null ? null : new BigDecimal(s);
    }

    private static Translation<ComputeQuotaRequest> request(List<ResourceRequest> resources, SharingStrategy strategy, int borrowLimit,
                                                            List<ResourceRequest> absolute, PreemptTeamTasks preempt, int weight,
                                                            boolean active) {
        return Translation.translated(new ComputeQuotaRequest("q", "team-a", weight, resources, strategy, borrowLimit, absolute,
                preempt, active));
    }

    private static Translation<ComputeQuotaRequest> invalid(String field, String rule) {
        return Translation.invalid("quota", List.of(new Violation(field, rule)));
    }

    private static Translation<ComputeQuotaRequest> unreadable(String rule) {
        return new Translation.Refused<>(Translation.Kind.UNREADABLE, "unreadable quota", List.of(new Violation("$", rule)));
    }

    static Stream<Case> cases() {
        List<ResourceRequest> one = List.of(entry("ml.g5.8xlarge", null, "1", null, null));
        return Stream.of(
                new Case("defaults: LendAndBorrow, BorrowLimit 50, LowerPriority, weight 0, Enabled", Body.quota().json(),
                        request(one, SharingStrategy.LendAndBorrow, 50, List.of(), PreemptTeamTasks.LowerPriority, 0, true)),
                new Case("everything given", Body.quota().target("\"FairShareWeight\": 100").config("\"PreemptTeamTasks\": \"Never\"")
                        .sharing("\"Strategy\": \"Lend\"").sharing("\"BorrowLimit\": 10000")
                        .sharing("\"AbsoluteBorrowLimits\": [{\"InstanceType\": \"ml.g5.8xlarge\", \"Count\": 2}]")
                        .top("\"ActivationState\": \"Disabled\"").json(),
                        request(one, SharingStrategy.Lend, 10000, List.of(entry("ml.g5.8xlarge", "2", null, null, null)),
                                PreemptTeamTasks.Never, 100, false)),
                new Case("numbers as strings, as the AWS examples write them, and a lower-case first letter",
                        Body.quota().resources("{\"InstanceType\": \"t\", \"Count\": \"3\", \"vCpu\": \"2.5\", \"MemoryInGiB\": 4}")
                                .target("\"FairShareWeight\": 7").json(),
                        request(List.of(entry("t", "3", null, "2.5", "4")), SharingStrategy.LendAndBorrow, 50, List.of(),
                                PreemptTeamTasks.LowerPriority, 7, true)),
                new Case("an unknown instance type is not the translator's to refuse (it may appear in the topology)",
                        Body.quota().resources("{\"InstanceType\": \"ml.not-yet\", \"Count\": 1}").json(),
                        request(List.of(entry("ml.not-yet", "1", null, null, null)), SharingStrategy.LendAndBorrow, 50, List.of(),
                                PreemptTeamTasks.LowerPriority, 0, true)),
                new Case("not JSON", "{not json", null),
                new Case("trailing bytes after the object", Body.quota().json() + " xyz", null),
                new Case("no bytes at all", "", unreadable("the record has no value")),
                new Case("an array, not an object", "[1]", invalid("$", "must be a JSON object")),
                new Case("TeamName missing", Body.quota().team(null).json(), invalid("ComputeQuotaTarget.TeamName", "is required")),
                new Case("TeamName with capitals", Body.quota().team("\"Team_A\"").json(), invalid("ComputeQuotaTarget.TeamName",
                        "must match [a-z0-9]([-a-z0-9]*[a-z0-9]){0,39} (lower-case letters, digits and '-', at most 41 characters), was 'Team_A'")),
                new Case("FairShareWeight above 100", Body.quota().target("\"FairShareWeight\": 101").json(),
                        invalid("ComputeQuotaTarget.FairShareWeight", "must be in 0..100, was 101")),
                new Case("FairShareWeight not a number", Body.quota().target("\"FairShareWeight\": \"high\"").json(),
                        invalid("ComputeQuotaTarget.FairShareWeight", "must be a whole number in 0..100, was \"high\"")),
                new Case("BorrowLimit above 10000", Body.quota().sharing("\"BorrowLimit\": 10001").json(),
                        invalid("ComputeQuotaConfig.ResourceSharingConfig.BorrowLimit", "must be in 0..10000, was 10001")),
                new Case("unknown Strategy", Body.quota().sharing("\"Strategy\": \"Share\"").json(),
                        invalid("ComputeQuotaConfig.ResourceSharingConfig.Strategy", "must be one of [LendAndBorrow, Lend, DontLend], was 'Share'")),
                new Case("unknown PreemptTeamTasks", Body.quota().config("\"PreemptTeamTasks\": \"Always\"").json(),
                        invalid("ComputeQuotaConfig.PreemptTeamTasks", "must be one of [LowerPriority, Never], was 'Always'")),
                new Case("unknown ActivationState", Body.quota().top("\"ActivationState\": \"On\"").json(),
                        invalid("ActivationState", "must be Enabled or Disabled, was 'On'")),
                new Case("resources not a list", "{\"ComputeQuotaTarget\": {\"TeamName\": \"team-a\"}, \"ComputeQuotaConfig\": "
                        + "{\"ComputeQuotaResources\": {}}}", invalid("ComputeQuotaConfig.ComputeQuotaResources", "must be a list")),
                new Case("an entry not an object", Body.quota().resources("3").json(), invalid(R0, "must be an object")),
                new Case("InstanceType missing", Body.quota().resources("{\"Count\": 1}").json(), invalid(R0 + ".InstanceType", "is required")),
                new Case("an instance type given twice", Body.quota().resources("{\"InstanceType\": \"t\", \"Count\": 1}",
                        "{\"InstanceType\": \"t\", \"Count\": 2}").json(),
                        invalid("ComputeQuotaConfig.ComputeQuotaResources[1].InstanceType", "instance type 't' is given twice")),
                new Case("Count not a number", Body.quota().resources("{\"InstanceType\": \"t\", \"Count\": \"two\"}").json(),
                        invalid(R0 + ".Count", "must be a number, was \"two\"")),
                new Case("negative Accelerators", Body.quota().resources("{\"InstanceType\": \"t\", \"Accelerators\": -1}").json(),
                        invalid(R0 + ".Accelerators", "must not be negative, was -1")),
                new Case("a fraction of an instance", Body.quota().resources("{\"InstanceType\": \"t\", \"Count\": 1.5}").json(),
                        invalid(R0 + ".Count", "must be a whole number of instances, was 1.5")),
                new Case("a fraction of an accelerator", Body.quota().resources("{\"InstanceType\": \"t\", \"Accelerators\": 0.5}").json(),
                        invalid(R0 + ".Accelerators", "must be a whole number, was 0.5")),
                new Case("an entry of AbsoluteBorrowLimits names its own path",
                        Body.quota().sharing("\"AbsoluteBorrowLimits\": [{\"InstanceType\": \"t\", \"VCpu\": -2}]").json(),
                        invalid("ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits[0].VCpu", "must not be negative, was -2")),
                new Case("every broken rule is named, in the body's order", Body.quota().team("\"-a\"").target("\"FairShareWeight\": -1").json(),
                        Translation.invalid("quota", List.of(
                                new Violation("ComputeQuotaTarget.TeamName", "must match [a-z0-9]([-a-z0-9]*[a-z0-9]){0,39} "
                                        + "(lower-case letters, digits and '-', at most 41 characters), was '-a'"),
                                new Violation("ComputeQuotaTarget.FairShareWeight", "must be in 0..100, was -1"))))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void translates(Case c) {
        Translation<ComputeQuotaRequest> seen = ComputeQuotaTranslator.translate(c.json().getBytes(StandardCharsets.UTF_8));
        if (c.expected() == null) {
            // the parser's own words: what matters is that the whole value is refused as unreadable, at "$"
            assertThat(seen).isInstanceOfSatisfying(Translation.Refused.class, r -> {
                assertThat(r.kind()).isEqualTo(Translation.Kind.UNREADABLE);
                assertThat(r.reason()).startsWith("unreadable quota: $: ");
            });
        } else {
            assertThat(seen).isEqualTo(c.expected());
        }
    }

    static final InstanceType GPU = new InstanceType("ml.g5.8xlarge", Resources.of(1, 32_000, 128 * 1024));
    static final InstanceType CPU = new InstanceType("ml.c5.4xlarge", Resources.of(0, 16_000, 32 * 1024));

    record Resolved(String name, String json, Translation<TeamQuota> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Resolved> resolved() {
        return Stream.of(
                new Resolved("a valid body resolves with the ratio defaults", Body.quota().json(), Translation.translated(
                        new TeamQuota("team-a", "q", Map.of("ml.g5.8xlarge", Resources.of(1, 32_000, 128 * 1024)),
                                SharingStrategy.LendAndBorrow, 50, PreemptTeamTasks.LowerPriority, 0, true))),
                new Resolved("an unknown instance type is named where it stands, with the body's other rules",
                        Body.quota().team("\"BAD\"").resources("{\"InstanceType\": \"ml.nope\", \"Accelerators\": 1}")
                                .sharing("\"Strategy\": \"Share\"").json(),
                        Translation.invalid("quota", List.of(
                                new Violation("ComputeQuotaTarget.TeamName", "must match [a-z0-9]([-a-z0-9]*[a-z0-9]){0,39} "
                                        + "(lower-case letters, digits and '-', at most 41 characters), was 'BAD'"),
                                new Violation(R0 + ".InstanceType", "unknown instance type 'ml.nope'"),
                                new Violation("ComputeQuotaConfig.ResourceSharingConfig.Strategy",
                                        "must be one of [LendAndBorrow, Lend, DontLend], was 'Share'")))),
                new Resolved("accelerators of a type without any", Body.quota().resources("{\"InstanceType\": \"ml.c5.4xlarge\", \"Accelerators\": 2}").json(),
                        Translation.invalid("quota", List.of(new Violation(R0 + ".Accelerators", "instance type 'ml.c5.4xlarge' has no accelerators"))))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("resolved")
    void translatesAndResolvesAgainstTheInstanceTypes(Resolved c) {
        assertThat(ComputeQuotaTranslator.translate(c.json().getBytes(StandardCharsets.UTF_8), Map.of(GPU.name(), GPU, CPU.name(), CPU)))
                .isEqualTo(c.expected());
    }
}
