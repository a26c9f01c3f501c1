/**
 * Quota accounting, shared by admission and preemption planning:
 * {@link dev.taskgov.core.quota.QuotaLedger} keeps every team's nominal quota, lending, borrowing
 * limit and usage per instance type; {@link dev.taskgov.core.quota.QuotaLedger#check} says whether a
 * request fits now ({@link dev.taskgov.core.quota.QuotaCheck}), and weighted shares
 * ({@link dev.taskgov.core.quota.Share}) order fair sharing. Depends on the model only, so that the
 * scheduler and the planner both use it without depending on each other.
 */
package dev.taskgov.core.quota;
