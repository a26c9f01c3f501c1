package dev.taskgov.watcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;

/** Two watcher replicas on one Lease (fabric8's mock API server in CRUD mode): one leads, the other takes over when it stops. */
@EnableKubernetesMockClient(crud = true)
class LeadershipTest {
    static KubernetesClient client;
    static KubernetesMockServer server;

    static final Leadership.Timing FAST = new Leadership.Timing(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(300));

    record Replica(Leadership leadership, AtomicInteger leads, AtomicInteger losses) {
        static Replica named(String identity) {
            AtomicInteger leads = new AtomicInteger();
            AtomicInteger losses = new AtomicInteger();
            return new Replica(new Leadership(client, "taskgov-system", "taskgov-job-watcher", identity, FAST,
                    leads::incrementAndGet, losses::incrementAndGet), leads, losses);
        }
    }

    @Test
    void oneReplicaLeadsAndTheOtherTakesOverWhenItStops() {
        Replica a = Replica.named("watcher-a");
        Replica b = Replica.named("watcher-b");
        a.leadership().start();
        await().atMost(Duration.ofSeconds(30)).until(() -> a.leadership().leading());
        b.leadership().start();

        // b stays a standby while a renews (longer than a lease duration).
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> !b.leadership().leading());
        assertThat(holder()).isEqualTo("watcher-a");
        assertThat(b.leads()).hasValue(0);

        a.leadership().stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> b.leadership().leading());
        assertThat(a.leadership().leading()).isFalse();
        assertThat(a.leads()).hasValue(1);
        assertThat(a.losses()).hasValue(1);
        // b's elector thread marks it leading, then starts its watcher: the count may follow just after.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(b.leads()).hasValue(1));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(holder()).isEqualTo("watcher-b"));

        b.leadership().stop();
        // The elector reports the loss from its own thread, which may run just after stop() returns.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(b.losses()).hasValue(1));

        // The Role in deploy/k8s grants leases create and get/patch only: those are all the lock uses.
        java.util.Set<String> methods = new java.util.TreeSet<>();
        for (int i = server.getRequestCount(); i > 0; i--) {
            RecordedRequest r = takeRequest();
            if (r != null && r.getPath().contains("/leases")) methods.add(r.getMethod());
        }
        assertThat(methods).containsExactlyInAnyOrder("GET", "POST", "PATCH");
    }

    private static RecordedRequest takeRequest() {
        try {
            return server.takeRequest(1, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String holder() {
        Lease lease = client.resources(Lease.class).inNamespace("taskgov-system").withName("taskgov-job-watcher").get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }
}
