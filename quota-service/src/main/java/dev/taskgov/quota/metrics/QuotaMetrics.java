package dev.taskgov.quota.metrics;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.quota.capacity.TopologyCatchUp;
import dev.taskgov.quota.computequota.ComputeQuotaReadModel;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.quota.rules.Units;
import dev.taskgov.service.support.GaugeRows;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * quota-service's metrics (names in docs/metrics.md): API requests by operation and outcome, the
 * nominal quota per team, instance type and resource, the cluster capacity and the over-commit
 * (quota sum above capacity) per instance type and resource. Gauges are recomputed after every
 * committed change and every capacity change (at most once per refresh interval); the capacity and over-commit
 * gauges only once the topology topic has been read to its end as of the start ({@link TopologyCatchUp}).
 */
@ApplicationScoped
public class QuotaMetrics {

    @Inject
    MeterRegistry registry;

    @Inject
    ClusterCapacity capacity;

    @Inject
    ComputeQuotaReadModel quotas;

    @Inject
    TopologyCatchUp catchUp;

    private final AtomicBoolean stale = new AtomicBoolean(true);
    private GaugeRows nominal;
    private GaugeRows capacityGauge;
    private GaugeRows overCommit;

    @PostConstruct
    void register() {
        nominal = new GaugeRows(registry, "taskgov.quota.configured",
                "Nominal quota of an enabled team, per instance type and resource (vCPU, GiB, accelerators)");
        capacityGauge = new GaugeRows(registry, "taskgov.quota.cluster.capacity",
                "Allocatable of ready nodes per instance type and resource, from the topology topic");
        overCommit = new GaugeRows(registry, "taskgov.quota.overcommit",
                "How much the enabled quotas of a cluster exceed its capacity (0 when they fit)");
    }

    public void countRequest(String operation, String outcome) {
        registry.counter("taskgov.quota.api.requests", "operation", operation, "outcome", outcome).increment();
    }

    void afterCommit(@Observes(during = TransactionPhase.AFTER_SUCCESS) QuotaTopicOutbox.OutboxWritten written) {
        stale.set(true);
    }

    void onCapacity(@Observes ClusterCapacity.CapacityChanged changed) {
        stale.set(true);
    }

    @Scheduled(every = "${taskgov.quota.metrics-refresh-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void refreshIfStale() {
        if (stale.getAndSet(false)) {
            refresh();
        }
    }

    /** Recomputes every gauge from the database and the current capacity. */
    public void refresh() {
        List<ComputeQuotaReadModel.ActiveQuota> active = QuarkusTransaction.requiringNew().call(quotas::activeQuotas);

        Map<Tags, Number> nominalRows = new LinkedHashMap<>();
        Map<String, Map<String, Resources>> sumsByCluster = new TreeMap<>();
        for (ComputeQuotaReadModel.ActiveQuota q : active) {
            q.nominal().forEach((type, amount) -> {
                for (ResourceKey r : amount.keys()) {
                    nominalRows.put(Tags.of("cluster_arn", q.clusterArn(), "team", q.team(),
                            "instance_type", type, "resource", r.jsonName()), Units.toApi(r, amount.get(r)).doubleValue());
                }
                sumsByCluster.computeIfAbsent(q.clusterArn(), c -> new TreeMap<>()).merge(type, amount, Resources::plus);
            });
        }
        nominal.set(nominalRows);

        // Until the topology topic has been read to its end, a part of the nodes would show capacity missing and
        // over-commit that is not there (an alert on taskgov_quota_overcommit > 0 would fire at every restart): these
        // gauges wait, tried again at the next refresh.
        if (catchUp.notReady() != null) {
            stale.set(true);
            return;
        }

        Map<Tags, Number> capacityRows = new LinkedHashMap<>();
        for (ClusterArn cluster : capacity.governed()) {
            capacity.capacityByInstanceType(cluster).forEach((type, amount) -> {
                for (ResourceKey r : amount.keys()) {
                    capacityRows.put(Tags.of("cluster_arn", cluster.value(), "instance_type", type,
                            "resource", r.jsonName()), Units.toApi(r, amount.get(r)).doubleValue());
                }
            });
        }
        capacityGauge.set(capacityRows);

        Map<Tags, Number> overRows = new LinkedHashMap<>();
        sumsByCluster.forEach((cluster, sums) -> {
            TreeSet<String> types = new TreeSet<>(sums.keySet());
            for (String type : types) {
                Resources sum = sums.get(type);
                Resources available = capacity.capacityByInstanceType(ClusterArn.of(cluster)).getOrDefault(type, Resources.ZERO);
                for (ResourceKey r : Resources.keys(sum, available)) {
                    long excess = Math.max(0, sum.get(r) - available.get(r));
                    overRows.put(Tags.of("cluster_arn", cluster, "instance_type", type,
                            "resource", r.jsonName()), Units.toApi(r, excess).doubleValue());
                }
            }
        });
        overCommit.set(overRows);
    }
}
