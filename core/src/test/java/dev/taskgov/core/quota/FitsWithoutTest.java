package dev.taskgov.core.quota;

import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link QuotaLedger#fitsWithout} reckons what {@link QuotaLedger#fits} answers after {@link QuotaLedger#simulateRemoval}
 * of the same workloads, without changing the books. Oracle: seeded random ledgers (every sharing strategy, borrowing
 * limits, disabled quotas, a team without a quota, partitions, idle resource sharing on and off) and random removals
 * (the asking team's own work, other teams', several teams at once), each answered both ways.
 */
class FitsWithoutTest {

    static final List<String> TYPES = List.of("ml.g5.8xlarge", "ml.p4d.24xlarge");
    static final List<String> TEAMS = List.of("team-a", "team-b", "team-c", "team-d", "team-e");

    @Test
    void fitsWithoutAgreesWithTheWhatIfItReplaces() {
        Random rnd = new Random(2026);
        int fitting = 0;
        for (int round = 0; round < 3_000; round++) {
            QuotaLedger ledger = randomLedger(rnd);
            String team = TEAMS.get(rnd.nextInt(TEAMS.size()));
            Map<String, Resources> request = randomRequest(rnd);
            boolean allowBorrow = rnd.nextBoolean();
            Map<String, Map<String, Resources>> removed = new LinkedHashMap<>();
            for (String holder : TEAMS) {
                if (rnd.nextInt(3) != 0) continue;
                Map<String, Resources> part = new TreeMap<>();
                ledger.usage(holder).forEach((type, used) -> {
                    if (rnd.nextBoolean()) part.put(type, fraction(rnd, used));
                });
                if (!part.isEmpty()) removed.put(holder, part);
            }
            String before = ledger.holders(TYPES.get(0), ResourceKey.ACCELERATORS);

            boolean reckoned = ledger.fitsWithout(team, request, allowBorrow, removed);
            boolean simulated;
            try (var undo = ledger.simulateRemoval(removed)) {
                simulated = ledger.fits(team, request, allowBorrow);
            }

            if (simulated) fitting++;
            assertThat(reckoned).as("round %d: %s asks %s (borrow %s) without %s", round, team, request, allowBorrow, removed)
                    .isEqualTo(simulated);
            assertThat(ledger.holders(TYPES.get(0), ResourceKey.ACCELERATORS))
                    .as("the books are as they were").isEqualTo(before);
        }
        // both answers occur often enough for the comparison to mean something
        assertThat(fitting).isBetween(300, 2_700);
    }

    private static QuotaLedger randomLedger(Random rnd) {
        QuotaLedger ledger = new QuotaLedger();
        for (String team : TEAMS) {
            if (rnd.nextInt(8) == 0) continue; // a team without a quota
            Map<String, Resources> nominal = new TreeMap<>();
            for (String type : TYPES) {
                if (rnd.nextInt(4) != 0) nominal.put(type, randomAmount(rnd));
            }
            SharingStrategy strategy = SharingStrategy.values()[rnd.nextInt(SharingStrategy.values().length)];
            ledger.putQuota(new TeamQuota(team, team, nominal, strategy, rnd.nextInt(4) * 50, PreemptTeamTasks.LowerPriority,
                    1, rnd.nextInt(10) != 0));
        }
        for (String type : TYPES) ledger.setClusterCapacity(type, randomAmount(rnd).times(3));
        ledger.setIdleResourceSharing(rnd.nextBoolean());
        for (String team : TEAMS) {
            if (rnd.nextInt(4) != 0) ledger.add(team, randomAmounts(rnd, 2));
        }
        return ledger;
    }

    /** A workload's request: smaller than a quota, of one instance type or two. */
    private static Map<String, Resources> randomRequest(Random rnd) {
        Map<String, Resources> out = new TreeMap<>();
        for (int i = 1 + rnd.nextInt(2); i > 0; i--) {
            Resources r = Resources.of(rnd.nextInt(3), 1_000L * rnd.nextInt(12), 1_024L * rnd.nextInt(60));
            out.put(TYPES.get(rnd.nextInt(TYPES.size())), rnd.nextInt(5) == 0 ? r.withPartitions(Map.of("mig-1g.10gb", (long) rnd.nextInt(3))) : r);
        }
        return out;
    }

    private static Map<String, Resources> randomAmounts(Random rnd, int types) {
        Map<String, Resources> out = new TreeMap<>();
        for (int i = 0; i < types; i++) out.put(TYPES.get(rnd.nextInt(TYPES.size())), randomAmount(rnd));
        return out;
    }

    private static Resources randomAmount(Random rnd) {
        Resources r = Resources.of(rnd.nextInt(9), 1_000L * rnd.nextInt(40), 1_024L * rnd.nextInt(200));
        return rnd.nextInt(5) == 0 ? r.withPartitions(Map.of("mig-1g.10gb", (long) rnd.nextInt(7))) : r;
    }

    /** Up to all of what is held, never more: a removal gives back what its workloads hold. */
    private static Resources fraction(Random rnd, Resources held) {
        Map<String, Long> partitions = new TreeMap<>();
        held.partitions().forEach((type, n) -> partitions.put(type, n == 0 ? 0 : (long) rnd.nextInt((int) Math.min(n, 1_000) + 1)));
        return new Resources(part(rnd, held.accelerators()), part(rnd, held.milliVcpu()), part(rnd, held.memoryMiB()), partitions);
    }

    private static long part(Random rnd, long n) {
        return n == 0 ? 0 : (long) (rnd.nextDouble() * (n + 1));
    }
}
