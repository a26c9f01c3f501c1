package dev.taskgov.core.sim;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.ResourceAmounts;

import java.util.List;
import java.util.Map;

/**
 * The outcome of replaying one scenario.
 *
 * @param ok           true when every expectation held
 * @param expectations each check of each expect step
 * @param workloads    the final state of every workload, by id
 * @param log          what happened at each step, in order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScenarioResult(String name, String file, boolean ok, List<Check> expectations, List<FinalState> workloads,
                             List<String> log) {

    /**
     * One checked expectation.
     *
     * @param step       index in {@code $.steps}
     * @param check      admitted, pending, preemptedSinceLastExpect or placements
     * @param workloadId the workload checked (null for preemptedSinceLastExpect)
     * @param expected   what the file expects
     * @param seen       what the simulator saw
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Check(int step, String check, String workloadId, boolean ok, Object expected, Object seen) {
    }

    /**
     * A workload's final state.
     *
     * @param placement pod set name to node name to pod count (admitted only)
     * @param borrowed  per instance type (admitted only, when it borrows)
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record FinalState(String workloadId, String team, String state, String reason, String message,
                             Map<String, Map<String, Integer>> placement, Map<String, ResourceAmounts> borrowed) {
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
