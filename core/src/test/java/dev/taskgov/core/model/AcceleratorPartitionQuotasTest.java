package dev.taskgov.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code AcceleratorPartition: {Type, Count}} in ComputeQuotaResources and AbsoluteBorrowLimits: the
 * nominal is Count partitions of the type (no ratio defaults), the borrowing limits follow, the
 * type must be a MIG profile the instance type offers, and the quota-sum check counts partitions.
 */
class AcceleratorPartitionQuotasTest {

    static final String P5 = "ml.p5.48xlarge";
    static final Map<String, InstanceType> TYPES = Map.of(
            P5, new InstanceType(P5, Resources.of(8, 192_000, 2048 * 1024)),
            "ml.p4d.24xlarge", new InstanceType("ml.p4d.24xlarge", Resources.of(8, 96_000, 1152 * 1024)),
            "ml.g5.8xlarge", new InstanceType("ml.g5.8xlarge", Resources.of(1, 32_000, 128 * 1024)));
    static final String ENTRY = "ComputeQuotaConfig.ComputeQuotaResources[0]";

    static JsonNode body(String resource, String sharing) {
        return EventCodec.read("{\"Name\": \"q\", \"ComputeQuotaConfig\": {\"ComputeQuotaResources\": [" + resource + "]"
                + (sharing == null ? "" : ", \"ResourceSharingConfig\": " + sharing)
                + "}, \"ComputeQuotaTarget\": {\"TeamName\": \"team-a\"}}", JsonNode.class);
    }

    static String entry(String type, Object count) {
        return "{\"InstanceType\": \"" + P5 + "\", \"AcceleratorPartition\": {\"Type\": \"" + type + "\", \"Count\": " + count + "}}";
    }

