package dev.taskgov.core.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Input rules for a workload's pod sets (docs/semantics.md, "Input validation and rejections"). Every violation is one
 * sentence that starts with the field path, e.g. {@code podSets[1].count: must be at least 1, was 0}.
 * Negative requests cannot be represented ({@link dev.taskgov.core.resources.Resources} refuses them).
 */
public final class PodSetValidation {

    private PodSetValidation() {
    }

    /** The violations of one workload's pod sets, in pod set order; empty when they are valid. */
    public static List<String> violations(List<PodSetRequest> podSets) {
        List<String> out = new ArrayList<>();
        if (podSets == null || podSets.isEmpty()) {
            out.add("podSets: must contain at least one pod set");
            return out;
        }
        Map<String, Integer> firstIndexByName = new HashMap<>();
        for (int i = 0; i < podSets.size(); i++) {
            String field = "podSets[" + i + "]";
            PodSetRequest ps = podSets.get(i);
            if (ps == null) {
                out.add(field + ": must not be null");
                continue;
            }
            if (ps.name() == null || ps.name().isBlank()) {
                out.add(field + ".name: must not be blank");
            } else {
                Integer first = firstIndexByName.putIfAbsent(ps.name(), i);
                if (first != null) {
                    out.add(field + ".name: \"" + ps.name() + "\" is already the name of podSets[" + first
                            + "]; pod set names must be unique within a workload");
                }
            }
            if (ps.count() < 1) {
                out.add(field + ".count: must be at least 1, was " + ps.count());
            }
            if (ps.instanceType() == null || ps.instanceType().isBlank()) {
                out.add(field + ".instanceType: must not be blank");
            }
            TopologyRequest t = ps.topology();
            if (t.mode() != TopologyRequest.Mode.NONE) {
                String levelField = field + (t.mode() == TopologyRequest.Mode.REQUIRED ? ".requiredTopology" : ".preferredTopology");
                levelViolation(levelField, t.level()).ifPresent(out::add);
            }
            nodeSelectorViolations(field, ps.nodeSelector(), ps.instanceType())
                    .forEach((f, rule) -> out.add(f + ": " + rule));
        }
        return out;
    }

    /**
     * The violations of a pod set's node selector, field path to rule: label names and values
     * must not be blank, and an instance-type label must agree with the pod set's instance type.
     *
     * @param field the pod set's field path, e.g. {@code podSets[0]}
     */
    public static Map<String, String> nodeSelectorViolations(String field, Map<String, String> nodeSelector, String instanceType) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (nodeSelector == null) return out;
        for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
            if (e.getKey() == null || e.getKey().isBlank()) {
                out.put(field + ".nodeSelector", "label names must not be blank");
                continue;
            }
            String f = field + ".nodeSelector[" + e.getKey() + "]";
            if (e.getValue() == null || e.getValue().isBlank()) {
                out.put(f, "must not be empty (a node must carry the label with a value)");
            } else if (Node.INSTANCE_TYPE_LABEL.equals(e.getKey()) && instanceType != null && !e.getValue().equals(instanceType)) {
                out.put(f, "is \"" + e.getValue() + "\" but the pod set's instanceType is \"" + instanceType
                        + "\"; no node can match both");
            }
        }
        return out;
    }

    /**
     * The violations of a pod set's raw topology fields: at most one of the two may be set, and a
     * set one must be a known level.
     *
     * @param field the pod set's field path, e.g. {@code podSets[0]}
     */
    public static List<String> topologyViolations(String field, String requiredTopology, String preferredTopology) {
        List<String> out = new ArrayList<>();
        if (requiredTopology != null && preferredTopology != null) {
            out.add(field + ".requiredTopology and " + field + ".preferredTopology: at most one may be set, both were");
        }
        if (requiredTopology != null) levelViolation(field + ".requiredTopology", requiredTopology).ifPresent(out::add);
        if (preferredTopology != null) levelViolation(field + ".preferredTopology", preferredTopology).ifPresent(out::add);
        return out;
    }

    /**
     * The topology request of raw fields ({@code null} = absent).
     *
     * @throws IllegalArgumentException with the violations when the fields break a rule
     */
    public static TopologyRequest topologyRequest(String field, String requiredTopology, String preferredTopology) {
        List<String> v = topologyViolations(field, requiredTopology, preferredTopology);
        if (!v.isEmpty()) throw new IllegalArgumentException(String.join("; ", v));
        if (requiredTopology != null) return TopologyRequest.required(requiredTopology);
        if (preferredTopology != null) return TopologyRequest.preferred(preferredTopology);
        return TopologyRequest.NONE;
    }

    /** @throws IllegalArgumentException with every violation, joined by "; ", when there is one */
    public static void requireValid(List<PodSetRequest> podSets) {
        List<String> v = violations(podSets);
        if (!v.isEmpty()) throw new IllegalArgumentException(String.join("; ", v));
    }

    private static java.util.Optional<String> levelViolation(String field, String level) {
        if (level == null || level.isBlank()) {
            return java.util.Optional.of(field + ": must name a topology level, one of " + TopologyLevels.ALL);
        }
        if (!TopologyLevels.isKnown(level)) {
            return java.util.Optional.of(field + ": unknown topology level \"" + level + "\", must be one of " + TopologyLevels.ALL);
        }
        return java.util.Optional.empty();
    }
}
