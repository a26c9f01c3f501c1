package dev.taskgov.core.events;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyRequest;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pod set as submitted.
 *
 * @param name              unique within the workload
 * @param count             number of pods, at least 1
 * @param instanceType      instance type every pod runs on
 * @param requests          per-pod requests (missing = 0)
 * @param requiredTopology  level label all pods must share one domain of, or null
 * @param preferredTopology level label to stay inside if possible, or null
 * @param nodeSelector      node labels every pod's node must carry with these values (Kubernetes
 *                          nodeSelector semantics), e.g. a rack pinned by its layer-3 label; empty
 *                          for none, and then left out of the JSON
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodSetSpec(String name, Integer count, String instanceType, ResourceAmounts requests,
                         String requiredTopology, String preferredTopology,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> nodeSelector) {

    public PodSetSpec {
        name = SharedNames.of(name);
        instanceType = SharedNames.of(instanceType);
        requiredTopology = SharedNames.of(requiredTopology);
        preferredTopology = SharedNames.of(preferredTopology);
        // Sorted for stable messages; a TreeMap keeps null values so validation can name them.
        nodeSelector = nodeSelector == null || nodeSelector.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(nodeSelector));
    }

    /** The pod set as placement and quota see it (per-pod resources in stored units, its topology request). */
    public PodSetRequest toRequest() {
        Resources perPod = requests == null ? Resources.ZERO : requests.toResources();
        TopologyRequest topology = requiredTopology != null ? TopologyRequest.required(requiredTopology)
                : preferredTopology != null ? TopologyRequest.preferred(preferredTopology) : TopologyRequest.NONE;
        return new PodSetRequest(name, count, instanceType, perPod, topology, nodeSelector);
    }

    /** A pod set without a node selector. */
    public PodSetSpec(String name, Integer count, String instanceType, ResourceAmounts requests,
                      String requiredTopology, String preferredTopology) {
        this(name, count, instanceType, requests, requiredTopology, preferredTopology, Map.of());
    }
}
