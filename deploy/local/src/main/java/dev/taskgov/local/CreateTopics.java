package dev.taskgov.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.taskgov.core.events.TopicCatalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Creates taskgov's topics if they do not exist yet, as the broker's administrator.
 *
 * <p>Usage: {@code CreateTopics <broker-dir> <bootstrap> <partitions> [name[:compact] ...]}. Without names: every
 * shared topic of {@link TopicCatalog} (the deciders create their own changelogs), compacted as it says, each under
 * the name its environment variable gives it when the services are told to rename it (e.g.
 * {@code TASKGOV_TOPICS_QUOTA}), else its default. Existing topics are left as they are, so running it at every
 * start is safe. The administrator's password comes from the broker directory's credentials ({@link SecureBroker}).
 */
public final class CreateTopics {

    private CreateTopics() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: CreateTopics <broker-dir> <bootstrap> <partitions> [name[:compact] ...]");
            System.exit(2);
        }
        List<String> specs = new ArrayList<>(List.of(args).subList(3, args.length));
        if (specs.isEmpty()) specs.addAll(catalog());
        try (Admin admin = KafkaProvisioning.admin(java.nio.file.Path.of(args[0]), args[1])) {
            create(admin, Integer.parseInt(args[2]), specs);
        }
    }

    /** Creates the topics ({@code name[:compact]}) that do not exist, and says which were created. */
    static void create(Admin admin, int partitions, List<String> specs) throws Exception {
        Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        List<NewTopic> missing = new ArrayList<>();
        for (String spec : specs) {
            String[] parts = spec.split(":", 2);
            if (existing.contains(parts[0])) continue;
            NewTopic topic = new NewTopic(parts[0], partitions, (short) 1);
            if (parts.length == 2 && "compact".equals(parts[1])) {
                topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            }
            missing.add(topic);
        }
        if (!missing.isEmpty()) {
            admin.createTopics(missing).all().get(60, TimeUnit.SECONDS);
        }
        for (String spec : specs) {
            System.out.println("topic " + spec + (existing.contains(spec.split(":", 2)[0]) ? " (existing)" : " (created)"));
        }
    }

    /** Every shared catalog topic (the deciders create their changelogs) as {@code name[:compact]}, renamed as the environment says. */
    static List<String> catalog() {
        List<String> out = new ArrayList<>();
        for (TopicCatalog.Topic t : TopicCatalog.SHARED) {
            out.add(t.compacted() ? name(t) + ":compact" : name(t));
        }
        return out;
    }

    /** A topic's name: what its environment variable renames it to, else its default. */
    static String name(TopicCatalog.Topic t) {
        String renamed = System.getenv(t.environmentVariable());
        return renamed == null || renamed.isBlank() ? t.defaultName() : renamed.trim();
    }
}
