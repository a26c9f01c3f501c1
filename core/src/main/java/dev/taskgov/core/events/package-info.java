/**
 * The public JSON contract (docs/architecture.md, "The wire contract") as records ({@code WorkloadSubmitted}, {@code WorkloadFinished},
 * {@code WorkloadAdmitted}, {@code WorkloadPreempted}, {@code WorkloadStatus}, {@code PreemptionRequested},
 * {@code NodeRecord}), one Jackson codec ({@link dev.taskgov.core.events.EventCodec}) and the
 * validation that turns a submission into a {@link dev.taskgov.core.model.Workload}
 * ({@link dev.taskgov.core.events.WorkloadValidation}).
 */
package dev.taskgov.core.events;
