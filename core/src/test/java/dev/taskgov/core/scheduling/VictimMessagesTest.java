package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.preemption.PlanResult.PreemptionPlan;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static dev.taskgov.core.scheduling.Cluster.lend;
import static dev.taskgov.core.scheduling.Cluster.weight;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plan's victims' messages are written when its victims are first read (most plans found are for heads not chosen),
 * and say what they would have said when the plan was found: read after the quotas and the priority classes changed,
 * they are those of a plan read at once. Each case asks for one preemption in delegated mode, by one of the rules.
 */
class VictimMessagesTest {

    record Case(String name, Cluster cluster, PreemptionReason reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("reclaim: the messages name both teams' nominal quotas",
                        Cluster.gpus(4).delegated().team("a", 2, borrowLimit(100)).team("b", 2, borrowLimit(100))
                                .submit("b-1", "b", 2, "training").submit("b-2", "b", 2, "training")
                                .submit("a-1", "a", 2, "training"),
                        PreemptionReason.ReclaimLentCapacity),
                new Case("in-team priority: the messages name the lowest class that would protect the victim",
                        Cluster.gpus(2).delegated().team("a", 2)
                                .submit("a-low", "a", 2, "experiment").submit("a-high", "a", 2, "training"),
                        PreemptionReason.InTeamPriority),
                new Case("fair sharing: the messages name the victim's team's weight",
                        Cluster.gpus(8).delegated().fairShare().team("lender", 4, lend())
                                .team("x", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .team("y", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .submit("x-1", "x", 1).submit("x-2", "x", 1).submit("x-3", "x", 1)
                                .submit("x-4", "x", 1).submit("x-5", "x", 1).submit("x-6", "x", 1)
                                .submit("y-1", "y", 1).submit("y-2", "y", 1).submit("y-3", "y", 1),
                        PreemptionReason.FairSharing));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void messagesReadLaterSayWhatTheySaidWhenPlanned(Case c) {
        List<Victim> readAtOnce = requested(c.cluster().replay().lastCycle()).victims();

        Cluster.Replay later = c.cluster().replay();
        PreemptionPlan plan = requested(later.lastCycle());
        Scheduler s = later.scheduler();
        for (TeamQuota q : List.copyOf(s.ledger().quotas())) {
            Map<String, Resources> doubled = new TreeMap<>();
            q.nominal().forEach((type, r) -> doubled.put(type, r.times(2)));
            s.applyQuota(new TeamQuota(q.team(), q.quotaName(), doubled, q.strategy(), q.borrowLimitPercent(),
                    q.preemptTeamTasks(), q.fairShareWeight() + 7, q.active(), q.absoluteBorrowLimits()));
        }
        s.applySchedulerConfig(new SchedulerConfig(Map.of("steady", 50, "training", 55, "experiment", 10), s.config().fairShare()));

        assertThat(readAtOnce).extracting(Victim::reason).containsOnly(c.reason());
        assertThat(plan.victims()).as("the victims read after the quotas and the config changed").isEqualTo(readAtOnce);
    }

    private static PreemptionPlan requested(List<Decision> cycle) {
        return cycle.stream().filter(d -> d instanceof Decision.PreemptionNeeded).map(d -> ((Decision.PreemptionNeeded) d).suggestedPlan())
                .findFirst().orElseThrow(() -> new AssertionError("no preemption asked for in " + cycle));
    }
}
