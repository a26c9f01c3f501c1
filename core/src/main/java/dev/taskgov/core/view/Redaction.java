package dev.taskgov.core.view;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an answer shows a reader that may read only some teams (a team key): other teams' workloads only as counts
 * and amounts, never by id, use or quota. An admin or a viewer reads every team and sees everything unchanged.
 * Quantities in messages are kept: they say why the reader's own workload waits.
 *
 * @param mayRead    whether the reader may read a team's data
 * @param teamOfId   the team of a known workload id, or null for a word that is no known workload
 */
public record Redaction(Predicate<String> mayRead, Function<String, String> teamOfId) {

    /** What an id of another team's workload reads as. */
    public static final String OTHER_WORKLOAD = "a workload of another team";

    /** Words that can be workload ids ({@link dev.taskgov.core.model.WorkloadIds}); a message is searched for them. */
    private static final Pattern WORD = Pattern.compile("[a-z0-9]([a-z0-9.-]*[a-z0-9])?");

    /** A reader of every team: nothing is hidden. */
    public static Redaction none() {
        return new Redaction(team -> true, id -> null);
    }

    /**
     * The text with every id of a workload whose team the reader may not read replaced by {@link #OTHER_WORKLOAD};
     * everything else, numbers included, as it was.
     */
    public String text(String text) {
        if (text == null || text.isEmpty()) return text;
        Matcher m = WORD.matcher(text);
        StringBuilder out = null;
        int last = 0;
        while (m.find()) {
            // a word inside a longer one (after a letter, digit, '-', '.') is not an id of its own
            if (m.start() > 0 && isIdChar(text.charAt(m.start() - 1))) continue;
            String team = teamOfId.apply(m.group());
            if (team == null || mayRead.test(team)) continue;
            if (out == null) out = new StringBuilder(text.length());
            out.append(text, last, m.start()).append(OTHER_WORKLOAD);
            last = m.end();
        }
        if (out == null) return text;
        return out.append(text, last, text.length()).toString();
    }

    private static boolean isIdChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || (c >= 'A' && c <= 'Z') || c == '_';
    }

    /**
     * A preemption plan as the reader may see it: its own teams' victims by name (messages redacted), every other
     * team's only counted, with what those workloads hold in total.
     *
     * @param requestsOf what a victim requests, per instance type
     */
    public Victims victims(List<Victim> victims, Function<String, Map<String, Resources>> requestsOf) {
        List<Victim> named = new ArrayList<>();
        int others = 0;
        Map<String, Resources> held = new TreeMap<>();
        for (Victim v : victims) {
            if (mayRead.test(v.team())) {
                named.add(new Victim(v.workloadId(), v.team(), v.reason(), text(v.message())));
            } else {
                others++;
                Map<String, Resources> r = requestsOf.apply(v.workloadId());
                if (r != null) r.forEach((type, amount) -> held.merge(type, amount, Resources::plus));
            }
        }
        return new Victims(named, others, held);
    }

    /**
     * Victims as a reader may see them.
     *
     * @param named            those of teams the reader reads
     * @param otherTeams       how many belong to teams it does not read
     * @param otherTeamsHold   what those hold in total, per instance type
     */
    public record Victims(List<Victim> named, int otherTeams, Map<String, Resources> otherTeamsHold) {

        /** "would preempt 2 workloads of other teams, 16 accelerators of ml.p5.48xlarge", or null when there are none. */
        public String summary() {
            if (otherTeams == 0) return null;
            return "would preempt " + otherTeams + (otherTeams == 1 ? " workload" : " workloads") + " of other teams, "
                    + Amounts.byInstanceType(otherTeamsHold);
        }

    }
}
