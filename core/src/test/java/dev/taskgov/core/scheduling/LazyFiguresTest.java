package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.PendingReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static dev.taskgov.core.scheduling.Cluster.dontLend;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A blocked workload's message carries live figures (what its team may borrow, what the cohort has idle, who holds
 * it), which change with nearly every admission or release around it. The workloads of a parked shape take a new
 * verdict with the same reason at their shape, once, and show it when read; only a new reason is reported for each at
 * once (a StayPending decision), so a cycle whose release changes only figures costs no decision per waiting workload.
 * Each case runs on the ordinary scheduler and on the reference that evaluates and reports every workload on its own:
 * every workload shows the same after the last step in both.
 */
class LazyFiguresTest {

    static final int DEPTH = 20;

    /**
     * team c holds its whole quota (c-1, c-2, c-4); team b may borrow only what c leaves idle (a lends nothing), and asks 7
     * GPUs for each of its {@link #DEPTH} waiting workloads: it may hold 4, 6 once c-2 and c-4 end, so they wait, all
     * of one shape.
     */
    static Cluster deepQueue() {
        Cluster c = Cluster.gpus(12).team("a", 4, dontLend()).team("b", 4, borrowLimit(100)).team("c", 4)
                .submit("c-1", "c", 2).submit("c-2", "c", 1).submit("c-3", "c", 1);
        for (int i = 1; i <= DEPTH; i++) c.submit(String.format("b-w-%02d", i), "b", 7);
        // each joined the shape parked already, on its own; a release parks the shape whole and settles them all there
        return c.finish("c-3").submit("c-4", "c", 1);
    }

    /**
     * @param reported   how many StayPending decisions the last step's cycle reports
     * @param reasonRead the reason a waiting workload reads afterwards
     */
    record Case(String name, Cluster cluster, int reported, PendingReason reasonRead) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a release that changes only the figures: read at once, not reported per workload",
                        deepQueue().finish("c-2"), 0, PendingReason.QuotaExceeded),
                new Case("two releases in a row: the latest figures are read",
                        deepQueue().finish("c-2").finish("c-4"), 0, PendingReason.QuotaExceeded),
                new Case("a new reason (the team's quota disabled) is reported for every waiting workload at once",
                        deepQueue().quota("b", 4, q -> q.withActive(false)), DEPTH, PendingReason.NoQuota),
                new Case("new figures, then a new reason: reported with the latest figures",
                        deepQueue().finish("c-2").quota("b", 4, q -> q.withActive(false)), DEPTH, PendingReason.NoQuota),
                new Case("a workload that joins the parked shape reports its own reason; the others report nothing",
                        deepQueue().submit("b-w-99", "b", 7), 1, PendingReason.QuotaExceeded)
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void figuresAreReadThroughTheShape(Case c) {
        Cluster.Replay lazy = c.cluster().replay(true);
        Cluster.Replay reference = c.cluster().replay(false);

        List<Decision.StayPending> reported = stayPending(lazy.lastCycle());
        assertThat(reported).as("StayPending decisions of the last cycle").hasSize(c.reported());
        // what is reported is what the reference reports, and what the workload shows
        assertThat(stayPending(reference.lastCycle())).containsAll(reported);
        // every workload shows what the reference shows: the current figures, though not reported
        assertThat(lazy.scheduler().workloads()).isEqualTo(reference.scheduler().workloads());
        assertThat(lazy.scheduler().workload("b-w-07").orElseThrow().reason()).isEqualTo(c.reasonRead().name());
    }

    @Test
    void aChangeOfFiguresAloneIsStillTheReferencesChange() {
        // the case above with no decision: the reference reports the new figures of every waiting workload
        Cluster.Replay reference = deepQueue().finish("c-2").replay(false);
        assertThat(stayPending(reference.lastCycle())).hasSize(DEPTH)
                .allSatisfy(p -> assertThat(p.reason()).isEqualTo(PendingReason.QuotaExceeded));
    }

    @Test
    void theSourceOfTheFiguresChangesItsVersionWithThemAndIsReplacedByANewReason() {
        Scheduler s = deepQueue().replay(true).scheduler();
        Scheduler.PendingFigures before = s.pendingFigures("b-w-07").orElseThrow();
        assertThat(before.source()).as("settled in its parked shape").isNotNull();
        long version = before.source().version();

        s.finish("c-2");
        assertThat(stayPending(s.cycle())).isEmpty();
        Scheduler.PendingFigures after = s.pendingFigures("b-w-07").orElseThrow();
        assertThat(after.source()).isSameAs(before.source());
        assertThat(after.source().version()).isNotEqualTo(version);
        assertThat(after.message()).isNotEqualTo(before.message());
        assertThat(after.reason()).isEqualTo(before.reason());

        long figuresVersion = after.source().version();
        s.applyQuota(dev.taskgov.core.model.TeamQuota.of("b", java.util.Map.of(Cluster.G5, Cluster.G5_TYPE.capacity().times(4)))
                .withActive(false));
        assertThat(stayPending(s.cycle())).hasSize(DEPTH);
        Scheduler.PendingFigures disabled = s.pendingFigures("b-w-07").orElseThrow();
        assertThat(disabled.reason()).isEqualTo(PendingReason.NoQuota);
        assertThat(after.source().version()).as("the old source is superseded").isNotEqualTo(figuresVersion);
        assertThat(disabled.source()).isNotSameAs(after.source());
    }

    private static List<Decision.StayPending> stayPending(List<Decision> decisions) {
        return decisions.stream().filter(d -> d instanceof Decision.StayPending).map(d -> (Decision.StayPending) d).toList();
    }
}
