package dev.taskgov.core.view;

import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A team key sees other teams' workloads only as counts and amounts; an admin or a viewer sees all. */
class RedactionTest {

    private static final Map<String, String> TEAM_OF = Map.of("team-1-train", "team-1", "team-2-train-7", "team-2",
            "team-2-serve", "team-2");
    private final Redaction team1 = new Redaction("team-1"::equals, TEAM_OF::get);

    @Test
    void anotherTeamsWorkloadIdsAreReplacedAndQuantitiesKept() {
        String message = "team-1 reclaims its lent quota for team-1-train (needs 8 accelerators of ml.p5.48xlarge within its nominal 16);"
                + " team-2 uses 24 accelerators against its nominal 8; team-2-train-7 and team-2-serve.";
        assertThat(team1.text(message)).isEqualTo("team-1 reclaims its lent quota for team-1-train (needs 8 accelerators of"
                + " ml.p5.48xlarge within its nominal 16); team-2 uses 24 accelerators against its nominal 8;"
                + " a workload of another team and a workload of another team.");
        assertThat(Redaction.none().text(message)).isEqualTo(message);
        // a word that only contains an id is no id
        assertThat(team1.text("xteam-2-serve team-2-serve-x")).isEqualTo("xteam-2-serve team-2-serve-x");
    }

    @Test
    void victimsOfOtherTeamsAreCountedWithWhatTheyHold() {
        List<Victim> victims = List.of(
                new Victim("team-2-train-7", "team-2", PreemptionReason.ReclaimLentCapacity, "team-2 uses 24 against its nominal 8"),
                new Victim("team-2-serve", "team-2", PreemptionReason.ReclaimLentCapacity, "..."),
                new Victim("team-1-low", "team-1", PreemptionReason.InTeamPriority, "team-1-train needs it; team-2-serve too"));
        Redaction.Victims v = team1.victims(victims, id -> Map.of("ml.p5.48xlarge", Resources.accelerators(8)));
        assertThat(v.named()).extracting(Victim::workloadId).containsExactly("team-1-low");
        assertThat(v.named().get(0).message()).isEqualTo("team-1-train needs it; a workload of another team too");
        assertThat(v.otherTeams()).isEqualTo(2);
        assertThat(v.summary()).isEqualTo("would preempt 2 workloads of other teams, 16 accelerators of ml.p5.48xlarge");
        assertThat(Redaction.none().victims(victims, id -> Map.of()).named()).hasSize(3);
        assertThat(Redaction.none().victims(victims, id -> Map.of()).summary()).isNull();
    }
}
