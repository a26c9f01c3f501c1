package dev.taskgov.core.sim.whatif;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.model.PreemptionReason;

import java.time.Instant;
import java.util.List;

/**
 * What a proposed change would have done over a recorded window, and what it would do if made now.
 *
 * @param change          the proposal, for people
 * @param workloads       workloads replayed (submitted in the window, or waiting or running when it opened)
 * @param teams           per team, the figures of the replay as recorded and of the replay with the change
 * @param evictedIfMadeNow the workloads the change would evict at once if made at the window's end, on the cluster as
 *                        its records say it is then ({@link RecordedNow}: what runs and waits now, not where the
 *                        replay ends): a deleted quota's running work, preemptions the change makes possible right away
 * @param skipped         records that could not be replayed, each with why (left out; the rest replays)
 */
public record WhatIfReport(String cluster, Instant from, Instant to, String change, int workloads, List<TeamComparison> teams,
                           List<Eviction> evictedIfMadeNow, List<String> skipped) {

    /** One team's figures, both ways. */
    public record TeamComparison(String team, TeamFigures asRecorded, TeamFigures withChange) {
    }

    /**
     * One eviction the change would cause at once.
     *
     * @param preemptorWorkloadId the workload admitted in its place, or null (e.g. its team's quota was deleted)
     */
    public record Eviction(String workloadId, String team, PreemptionReason reason, String preemptorWorkloadId, String message) {
    }

    /** Pretty JSON. */
    public String toJson() {
        try {
            return EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
