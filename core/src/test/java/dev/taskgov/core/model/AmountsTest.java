package dev.taskgov.core.model;

import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.ResourceName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Amounts and counts in messages: one of a thing is singular, zero and several plural. */
class AmountsTest {

    record Case(String name, Supplier<String> formatted, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("one pod", () -> Amounts.count(1, "pod", "pods"), "1 pod"),
                new Case("no pods", () -> Amounts.count(0, "pod", "pods"), "0 pods"),
                new Case("two workloads", () -> Amounts.count(2, "workload", "workloads"), "2 workloads"),
                new Case("one accelerator", () -> Amounts.of(ResourceName.ACCELERATORS, 1), "1 accelerator"),
                new Case("eight accelerators", () -> Amounts.of(ResourceName.ACCELERATORS, 8), "8 accelerators"),
                new Case("one MIG partition", () -> Amounts.of(ResourceKey.partition("mig-1g.10gb"), 1), "1 mig-1g.10gb partition"),
                new Case("three MIG partitions", () -> Amounts.of(ResourceKey.partition("mig-1g.10gb"), 3), "3 mig-1g.10gb partitions"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void formatsWithTheRightNumber(Case c) {
        assertThat(c.formatted().get()).isEqualTo(c.expected());
    }
}
