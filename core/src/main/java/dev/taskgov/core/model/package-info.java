/**
 * Quotas, scheduler config and workloads: {@link dev.taskgov.core.model.TeamQuota} (with lendable,
 * guaranteed and borrowing limit), {@link dev.taskgov.core.model.ComputeQuotas} (CreateComputeQuota
 * bodies with seed 002's ratio defaults, validation naming the field, the cluster-capacity check),
 * {@link dev.taskgov.core.model.SchedulerConfig}, and the reason enums.
 */
package dev.taskgov.core.model;
