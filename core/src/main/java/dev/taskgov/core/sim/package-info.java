/**
 * Scenario files: {@link dev.taskgov.core.sim.Scenario#read} validates one (errors carry the JSON
 * path) and {@link dev.taskgov.core.sim.Simulator#run} replays it deterministically in either
 * scheduler mode, giving a {@link dev.taskgov.core.sim.ScenarioResult} (expectations and the final
 * state of every workload) that renders as JSON.
 */
package dev.taskgov.core.sim;
