package dev.taskgov.core.quota;

import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link QuotaLedger#putQuotas} (the pool added up once, as a restore puts every team's quota) leaves the ledger as
 * {@link QuotaLedger#putQuota} one at a time does: the same pool, the same answers to every team's check.
 */
class PutQuotasTest {

    static final String G5 = "ml.g5.8xlarge";

    record Case(String name, List<TeamQuota> quotas, boolean idleSharing) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("lenders and borrowers", List.of(quota("team-a", 4, SharingStrategy.LendAndBorrow, true),
                        quota("team-b", 2, SharingStrategy.LendAndBorrow, true), quota("team-c", 6, SharingStrategy.DontLend, true)), false),
                new Case("a disabled quota among them", List.of(quota("team-a", 4, SharingStrategy.LendAndBorrow, true),
                        quota("team-b", 3, SharingStrategy.LendAndBorrow, false)), false),
                new Case("idle capacity shared", List.of(quota("team-a", 4, SharingStrategy.LendAndBorrow, true),
                        quota("team-b", 2, SharingStrategy.Lend, true)), true),
                new Case("a thousand teams", Stream.iterate(0, i -> i + 1).limit(1000)
                        .map(i -> quota(String.format("team-%04d", i), 1 + i % 5, SharingStrategy.LendAndBorrow, true)).toList(), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void allAtOnceIsOneAtATime(Case c) {
        QuotaLedger once = ledger(c.idleSharing());
        QuotaLedger each = ledger(c.idleSharing());
        once.putQuotas(c.quotas());
        c.quotas().forEach(each::putQuota);
        for (QuotaLedger l : List.of(once, each)) {
            l.add("team-a", gpus(3));
        }
        assertThat(once.poolCapacity(G5)).isEqualTo(each.poolCapacity(G5));
        assertThat(once.poolUsage(G5)).isEqualTo(each.poolUsage(G5));
        for (TeamQuota q : c.quotas()) {
            for (int n : new int[] {1, 5, 40}) {
                assertThat(once.check(q.team(), gpus(n), true)).as("%s asks %d", q.team(), n).isEqualTo(each.check(q.team(), gpus(n), true));
            }
        }
    }

    private static QuotaLedger ledger(boolean idleSharing) {
        QuotaLedger l = new QuotaLedger();
        l.setClusterCapacity(G5, gpus(5000).get(G5));
        l.setIdleResourceSharing(idleSharing);
        return l;
    }

    private static TeamQuota quota(String team, int gpus, SharingStrategy strategy, boolean active) {
        return new TeamQuota(team, team, Map.of(G5, Resources.of(gpus, 32_000L * gpus, 128L * 1024 * gpus)), strategy,
                100, PreemptTeamTasks.LowerPriority, 1, active);
    }

    private static Map<String, Resources> gpus(int n) {
        return Map.of(G5, Resources.of(n, 8_000L * n, 32L * 1024 * n));
    }
}
