/**
 * The admission engine.
 *
 * <p>{@link dev.taskgov.core.scheduling.Scheduler} holds the pending workloads in per-team queues
 * and, in its cluster cache, the admitted workloads with their placements, quota usage
 * ({@link dev.taskgov.core.quota.QuotaLedger}) and the nodes; the cache is also the view preemption
 * planning works on. Feed it changes ({@code submit}, {@code finish}, {@code evict},
 * {@code applyQuota}, {@code removeQuota}, {@code applySchedulerConfig}, {@code upsertNode},
 * {@code removeNode}), then call {@code cycle()}: it returns
 * {@link dev.taskgov.core.scheduling.Decision}s in order (Admit, Preempt in in-process mode,
 * PreemptionNeeded in delegated mode, StayPending with a new reason, Reject). {@code dryRun},
 * {@code workload}, {@code workloads} and {@code queue} answer questions without changing anything.
 */
package dev.taskgov.core.scheduling;
