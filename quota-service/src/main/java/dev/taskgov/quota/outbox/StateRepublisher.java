package dev.taskgov.quota.outbox;

import dev.taskgov.quota.computequota.ComputeQuotaReadModel;
import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.quota.schedulerconfig.SchedulerConfigEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.Map;

/**
 * On start, writes the current state of every compute quota and scheduler config to the outbox
 * again, so the quota topic holds it even if records were lost (a topic recreated, a retention
 * accident, a broker restored from an old backup). The topic is compacted and consumers take the
 * latest value per key, so a record that was already there costs nothing but a duplicate. Deleted
 * quotas need no such care: their tombstone stays in the outbox until the broker acknowledged it.
 */
@ApplicationScoped
public class StateRepublisher {

    @Inject
    QuotaServiceConfig config;

    @Inject
    ComputeQuotaReadModel quotas;

    @Inject
    QuotaTopicOutbox outbox;

    void onStart(@Observes StartupEvent start) {
        if (config.quota().outbox().republishOnStart()) {
            republishCurrentState();
        }
    }

    /** @return how many records were written to the outbox */
    public int republishCurrentState() {
        return QuarkusTransaction.requiringNew().call(() -> {
            int written = 0;
            for (ComputeQuotaReadModel.CurrentDocument quota : quotas.currentDocuments()) {
                outbox.quotaChanged(quota.clusterArn(), quota.team(), quota.documentJson());
                written++;
            }
            for (SchedulerConfigEntity c : SchedulerConfigEntity.<SchedulerConfigEntity>listAll(Sort.by("createdAt"))) {
                outbox.schedulerConfigChanged(c.clusterArn, c.documentJson);
                written++;
            }
            return written;
        });
    }
}
