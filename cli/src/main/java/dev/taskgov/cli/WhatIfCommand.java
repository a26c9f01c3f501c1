package dev.taskgov.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.sim.whatif.TeamFigures;
import dev.taskgov.core.sim.whatif.TopicHistory;
import dev.taskgov.core.sim.whatif.WhatIfReport;
import dev.taskgov.core.sim.whatif.WhatIfRequest;
import dev.taskgov.client.support.RecordedTopics;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code taskgov what-if}: replays a recorded window of a cluster (from the topics) twice through core's replay, as
 * recorded and with a proposed quota or scheduler config change, and prints per team what differs
 * (docs/semantics.md, "What-if"). Reads Kafka with the profile's login; changes nothing.
 */
@Command(name = "what-if", mixinStandardHelpOptions = true,
        description = {"What a quota or scheduler config change would have done: replays the recorded submissions and finishes of a",
                "window twice (as recorded, and with the change) and prints per team admissions, mean and p90 wait, preemptions",
                "suffered and caused, borrowed, lent and used accelerator-hours; and what the change would evict if made now.",
                "Changes nothing."})
public class WhatIfCommand extends CliCommand {

    @Option(names = "--quota", paramLabel = "FILE", arity = "1..*",
            description = "A proposed quota: a CreateComputeQuota (or UpdateComputeQuota) body as JSON, with its ComputeQuotaTarget.TeamName; "
                    + "replaces that team's quota (or creates it). Repeatable.")
    List<Path> quotas = new ArrayList<>();

    @Option(names = "--delete-quota", paramLabel = "TEAM", arity = "1..*", description = "A team whose quota the change deletes. Repeatable.")
    List<String> deleted = new ArrayList<>();

    @Option(names = "--scheduler-config", paramLabel = "FILE",
            description = "A proposed scheduler config: a CreateClusterSchedulerConfig body or its SchedulerConfig object, as JSON.")
    Path schedulerConfig;

    @ArgGroup(exclusive = true)
    Window window;

    static final class Window {
        @Option(names = "--since", paramLabel = "TIME|DURATION",
                description = "The window opens at this instant (2026-12-01T10:00:00Z) or this long ago (90m, 24h); default 24h.")
        String since;

        @Option(names = "--from-topics", description = "The window is everything the topics hold: it opens at their first submission.")
        boolean fromTopics;
    }

    @Option(names = "--until", paramLabel = "TIME", description = "The window closes at this instant (default now).")
    String until;

    @Mixin
    ClusterOption clusterOption;
    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @Override
    protected int run() {
        if (quotas.isEmpty() && deleted.isEmpty() && schedulerConfig == null) {
            throw CliException.invalid("name a change: --quota FILE, --delete-quota TEAM or --scheduler-config FILE");
        }
        List<byte[]> quotaBodies = new ArrayList<>();
        for (Path f : quotas) quotaBodies.add(readJson("--quota", f));
        byte[] configBody = schedulerConfig == null ? null : readJson("--scheduler-config", schedulerConfig);
        Instant to = until == null ? clock.instant() : instant("--until", until);
        Instant from = window != null && window.fromTopics ? null : since(to);
        String named = explicitlyNamed() || !proposalNamesCluster(quotaBodies, configBody) ? clusterOption.arnOrId() : null;
        List<TopicHistory.Recorded> records = read();
        WhatIfRequest request = new WhatIfRequest(cluster(named, records), from, to, quotaBodies, Set.copyOf(deleted), configBody);
        WhatIfReport report;
        try {
            report = request.run(records);
        } catch (ValidationException e) {
            throw CliException.invalid(String.join("; ", e.violations().stream().map(this::asOption).toList()));
        }
        // JSON straight from the record, so that figures print as numbers (3600.0), not as a tree's decimals (3.6E+3)
        if (output.format == OutputOption.Format.json) out().println(report.toJson());
        else if (output.structured()) out().println(output.render(EventCodec.mapper().valueToTree(report)));
        else print(report);
        return 0;
    }

