package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterArnMember;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Violation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A what-if as a caller asks for it (the CLI's {@code taskgov what-if}, quota-service's {@code POST /what-if}): the
 * proposal in the quota API's own shapes and the window; {@link #run} picks the cluster, builds its window from the
 * topics' records and compares. Every refusal is a {@link ValidationException} naming the field:
 * {@code ClusterArn}, {@code ComputeQuotas[i].<member>}, {@code DeleteComputeQuotas}, {@code SchedulerConfig.<member>},
 * {@code Since}.
 *
 * @param clusterArn      the cluster to replay; null: the one the proposal names, else the only one the topics hold
 * @param since           the window's start; null: the first submission the topics hold (else their first record)
 * @param until           the window's end
 * @param quotas          CreateComputeQuota (or UpdateComputeQuota) bodies as UTF-8 JSON, each with its
 *                        {@code ComputeQuotaTarget}; read by the quota translator, as the quota API reads them
 * @param deleted         teams whose quota the proposal deletes
 * @param schedulerConfig a CreateClusterSchedulerConfig body or its {@code SchedulerConfig} object as UTF-8 JSON; null:
 *                        unchanged
 */
public record WhatIfRequest(String clusterArn, Instant since, Instant until, List<byte[]> quotas, Set<String> deleted,
                            byte[] schedulerConfig) {

    public WhatIfRequest {
        quotas = List.copyOf(quotas);
        deleted = Set.copyOf(deleted);
    }

    /** Replays the window of the records both ways. */
    public WhatIfReport run(List<TopicHistory.Recorded> records) {
        if (quotas.isEmpty() && deleted.isEmpty() && schedulerConfig == null) {
            throw new ValidationException("ComputeQuotas", "name a change: a quota to create or replace, a quota to delete"
                    + " (DeleteComputeQuotas) or a scheduler config");
        }
        Instant from = since != null ? since : firstSubmission(records);
        if (!from.isBefore(until)) {
            throw new ValidationException("Since", "the window is empty: it opens at " + from + " and closes at " + until);
        }
        ClusterArn cluster = cluster(records);
        TopicHistory.Result recorded = TopicHistory.build(cluster, from, until, records);
        History history = recorded.history();
        Map<String, TeamQuota> proposed = new LinkedHashMap<>();
        for (int i = 0; i < quotas.size(); i++) {
            String at = "ComputeQuotas[" + i + "]";
            TeamQuota q;
            try {
                q = ProposedChange.quota(quotas.get(i), history);
            } catch (ValidationException e) {
                throw prefixed(at, e);
            }
            if (proposed.put(q.team(), q) != null) {
                throw new ValidationException(at + ".ComputeQuotaTarget.TeamName", "team " + q.team() + " has two proposed quotas");
            }
            if (deleted.contains(q.team())) {
                throw new ValidationException(at + ".ComputeQuotaTarget.TeamName", "team " + q.team()
                        + "'s quota is both replaced and deleted (DeleteComputeQuotas); propose one or the other");
            }
        }
        SchedulerConfig config = null;
        if (schedulerConfig != null) {
            try {
                config = ProposedChange.schedulerConfig(schedulerConfig, history);
            } catch (ValidationException e) {
                throw prefixed("SchedulerConfig", e);
            }
        }
        ProposedChange change = new ProposedChange(proposed, deleted, config);
        List<String> skipped = new ArrayList<>(recorded.skipped());
        List<WhatIfReport.Eviction> madeNow = MadeNow.evictions(recorded.now(), change, skipped::add);
        try {
            return HistoryReplay.compare(history, change, madeNow, skipped);
        } catch (ValidationException e) {
            throw prefixed("ComputeQuotas", e);
        }
    }

    /**
     * The window of everything the topics hold opens at their first submission (else their first record): the nodes,
     * quotas and config recorded before it are the cluster's start, so that proposed quotas are checked against the
     * cluster's capacity and instance types, not against the empty cluster before its first node record.
     */
    private Instant firstSubmission(List<TopicHistory.Recorded> records) {
        return records.stream().filter(r -> r.source() == TopicHistory.Source.SUBMITTED).map(TopicHistory.Recorded::at)
                .min(Instant::compareTo)
                .orElseGet(() -> records.stream().map(TopicHistory.Recorded::at).min(Instant::compareTo).orElse(until));
    }

    /** The cluster named, else the one the proposal names, else the only one on the topology topic. */
    private ClusterArn cluster(List<TopicHistory.Recorded> records) {
        if (clusterArn != null) return arn("ClusterArn", clusterArn);
        Set<String> named = new TreeSet<>();
        for (int i = 0; i < quotas.size(); i++) named(quotas.get(i), "ComputeQuotas[" + i + "]", named);
        if (schedulerConfig != null) named(schedulerConfig, "SchedulerConfig", named);
        if (named.size() == 1) return arn("ClusterArn", named.iterator().next());
        if (named.size() > 1) throw new ValidationException("ClusterArn", "the proposal names several clusters " + named + "; a what-if replays one");
        Set<ClusterArn> onTopology = new TreeSet<>();
        for (TopicHistory.Recorded r : records) {
            if (r.source() != TopicHistory.Source.TOPOLOGY || r.key() == null) continue;
            try {
                onTopology.add(ClusterScopedKey.parse(r.key()).cluster());
            } catch (IllegalArgumentException e) {
                // a key the window names as skipped, if it is the cluster's
            }
        }
        if (onTopology.size() == 1) return onTopology.iterator().next();
        throw new ValidationException("ClusterArn", "is required: the topics hold " + onTopology.size() + " clusters"
                + (onTopology.isEmpty() ? "" : " (" + String.join(", ", onTopology.stream().map(ClusterArn::value).toList()) + ")")
                + "; name the one to replay");
    }

    private static void named(byte[] body, String at, Set<String> named) {
        try {
            ClusterArnMember.of(body).ifPresent(named::add);
        } catch (ValidationException e) {
            throw prefixed(at, e);
        }
    }

    private static ClusterArn arn(String field, String value) {
        ClusterArn.problem(value).ifPresent(p -> {
            throw new ValidationException(field, p);
        });
        return ClusterArn.of(value);
    }

    private static ValidationException prefixed(String prefix, ValidationException e) {
        List<Violation> out = new ArrayList<>();
        for (Violation v : e.violations()) {
            out.add(new Violation(v.field().equals("$") ? prefix : prefix + "." + v.field(), v.rule()));
        }
        return new ValidationException(out);
    }
}
