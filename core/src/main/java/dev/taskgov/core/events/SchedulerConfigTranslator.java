package dev.taskgov.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.Violation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The translator of a scheduler config record (a value of {@code taskgov.quota} under
 * {@code <ClusterArn>#_scheduler-config}, a {@code CreateClusterSchedulerConfig} body, a scenario file's
 * {@code schedulerConfig}): {@code {"PriorityClasses": [{"Name", "Weight"}], "FairShare": "Enabled"|"Disabled",
 * "IdleResourceSharing": "Enabled"|"Disabled"}}, whole or wrapped in a {@code SchedulerConfig} member, into a
 * {@link SchedulerConfig}, or the rules it breaks, each naming its field. JSON null is the default config.
 */
public final class SchedulerConfigTranslator {

    private static final String SUBJECT = "scheduler config";
    private static final String WRAPPER = "SchedulerConfig";

    private SchedulerConfigTranslator() {
    }

    /** Translates a record value (UTF-8 JSON). */
    public static Translation<SchedulerConfig> translate(byte[] json) {
        JsonNode body;
        try {
            body = EventCodec.tree(json);
        } catch (EventCodec.EventFormatException e) {
            return new Translation.Refused<>(Translation.Kind.UNREADABLE, "unreadable " + SUBJECT,
                    List.of(new Violation(e.path(), e.problem())));
        }
        return translate(body);
    }

    private static Translation<SchedulerConfig> translate(JsonNode body) {
        boolean wrapped = body.has(WRAPPER);
        JsonNode config = wrapped ? body.get(WRAPPER) : body;
        String prefix = wrapped ? WRAPPER + "." : "";
        if (config == null || config.isNull()) return Translation.translated(SchedulerConfig.DEFAULT);
        List<Violation> v = new ArrayList<>();
        Map<String, Integer> classes = new LinkedHashMap<>();
        JsonNode list = config.get("PriorityClasses");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                v.add(new Violation(prefix + "PriorityClasses", "must be a list"));
            } else {
                for (int i = 0; i < list.size(); i++) {
                    priorityClass(list.get(i), prefix + "PriorityClasses[" + i + "]", classes, v);
                }
            }
        }
        boolean fair = enabled(config, "FairShare", prefix, SchedulerConfig.DEFAULT.fairShare(), v); // omitted: Enabled, as the SageMaker API reference says
        boolean idleSharing = enabled(config, "IdleResourceSharing", prefix, false, v);
        if (!v.isEmpty()) return Translation.invalid(SUBJECT, v);
        return Translation.translated(new SchedulerConfig(classes, fair, idleSharing));
    }

    private static void priorityClass(JsonNode c, String path, Map<String, Integer> classes, List<Violation> v) {
        String name = c.hasNonNull("Name") ? c.get("Name").asText() : null;
        if (name == null || name.isBlank()) {
            v.add(new Violation(path + ".Name", "is required"));
            return;
        }
        if (!ComputeQuotas.TEAM_NAME.matcher(name).matches()) {
            v.add(new Violation(path + ".Name", "must match " + ComputeQuotas.TEAM_NAME.pattern() + ", was '" + name + "'"));
            return;
        }
        JsonNode w = c.get("Weight");
        if (w == null || !w.isIntegralNumber() || w.intValue() < 0 || w.intValue() > 100) {
            v.add(new Violation(path + ".Weight", "must be a whole number in 0..100, was " + w));
            return;
        }
        if (classes.put(name, w.intValue()) != null) {
            v.add(new Violation(path + ".Name", "priority class '" + name + "' is given twice"));
        }
    }

    /** {@code Enabled} or {@code Disabled}; omitted or null: the default. */
    private static boolean enabled(JsonNode config, String field, String prefix, boolean dflt, List<Violation> v) {
        JsonNode n = config.get(field);
        if (n == null || n.isNull()) return dflt;
        return switch (n.asText()) {
            case "Enabled" -> true;
            case "Disabled" -> false;
            default -> {
                v.add(new Violation(prefix + field, "must be Enabled or Disabled, was '" + n.asText() + "'"));
                yield dflt;
            }
        };
    }
}
