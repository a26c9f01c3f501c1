/**
 * Preemption planning: {@link dev.taskgov.core.preemption.PreemptionPlanner#plan} chooses victims
 * (reclaim of lent quota, fair sharing, in-team priority) over a
 * {@link dev.taskgov.core.preemption.ClusterView}; the preemption service builds one with
 * {@link dev.taskgov.core.preemption.ClusterSnapshot#of}.
 */
package dev.taskgov.core.preemption;