    /** A refusal of the request's field, told as the option that gave it ({@code ComputeQuotas[1].X} is the second --quota FILE's X). */
    private String asOption(Violation v) {
        Matcher quota = QUOTA_FIELD.matcher(v.field());
        if (quota.matches()) {
            return "--quota " + quotas.get(Integer.parseInt(quota.group(1))) + ": " + (quota.group(2) == null ? "" : quota.group(2) + ": ") + v.rule();
        }
        if (v.field().startsWith("SchedulerConfig")) {
            String member = v.field().substring("SchedulerConfig".length()).replaceFirst("^\\.", "");
            return "--scheduler-config " + schedulerConfig + ": " + (member.isEmpty() ? "" : member + ": ") + v.rule();
        }
        if (v.field().equals("Since")) return "--since: " + v.rule();
        if (v.field().equals("ClusterArn") && clusterOption.arnOrId() != null) return "--cluster: " + v.rule();
        if (v.field().equals("ComputeQuotas")) return v.rule();
        return v.field().replaceFirst("^ComputeQuotas\\.", "the proposed quotas: ") + ": " + v.rule();
    }

    private static final Pattern QUOTA_FIELD = Pattern.compile("ComputeQuotas\\[(\\d+)](?:\\.(.*))?");

    /** Whether {@code --cluster} (or {@code TASKGOV_CLUSTER}) names the cluster, rather than the context set last. */
    private boolean explicitlyNamed() {
        return clusterOption.cluster != null && !clusterOption.cluster.isBlank();
    }

    /**
     * Whether a proposed body names its cluster ({@code ClusterArn}): then that cluster is replayed unless --cluster says
     * otherwise, rather than the context's (as kubectl takes a manifest's namespace over the context's); a body naming
     * another cluster than --cluster is refused by the replay, naming both.
     */
    private static boolean proposalNamesCluster(List<byte[]> quotaBodies, byte[] configBody) {
        List<byte[]> all = new ArrayList<>(quotaBodies);
        if (configBody != null) all.add(configBody);
        for (byte[] body : all) {
            try {
                if (dev.taskgov.core.events.ClusterArnMember.of(body).isPresent()) return true;
            } catch (RuntimeException e) {
                // a body whose ClusterArn does not read is refused by the replay, naming it
                return false;
            }
        }
        return false;
    }

    /**
     * The cluster's ARN: as given, or the one the topology topic holds whose id (the last part of its ARN) was given, as
     * the tables show clusters; null when none was named.
     */
    private static String cluster(String named, List<TopicHistory.Recorded> records) {
        if (named == null || !ClusterOption.CLUSTER_ID.matcher(named).matches()) return named;
        Set<String> known = new TreeSet<>();
        for (TopicHistory.Recorded r : records) {
            if (r.source() != TopicHistory.Source.TOPOLOGY || r.key() == null) continue;
            try {
                known.add(ClusterScopedKey.parse(r.key()).cluster().value());
            } catch (IllegalArgumentException e) {
                // not a cluster's key: the replay names it as skipped if it is the chosen cluster's
            }
        }
        for (String arn : known) if (ClusterOption.shortName(arn).equals(named)) return arn;
        throw CliException.invalid("--cluster: no cluster with id '" + named + "' on the topology topic"
                + (known.isEmpty() ? "" : " (it holds " + String.join(", ", known.stream().map(ClusterOption::shortName).toList()) + ")")
                + "; name a cluster by its ARN or its id");
    }

    private List<TopicHistory.Recorded> read() {
        try {
            return RecordedTopics.read(endpoints.kafkaClient(), RecordedTopics.Names.defaults(), READ_TIMEOUT);
        } catch (org.apache.kafka.common.KafkaException e) {
            throw CliException.failed("cannot read the platform's topics at " + endpoints.kafkaClient().getProperty("bootstrap.servers")
                    + " (" + e.getMessage() + "); is the broker up, or set --kafka-bootstrap / TASKGOV_KAFKA_BOOTSTRAP (and the login:"
                    + " --kafka-config; reading every team's workloads takes the administrator's)");
        }
    }

    private Instant since(Instant to) {
        String since = window == null || window.since == null ? "24h" : window.since;
        try {
            return Instant.parse(since);
        } catch (DateTimeParseException e) {
            try {
                return to.minus(DemoCommand.parseDuration(since, "--since"));
            } catch (CliException notDuration) {
                throw CliException.invalid("--since: '" + since + "' is neither an instant (2026-12-01T10:00:00Z) nor a duration (24h)");
            }
        }
    }

