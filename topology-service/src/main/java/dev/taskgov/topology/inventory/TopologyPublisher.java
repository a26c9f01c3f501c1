package dev.taskgov.topology.inventory;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.TopologyChange;
import dev.taskgov.core.events.TopologyRecordTranslator;
import dev.taskgov.core.events.Translation;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.core.topology.Node;
import dev.taskgov.topology.config.TopologyServiceConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes the inventory of every governed cluster to the compacted topology topic: each named cluster's
 * declaration ({@link ClusterDeclared} under {@code <ClusterArn>}) once, a record per node that changed since
 * it was last published ({@code <ClusterArn>#<node>}, the bare node name for the unnamed cluster), a tombstone
 * per node that left its cluster. What is published is remembered (and read back from the topic at start-up),
 * so an unchanged inventory publishes nothing.
 */
@ApplicationScoped
public class TopologyPublisher {

    public static final String EVENT_SOURCE = CloudEvents.source("topology-service");
    private static final Logger LOG = Logger.getLogger(TopologyPublisher.class);

    /** What a call published. */
    public record Published(Set<String> upserted, Set<String> removed) {
        public boolean isEmpty() {
            return upserted.isEmpty() && removed.isEmpty();
        }
    }

    @Inject
    @Channel("topology-out")
    @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
    Emitter<Record<String, String>> emitter;

    @Inject
    Clock clock;

    @Inject
    MeterRegistry registry;

    @Inject
    TopologyServiceConfig config;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    /** Per cluster, its nodes as last published, by name. */
    private final Map<ClusterArn, Map<String, Node>> published = new HashMap<>();
    private final Set<ClusterArn> declared = new java.util.HashSet<>();

    /**
     * Reads what is already on the topic, through the translator every reader of the topic uses; a record it refuses
     * is not dead-lettered here but overwritten: this service is the topic's writer, and publishes the node again.
     */
    public synchronized void restore(Duration timeout) {
        published.clear();
        declared.clear();
        PublishedTopologyReader.readAll(bootstrapServers, topic(), timeout).forEach((key, json) -> {
            Translation<TopologyChange> read = TopologyRecordTranslator.translate(key, json == null ? null : json.getBytes(StandardCharsets.UTF_8));
            if (read instanceof Translation.Refused<TopologyChange> refused) {
                LOG.warnf("record %s on %s is not a node record or cluster declaration (%s); it will be republished", key, topic(),
                        refused.reason());
            } else if (((Translation.Translated<TopologyChange>) read).value() instanceof TopologyChange.Declared d) {
                declared.add(d.cluster());
            } else if (((Translation.Translated<TopologyChange>) read).value() instanceof TopologyChange.NodeSet n) {
                published.computeIfAbsent(n.cluster(), c -> new HashMap<>()).put(ClusterScopedKey.parse(key).name(), n.node().toNode(Map.of()));
            }
        });
        LOG.infof("restored %d published nodes of %d clusters from %s", published.values().stream().mapToInt(Map::size).sum(),
                published.size(), topic());
    }

    /** The nodes of a cluster as last published, by name. */
    public synchronized Map<String, Node> published(ClusterArn cluster) {
        return Map.copyOf(published.getOrDefault(cluster, Map.of()));
    }

    /**
     * Declares each named cluster not declared yet, and publishes the difference between each cluster's inventory
     * and what was published for it; a configured cluster missing from {@code byCluster} (its sources not read yet)
     * is left as it is. A cluster no longer configured (e.g. the unnamed one after a cluster ARN was configured)
     * loses its nodes and its declaration (tombstones), so the deciders do not go on governing it.
     */
    public synchronized Published publish(Map<ClusterArn, ClusterDeclared> clusters, Map<ClusterArn, Map<String, Node>> byCluster,
                                          Duration timeout) {
        Map<String, CompletableFuture<Void>> declarations = new HashMap<>();
        clusters.forEach((c, d) -> {
            if (!c.isUnnamed() && !declared.contains(c)) {
                declarations.put(c.value(), send(ClusterScopedKey.declaration(c), EventCodec.write(d), ClusterDeclared.TYPE));
            }
        });
        for (ClusterArn gone : Set.copyOf(declared)) {
            if (!clusters.containsKey(gone)) declarations.put(gone.value(), send(ClusterScopedKey.declaration(gone), null, ClusterDeclared.TYPE));
        }
        await(declarations, timeout);
        declarations.keySet().forEach(arn -> {
            ClusterArn c = ClusterArn.of(arn);
            if (clusters.containsKey(c)) declared.add(c);
            else declared.remove(c);
        });
        Set<String> upserted = new TreeSet<>();
        Set<String> removed = new TreeSet<>();
        for (ClusterArn gone : Set.copyOf(published.keySet())) {
            if (!clusters.containsKey(gone)) removed.addAll(publish(gone, Map.of(), timeout).removed());
        }
        for (Map.Entry<ClusterArn, Map<String, Node>> e : byCluster.entrySet()) {
            Published p = publish(e.getKey(), e.getValue(), timeout);
            upserted.addAll(p.upserted());
            removed.addAll(p.removed());
        }
        return new Published(upserted, removed);
    }

    private void await(Map<String, CompletableFuture<Void>> sent, Duration timeout) {
        try {
            CompletableFuture.allOf(sent.values().toArray(CompletableFuture[]::new)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("publishing to " + topic() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing to " + topic(), e);
        }
    }

    /**
     * Publishes the difference between the inventory and what was published, waiting for the broker's
     * acknowledgement; a node is remembered as published only once acknowledged.
     */
    private Published publish(ClusterArn cluster, Map<String, Node> inventory, Duration timeout) {
        Map<String, Node> published = this.published.computeIfAbsent(cluster, c -> new HashMap<>());
        Set<String> upserted = new TreeSet<>();
        Set<String> removed = new TreeSet<>();
        // Acknowledgements complete on the producer's threads; what they acknowledge is recorded here,
        // on the caller's thread, so that no callback ever waits for this method's lock.
        Map<String, Node> sentNodes = new HashMap<>();
        Map<String, CompletableFuture<Void>> sent = new HashMap<>();
        for (Node node : inventory.values()) {
            if (!node.equals(published.get(node.name()))) {
                sent.put(node.name(), send(ClusterScopedKey.of(cluster, node.name()),
                        EventCodec.write(NodeRecord.of(node).withClusterArn(cluster.orNull())), NodeRecord.TYPE));
                sentNodes.put(node.name(), node);
                upserted.add(node.name());
            }
        }
        for (String name : published.keySet()) {
            if (!inventory.containsKey(name)) {
                sent.put(name, send(ClusterScopedKey.of(cluster, name), null, NodeRecord.REMOVED_TYPE));
                removed.add(name);
            }
        }
        try {
            await(sent, timeout);
        } finally {
            sent.forEach((name, future) -> {
                if (future.isDone() && !future.isCompletedExceptionally()) {
                    Node node = sentNodes.get(name);
                    if (node == null) published.remove(name);
                    else published.put(name, node);
                }
            });
        }
        registry.counter("taskgov.topology.records.published", "kind", "node").increment(upserted.size());
        registry.counter("taskgov.topology.records.published", "kind", "tombstone").increment(removed.size());
        return new Published(prefixed(cluster, upserted), prefixed(cluster, removed));
    }

    private static Set<String> prefixed(ClusterArn cluster, Set<String> names) {
        Set<String> out = new TreeSet<>();
        names.forEach(n -> out.add(ClusterScopedKey.of(cluster, n)));
        return out;
    }

    private String topic() {
        return config.topics().topology();
    }

    private CompletableFuture<Void> send(String key, String value, String eventType) {
        RecordHeaders headers = new RecordHeaders();
        CloudEvents.write(CloudEventHeaders.setter(headers), eventType, EVENT_SOURCE, UUID.randomUUID().toString(),
                clock.instant(), key, value != null);
        CompletableFuture<Void> done = new CompletableFuture<>();
        Message<Record<String, String>> message = Message.of(Record.of(key, value))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(key).withHeaders(headers).build())
                .withAck(() -> {
                    done.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(t -> {
                    done.completeExceptionally(t);
                    return CompletableFuture.completedFuture(null);
                });
        emitter.send(message);
        return done;
    }
}
