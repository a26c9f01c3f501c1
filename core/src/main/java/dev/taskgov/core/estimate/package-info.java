/**
 * Estimated starts of pending workloads (docs/semantics.md, "Estimated start"): {@link dev.taskgov.core.estimate.StartForecast}
 * runs a copy of a scheduler forward in virtual time, ending each running workload when its {@link dev.taskgov.core.estimate.RunTime}
 * says (declared on its submission, else learned from finished workloads by {@link dev.taskgov.core.estimate.LearnedRunTimes}),
 * and gives every pending workload a {@link dev.taskgov.core.estimate.StartEstimate} with its basis. The live scheduler is
 * only read.
 */
package dev.taskgov.core.estimate;
