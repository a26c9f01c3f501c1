package dev.taskgov.topology.inventory;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.ClusterDeclared;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Set;
import dev.taskgov.core.model.AcceleratorPartitions;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.topology.TopologyConfig;
import dev.taskgov.topology.TopologyConfig.SourceKind;
import dev.taskgov.topology.config.TopologyServiceConfig;
import dev.taskgov.topology.capacity.CapacityView;
import dev.taskgov.topology.ec2.Ec2Clients;
import dev.taskgov.topology.ec2.Ec2PollException;
import dev.taskgov.topology.ec2.Ec2TopologyFilter;
import dev.taskgov.topology.ec2.Ec2TopologySource;
import dev.taskgov.topology.ec2.InstanceTopologyEntry;
import dev.taskgov.topology.kubernetes.KubernetesNodeMapper;
import dev.taskgov.topology.kubernetes.KubernetesNodeSource;
import dev.taskgov.topology.kubernetes.NodeLabeler;
import dev.taskgov.topology.model.InstanceTypeCatalog;
import dev.taskgov.topology.staticfile.StaticInventoryFile;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.ec2.Ec2Client;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The poll loop: reads the configured sources, writes the topology labels onto Kubernetes nodes,
 * publishes what changed, and updates the capacity view. Everything runs on one thread, so a poll,
 * a Kubernetes change and a test's {@link #pollNow()} never overlap. A failed source keeps its last
 * good reading: known nodes are never dropped because EC2 or a file could not be read.
 */
@ApplicationScoped
public class InventoryRefresher {

    private static final Logger LOG = Logger.getLogger(InventoryRefresher.class);

    /** What one refresh did. */
    public record Outcome(boolean sourcesFailed, int nodes, int labelsWritten, TopologyPublisher.Published published) {
    }

    @Inject
    TopologyServiceConfig serviceConfig;

    private TopologyConfig config;

    @Inject
    TopologyPublisher publisher;

    @Inject
    CapacityView capacityView;

    @Inject
    MeterRegistry registry;

    @Inject
    Instance<KubernetesClient> kubernetesClient;

    private ScheduledExecutorService executor;
    private final AtomicBoolean kubernetesRefreshQueued = new AtomicBoolean();
    private Backoff backoff;
    private InstanceTypeCatalog catalog;
    private boolean restored;
    /** Every governed cluster with its own sources, the top-level one first. */
    private final List<ClusterSources> clusters = new ArrayList<>();

    /**
     * One governed cluster: its sources (EC2 with its own region and filters, a Kubernetes context, or a static
     * file) and their last good readings, kept across failed polls.
     */
    private final class ClusterSources {
        final ClusterArn cluster;
        final String name;
        final Set<SourceKind> kinds;
        final Path staticFile;
        Ec2Client ec2Client;
        Ec2TopologySource ec2;
        KubernetesNodeSource kubernetes;
        NodeLabeler labeler;
        KubernetesClient ownClient;
        Map<String, InstanceTopologyEntry> lastEc2;
        List<Node> lastStatic;

        ClusterSources(ClusterArn cluster, String name, Set<SourceKind> kinds, Path staticFile) {
            if (kinds.contains(SourceKind.STATIC) && kinds.size() > 1) {
                throw new IllegalArgumentException("source of cluster " + cluster + ": static cannot be combined with ec2 or kubernetes, was " + kinds);
            }
            this.cluster = cluster;
            this.name = name;
            this.kinds = kinds;
            this.staticFile = staticFile;
        }

        void startEc2(String region, Optional<java.net.URI> endpoint, List<String> ids, List<String> groups, List<String> types) {
            TopologyConfig.Ec2 c = config.ec2();
            ec2Client = Ec2Clients.create(region, endpoint, c.accessKeyId(), c.secretAccessKey(), c.maxAttempts(),
                    c.retryBaseDelay(), c.retryMaxDelay(), c.callTimeout());
            ec2 = new Ec2TopologySource(ec2Client, new Ec2TopologyFilter(ids, groups, types, c.pageSize().orElse(null)));
        }

        void startKubernetes(KubernetesClient client) {
            labeler = new NodeLabeler(client);
            kubernetes = new KubernetesNodeSource(client, config.kubernetes().resync(), InventoryRefresher.this::queueKubernetesRefresh);
            kubernetes.start();
        }

