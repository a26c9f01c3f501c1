package dev.taskgov.preemption;

import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.model.PreemptionReason;

import java.time.Instant;
import java.util.List;

/**
 * The values of preemption's own compacted changelog topic. Keys: {@code reservation:<preemptor>}
 * and {@code grace:<victim>}; a tombstone ends one.
 */
public final class ChangelogRecords {

    static final String RESERVATION = "reservation:";
    static final String GRACE = "grace:";

    private ChangelogRecords() {
    }

    /**
     * Room made for a preemptor by evictions already published: it counts as held until the
     * preemptor's admission shows up on the admitted topic (or it finishes, or the reservation
     * times out), so a later request cannot take the same room or evict the same victims again.
     *
     * @param admissionsBefore how many admissions of the preemptor had been seen when the room was made
     * @param podSets          where the room is (as the preemptor would be placed after the evictions)
     * @param clusterArn       the cluster the room is in (null: the unnamed cluster; records written before clusters)
     */
    public record Reservation(String preemptorWorkloadId, String team, int admissionsBefore,
                              List<WorkloadAdmitted.AdmittedPodSet> podSets, Instant reservedAt, String clusterArn) {
        String key() {
            return RESERVATION + preemptorWorkloadId;
        }
    }

    /**
     * A victim chosen but given a grace period: it keeps its placement until {@code deadline}, then
     * its eviction is published.
     */
    public record PendingGrace(String workloadId, String team, String preemptorWorkloadId, PreemptionReason reason,
                               String message, Instant chosenAt, Instant deadline) {
        String key() {
            return GRACE + workloadId;
        }
    }
}
