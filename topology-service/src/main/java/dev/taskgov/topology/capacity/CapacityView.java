package dev.taskgov.topology.capacity;

import dev.taskgov.core.cluster.ClusterArn;
import java.util.Map;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import dev.taskgov.service.support.CoalescedRefresh;
import dev.taskgov.topology.config.TopologyServiceConfig;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The current inventory joined with what admitted workloads hold: the {@code GET /topology} tree
 * (computed when asked, so always current) and the capacity / free gauges per domain and resource.
 * A change of either only marks the gauges stale; they are recomputed at most once per
 * {@code taskgov.topology.meters-refresh}, because one recomputation walks every node and every
 * admitted workload and a burst brings thousands of workload events per second.
 */
@ApplicationScoped
public class CapacityView {


    @Inject
    MeterRegistry registry;

    @Inject
    TopologyServiceConfig config;

    private final WorkloadHolds holds = new WorkloadHolds();
    private volatile Map<ClusterArn, List<Node>> inventory = Map.of();
    private final AtomicInteger readyNodes = new AtomicInteger();
    private final AtomicInteger notReadyNodes = new AtomicInteger();
    private MultiGauge capacityGauge;
    private MultiGauge freeGauge;
    private CoalescedRefresh metersRefresh;

    @PostConstruct
    void registerMeters() {
        capacityGauge = MultiGauge.builder("taskgov.topology.domain.capacity")
                .description("Allocatable of the ready nodes in a topology domain, in JSON units (accelerators, vCPU, GiB)")
                .register(registry);
        freeGauge = MultiGauge.builder("taskgov.topology.domain.free")
                .description("Allocatable minus what admitted workloads hold, per topology domain, in JSON units")
                .register(registry);
        Gauge.builder("taskgov.topology.nodes", readyNodes, AtomicInteger::get).tag("ready", "true")
                .description("Nodes in the inventory by readiness").register(registry);
        Gauge.builder("taskgov.topology.nodes", notReadyNodes, AtomicInteger::get).tag("ready", "false")
                .description("Nodes in the inventory by readiness").register(registry);
        // What the holds keep, to see that it stays bounded: the holding workloads, and those kept for their requests
        // (submitted, not ended) or for a release marker (until the admissions made before it have been read).
        Gauge.builder("taskgov.topology.workloads", holds, WorkloadHolds::admittedCount).tag("kept", "holding")
                .description("Workloads the workload events consumer keeps, by why").register(registry);
        Gauge.builder("taskgov.topology.workloads", holds, WorkloadHolds::trackedCount).tag("kept", "requests-or-marker")
                .description("Workloads the workload events consumer keeps, by why").register(registry);
        metersRefresh = new CoalescedRefresh("topology-meters", config.topology().metersRefresh(), this::updateMeters);
    }

    @PreDestroy
    void stopRefresher() {
        if (metersRefresh != null) metersRefresh.close();
    }

    /** What admitted workloads hold changed (a workload event was applied): the gauges are stale. */
    public void holdsChanged() {
        metersRefresh.markStale();
    }

    /** The admitted workloads' holds, fed by the workload event consumers. */
    public WorkloadHolds holds() {
        return holds;
    }

    /** The inventory of every governed cluster. */
    public void inventoryChanged(Map<ClusterArn, ? extends Collection<Node>> byCluster) {
        Map<ClusterArn, List<Node>> copy = new java.util.TreeMap<>();
        byCluster.forEach((c, nodes) -> copy.put(c, List.copyOf(nodes)));
        inventory = java.util.Collections.unmodifiableMap(copy);
        if (metersRefresh != null) metersRefresh.markStale();
    }

    /** The governed clusters (the unnamed one when the configuration names none). */
    public java.util.Set<ClusterArn> clusters() {
        return inventory.keySet();
    }

    /** One cluster's tree; empty for a cluster this instance does not govern. */
    public java.util.Optional<TopologyTree> tree(ClusterArn cluster) {
        List<Node> nodes = inventory.get(cluster);
        return nodes == null ? java.util.Optional.empty() : java.util.Optional.of(TopologyTree.build(nodes, holds.heldPerNode(cluster)));
    }

    /** Recomputes the gauges now (the refresher calls it when they are stale). */
    synchronized void updateMeters() {
        List<MultiGauge.Row<?>> capacity = new ArrayList<>();
        List<MultiGauge.Row<?>> free = new ArrayList<>();
        int ready = 0;
        int all = 0;
        for (Map.Entry<ClusterArn, List<Node>> e : inventory.entrySet()) {
            List<Node> nodes = e.getValue();
            for (TopologyTree.DomainTotals d : TopologyTree.domainTotals(nodes, holds.heldPerNode(e.getKey()))) {
                for (ResourceKey r : Resources.keys(d.capacity(), d.free())) {
                    Tags tags = Tags.of("cluster", e.getKey().value(), "level", d.level(), "domain", d.value(), "resource", r.jsonName());
                    capacity.add(MultiGauge.Row.of(tags, (double) d.capacity().get(r) / r.unitsPerJsonUnit()));
                    free.add(MultiGauge.Row.of(tags, (double) d.free().get(r) / r.unitsPerJsonUnit()));
                }
            }
            ready += (int) nodes.stream().filter(Node::ready).count();
            all += nodes.size();
        }
        capacityGauge.register(capacity, true);
        freeGauge.register(free, true);
        readyNodes.set(ready);
        notReadyNodes.set(all - ready);
    }
}
