package dev.taskgov.core.resources;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Each accelerator partition type is a resource of its own in {@link Resources}: one named case per rule. */
class PartitionArithmeticTest {

    static final Resources SEVEN_SMALL = Resources.partition("mig-1g.10gb", 7);
    static final Resources TWO_LARGE = Resources.partition("mig-3g.40gb", 2);

    record Case(String name, Supplier<Object> actual, Object expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("types add up separately", () -> SEVEN_SMALL.plus(TWO_LARGE).plus(SEVEN_SMALL),
                        Resources.partitions(Map.of("mig-1g.10gb", 14L, "mig-3g.40gb", 2L))),
                new Case("minus stops at zero, and a zero type is gone (equal amounts are equal records)",
                        () -> SEVEN_SMALL.minus(Resources.partition("mig-1g.10gb", 9)), Resources.ZERO),
                new Case("times multiplies each type", () -> TWO_LARGE.times(3), Resources.partition("mig-3g.40gb", 6)),
                new Case("min of disjoint types is nothing", () -> SEVEN_SMALL.min(TWO_LARGE), Resources.ZERO),
                new Case("max keeps every type", () -> SEVEN_SMALL.max(TWO_LARGE), SEVEN_SMALL.plus(TWO_LARGE)),
                new Case("a partition of another type does not fit", () -> Resources.partition("mig-3g.40gb", 1).fitsIn(SEVEN_SMALL), false),
                new Case("partitions fit where the node has that many", () -> Resources.partition("mig-1g.10gb", 7).fitsIn(
                        SEVEN_SMALL.plus(Resources.of(0, 192_000, 2048 * 1024))), true),
                new Case("whole accelerators are not partitions", () -> Resources.accelerators(1).fitsIn(SEVEN_SMALL), false),
                new Case("pods fitting: the fewest over the types asked for", () -> SEVEN_SMALL.plus(TWO_LARGE)
                        .countFitting(Resources.partitions(Map.of("mig-1g.10gb", 2L, "mig-3g.40gb", 1L))), 2L),
                new Case("no copy of a type the amount lacks fits", () -> Resources.of(8, 1000, 1024)
                        .countFitting(Resources.partition("mig-1g.10gb", 1)), 0L),
                new Case("keys: the fixed resources, then partition types by name", () -> Resources.keys(TWO_LARGE, SEVEN_SMALL).stream()
                        .map(ResourceKey::jsonName).toList(),
                        java.util.List.of("accelerators", "vcpu", "memoryGiB", "partitions.mig-1g.10gb", "partitions.mig-3g.40gb")),
                new Case("get and with by key", () -> SEVEN_SMALL.with(ResourceKey.partition("mig-3g.40gb"), 2)
                        .get(ResourceKey.partition("mig-3g.40gb")), 2L),
                new Case("ordered after the fixed resources, by type", () -> Integer.signum(SEVEN_SMALL.compareTo(TWO_LARGE)), 1),
                new Case("described for people", () -> Resources.partition("mig-1g.10gb", 1).plus(TWO_LARGE).toString(),
                        "1 mig-1g.10gb partition, 2 mig-3g.40gb partitions")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void partitionArithmetic(Case c) {
        assertThat(c.actual().get()).isEqualTo(c.expected());
    }
}
