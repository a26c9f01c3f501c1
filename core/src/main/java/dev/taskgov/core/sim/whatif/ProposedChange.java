package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.ClusterArnMember;
import dev.taskgov.core.events.ComputeQuotaTranslator;
import dev.taskgov.core.events.SchedulerConfigTranslator;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.scheduling.Scheduler;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What an administrator considers changing: quotas created or replaced, quotas deleted, a new scheduler config. In the
 * replay with the change it holds from the window's start and for the whole window: a recorded change of the same
 * team's quota (of the config) is left out there, the proposal being what that team's quota (the config) would be.
 *
 * @param quotas  by team, the quotas created or replaced
 * @param removed teams whose quota is deleted
 * @param config  the new scheduler config, or null to keep the recorded one
 */
public record ProposedChange(Map<String, TeamQuota> quotas, Set<String> removed, SchedulerConfig config) {

    public ProposedChange {
        quotas = Map.copyOf(new TreeMap<>(quotas));
        removed = Set.copyOf(new TreeSet<>(removed));
        for (String team : removed) {
            if (quotas.containsKey(team)) {
                throw new IllegalArgumentException("team " + team + ": its quota is both replaced and deleted; propose one or the other");
            }
        }
    }

    /**
     * A proposed quota as the quota API takes it (a CreateComputeQuota or UpdateComputeQuota body with its
     * {@code ComputeQuotaTarget}, UTF-8 JSON), read against the window's instance types.
     *
     * @throws ValidationException naming the field and the rule, also when its {@code ClusterArn} names another cluster
     */
    public static TeamQuota quota(byte[] body, History history) {
        checkCluster(body, history);
        return ComputeQuotaTranslator.translate(body, history.known().instanceTypes()).orThrow();
    }

    /**
     * A proposed scheduler config: a CreateClusterSchedulerConfig body or its {@code SchedulerConfig} object, UTF-8 JSON.
     *
     * @throws ValidationException naming the field and the rule, also when its {@code ClusterArn} names another cluster
     */
    public static SchedulerConfig schedulerConfig(byte[] body, History history) {
        checkCluster(body, history);
        return SchedulerConfigTranslator.translate(body).orThrow();
    }

    private static void checkCluster(byte[] body, History history) {
        String arn = ClusterArnMember.of(body).orElse(null);
        if (arn == null) return;
        if (!ClusterArn.isValid(arn)) throw new ValidationException("ClusterArn", ClusterArn.RULE + ", was '" + arn + "'");
        if (!arn.equals(history.cluster())) {
            throw new ValidationException("ClusterArn", "names cluster " + arn + " but the what-if replays "
                    + history.cluster() + "; a quota and a scheduler config belong to one cluster");
        }
    }

    /** Whether it changes anything at all. */
    public boolean isEmpty() {
        return quotas.isEmpty() && removed.isEmpty() && config == null;
    }

    /** Whether the proposal decides this team's quota (a recorded change of it is then left out). */
    boolean decidesQuotaOf(String team) {
        return quotas.containsKey(team) || removed.contains(team);
    }

    /** Applies the change to a scheduler, as the quota API's writes would reach it. */
    void applyTo(Scheduler scheduler) {
        if (config != null) scheduler.applySchedulerConfig(config);
        quotas.values().forEach(scheduler::applyQuota);
        removed.forEach(scheduler::removeQuota);
    }

    /** For people: "team-1 quota replaced, team-2 quota deleted, scheduler config replaced". */
    public String describe() {
        StringBuilder s = new StringBuilder();
        quotas.keySet().stream().sorted().forEach(t -> s.append(s.isEmpty() ? "" : ", ").append(t).append(" quota replaced"));
        removed.stream().sorted().forEach(t -> s.append(s.isEmpty() ? "" : ", ").append(t).append(" quota deleted"));
        if (config != null) s.append(s.isEmpty() ? "" : ", ").append("scheduler config replaced");
        return s.isEmpty() ? "no change" : s.toString();
    }
}
