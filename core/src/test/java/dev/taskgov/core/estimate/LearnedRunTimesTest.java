package dev.taskgov.core.estimate;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Learned run times: the median of the recent runs of the most specific group there is. */
class LearnedRunTimesTest {

    record Case(String name, int window, UnaryOperator<LearnedRunTimes> runs, String team, String priorityClass,
                Optional<RunTime> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static RunTime learned(String iso, RunTime.Source source, int observed) {
        return new RunTime(Duration.parse(iso), source, observed);
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("nothing finished: nothing learned", 10, l -> l, "a", "training", Optional.empty()),
                new Case("the team's runs of the class, their median", 10,
                        l -> l.observe("a", "training", Duration.ofMinutes(10)).observe("a", "training", Duration.ofMinutes(30))
                                .observe("a", "training", Duration.ofMinutes(20)).observe("b", "training", Duration.ofHours(5)),
                        "a", "training", Optional.of(learned("PT20M", RunTime.Source.LearnedTeamAndClass, 3))),
                new Case("an even count takes the lower middle run", 10,
                        l -> l.observe("a", "training", Duration.ofMinutes(10)).observe("a", "training", Duration.ofMinutes(40)),
                        "a", "training", Optional.of(learned("PT10M", RunTime.Source.LearnedTeamAndClass, 2))),
                new Case("a team new to the class: the class across teams", 10,
                        l -> l.observe("b", "training", Duration.ofHours(5)).observe("a", "inference", Duration.ofMinutes(1)),
                        "a", "training", Optional.of(learned("PT5H", RunTime.Source.LearnedClass, 1))),
                new Case("a class no one ran: the whole cluster", 10,
                        l -> l.observe("b", "training", Duration.ofHours(5)).observe("a", "inference", Duration.ofMinutes(1))
                                .observe("a", "inference", Duration.ofMinutes(3)),
                        "c", "experiment", Optional.of(learned("PT3M", RunTime.Source.LearnedCluster, 3))),
                new Case("only the most recent runs of the window count", 2,
                        l -> l.observe("a", "training", Duration.ofHours(9)).observe("a", "training", Duration.ofMinutes(5))
                                .observe("a", "training", Duration.ofMinutes(7)),
                        "a", "training", Optional.of(learned("PT5M", RunTime.Source.LearnedTeamAndClass, 2))),
                new Case("a run of zero is not a run", 10, l -> l.observe("a", "training", Duration.ZERO),
                        "a", "training", Optional.empty())
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void learnsTheMedianOfTheMostSpecificGroup(Case c) {
        assertThat(c.runs().apply(new LearnedRunTimes(c.window())).estimate(c.team(), c.priorityClass())).isEqualTo(c.expected());
    }
}
