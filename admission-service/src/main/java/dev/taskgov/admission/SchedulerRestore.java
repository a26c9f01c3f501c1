package dev.taskgov.admission;

import dev.taskgov.core.events.WorkloadAdmitted.AdmittedPodSet;
import dev.taskgov.core.events.WorkloadAdmitted.NodeCount;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetRequest;
import org.jboss.logging.Logger;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Adapter for a gap in the core API: {@link Scheduler} has no "restore this admitted workload with
 * this placement" call, so a decider that takes over rebuilds its scheduler through the public
 * API only. Admitted workloads are replayed in their admission order, each into a cluster where
 * exactly its recorded placement is free (the placement's nodes offer what is already reserved on
 * them plus its pods; every other node is full) and every team has an unbounded quota; the clock
 * is pinned at the recorded admission time. The real nodes and quotas are put back afterwards;
 * reservations, usage, admission order and times are then those of the changelog.
 */
final class SchedulerRestore {
    private static final Logger LOG = Logger.getLogger(SchedulerRestore.class);
    private static final long UNBOUNDED = Long.MAX_VALUE / 4;

    private SchedulerRestore() {
    }

    /** One admitted workload to restore. */
    record Admitted(Workload workload, List<AdmittedPodSet> placement, java.time.Instant admittedAt) {
    }

    static Scheduler restore(SettableClock clock, Collection<InstanceType> instanceTypes, Collection<Node> nodes,
                             SchedulerConfig config, Collection<TeamQuota> quotas, List<Admitted> admittedInOrder,
                             List<Workload> pending) {
        Map<String, Node> real = new TreeMap<>();
        nodes.forEach(n -> real.put(n.name(), n));
        Scheduler scheduler = new Scheduler(clock, Scheduler.Mode.DELEGATED, instanceTypes, List.of());
        scheduler.applySchedulerConfig(config);
        Set<String> teams = admittedInOrder.stream().map(a -> a.workload().team()).collect(Collectors.toSet());
        for (String team : teams) {
            scheduler.applyQuota(unbounded(team, instanceTypes, admittedInOrder));
        }
        Map<String, Resources> reserved = new HashMap<>();
        try {
            for (Admitted a : admittedInOrder) {
                Map<String, Resources> need = need(a);
                // Every node known so far is full; the recorded placement's nodes have exactly room for it.
                for (String name : union(real.keySet(), need.keySet())) {
                    Node base = real.get(name);
                    Resources alloc = reserved.getOrDefault(name, Resources.ZERO).plus(need.getOrDefault(name, Resources.ZERO));
                    String type = base != null ? base.instanceType() : typeOf(a, name);
                    scheduler.upsertNode(new Node(name, base == null ? null : base.instanceId(), type,
                            base == null ? Map.of() : base.labels(), alloc, true));
                }
                clock.pin(a.admittedAt());
                scheduler.submit(a.workload());
                List<Decision> decisions = scheduler.cycle();
                boolean admitted = decisions.stream().anyMatch(d -> d instanceof Decision.Admit ad && ad.workloadId().equals(a.workload().id()));
                if (!admitted) {
                    LOG.errorf("could not restore the admission of %s on its recorded placement; it is queued again", a.workload().id());
                }
                need.forEach((n, r) -> reserved.merge(n, r, Resources::plus));
            }
        } finally {
            clock.unpin();
        }
        // The real cluster and quotas.
        for (String name : Set.copyOf(scheduler.topology().nodes().stream().map(Node::name).toList())) {
            if (!real.containsKey(name)) scheduler.removeNode(name);
        }
        real.values().forEach(scheduler::upsertNode);
        Set<String> withQuota = quotas.stream().map(TeamQuota::team).collect(Collectors.toSet());
        for (String team : teams) {
            if (!withQuota.contains(team)) scheduler.removeQuota(team);
        }
        quotas.forEach(scheduler::applyQuota);
        pending.forEach(scheduler::submit);
        return scheduler;
    }

    private static TeamQuota unbounded(String team, Collection<InstanceType> types, List<Admitted> admitted) {
        Map<String, Resources> nominal = new TreeMap<>();
        types.forEach(t -> nominal.put(t.name(), Resources.of(UNBOUNDED, UNBOUNDED, UNBOUNDED)));
        admitted.forEach(a -> a.workload().podSets().forEach(p ->
                nominal.put(p.instanceType(), Resources.of(UNBOUNDED, UNBOUNDED, UNBOUNDED))));
        return TeamQuota.of(team, nominal);
    }

    /** What the recorded placement holds per node. */
    private static Map<String, Resources> need(Admitted a) {
        Map<String, Resources> need = new TreeMap<>();
        Map<String, PodSetRequest> byName = new HashMap<>();
        a.workload().podSets().forEach(p -> byName.put(p.name(), p));
        for (AdmittedPodSet ps : a.placement()) {
            PodSetRequest req = byName.get(ps.name());
            if (req == null) continue;
            for (NodeCount nc : ps.nodes()) {
                need.merge(nc.name(), req.perPod().times(nc.count()), Resources::plus);
            }
        }
        return need;
    }

    private static String typeOf(Admitted a, String node) {
        for (AdmittedPodSet ps : a.placement()) {
            for (NodeCount nc : ps.nodes()) {
                if (nc.name().equals(node)) return ps.instanceType();
            }
        }
        return "unknown";
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new java.util.TreeSet<>(a);
        out.addAll(b);
        return out;
    }
}
