package dev.taskgov.core.model;

import dev.taskgov.core.events.ComputeQuotaTranslator;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CreateComputeQuota bodies: ratio defaults (seed 002), SageMaker defaults, and validation naming the field. */
class ComputeQuotasTest {

    static final InstanceType TRN = new InstanceType("ml.trn1.32xlarge", Resources.of(32, 128_000, 512 * 1024));
    static final InstanceType ODD = new InstanceType("ml.odd", Resources.of(3, 100_000, 10 * 1024));
    static final InstanceType CPU = new InstanceType("ml.c5.4xlarge", Resources.of(0, 16_000, 32 * 1024));
    static final Map<String, InstanceType> TYPES = Map.of(TRN.name(), TRN, ODD.name(), ODD, CPU.name(), CPU);

    /** A body with one ComputeQuotaResources entry and optional extra top-level JSON. */
    static final class Body {
        String team = "\"team-a\"";
        String resource = "{\"InstanceType\": \"ml.trn1.32xlarge\", \"Accelerators\": 16}";
        String sharing = "";
        String target = "";
        String extra = "";

        static Body quota() {
            return new Body();
        }

        Body resource(String json) {
            resource = json;
            return this;
        }

        Body sharing(String json) {
            sharing = ", \"ResourceSharingConfig\": " + json;
            return this;
        }

        Body target(String json) {
            target = json;
            return this;
        }

        Body team(String json) {
            team = json;
            return this;
        }

        Body extra(String json) {
            extra = ", " + json;
            return this;
        }

        String json() {
            String t = team == null ? "" : "\"TeamName\": " + team;
            String tgt = "{" + t + (target.isEmpty() ? "" : (t.isEmpty() ? "" : ", ") + target) + "}";
            return "{\"Name\": \"q\", \"ComputeQuotaConfig\": {\"ComputeQuotaResources\": [" + resource + "]"
                    + sharing + "}, \"ComputeQuotaTarget\": " + tgt + extra + "}";
        }

        /** Translated, then resolved against {@link #TYPES}: what a decider makes of the record. */
        TeamQuota resolved() {
            return ComputeQuotas.fromRequest(ComputeQuotaTranslator.translate(json().getBytes(StandardCharsets.UTF_8)).orThrow(), TYPES);
        }
    }

