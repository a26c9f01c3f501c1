package dev.taskgov.core.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster scheduler config: priority classes (name to weight 0..100, higher runs first) and
 * whether idle capacity is shared by weighted fair share.
 *
 * @param priorityClasses class name to weight, in the order given
 * @param fairShare       {@code FairShare: Enabled}
 * @param idleResourceSharing {@code IdleResourceSharing: Enabled}: the cluster's capacity that no quota
 *                        allocates is lent to the cohort too (omitted: Disabled, only lent quota is borrowed)
 */
public record SchedulerConfig(Map<String, Integer> priorityClasses, boolean fairShare, boolean idleResourceSharing) {

    /**
     * No priority classes, FairShare Enabled: the SageMaker API's default for a config that omits
     * it, and what a cluster without any config gets (an empty config and no config are the same).
     */
    public static final SchedulerConfig DEFAULT = new SchedulerConfig(Map.of(), true);

    private static final String SUFFIX = "-priority";

    public SchedulerConfig {
        priorityClasses = Collections.unmodifiableMap(new LinkedHashMap<>(priorityClasses));
    }

    /** A config without idle resource sharing. */
    public SchedulerConfig(Map<String, Integer> priorityClasses, boolean fairShare) {
        this(priorityClasses, fairShare, false);
    }

    /** The weight given to a workload that names no class: the lowest class's weight, or 0. */
    public int defaultPriority() {
        return priorityClasses.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    }

    /**
     * The class a label names: {@code <Name>-priority} or {@code <Name>}; {@code null}/blank names
     * none (the lowest priority).
     *
     * @return the class name, empty when the label names none
     * @throws ValidationException when the class is unknown
     */
    public Optional<String> resolveClass(String label) {
        if (label == null || label.isBlank()) {
            return Optional.empty();
        }
        if (priorityClasses.containsKey(label)) {
            return Optional.of(label);
        }
        if (label.endsWith(SUFFIX)) {
            String base = label.substring(0, label.length() - SUFFIX.length());
            if (priorityClasses.containsKey(base)) {
                return Optional.of(base);
            }
        }
        throw new ValidationException("priorityClass", "unknown priority class '" + label + "'; known: "
                + new java.util.TreeSet<>(priorityClasses.keySet()));
    }

    /**
     * The class a label names, leniently, for work that was validated when it arrived: the class
     * when it exists, else the name the label gives (without {@code -priority}) for a class that no
     * longer exists; empty when it names none.
     */
    public Optional<String> classOf(String label) {
        if (label == null || label.isBlank()) return Optional.empty();
        try {
            return resolveClass(label);
        } catch (ValidationException e) {
            return Optional.of(label.endsWith(SUFFIX) ? label.substring(0, label.length() - SUFFIX.length()) : label);
        }
    }

    /** A class's weight now; a class that no longer exists (or none) counts as the lowest (docs/semantics.md, "Priorities and priority classes"). */
    public int weightOf(Optional<String> priorityClass) {
        return priorityClass.map(c -> priorityClasses.getOrDefault(c, defaultPriority())).orElse(defaultPriority());
    }

    /** The weight of a label's class, or {@link #defaultPriority()} when it names none. */
    public int priorityOf(String label) {
        return resolveClass(label).map(priorityClasses::get).orElse(defaultPriority());
    }
}
