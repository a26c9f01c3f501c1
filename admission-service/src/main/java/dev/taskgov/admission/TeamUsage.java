package dev.taskgov.admission;

import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.quota.Share;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One team's quota figures in one cluster, per instance type, as the decider's ledger has them: what the
 * quota gauges ({@code taskgov_quota_*}, docs/metrics.md) and {@code GET /teams} show, computed here once.
 *
 * @param instanceTypes per instance type of its quota
 * @param share         its weighted share (fair sharing)
 */
public record TeamUsage(String team, Map<String, Figures> instanceTypes, Share share) {

    /**
     * In stored units (milli-vCPU, MiB).
     *
     * @param borrowed what it uses above its nominal
     * @param lendable what it lends to the cohort while unused (its nominal when its strategy lends, else 0)
     * @param lent     its part of what the cohort borrows now, in proportion to what it leaves idle (fractional)
     */
    public record Figures(Resources nominal, Resources used, Resources borrowed, Resources borrowingLimit, Resources lendable,
                          Map<ResourceKey, Double> lent) {
    }

    /** Every team with a quota in the ledger, by name. */
    static List<TeamUsage> of(QuotaLedger ledger) {
        Map<String, Resources> cohortBorrowed = new TreeMap<>();
        Map<String, Resources> cohortIdle = new TreeMap<>();
        for (TeamQuota q : ledger.quotas()) {
            for (String type : q.nominal().keySet()) {
                Resources usage = ledger.usage(q.team(), type);
                cohortBorrowed.merge(type, usage.minus(q.nominal(type)), Resources::plus);
                cohortIdle.merge(type, q.lendable(type).minus(usage), Resources::plus);
            }
        }
        List<TeamUsage> out = new ArrayList<>();
        for (TeamQuota q : ledger.quotas()) {
            Map<String, Figures> byType = new TreeMap<>();
            for (String type : q.nominal().keySet()) {
                Resources usage = ledger.usage(q.team(), type);
                Resources idle = q.lendable(type).minus(usage);
                Map<ResourceKey, Double> lent = new TreeMap<>();
                // the fixed resources always, and every partition type of the team's quota or use
                for (ResourceKey r : Resources.keys(q.nominal(type), usage, q.borrowingLimit(type))) {
                    long totalIdle = cohortIdle.get(type).get(r);
                    long totalBorrowed = cohortBorrowed.get(type).get(r);
                    lent.put(r, totalIdle == 0 ? 0 : (double) Math.min(totalBorrowed, totalIdle) * idle.get(r) / totalIdle);
                }
                byType.put(type, new Figures(q.nominal(type), usage, usage.minus(q.nominal(type)), q.borrowingLimit(type),
                        q.lendable(type), lent));
            }
            out.add(new TeamUsage(q.team(), byType, ledger.share(q.team())));
        }
        out.sort(java.util.Comparator.comparing(TeamUsage::team));
        return out;
    }
}
