package dev.taskgov.topology.kubernetes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * Watches the cluster's Nodes with a shared informer and reports every change, so that a node
 * turning NotReady, being cordoned or leaving is published without waiting for the next poll.
 */
public final class KubernetesNodeSource implements AutoCloseable {

    private final KubernetesClient client;
    private final Duration resync;
    private final Runnable onChange;
    private volatile SharedIndexInformer<Node> informer;

    public KubernetesNodeSource(KubernetesClient client, Duration resync, Runnable onChange) {
        this.client = client;
        this.resync = resync;
        this.onChange = onChange;
    }

    /** Starts the informer without waiting for its first list (the API server may come later). */
    public void start() {
        informer = client.nodes().runnableInformer(resync.toMillis());
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                onChange.run();
            }

            @Override
            public void onUpdate(Node oldNode, Node newNode) {
                onChange.run();
            }

            @Override
            public void onDelete(Node node, boolean deletedFinalStateUnknown) {
                onChange.run();
            }
        });
        informer.start();
    }

    /** True once the informer has listed the nodes at least once; before that nothing is known. */
    public boolean hasSynced() {
        return informer != null && informer.hasSynced();
    }

    /** The nodes as last seen, by name. */
    public List<Node> nodes() {
        return informer.getStore().list().stream()
                .sorted(Comparator.comparing(n -> n.getMetadata().getName()))
                .toList();
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
    }
}