    /**
     * The file's bytes, as core's translators take them; only checked to be JSON here, so that a broken file is told
     * before the topics are read (its members are the translators' to judge).
     */
    private static byte[] readJson(String option, Path file) {
        try {
            byte[] json = Files.readAllBytes(file);
            try (JsonParser p = EventCodec.mapper().createParser(json)) {
                while (p.nextToken() != null) {
                    // every token, so that a syntax error anywhere is told
                }
            }
            return json;
        } catch (JsonProcessingException e) {
            throw CliException.invalid(option + " " + file + ": not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw CliException.invalid(option + " " + file + ": cannot read it: " + e.getMessage());
        }
    }

    private static Instant instant(String option, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw CliException.invalid(option + ": '" + text + "' is not an instant such as 2026-12-01T10:00:00Z");
        }
    }

    // ---------------------------------------------------------------- the table

    private void print(WhatIfReport r) {
        out().println("What-if on " + ClusterOption.shortName(r.cluster()) + ", " + r.from() + " to " + r.to() + " ("
                + age(Duration.between(r.from(), r.to()).toSeconds()) + ", " + r.workloads() + " workloads): " + r.change());
        out().println("Each cell: as recorded -> with the change. Hours are accelerator-hours.");
        List<String> headers = new ArrayList<>(List.of("TEAM", "ADMITTED", "MEAN WAIT", "P90 WAIT", "PREEMPTED", "PREEMPTING",
                "BORROWED H", "LENT H", "USED H"));
        if (output.wide()) headers.addAll(List.of("SUBMITTED", "PENDING AT END"));
        Table t = new Table(headers.toArray(String[]::new));
        for (WhatIfReport.TeamComparison c : r.teams()) {
            List<Object> row = new ArrayList<>(List.of(c.team(),
                    both(c, f -> Integer.toString(f.admissions())),
                    both(c, f -> age(Math.round(f.meanWaitSeconds()))),
                    both(c, f -> age(Math.round(f.p90WaitSeconds()))),
                    both(c, f -> Integer.toString(f.preemptionsSuffered())),
                    both(c, f -> Integer.toString(f.preemptionsCaused())),
                    both(c, f -> hours(f.borrowedHours())),
                    both(c, f -> hours(f.lentHours())),
                    both(c, f -> hours(f.usedHours()))));
            if (output.wide()) {
                row.add(both(c, f -> Integer.toString(f.submitted())));
                row.add(both(c, f -> Integer.toString(f.pendingAtEnd())));
            }
            t.row(row.toArray());
        }
        if (t.isEmpty()) out().println("No team had work in the window.");
        else t.print(out());
        if (r.evictedIfMadeNow().isEmpty()) {
            out().println("Made now, the change evicts nothing at once.");
        } else {
            out().println("Made now, the change evicts at once:");
            for (WhatIfReport.Eviction e : r.evictedIfMadeNow()) {
                out().println("  " + e.workloadId() + " (" + e.team() + ", " + e.reason()
                        + (e.preemptorWorkloadId() == null ? "" : ", for " + e.preemptorWorkloadId()) + ")");
            }
        }
        if (!r.skipped().isEmpty()) {
            err().println("what-if: " + r.skipped().size() + " record(s) left out of the replay:");
            r.skipped().forEach(s -> err().println("  " + s));
        }
    }

    private static String both(WhatIfReport.TeamComparison c, Function<TeamFigures, String> f) {
        String a = f.apply(c.asRecorded());
        String b = f.apply(c.withChange());
        return a.equals(b) ? a : a + " -> " + b;
    }

    private static String hours(double h) {
        return String.format(Locale.ROOT, "%.1f", h);
    }

    /** 0s, 45s, 12m (whole minutes, so that a row of "before -> after" cells fits 120 columns), 1h30m. */
    static String age(long seconds) {
        if (seconds < 60) return seconds + "s";
        long minutes = Math.round(seconds / 60.0);
        if (minutes < 60) return minutes + "m";
        return (minutes / 60) + "h" + (minutes % 60 == 0 ? "" : minutes % 60 + "m");
    }
}
