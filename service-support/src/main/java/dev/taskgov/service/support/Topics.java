package dev.taskgov.service.support;

import dev.taskgov.core.events.TopicCatalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/** Creates topics when missing (services and tests); an existing topic is left as it is. */
public final class Topics {
    private Topics() {
    }

    /** A topic with its partition count and whether it is compacted. */
    public record Spec(String name, int partitions, boolean compacted) {

        /** A catalog topic under the name it has here (renamed, or behind a test's prefix). */
        public static Spec of(TopicCatalog.Topic topic, String name) {
            return new Spec(name, topic.partitions(), topic.compacted());
        }
    }

    public static void ensure(Properties clientProps, Iterable<Spec> specs) {
        try (Admin admin = Admin.create(clientProps)) {
            Set<String> existing = admin.listTopics().names().get();
            for (Spec spec : specs) {
                if (existing.contains(spec.name())) continue;
                NewTopic topic = new NewTopic(spec.name(), spec.partitions(), (short) -1);
                if (spec.compacted()) {
                    topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
                }
                try {
                    admin.createTopics(java.util.List.of(topic)).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) throw e;
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topics: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }
}
