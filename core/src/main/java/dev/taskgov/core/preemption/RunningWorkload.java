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
 * @param requests     what it holds, per instance type (its pod sets' totals)
 */
public record RunningWorkload(Workload workload, Placement placement, long admissionSeq, Map<String, Resources> requests) {

    /** With {@code requests} computed from the workload. */
    public RunningWorkload(Workload workload, Placement placement, long admissionSeq) {
        this(workload, placement, admissionSeq, workload.requestsByInstanceType());
    }

    public String id() {
        return workload.id();
    }

    public String team() {
        return workload.team();
    }

    public int priority() {
        return workload.priority();
    }
}
