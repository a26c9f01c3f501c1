/**
 * The public JSON contract (docs/architecture.md, "The wire contract") as records ({@code WorkloadSubmitted}, {@code WorkloadFinished},
 * {@code WorkloadAdmitted}, {@code WorkloadPreempted}, {@code WorkloadStatus}, {@code PreemptionRequested},
 * {@code NodeRecord}), one Jackson codec ({@link dev.taskgov.core.events.EventCodec}), the validation that turns a
 * submission into a {@link dev.taskgov.core.model.Workload} ({@link dev.taskgov.core.events.WorkloadValidation}), and
 * one translator per record kind read from {@code taskgov.quota} and {@code taskgov.topology}
 * ({@link dev.taskgov.core.events.QuotaRecordTranslator}, {@link dev.taskgov.core.events.TopologyRecordTranslator}
 * and the value translators they use), whose typed {@link dev.taskgov.core.events.Translation} every service reads.
 */
package dev.taskgov.core.events;
