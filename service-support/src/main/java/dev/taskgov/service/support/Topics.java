package dev.taskgov.service.support;

import dev.taskgov.core.events.TopicCatalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates topics when missing (services and tests), an existing topic left as it is; and reads the largest record
 * batch the topics accept.
 */
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

    /**
     * The largest record batch, in bytes, that every one of {@code topics} accepts: the smallest
     * {@code max.message.bytes} among them (the topic's own setting, or the broker's default it inherits). Needs the
     * right to describe the topics' configurations (Kafka's {@code DescribeConfigs}).
     *
     * @throws IllegalStateException naming the topic when the broker does not answer within the timeout, or refuses
     */
    public static int largestBatchAccepted(Properties clientProps, Collection<String> topics, long timeoutMillis) {
        List<ConfigResource> resources = topics.stream().distinct()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        Admin admin = Admin.create(clientProps);
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            int smallest = Integer.MAX_VALUE;
            DescribeConfigsOptions options = new DescribeConfigsOptions().timeoutMs((int) timeoutMillis);
            for (Map.Entry<ConfigResource, KafkaFuture<Config>> c : admin.describeConfigs(resources, options).values().entrySet()) {
                String topic = c.getKey().name();
                Config config;
                try {
                    config = c.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    throw new IllegalStateException("cannot read " + TopicConfig.MAX_MESSAGE_BYTES_CONFIG + " of topic "
                            + topic + ": " + e.getCause(), e.getCause());
                } catch (TimeoutException e) {
                    throw new IllegalStateException("cannot read " + TopicConfig.MAX_MESSAGE_BYTES_CONFIG + " of topic "
                            + topic + ": no answer within " + timeoutMillis + " ms", e);
                }
                ConfigEntry limit = config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
                if (limit == null || limit.value() == null) {
                    throw new IllegalStateException("topic " + topic + ": the broker did not say its "
                            + TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
                }
                smallest = Math.min(smallest, Integer.parseInt(limit.value()));
            }
            return smallest;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the limits of " + topics, e);
        } finally {
            // not Admin.close()'s unbounded wait for calls still out: they end by the same timeout
            admin.close(Duration.ofMillis(timeoutMillis));
        }
    }
}
