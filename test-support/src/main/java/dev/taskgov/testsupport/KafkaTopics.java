package dev.taskgov.testsupport;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates topics with an {@link Admin} client; topics that already exist are left as they are. */
public final class KafkaTopics {

    private KafkaTopics() {
    }

    /** Creates every taskgov topic ({@link TaskgovTopics#ALL}) on the broker these client settings reach. */
    public static void createTaskgovTopics(Map<String, Object> clientProperties) {
        create(clientProperties, TaskgovTopics.ALL);
    }

    /** Creates the given topics (replication factor 1) unless they exist, with an administrator's client settings. */
    public static void create(Map<String, Object> clientProperties, Collection<TopicSpec> topics) {
        String bootstrapServers = String.valueOf(clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get(60, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (TopicSpec topic : topics) {
                if (!existing.contains(topic.name())) {
                    missing.add(toNewTopic(topic));
                }
            }
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(60, TimeUnit.SECONDS);
            }
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("could not create topics " + topics + " on " + bootstrapServers, e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("broker " + bootstrapServers + " did not answer within 60 s", e);
        }
    }

    private static NewTopic toNewTopic(TopicSpec topic) {
        NewTopic newTopic = new NewTopic(topic.name(), topic.partitions(), (short) 1);
        if (topic.compacted()) {
            newTopic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        return newTopic;
    }
}
