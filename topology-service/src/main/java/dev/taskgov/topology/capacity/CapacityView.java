package dev.taskgov.topology.capacity;

import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.topology.Node;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The current inventory joined with what admitted workloads hold: the {@code GET /topology} tree
 * and the capacity / free gauges per domain and resource, refreshed on every change of either.
 */
@ApplicationScoped
public class CapacityView {

    @Inject
    MeterRegistry registry;

    private final WorkloadHolds holds = new WorkloadHolds();
    private volatile List<Node> inventory = List.of();
    private final AtomicInteger readyNodes = new AtomicInteger();
    private final AtomicInteger notReadyNodes = new AtomicInteger();
    private MultiGauge capacityGauge;
    private MultiGauge freeGauge;

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
    }

    /** The admitted workloads' holds, fed by the workload event consumers. */
    public WorkloadHolds holds() {
        return holds;
    }

    public void inventoryChanged(Collection<Node> nodes) {
        inventory = List.copyOf(nodes);
        updateMeters();
    }

    public List<Node> inventory() {
        return inventory;
    }

    public TopologyTree tree() {
        return TopologyTree.build(inventory, holds.heldPerNode());
    }

    /** Recomputes the gauges; called after every inventory or hold change. */
    public synchronized void updateMeters() {
        List<Node> nodes = inventory;
        List<MultiGauge.Row<?>> capacity = new ArrayList<>();
        List<MultiGauge.Row<?>> free = new ArrayList<>();
        for (TopologyTree.DomainTotals d : TopologyTree.domainTotals(nodes, holds.heldPerNode())) {
            for (ResourceName r : ResourceName.values()) {
                Tags tags = Tags.of("level", d.level(), "domain", d.value(), "resource", r.jsonName());
                capacity.add(MultiGauge.Row.of(tags, (double) d.capacity().get(r) / r.unitsPerJsonUnit()));
                free.add(MultiGauge.Row.of(tags, (double) d.free().get(r) / r.unitsPerJsonUnit()));
            }
        }
        capacityGauge.register(capacity, true);
        freeGauge.register(free, true);
        int ready = (int) nodes.stream().filter(Node::ready).count();
        readyNodes.set(ready);
        notReadyNodes.set(nodes.size() - ready);
    }
}