    record Nominal(String name, Body body, String type, Resources expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Nominal> nominals() {
        return Stream.of(
                new Nominal("only Accelerators: 16 of 32 gives half the vCPU and half the memory", Body.quota(), TRN.name(),
                        Resources.of(16, 64_000, 256 * 1024)),
                new Nominal("Count 2 is two whole instances", Body.quota().resource("{\"InstanceType\": \"ml.trn1.32xlarge\", \"Count\": 2}"),
                        TRN.name(), TRN.capacity().times(2)),
                new Nominal("only VCpu (API reference): memory is the same fraction of the instance's, accelerators 0",
                        Body.quota().resource("{\"InstanceType\": \"ml.trn1.32xlarge\", \"VCpu\": 8}"), TRN.name(), Resources.of(0, 8_000, 32 * 1024)),
                new Nominal("only MemoryInGiB (API reference): vCPU is the same fraction of the instance's, accelerators 0",
                        Body.quota().resource("{\"InstanceType\": \"ml.trn1.32xlarge\", \"MemoryInGiB\": 32}"), TRN.name(), Resources.of(0, 8_000, 32 * 1024)),
                new Nominal("ratio rounds down in stored units: 1 of 3 accelerators of 100 vCPU is 33.333 vCPU",
                        Body.quota().resource("{\"InstanceType\": \"ml.odd\", \"Accelerators\": 1}"), ODD.name(), Resources.of(1, 33_333, 3413)),
                new Nominal("a given VCpu overrides the ratio; memory still follows it",
                        Body.quota().resource("{\"InstanceType\": \"ml.trn1.32xlarge\", \"Accelerators\": 8, \"VCpu\": 100}"), TRN.name(),
                        Resources.of(8, 100_000, 128 * 1024)),
                new Nominal("numbers as strings, as the AWS examples write them",
                        Body.quota().resource("{\"InstanceType\": \"ml.trn1.32xlarge\", \"Accelerators\": \"16\", \"vCpu\": \"200.0\", \"MemoryInGiB\": \"2.0\"}"),
                        TRN.name(), Resources.of(16, 200_000, 2048)),
                new Nominal("a CPU instance type with VCpu and memory", Body.quota().resource(
                        "{\"InstanceType\": \"ml.c5.4xlarge\", \"VCpu\": 1.5, \"MemoryInGiB\": 0.5}"), CPU.name(), Resources.of(0, 1500, 512))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nominals")
    void nominal(Nominal c) {
        assertThat(c.body().resolved().nominal(c.type())).isEqualTo(c.expected());
    }

    record Whole(String name, Body body, TeamQuota expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Whole> wholes() {
        Map<String, Resources> half = Map.of(TRN.name(), Resources.of(16, 64_000, 256 * 1024));
        return Stream.of(
                new Whole("defaults: LendAndBorrow, BorrowLimit 50, LowerPriority, weight 0, Enabled", Body.quota(),
                        new TeamQuota("team-a", "q", half, SharingStrategy.LendAndBorrow, 50, PreemptTeamTasks.LowerPriority, 0, true)),
                new Whole("everything given", Body.quota().sharing("{\"Strategy\": \"Lend\", \"BorrowLimit\": 10000}")
                        .target("\"FairShareWeight\": 100").extra("\"ActivationState\": \"Disabled\""),
                        new TeamQuota("team-a", "q", half, SharingStrategy.Lend, 10000, PreemptTeamTasks.LowerPriority, 100, false))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wholes")
    void whole(Whole c) {
        assertThat(c.body().resolved()).isEqualTo(c.expected());
    }

    record Invalid(String name, Body body, List<Violation> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Invalid> invalids() {
        String r = "ComputeQuotaConfig.ComputeQuotaResources[0]";
        return Stream.of(
                new Invalid("unknown instance type", Body.quota().resource("{\"InstanceType\": \"ml.x\", \"Accelerators\": 1}"),
                        List.of(new Violation(r + ".InstanceType", "unknown instance type 'ml.x'"))),
                new Invalid("accelerators of a type without any", Body.quota().resource("{\"InstanceType\": \"ml.c5.4xlarge\", \"Accelerators\": 1}"),
                        List.of(new Violation(r + ".Accelerators", "instance type 'ml.c5.4xlarge' has no accelerators"))),
                new Invalid("negative accelerators", Body.quota().resource("{\"InstanceType\": \"ml.trn1.32xlarge\", \"Accelerators\": -1}"),
                        List.of(new Violation(r + ".Accelerators", "must not be negative, was -1"))),
                new Invalid("negative memory", Body.quota().resource("{\"InstanceType\": \"ml.trn1.32xlarge\", \"MemoryInGiB\": -2.5}"),
                        List.of(new Violation(r + ".MemoryInGiB", "must not be negative, was -2.5"))),
                new Invalid("FairShareWeight above 100", Body.quota().target("\"FairShareWeight\": 101"),
                        List.of(new Violation("ComputeQuotaTarget.FairShareWeight", "must be in 0..100, was 101"))),
                new Invalid("BorrowLimit above 10000", Body.quota().sharing("{\"BorrowLimit\": 10001}"),
                        List.of(new Violation("ComputeQuotaConfig.ResourceSharingConfig.BorrowLimit", "must be in 0..10000, was 10001"))),
                new Invalid("unknown Strategy", Body.quota().sharing("{\"Strategy\": \"Share\"}"),
                        List.of(new Violation("ComputeQuotaConfig.ResourceSharingConfig.Strategy",
                                "must be one of [LendAndBorrow, Lend, DontLend], was 'Share'"))),
                new Invalid("TeamName with capitals and underscore", Body.quota().team("\"Team_A\""),
                        List.of(new Violation("ComputeQuotaTarget.TeamName", "must match [a-z0-9]([-a-z0-9]*[a-z0-9]){0,39} "
                                + "(lower-case letters, digits and '-', at most 41 characters), was 'Team_A'"))),
                new Invalid("TeamName missing", Body.quota().team(null),
                        List.of(new Violation("ComputeQuotaTarget.TeamName", "is required"))),
                new Invalid("two violations are both reported", Body.quota().team("\"-a\"").target("\"FairShareWeight\": -1"),
                        List.of(new Violation("ComputeQuotaTarget.TeamName", "must match [a-z0-9]([-a-z0-9]*[a-z0-9]){0,39} "
                                        + "(lower-case letters, digits and '-', at most 41 characters), was '-a'"),
                                new Violation("ComputeQuotaTarget.FairShareWeight", "must be in 0..100, was -1")))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalids")
    void invalid(Invalid c) {
        assertThatThrownBy(() -> c.body().resolved())
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations()).isEqualTo(c.expected()));
    }

    record Derived(String name, TeamQuota quota, Resources lendable, Resources guaranteed, Resources borrowingLimit) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Derived> derived() {
        TeamQuota five = TeamQuota.of("t", Map.of("g", Resources.of(5, 7_000, 3)));
        return Stream.of(
                new Derived("LendAndBorrow 50%: lends all, borrows floor(N x 0.5)", five,
                        Resources.of(5, 7_000, 3), Resources.ZERO, Resources.of(2, 3_500, 1)),
                new Derived("LendAndBorrow 150%: floor(5 x 1.5) = 7", five.withBorrowLimit(150),
                        Resources.of(5, 7_000, 3), Resources.ZERO, Resources.of(7, 10_500, 4)),
                new Derived("Lend: lends all, BorrowLimit ignored", five.withStrategy(SharingStrategy.Lend).withBorrowLimit(300),
                        Resources.of(5, 7_000, 3), Resources.ZERO, Resources.ZERO),
                new Derived("DontLend: keeps all, borrows nothing", five.withStrategy(SharingStrategy.DontLend),
                        Resources.ZERO, Resources.of(5, 7_000, 3), Resources.ZERO)
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("derived")
    void derivedAmounts(Derived c) {
        assertThat(List.of(c.quota().lendable("g"), c.quota().guaranteed("g"), c.quota().borrowingLimit("g")))
                .isEqualTo(List.of(c.lendable(), c.guaranteed(), c.borrowingLimit()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capacities")
    void capacity(String name, List<TeamQuota> quotas, List<Violation> expected) {
        assertThat(ComputeQuotas.checkCapacity(quotas, Map.of("g", Resources.of(15, 100_000, 1024)))).isEqualTo(expected);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> capacities() {
        TeamQuota a = TeamQuota.of("a", Map.of("g", Resources.accelerators(10)));
        TeamQuota b = TeamQuota.of("b", Map.of("g", Resources.accelerators(5)));
        TeamQuota c = TeamQuota.of("c", Map.of("g", Resources.accelerators(1)));
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("quotas summing to the capacity are fine", List.of(a, b), List.of()),
                org.junit.jupiter.params.provider.Arguments.of("one GPU over the capacity is refused", List.of(a, b, c),
                        List.of(new Violation("ComputeQuotaConfig.ComputeQuotaResources",
                                "the quotas for g sum to 16 accelerators, more than the cluster's 15 accelerators on ready nodes"))),
                org.junit.jupiter.params.provider.Arguments.of("an inactive quota does not count", List.of(a, b, c.withActive(false)), List.of())
        );
    }
}
