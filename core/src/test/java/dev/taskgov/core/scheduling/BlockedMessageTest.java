package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.quota.QuotaCheck;
import dev.taskgov.core.quota.Shortfall;
import dev.taskgov.core.resources.ResourceKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A blocked verdict's message kept as a quota check's figures and written when read: it reads as the text written at
 * once would, and two verdicts tell the same message exactly when their texts are the same, whether compared by their
 * figures (neither written) or by text.
 */
class BlockedMessageTest {

    private static final String TYPE = "ml.p5.48xlarge";

    record Case(String name, Evaluation.Blocked a, Evaluation.Blocked b, boolean same) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Shortfall shortfall(long need, long free, long mayBorrow, long idle, String holders) {
        return new Shortfall("team-b", TYPE, ResourceKey.ACCELERATORS, need, free, mayBorrow, idle, holders);
    }

    private static Evaluation.Blocked byFigures(Shortfall s) {
        return new Evaluation.Blocked(new QuotaCheck(false, PendingReason.QuotaExceeded, null, s), null);
    }

    private static Evaluation.Blocked byText(String text) {
        return new Evaluation.Blocked(PendingReason.QuotaExceeded, text);
    }

    static List<Case> cases() {
        Shortfall s = shortfall(4, 1, 2, 0, "; in use: team-a 8 (within its nominal)");
        return List.of(
                new Case("the same figures", byFigures(s), byFigures(shortfall(4, 1, 2, 0, "; in use: team-a 8 (within its nominal)")), true),
                new Case("the cohort's idle amount moved", byFigures(s), byFigures(shortfall(4, 1, 2, 1, "; in use: team-a 8 (within its nominal)")), false),
                new Case("the holders named moved", byFigures(s), byFigures(shortfall(4, 1, 2, 0, "; in use: team-a 7 (within its nominal)")), false),
                new Case("figures against the same text", byFigures(s), byText(s.message()), true),
                new Case("figures against another text", byFigures(s), byText("team team-b has no compute quota"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void twoVerdictsTellTheSameMessageExactlyWhenTheirTextsAreTheSame(Case c) {
        assertThat(c.a().sameMessage(c.b())).isEqualTo(c.same());
        assertThat(c.b().sameMessage(c.a())).isEqualTo(c.same());
        assertThat(c.a().message().equals(c.b().message())).isEqualTo(c.same());
        assertThat(c.a().equals(c.b())).isEqualTo(c.same());
    }

    @Test
    void aMessageKeptAsFiguresReadsAsTheTextWrittenAtOnce() {
        assertThat(byFigures(shortfall(4, 1, 2, 0, "; in use: team-a 8 (within its nominal)")).message()).isEqualTo("needs 4 accelerators of ml.p5.48xlarge; team-b has 1 of its quota free and may "
                + "borrow 2 more; the cohort has 0 idle; in use: team-a 8 (within its nominal)");
    }
}
