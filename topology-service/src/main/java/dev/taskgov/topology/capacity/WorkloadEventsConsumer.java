package dev.taskgov.topology.capacity;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.EventValues;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps free capacity current from the workload topics: per-pod requests from submissions, pods per
 * node from admissions, releases from finishes and preemptions. Values are read by the one codec
 * into the contract's records; a record that does not parse or breaks a rule is refused with the
 * field and the rule, and goes to the dead-letter topic ({@link TopologyDeadLetters}).
 */
@ApplicationScoped
public class WorkloadEventsConsumer {

    @Inject
    CapacityView view;

    @Incoming("workload-submitted")
    public void submitted(String value) {
        if (value == null) return;
        WorkloadSubmitted s = EventValues.read(value, WorkloadSubmitted.class);
        String id = id(s.workloadId());
        if (s.podSets() == null) throw new IllegalArgumentException("$.podSets: is required");
        Map<String, Resources> requests = new HashMap<>();
        for (int i = 0; i < s.podSets().size(); i++) {
            String path = "$.podSets[" + i + "]";
            PodSetSpec p = s.podSets().get(i);
            if (p == null || p.name() == null || p.name().isBlank()) throw new IllegalArgumentException(path + ".name: is required");
            try {
                requests.put(p.name(), p.requests() == null ? Resources.ZERO : p.requests().toResources());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(path + ".requests: " + e.getMessage(), e);
            }
        }
        view.holds().submitted(id, requests);
        view.updateMeters();
    }

    @Incoming("workload-admitted")
    public void admitted(String value) {
        if (value == null) return;
        WorkloadAdmitted a = EventValues.read(value, WorkloadAdmitted.class);
        String id = id(a.workloadId());
        if (a.podSets() == null) throw new IllegalArgumentException("$.podSets: is required");
        List<WorkloadHolds.PodSetPlacement> placements = new ArrayList<>();
        for (int i = 0; i < a.podSets().size(); i++) {
            String path = "$.podSets[" + i + "]";
            WorkloadAdmitted.AdmittedPodSet ps = a.podSets().get(i);
            if (ps == null || ps.name() == null || ps.name().isBlank()) throw new IllegalArgumentException(path + ".name: is required");
            Map<String, Integer> pods = new LinkedHashMap<>();
            List<WorkloadAdmitted.NodeCount> nodes = ps.nodes() == null ? List.of() : ps.nodes();
            for (int j = 0; j < nodes.size(); j++) {
                String npath = path + ".nodes[" + j + "]";
                WorkloadAdmitted.NodeCount n = nodes.get(j);
                if (n == null || n.name() == null || n.name().isBlank()) throw new IllegalArgumentException(npath + ".name: is required");
                if (n.count() < 0) throw new IllegalArgumentException(npath + ".count: must be >= 0, was " + n.count());
                pods.merge(n.name(), n.count(), Integer::sum);
            }
            placements.add(new WorkloadHolds.PodSetPlacement(ps.name(), pods));
        }
        view.holds().admitted(id, a.admittedAt(), placements, a.cluster());
        view.updateMeters();
    }

    @Incoming("workload-finished")
    public void finished(String value) {
        if (value == null) return;
        view.holds().finished(id(EventValues.read(value, WorkloadFinished.class).workloadId()));
        view.updateMeters();
    }

    @Incoming("workload-preempted")
    public void preempted(String value) {
        if (value == null) return;
        WorkloadPreempted p = EventValues.read(value, WorkloadPreempted.class);
        view.holds().preempted(id(p.workloadId()), p.preemptedAt());
        view.updateMeters();
    }

    private static String id(String workloadId) {
        WorkloadIds.problem(workloadId).ifPresent(rule -> {
            throw new IllegalArgumentException("$.workloadId: " + rule);
        });
        return workloadId;
    }
}
