package dev.taskgov.core.auth;

import java.util.regex.Pattern;

/**
 * What a principal may do (docs/security.md): {@code admin} changes quotas, scheduler configs and credentials and reads
 * everything; {@code team:<name>} submits, finishes, dry-runs and reads that team's workloads and reads its own
 * quota; {@code viewer} reads everything and changes nothing.
 */
public sealed interface Role {

    /** A team name as SageMaker spells it ({@code ComputeQuotaTarget.TeamName}). */
    Pattern TEAM_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9]){0,39}");

    record Admin() implements Role {
        @Override
        public String toString() {
            return "admin";
        }
    }

    record Viewer() implements Role {
        @Override
        public String toString() {
            return "viewer";
        }
    }

    record Team(String name) implements Role {
        @Override
        public String toString() {
            return "team:" + name;
        }
    }

    Role ADMIN = new Admin();
    Role VIEWER = new Viewer();

    /** Parses {@code admin}, {@code viewer} or {@code team:<name>}; anything else is refused with the rule. */
    static Role parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("role: required (admin, viewer or team:<name>)");
        }
        String t = text.trim();
        if (t.equals("admin")) {
            return ADMIN;
        }
        if (t.equals("viewer")) {
            return VIEWER;
        }
        if (t.startsWith("team:")) {
            String name = t.substring("team:".length());
            if (!TEAM_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("role: team name '" + name + "' must match " + TEAM_NAME.pattern());
            }
            return new Team(name);
        }
        throw new IllegalArgumentException("role: '" + t + "' is not admin, viewer or team:<name>");
    }
}