    record Read(String name, JsonNode body, Resources nominal, Resources borrowingLimit) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Read> reads() {
        return Stream.of(
                new Read("only AcceleratorPartition: Count partitions of the type, nothing else (no ratio defaults)",
                        body(entry("mig-1g.10gb", 7), null), Resources.partition("mig-1g.10gb", 7), Resources.partition("mig-1g.10gb", 3)),
                new Read("beside Accelerators: both, the ratio defaults from Accelerators alone",
                        body("{\"InstanceType\": \"" + P5 + "\", \"Accelerators\": 4, \"AcceleratorPartition\": {\"Type\": \"mig-7g.80gb\", \"Count\": 2}}", null),
                        Resources.of(4, 96_000, 1024 * 1024).plus(Resources.partition("mig-7g.80gb", 2)),
                        Resources.of(2, 48_000, 512 * 1024).plus(Resources.partition("mig-7g.80gb", 1))),
                new Read("BorrowLimit 200% of 3 partitions is 6", body(entry("mig-3g.40gb", 3), "{\"BorrowLimit\": 200}"),
                        Resources.partition("mig-3g.40gb", 3), Resources.partition("mig-3g.40gb", 6)),
                new Read("AbsoluteBorrowLimits with an AcceleratorPartition: that many, whatever the percentage",
                        body(entry("mig-1g.10gb", 7), "{\"AbsoluteBorrowLimits\": [" + entry("mig-1g.10gb", 1) + "]}"),
                        Resources.partition("mig-1g.10gb", 7), Resources.partition("mig-1g.10gb", 1)),
                new Read("Count 0 is no partitions", body(entry("mig-1g.10gb", 0), null), Resources.ZERO, Resources.ZERO),
                new Read("Count as a string, as the AWS examples write numbers", body(entry("mig-1g.10gb", "\"7\""), null),
                        Resources.partition("mig-1g.10gb", 7), Resources.partition("mig-1g.10gb", 3))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reads")
    void read(Read c) {
        TeamQuota q = dev.taskgov.core.events.ComputeQuotaTranslator.translate(bytes(c.body()), TYPES).orThrow();
        assertThat(List.of(q.nominal(P5), q.borrowingLimit(P5))).isEqualTo(List.of(c.nominal(), c.borrowingLimit()));
    }

    record Invalid(String name, JsonNode body, Violation expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Invalid> invalids() {
        String member = ENTRY + ".AcceleratorPartition";
        return Stream.of(
                new Invalid("a Type that is no MIG profile of the API", body(entry("mig-9g.1tb", 1), null),
                        new Violation(member + ".Type", "must be one of " + String.join(" | ", AcceleratorPartitions.TYPES)
                                + ", was 'mig-9g.1tb'")),
                new Invalid("a profile the instance type's GPUs do not offer", body(entry("mig-1g.5gb", 1), null),
                        new Violation(member + ".Type", "instance type 'ml.p5.48xlarge' offers mig-1g.10gb, mig-1g.20gb, mig-2g.20gb, "
                                + "mig-3g.40gb, mig-4g.40gb, mig-7g.80gb, not 'mig-1g.5gb'")),
                new Invalid("an instance type without MIG",
                        body("{\"InstanceType\": \"ml.g5.8xlarge\", \"AcceleratorPartition\": {\"Type\": \"mig-1g.10gb\", \"Count\": 1}}", null),
                        new Violation(member + ".Type", "instance type 'ml.g5.8xlarge' offers no accelerator partitions, was 'mig-1g.10gb'")),
                new Invalid("Type missing", body("{\"InstanceType\": \"" + P5 + "\", \"AcceleratorPartition\": {\"Count\": 1}}", null),
                        new Violation(member + ".Type", "is required")),
                new Invalid("Count missing", body("{\"InstanceType\": \"" + P5 + "\", \"AcceleratorPartition\": {\"Type\": \"mig-1g.10gb\"}}", null),
                        new Violation(member + ".Count", "is required")),
                new Invalid("Count negative", body(entry("mig-1g.10gb", -1), null),
                        new Violation(member + ".Count", "must be in 0..10000000, was -1")),
                new Invalid("Count above the API's maximum", body(entry("mig-1g.10gb", 10_000_001), null),
                        new Violation(member + ".Count", "must be in 0..10000000, was 10000001")),
                new Invalid("Count fractional", body(entry("mig-1g.10gb", 1.5), null),
                        new Violation(member + ".Count", "must be a whole number in 0..10000000, was 1.5")),
                new Invalid("not an object", body("{\"InstanceType\": \"" + P5 + "\", \"AcceleratorPartition\": \"mig-1g.10gb\"}", null),
                        new Violation(member, "must be an object {Type, Count}, was \"mig-1g.10gb\"")),
                new Invalid("in AbsoluteBorrowLimits too",
                        body(entry("mig-1g.10gb", 7), "{\"AbsoluteBorrowLimits\": [" + entry("mig-2g.10gb", 1) + "]}"),
                        new Violation("ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits[0].AcceleratorPartition.Type",
                                "instance type 'ml.p5.48xlarge' offers mig-1g.10gb, mig-1g.20gb, mig-2g.20gb, mig-3g.40gb, mig-4g.40gb, "
                                        + "mig-7g.80gb, not 'mig-2g.10gb'"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalids")
    void invalid(Invalid c) {
        assertThatThrownBy(() -> dev.taskgov.core.events.ComputeQuotaTranslator.translate(bytes(c.body()), TYPES).orThrow())
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations()).containsExactly(c.expected()));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} per GPU: {1}")
    @org.junit.jupiter.params.provider.CsvSource({"mig-1g.10gb, 7", "mig-2g.20gb, 3", "mig-3g.40gb, 2", "mig-4g.40gb, 1", "mig-7g.80gb, 1"})
    void partitionsPerGpu(String profile, int perGpu) {
        assertThat(AcceleratorPartitions.Offer.perGpu(profile)).isEqualTo(perGpu);
    }

    record Capacity(String name, List<TeamQuota> quotas, List<Violation> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Capacity> capacities() {
        TeamQuota a = TeamQuota.of("a", Map.of(P5, Resources.partition("mig-1g.10gb", 7)));
        TeamQuota b = TeamQuota.of("b", Map.of(P5, Resources.partition("mig-1g.10gb", 7)));
        TeamQuota c = TeamQuota.of("c", Map.of(P5, Resources.partition("mig-1g.10gb", 1)));
        TeamQuota large = TeamQuota.of("d", Map.of(P5, Resources.partition("mig-3g.40gb", 1)));
        return Stream.of(
                new Capacity("partition quotas summing to the nodes' partitions are fine", List.of(a, b), List.of()),
                new Capacity("one partition over the nodes' is refused, naming the type", List.of(a, b, c),
                        List.of(new Violation("ComputeQuotaConfig.ComputeQuotaResources", "the quotas for ml.p5.48xlarge sum to "
                                + "15 mig-1g.10gb partitions, more than the cluster's 14 mig-1g.10gb partitions on ready nodes"))),
                new Capacity("a type the nodes do not offer is over capacity", List.of(large),
                        List.of(new Violation("ComputeQuotaConfig.ComputeQuotaResources", "the quotas for ml.p5.48xlarge sum to "
                                + "1 mig-3g.40gb partition, more than the cluster's 0 mig-3g.40gb partitions on ready nodes")))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capacities")
    void capacity(Capacity c) {
        Map<String, Resources> nodes = Map.of(P5, Resources.partition("mig-1g.10gb", 14).plus(Resources.of(0, 384_000, 4096 * 1024)));
        assertThat(ComputeQuotas.checkCapacity(c.quotas(), nodes)).isEqualTo(c.expected());
    }

    private static byte[] bytes(JsonNode body) {
        try {
            return EventCodec.mapper().writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
