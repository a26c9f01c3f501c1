package dev.taskgov.topology.inventory;

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
    private Ec2Client ec2Client;
    private Ec2TopologySource ec2;
    private KubernetesNodeSource kubernetes;
    private NodeLabeler labeler;
    private boolean restored;

    // Last good readings, kept across failed polls.
    private Map<String, InstanceTopologyEntry> lastEc2;
    private List<Node> lastStatic;

    void onStart(@Observes StartupEvent event) {
        config = serviceConfig.topology();
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "topology-refresher");
            t.setDaemon(true);
            return t;
        });
        backoff = new Backoff(config.backoff().initial(), config.backoff().max());
        catalog = new InstanceTypeCatalog(catalogOverrides());
        if (config.source().contains(SourceKind.STATIC) && config.source().size() > 1) {
            throw new IllegalArgumentException("taskgov.topology.source: static cannot be combined with ec2 or kubernetes, was " + config.source());
        }
        if (config.source().contains(SourceKind.EC2)) {
            TopologyConfig.Ec2 c = config.ec2();
            ec2Client = Ec2Clients.create(c.region(), c.endpoint(), c.accessKeyId(), c.secretAccessKey(), c.maxAttempts(),
                    c.retryBaseDelay(), c.retryMaxDelay(), c.callTimeout());
            ec2 = new Ec2TopologySource(ec2Client, new Ec2TopologyFilter(c.instanceIds().orElse(List.of()),
                    c.placementGroups().orElse(List.of()), c.instanceTypes().orElse(List.of()), c.pageSize().orElse(null)));
        }
        if (config.source().contains(SourceKind.KUBERNETES)) {
            KubernetesClient client = kubernetesClient.get();
            labeler = new NodeLabeler(client);
            kubernetes = new KubernetesNodeSource(client, config.kubernetes().resync(), this::queueKubernetesRefresh);
            kubernetes.start();
        }
        executor.execute(this::tick);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (executor != null) executor.shutdownNow();
        if (kubernetes != null) kubernetes.close();
        if (ec2Client != null) ec2Client.close();
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
        boolean failed = pollSources && readPolledSources();
        Optional<Map<String, Node>> inventory = assemble();
        if (inventory.isEmpty()) {
            return new Outcome(failed, 0, 0, new TopologyPublisher.Published(java.util.Set.of(), java.util.Set.of()));
        }
        int labels = writeLabels();
        TopologyPublisher.Published published = publisher.publish(inventory.get(), config.publishTimeout());
        if (!published.isEmpty()) {
            LOG.infof("published %d node records and %d tombstones", published.upserted().size(), published.removed().size());
        }
        capacityView.inventoryChanged(inventory.get().values());
        return new Outcome(failed, inventory.get().size(), labels, published);
    }

    private void ensureRestored() {
        if (!restored) {
            publisher.restore(config.publishTimeout());
            restored = true;
        }
    }

    /** Reads EC2 and the static file; returns true when one failed (its last good reading stays). */
    private boolean readPolledSources() {
        boolean failed = false;
        if (ec2 != null) {
            try {
                lastEc2 = ec2.describe();
            } catch (Ec2PollException e) {
                failed = true;
                registry.counter("taskgov.topology.poll.errors", "source", "ec2").increment();
                LOG.warnf("EC2 poll failed, keeping the last good topology (%s)", e.getMessage());
            }
        }
        if (config.source().contains(SourceKind.STATIC)) {
            try {
                lastStatic = StaticInventoryFile.load(config.staticFile().path());
            } catch (Exception e) {
                failed = true;
                registry.counter("taskgov.topology.poll.errors", "source", "static").increment();
                LOG.warnf("cannot read the static inventory %s, keeping the last good one (%s)", config.staticFile().path(), e.getMessage());
            }
        }
        return failed;
    }

    /** The inventory from the last good readings, or empty while a required source has never been read. */
    private Optional<Map<String, Node>> assemble() {
        if (config.source().contains(SourceKind.STATIC)) {
            return Optional.ofNullable(lastStatic).map(InventoryAssembler::fromStatic);
        }
        if (kubernetes != null) {
            if (!kubernetes.hasSynced() || (ec2 != null && lastEc2 == null)) return Optional.empty();
            List<Node> kubeNodes = kubernetes.nodes().stream().map(KubernetesNodeMapper::toNode).toList();
            return Optional.of(InventoryAssembler.fromKubernetes(kubeNodes, lastEc2 == null ? Map.of() : lastEc2));
        }
        return Optional.ofNullable(lastEc2).map(e -> InventoryAssembler.fromEc2(e.values(), catalog));
    }

    private int writeLabels() {
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
                registry.counter("taskgov.topology.poll.errors", "source", "kubernetes").increment();
                LOG.warnf("cannot label node %s: %s", k8s.getMetadata().getName(), e.getMessage());
            }
        }
        if (written > 0) registry.counter("taskgov.topology.labels.written").increment(written);
        return written;
    }

    private Map<String, Resources> catalogOverrides() {
        Map<String, Resources> out = new HashMap<>();
        config.instanceTypes().forEach((type, c) -> out.put(type, Resources.ofJsonUnits(
                c.accelerators().orElse(BigDecimal.ZERO), c.vcpu().orElse(BigDecimal.ZERO), c.memoryGiB().orElse(BigDecimal.ZERO))));
        return out;
    }
}
