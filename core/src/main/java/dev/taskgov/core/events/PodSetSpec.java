package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A pod set as submitted.
 *
 * @param name              unique within the workload
 * @param count             number of pods, at least 1
 * @param instanceType      instance type every pod runs on
 * @param requests          per-pod requests (missing = 0)
 * @param requiredTopology  level label all pods must share one domain of, or null
 * @param preferredTopology level label to stay inside if possible, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodSetSpec(String name, Integer count, String instanceType, ResourceAmounts requests,
                         String requiredTopology, String preferredTopology) {
}
