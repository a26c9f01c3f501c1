/**
 * What-if replays: the recorded history of a cluster's window ({@link dev.taskgov.core.sim.whatif.History},
 * built from the topics' records by {@link dev.taskgov.core.sim.whatif.TopicHistory}) is replayed on the
 * scheduler twice, as recorded and with a {@link dev.taskgov.core.sim.whatif.ProposedChange}, and
 * {@link dev.taskgov.core.sim.whatif.HistoryReplay#compare} gives per team figures for both
 * ({@link dev.taskgov.core.sim.whatif.WhatIfReport}). Pure: no clock, no I/O; docs/semantics.md, "What-if".
 */
package dev.taskgov.core.sim.whatif;