        /** Reads EC2 and the static file; returns true when one failed (its last good reading stays). */
        boolean read() {
            boolean failed = false;
            if (ec2 != null) {
                try {
                    lastEc2 = ec2.describe();
                } catch (Ec2PollException e) {
                    failed = true;
                    registry.counter("taskgov.topology.poll.errors", "source", "ec2", "cluster", cluster.value()).increment();
                    LOG.warnf("EC2 poll of %s failed, keeping the last good topology (%s)", cluster, e.getMessage());
                }
            }
            if (kinds.contains(SourceKind.STATIC)) {
                try {
                    lastStatic = StaticInventoryFile.load(staticFile);
                } catch (Exception e) {
                    failed = true;
                    registry.counter("taskgov.topology.poll.errors", "source", "static", "cluster", cluster.value()).increment();
                    LOG.warnf("cannot read the static inventory %s of %s, keeping the last good one (%s)", staticFile, cluster, e.getMessage());
                }
            }
            return failed;
        }

        /** The inventory from the last good readings, or empty while a required source has never been read. */
        Optional<Map<String, Node>> assemble() {
            if (kinds.contains(SourceKind.STATIC)) {
                return Optional.ofNullable(lastStatic).map(InventoryAssembler::fromStatic);
            }
            if (kubernetes != null) {
                if (!kubernetes.hasSynced() || (ec2 != null && lastEc2 == null)) return Optional.empty();
                List<Node> kubeNodes = kubernetes.nodes().stream().map(KubernetesNodeMapper::toNode).toList();
                return Optional.of(InventoryAssembler.fromKubernetes(kubeNodes, lastEc2 == null ? Map.of() : lastEc2));
            }
            return Optional.ofNullable(lastEc2).map(e -> InventoryAssembler.fromEc2(e.values(), catalog));
        }

        int writeLabels() {
            if (labeler == null || lastEc2 == null || !config.kubernetes().writeLabels()) return 0;
            int written = 0;
            for (io.fabric8.kubernetes.api.model.Node k8s : kubernetes.nodes()) {
                Optional<String> instanceId = KubernetesNodeMapper.instanceIdOf(k8s.getSpec() == null ? null : k8s.getSpec().getProviderID());
                InstanceTopologyEntry entry = instanceId.map(lastEc2::get).orElse(null);
                if (entry == null || entry.networkNodes().isEmpty()) continue;
                try {
                    if (labeler.apply(k8s, InventoryAssembler.layerLabels(entry.networkNodes()))) {
                        written++;
                    }
                } catch (RuntimeException e) {
                    registry.counter("taskgov.topology.poll.errors", "source", "kubernetes", "cluster", cluster.value()).increment();
                    LOG.warnf("cannot label node %s of %s: %s", k8s.getMetadata().getName(), cluster, e.getMessage());
                }
            }
            return written;
        }

        ClusterDeclared declaration() {
            String source = kinds.stream().map(k -> k.name().toLowerCase(java.util.Locale.ROOT)).sorted()
                    .collect(java.util.stream.Collectors.joining(","));
            return new ClusterDeclared(cluster.orNull(), name, source, ec2Client == null ? null : ec2Region);
        }

        String ec2Region;

        void close() {
            if (kubernetes != null) kubernetes.close();
            if (ec2Client != null) ec2Client.close();
            if (ownClient != null) ownClient.close();
        }
    }

