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
 * quotas, it answers for the state after the change (the ledger remembers an answer only while nothing changes), and
 * the same as a fresh copy of the ledger.
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

    private static TeamQuota quota(String team, int gpus) {
        return new TeamQuota(team, team, Map.of(G5, Resources.of(gpus, 32_000L * gpus, 128L * 1024 * gpus)), SharingStrategy.LendAndBorrow,
                100, PreemptTeamTasks.LowerPriority, 1, true);
    }

    private static Map<String, Resources> gpus(int n) {
        return Map.of(G5, Resources.of(n, 8_000L * n, 32L * 1024 * n));
    }
}
