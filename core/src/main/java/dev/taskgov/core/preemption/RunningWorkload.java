package dev.taskgov.core.preemption;

import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Placement;

import java.util.Map;

/**
 * An admitted workload, as preemption planning sees it.
 *
 * @param workload     the workload
 * @param placement    where its pods run
 * @param admissionSeq admission order (higher = admitted more recently)
 */
public record RunningWorkload(Workload workload, Placement placement, long admissionSeq) {

    public String id() {
        return workload.id();
    }

    public String team() {
        return workload.team();
    }

    public int priority() {
        return workload.priority();
    }

    /** What it holds, per instance type. */
    public Map<String, Resources> requests() {
        return workload.requestsByInstanceType();
    }
}