    void onStart(@Observes StartupEvent event) {
        config = serviceConfig.topology();
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "topology-refresher");
            t.setDaemon(true);
            return t;
        });
        backoff = new Backoff(config.backoff().initial(), config.backoff().max());
        catalog = new InstanceTypeCatalog(catalogOverrides());
        ClusterSources first = new ClusterSources(config.clusterArn().map(ClusterArn::of).orElse(ClusterArn.UNNAMED), null,
                config.source(), config.staticFile().path());
        if (first.kinds.contains(SourceKind.EC2)) {
            TopologyConfig.Ec2 c = config.ec2();
            first.ec2Region = c.region();
            first.startEc2(c.region(), c.endpoint(), c.instanceIds().orElse(List.of()), c.placementGroups().orElse(List.of()),
                    c.instanceTypes().orElse(List.of()));
        }
        if (first.kinds.contains(SourceKind.KUBERNETES)) first.startKubernetes(kubernetesClient.get());
        clusters.add(first);
        config.clusters().forEach((name, c) -> {
            ClusterArn arn;
            try {
                arn = ClusterArn.of(c.arn());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("taskgov.topology.clusters." + name + ".arn: " + e.getMessage());
            }
            if (clusters.stream().anyMatch(k -> k.cluster.equals(arn))) {
                throw new IllegalArgumentException("taskgov.topology.clusters." + name + ".arn: cluster " + arn + " is configured twice");
            }
            if (c.source().contains(SourceKind.STATIC) && c.staticFilePath().isEmpty()) {
                throw new IllegalArgumentException("taskgov.topology.clusters." + name + ".static-file-path: is required for source static");
            }
            ClusterSources k = new ClusterSources(arn, name, c.source(), c.staticFilePath().orElse(null));
            if (k.kinds.contains(SourceKind.EC2)) {
                k.ec2Region = c.ec2Region().orElse(config.ec2().region());
                k.startEc2(k.ec2Region, c.ec2Endpoint().or(() -> config.ec2().endpoint()), c.ec2InstanceIds().orElse(List.of()),
                        c.ec2PlacementGroups().orElse(List.of()), c.ec2InstanceTypes().orElse(List.of()));
            }
            if (k.kinds.contains(SourceKind.KUBERNETES)) {
                KubernetesClient client = c.kubernetesContext()
                        .map(ctx -> new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                                .withConfig(io.fabric8.kubernetes.client.Config.autoConfigure(ctx)).build())
                        .orElseGet(() -> kubernetesClient.get());
                if (c.kubernetesContext().isPresent()) k.ownClient = client;
                k.startKubernetes(client);
            }
            clusters.add(k);
        });
        executor.execute(this::tick);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (executor != null) executor.shutdownNow();
        clusters.forEach(ClusterSources::close);
    }

    /** Polls every source now and publishes, on the refresher thread; returns what it did. */
    public Outcome pollNow() {
        try {
            return executor.submit(() -> refresh(true)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("refresh failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void tick() {
        Duration next;
        try {
            Outcome outcome = refresh(true);
            if (outcome.sourcesFailed()) {
                next = backoff.failed();
            } else {
                backoff.succeeded();
                next = config.pollInterval();
            }
        } catch (RuntimeException e) {
            LOG.warnf(e, "topology refresh failed");
            next = backoff.failed();
        }
        if (!executor.isShutdown()) executor.schedule(this::tick, next.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A node changed in Kubernetes: refresh soon, once for a burst of changes, without asking EC2. */
    private void queueKubernetesRefresh() {
        if (executor.isShutdown() || !kubernetesRefreshQueued.compareAndSet(false, true)) return;
        executor.execute(() -> {
            kubernetesRefreshQueued.set(false);
            try {
                refresh(false);
            } catch (RuntimeException e) {
                LOG.warnf(e, "topology refresh after a Kubernetes change failed");
            }
        });
    }

    private Outcome refresh(boolean pollSources) {
        ensureRestored();
        boolean failed = false;
        Map<ClusterArn, ClusterDeclared> declared = new LinkedHashMap<>();
        Map<ClusterArn, Map<String, Node>> inventories = new LinkedHashMap<>();
        int labels = 0;
        for (ClusterSources c : clusters) {
            if (pollSources) failed |= c.read();
            declared.put(c.cluster, c.declaration());
            // a cluster whose sources were never read keeps what was published for it
            c.assemble().ifPresent(inventory -> inventories.put(c.cluster, inventory));
            labels += c.writeLabels();
        }
        if (labels > 0) registry.counter("taskgov.topology.labels.written").increment(labels);
        TopologyPublisher.Published published = publisher.publish(declared, inventories, config.publishTimeout());
        if (!published.isEmpty()) {
            LOG.infof("published %d node records and %d tombstones", published.upserted().size(), published.removed().size());
        }
        Map<ClusterArn, java.util.Collection<Node>> current = new LinkedHashMap<>();
        for (ClusterSources c : clusters) {
            Map<String, Node> inventory = inventories.get(c.cluster);
            current.put(c.cluster, inventory != null ? inventory.values() : publisher.published(c.cluster).values());
        }
        capacityView.inventoryChanged(current);
        int nodes = inventories.values().stream().mapToInt(Map::size).sum();
        return new Outcome(failed, nodes, labels, published);
    }

    private void ensureRestored() {
        if (!restored) {
            publisher.restore(config.publishTimeout());
            restored = true;
        }
    }

    private Map<String, Resources> catalogOverrides() {
        Map<String, Resources> out = new HashMap<>();
        config.instanceTypes().forEach((type, c) -> {
            c.partitions().forEach((profile, count) -> {
                String key = "taskgov.topology.instance-types.\"" + type + "\".partitions.\"" + profile + "\"";
                // EC2 names the type without HyperPod's "ml." prefix; the MIG table knows HyperPod's names.
                String named = type.startsWith("ml.") ? type : "ml." + type;
                AcceleratorPartitions.problem(named, profile).ifPresent(p -> {
                    throw new IllegalArgumentException(key + ": " + p);
                });
                if (count < 0) throw new IllegalArgumentException(key + ": must not be negative, was " + count);
            });
            out.put(type, Resources.ofJsonUnits(c.accelerators().orElse(BigDecimal.ZERO), c.vcpu().orElse(BigDecimal.ZERO),
                    c.memoryGiB().orElse(BigDecimal.ZERO)).withPartitions(c.partitions()));
        });
        return out;
    }
}
