package dev.taskgov.core.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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

    /**
     * Reads a CreateClusterSchedulerConfig body or its {@code SchedulerConfig} object:
     * {@code {"PriorityClasses": [{"Name", "Weight"}], "FairShare": "Enabled"|"Disabled"}}.
     *
     * @throws ValidationException naming each wrong field
     */
    public static SchedulerConfig fromRequest(JsonNode body) {
        JsonNode config = body != null && body.has("SchedulerConfig") ? body.get("SchedulerConfig") : body;
        String prefix = body != null && body.has("SchedulerConfig") ? "SchedulerConfig." : "";
        if (config == null || config.isNull()) {
            return DEFAULT;
        }
        List<Violation> v = new ArrayList<>();
        Map<String, Integer> classes = new LinkedHashMap<>();
        JsonNode list = config.get("PriorityClasses");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                v.add(new Violation(prefix + "PriorityClasses", "must be a list"));
            } else {
                for (int i = 0; i < list.size(); i++) {
                    String path = prefix + "PriorityClasses[" + i + "]";
                    JsonNode c = list.get(i);
                    String name = c.hasNonNull("Name") ? c.get("Name").asText() : null;
                    if (name == null || name.isBlank()) {
                        v.add(new Violation(path + ".Name", "is required"));
                        continue;
                    }
                    if (!ComputeQuotas.TEAM_NAME.matcher(name).matches()) {
                        v.add(new Violation(path + ".Name", "must match " + ComputeQuotas.TEAM_NAME.pattern() + ", was '" + name + "'"));
                        continue;
                    }
                    JsonNode w = c.get("Weight");
                    if (w == null || !w.isIntegralNumber() || w.intValue() < 0 || w.intValue() > 100) {
                        v.add(new Violation(path + ".Weight", "must be a whole number in 0..100, was " + w));
                        continue;
                    }
                    if (classes.put(name, w.intValue()) != null) {
                        v.add(new Violation(path + ".Name", "priority class '" + name + "' is given twice"));
                    }
                }
            }
        }
        boolean fair = DEFAULT.fairShare(); // omitted: Enabled, as the SageMaker API reference says
        JsonNode fs = config.get("FairShare");
        if (fs != null && !fs.isNull()) {
            switch (fs.asText()) {
                case "Enabled" -> fair = true;
                case "Disabled" -> fair = false;
                default -> v.add(new Violation(prefix + "FairShare", "must be Enabled or Disabled, was '" + fs.asText() + "'"));
            }
        }
        boolean idleSharing = false;
        JsonNode idle = config.get("IdleResourceSharing");
        if (idle != null && !idle.isNull()) {
            switch (idle.asText()) {
                case "Enabled" -> idleSharing = true;
                case "Disabled" -> idleSharing = false;
                default -> v.add(new Violation(prefix + "IdleResourceSharing", "must be Enabled or Disabled, was '" + idle.asText() + "'"));
            }
        }
        if (!v.isEmpty()) {
            throw new ValidationException(v);
        }
        return new SchedulerConfig(classes, fair, idleSharing);
    }
}
