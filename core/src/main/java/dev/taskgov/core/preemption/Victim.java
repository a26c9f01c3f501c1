package dev.taskgov.core.preemption;

import dev.taskgov.core.model.PreemptionReason;

/**
 * A workload to evict.
 *
 * @param workloadId the victim
 * @param team       its team
 * @param reason     why it was chosen
 * @param message    for people, with the numbers that made it a victim
 */
public record Victim(String workloadId, String team, PreemptionReason reason, String message) {
}
