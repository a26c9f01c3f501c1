package dev.taskgov.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.taskgov.core.events.TopicCatalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Creates taskgov's topics if they do not exist yet.
 *
 * <p>Usage: {@code CreateTopics <bootstrap> <partitions> [name[:compact] ...]}. Without names: every shared topic
 * of {@link TopicCatalog} (the deciders create their own changelogs), compacted as it says, each under the name its environment variable gives it when the
 * services are told to rename it (e.g. {@code TASKGOV_TOPICS_QUOTA}), else its default. Existing topics are left
 * as they are, so running it at every start is safe.
 */
public final class CreateTopics {

    private CreateTopics() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: CreateTopics <bootstrap> <partitions> [name[:compact] ...]");
            System.exit(2);
        }
        if (args.length == 2) args = withCatalog(args);
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        int partitions = Integer.parseInt(args[1]);
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (int i = 2; i < args.length; i++) {
                String[] spec = args[i].split(":", 2);
                String name = spec[0];
                boolean compacted = spec.length == 2 && "compact".equals(spec[1]);
                if (existing.contains(name)) {
                    continue;
                }
                NewTopic topic = new NewTopic(name, partitions, (short) 1);
                if (compacted) {
                    topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
                }
                missing.add(topic);
            }
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(60, TimeUnit.SECONDS);
            }
            for (int i = 2; i < args.length; i++) {
                System.out.println("topic " + args[i] + (existing.contains(args[i].split(":", 2)[0]) ? " (existing)" : " (created)"));
            }
        }
    }

    /** The arguments followed by every shared catalog topic (the deciders create their changelogs) as {@code name[:compact]}, renamed as the environment says. */
    private static String[] withCatalog(String[] args) {
        List<String> out = new ArrayList<>(List.of(args));
        for (TopicCatalog.Topic t : TopicCatalog.SHARED) {
            String renamed = System.getenv(t.environmentVariable());
            String name = renamed == null || renamed.isBlank() ? t.defaultName() : renamed.trim();
            out.add(t.compacted() ? name + ":compact" : name);
        }
        return out.toArray(String[]::new);
    }
}
