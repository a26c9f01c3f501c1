package dev.taskgov.cli;

import dev.taskgov.core.events.ResourceAmounts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code taskgov get teams}: per team and instance type, the nominal quota and what the team uses, borrows
 * and lends, and its pending workloads, like {@code kubectl get clusterqueues} with usage. The numbers are
 * admission-service's own (its {@code /q/metrics} gauges {@code taskgov_quota_nominal|used|borrowed|lent}
 * and {@code taskgov_admission_pending_workloads}, docs/metrics.md), so they match what it decides on.
 */
@Command(name = "teams", aliases = {"team"}, mixinStandardHelpOptions = true,
        description = "Teams' nominal quota, used, borrowed and lent (per instance type), and pending workloads.")
public class GetTeamsCommand extends CliCommand {

    static final String NOMINAL = "taskgov_quota_nominal";
    static final String USED = "taskgov_quota_used";
    static final String BORROWED = "taskgov_quota_borrowed";
    static final String LENT = "taskgov_quota_lent";
    static final String PENDING = "taskgov_admission_pending_workloads";

    /** One team: pending workloads (in total and by reason) and its quota figures by instance type. */
    record TeamUsage(String team, int pending, Map<String, Integer> pendingByReason, Map<String, Usage> instanceTypes) {
    }

    /** One instance type of a team, in accelerators, vCPU and GiB. */
    record Usage(ResourceAmounts nominal, ResourceAmounts used, ResourceAmounts borrowed, ResourceAmounts lent) {
    }

    @Option(names = {"--team", "-t"}, description = "Only this team.")
    String team;

    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    @Override
    protected int run() {
        java.net.URI metrics = java.net.URI.create(endpoints.admissionBase() + "/q/metrics");
        List<TeamUsage> teams = teams(ServiceReads.get(metrics, "admission-service", "--admission-url / TASKGOV_ADMISSION_URL"));
        if (team != null) teams = teams.stream().filter(t -> t.team().equals(team)).toList();
        if (output.structured()) {
            out().println(output.render(teams));
            return 0;
        }
        if (output.names()) {
            OutputOption.names("team", teams, TeamUsage::team).forEach(out()::println);
            return 0;
        }
        if (teams.isEmpty()) {
            err().println("No teams found" + (team == null ? "" : " named " + team) + " in admission-service's metrics at " + metrics + ".");
            return 0;
        }
        Table t = output.wide()
                ? new Table("TEAM", "INSTANCE-TYPE", "NOMINAL(ACC/VCPU/GIB)", "USED", "BORROWED", "LENT", "PENDING", "PENDING-REASONS")
                : new Table("TEAM", "INSTANCE-TYPE", "NOMINAL(ACC)", "USED", "BORROWED", "LENT", "PENDING");
        for (TeamUsage u : teams) {
            Map<String, Usage> byType = u.instanceTypes().isEmpty() ? Map.of("", new Usage(null, null, null, null)) : u.instanceTypes();
            byType.forEach((type, usage) -> {
                List<Object> row = new ArrayList<>(List.of(u.team(), type));
                for (ResourceAmounts a : new ResourceAmounts[]{usage.nominal(), usage.used(), usage.borrowed(), usage.lent()}) {
                    row.add(output.wide() ? triplet(a) : plain(a == null ? null : a.accelerators()));
                }
                row.add(u.pending());
                if (output.wide()) row.add(reasons(u.pendingByReason()));
                t.row(row.toArray());
            });
        }
        t.print(out());
        return 0;
    }

    /** The teams in the exposition text, by name; a team with pending workloads but no quota is listed too. */
    static List<TeamUsage> teams(String metricsText) {
        Map<String, Map<String, BigDecimal[][]>> figures = new TreeMap<>();
        Map<String, Map<String, Integer>> pending = new TreeMap<>();
        List<String> kinds = List.of(NOMINAL, USED, BORROWED, LENT);
        for (PrometheusText.Sample s : PrometheusText.parse(metricsText, Set.of(NOMINAL, USED, BORROWED, LENT, PENDING))) {
            String team = s.labels().get("team");
            if (team == null) continue;
            if (s.name().equals(PENDING)) {
                int n = s.value().intValue();
                if (n > 0) pending.computeIfAbsent(team, k -> new TreeMap<>()).merge(s.labels().getOrDefault("reason", "Queued"), n, Integer::sum);
                pending.computeIfAbsent(team, k -> new TreeMap<>());
                continue;
            }
            int resource = switch (s.labels().getOrDefault("resource", "")) {
                case "accelerators" -> 0;
                case "vcpu" -> 1;
                case "memoryGiB" -> 2;
                default -> -1;
            };
            String type = s.labels().get("instance_type");
            if (resource < 0 || type == null) continue;
            BigDecimal[][] f = figures.computeIfAbsent(team, k -> new TreeMap<>()).computeIfAbsent(type, k -> new BigDecimal[4][3]);
            int kind = kinds.indexOf(s.name());
            f[kind][resource] = (f[kind][resource] == null ? BigDecimal.ZERO : f[kind][resource]).add(s.value());
        }
        Set<String> names = new java.util.TreeSet<>(figures.keySet());
        names.addAll(pending.keySet());
        List<TeamUsage> out = new ArrayList<>();
        for (String name : names) {
            Map<String, Usage> byType = new TreeMap<>();
            figures.getOrDefault(name, Map.of()).forEach((type, f) -> byType.put(type,
                    new Usage(amounts(f[0]), amounts(f[1]), amounts(f[2]), amounts(f[3]))));
            Map<String, Integer> reasons = pending.getOrDefault(name, Map.of());
            out.add(new TeamUsage(name, reasons.values().stream().mapToInt(Integer::intValue).sum(), reasons, byType));
        }
        return out;
    }

    private static ResourceAmounts amounts(BigDecimal[] r) {
        return new ResourceAmounts(normal(r[0]), normal(r[1]), normal(r[2]));
    }

    private static BigDecimal normal(BigDecimal v) {
        return v == null ? BigDecimal.ZERO : Quantities.normal(v);
    }

    private static String plain(BigDecimal v) {
        return v == null ? null : v.toPlainString();
    }

    private static String triplet(ResourceAmounts a) {
        if (a == null) return null;
        return plain(a.accelerators()) + "/" + plain(a.vcpu()) + "/" + plain(a.memoryGiB());
    }

    private static String reasons(Map<String, Integer> byReason) {
        List<String> parts = new ArrayList<>();
        byReason.forEach((reason, n) -> parts.add(reason + "=" + n));
        return String.join(",", parts);
    }
}
