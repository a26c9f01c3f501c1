package dev.taskgov.core.quota;

import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link QuotaLedger#holders} names who holds an instance type now: asked once, then again after a change of usage or
 * quotas, it answers for the state after the change (the ledger remembers an answer only while nothing changes but
 * what-ifs that are closed again), and the same as a fresh copy of the ledger; asked inside a what-if, for the what-if.
 */
class HoldersTest {

    static final String G5 = "ml.g5.8xlarge";

    record Case(String name, Consumer<QuotaLedger> change, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("nothing changed", l -> { }, "; in use: team-a 6 (2 borrowed), team-b 3 (within its nominal)"),
                new Case("a release", l -> l.remove("team-a", gpus(5)), "; in use: team-b 3 (within its nominal), team-a 1 (within its nominal)"),
                new Case("an admission", l -> l.add("team-c", gpus(7)), "; in use: team-c 7 (3 borrowed), team-a 6 (2 borrowed), team-b 3 (within its nominal)"),
                new Case("everything released", l -> {
                    l.remove("team-a", gpus(6));
                    l.remove("team-b", gpus(3));
                }, ""),
                new Case("a what-if, then undone", l -> l.simulateAddition("team-b", gpus(4)).close(),
                        "; in use: team-a 6 (2 borrowed), team-b 3 (within its nominal)"),
                new Case("a what-if asked inside, then undone", l -> {
                    try (var undo = l.simulateRemoval("team-a", gpus(6))) {
                        assertThat(l.holders(G5, ResourceKey.ACCELERATORS)).isEqualTo("; in use: team-b 3 (within its nominal)");
                    }
                }, "; in use: team-a 6 (2 borrowed), team-b 3 (within its nominal)"),
                new Case("what-ifs closed out of order, then an admission", l -> {
                    var first = l.simulateRemoval("team-a", gpus(6));
                    var second = l.simulateAddition(Map.of("team-c", gpus(2)));
                    first.close();
                    assertThat(l.holders(G5, ResourceKey.ACCELERATORS)).isEqualTo("; in use: team-a 6 (2 borrowed), team-b 3 (within its nominal), team-c 2 (within its nominal)");
                    second.close();
                    assertThat(l.holders(G5, ResourceKey.ACCELERATORS)).isEqualTo("; in use: team-a 6 (2 borrowed), team-b 3 (within its nominal)");
                    l.add("team-b", gpus(4));
                }, "; in use: team-b 7 (3 borrowed), team-a 6 (2 borrowed)"),
                new Case("a larger nominal", l -> l.putQuota(quota("team-a", 8)), "; in use: team-a 6 (within its nominal), team-b 3 (within its nominal)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void holdersAnswerForTheStateAfterAChange(Case c) {
        QuotaLedger ledger = new QuotaLedger();
        for (String team : List.of("team-a", "team-b", "team-c")) ledger.putQuota(quota(team, 4));
        ledger.add("team-a", gpus(6));
        ledger.add("team-b", gpus(3));
        ledger.holders(G5, ResourceKey.ACCELERATORS); // asked before the change

        c.change().accept(ledger);

        assertThat(ledger.holders(G5, ResourceKey.ACCELERATORS)).isEqualTo(c.expected())
                .isEqualTo(ledger.copy().holders(G5, ResourceKey.ACCELERATORS));
    }

    @org.junit.jupiter.api.Test
    void fiveHoldersNameTheThreeLargestTiesByNameAndCountTheRest() {
        QuotaLedger ledger = new QuotaLedger();
        for (String team : List.of("team-a", "team-b", "team-c", "team-d", "team-e")) ledger.putQuota(quota(team, 2));
        ledger.add("team-e", gpus(3));
        ledger.add("team-d", gpus(1));
        ledger.add("team-c", gpus(3));
        ledger.add("team-b", gpus(5));
        ledger.add("team-a", gpus(1));

        assertThat(ledger.holders(G5, ResourceKey.ACCELERATORS))
                .isEqualTo("; in use: team-b 5 (3 borrowed), team-c 3 (1 borrowed), team-e 3 (1 borrowed) and 2 more teams");
    }

    /** Oracle: every team's use sorted whole (largest first, then by name), against the ledger's one-pass answer. */
    @org.junit.jupiter.api.Test
    void holdersAgreeWithSortingEveryTeam() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 300; round++) {
            QuotaLedger ledger = new QuotaLedger();
            int teams = 1 + random.nextInt(9);
            for (int t = 0; t < teams; t++) {
                String team = "team-" + (char) ('a' + random.nextInt(26)) + t;
                ledger.putQuota(quota(team, random.nextInt(5)));
                int use = random.nextInt(4);
                if (use > 0) ledger.add(team, gpus(use));
            }
            assertThat(ledger.holders(G5, ResourceKey.ACCELERATORS)).as("round %d", round).isEqualTo(sortedWhole(ledger));
        }
    }

    private static String sortedWhole(QuotaLedger ledger) {
        List<String> users = ledger.quotas().stream().map(TeamQuota::team).filter(t -> ledger.usage(t, G5).get(ResourceKey.ACCELERATORS) > 0)
                .sorted(java.util.Comparator.<String>comparingLong(t -> ledger.usage(t, G5).get(ResourceKey.ACCELERATORS))
                        .reversed().thenComparing(java.util.Comparator.naturalOrder()))
                .toList();
        if (users.isEmpty()) return "";
        StringBuilder out = new StringBuilder("; in use: ");
        for (int i = 0; i < Math.min(3, users.size()); i++) {
            long used = ledger.usage(users.get(i), G5).get(ResourceKey.ACCELERATORS);
            long borrowed = Math.max(0, used - ledger.nominal(users.get(i), G5).get(ResourceKey.ACCELERATORS));
            if (i > 0) out.append(", ");
            out.append(users.get(i)).append(' ').append(used)
                    .append(borrowed > 0 ? " (" + borrowed + " borrowed)" : " (within its nominal)");
        }
        if (users.size() > 3) out.append(" and ").append(users.size() - 3).append(" more teams");
        return out.toString();
    }

    private static TeamQuota quota(String team, int gpus) {
        return new TeamQuota(team, team, Map.of(G5, Resources.of(gpus, 32_000L * gpus, 128L * 1024 * gpus)), SharingStrategy.LendAndBorrow,
                100, PreemptTeamTasks.LowerPriority, 1, true);
    }

    private static Map<String, Resources> gpus(int n) {
        return Map.of(G5, Resources.of(n, 8_000L * n, 32L * 1024 * n));
    }
}
