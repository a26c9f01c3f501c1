package dev.taskgov.core.events;

import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.model.SchedulerConfig;

/**
 * The translator of a {@code taskgov.quota} record, key and value: key {@code <ClusterArn>#<team>} with a compute
 * quota ({@link ComputeQuotaTranslator}) or its tombstone, key {@code <ClusterArn>#_scheduler-config} with a
 * scheduler config ({@link SchedulerConfigTranslator}) or its tombstone; a bare key belongs to the unnamed cluster.
 * Every reader of the topic uses it, so a record is the same change, or the same refusal, everywhere.
 */
public final class QuotaRecordTranslator {

    private static final String KEYS = "<ClusterArn>#<team> or <ClusterArn>#" + ClusterScopedKey.SCHEDULER_CONFIG;

    private QuotaRecordTranslator() {
    }

    public static Translation<QuotaChange> translate(String key, byte[] value) {
        ClusterScopedKey k;
        var problem = ClusterScopedKey.problem(key);
        if (problem.isPresent()) return Translation.invalid("key", problem.get() + " (a quota record is keyed " + KEYS + ")");
        k = ClusterScopedKey.parse(key);
        if (k.isDeclaration()) {
            return Translation.invalid("key", "'" + k + "' names a cluster but no team; a quota is keyed " + KEYS);
        }
        if (k.isSchedulerConfig()) {
            if (value == null) return Translation.translated(new QuotaChange.SchedulerConfigSet(k.cluster(), SchedulerConfig.DEFAULT));
            return SchedulerConfigTranslator.translate(value).map(c -> new QuotaChange.SchedulerConfigSet(k.cluster(), c));
        }
        if (value == null) return Translation.translated(new QuotaChange.QuotaRemoved(k.cluster(), k.name()));
        return ComputeQuotaTranslator.translate(value).map(q -> new QuotaChange.QuotaSet(k.cluster(), k.name(), q));
    }
}
