package dev.taskgov.watcher;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Writes core/v1 Events on a job, so {@code kubectl describe job} lists every decision with its reason. */
public final class JobEvents {
    private static final Logger LOG = Logger.getLogger(JobEvents.class);
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";

    private final KubernetesClient client;
    private final String component;
    private final Clock clock;
    private final AtomicLong sequence = new AtomicLong();

    public JobEvents(KubernetesClient client, String component, Clock clock) {
        this.client = client;
        this.component = component;
        this.clock = clock;
    }

    public void record(JobKind kind, GenericKubernetesResource job, String type, String reason, String message) {
        String now = clock.instant().toString();
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName() + "." + Long.toHexString(clock.millis()) + Long.toHexString(sequence.incrementAndGet());
        try {
            client.v1().events().inNamespace(ns).resource(new EventBuilder()
                    .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                    .withNewInvolvedObject().withKind(kind.kind()).withApiVersion(kind.apiVersion()).withNamespace(ns)
                    .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid()).endInvolvedObject()
                    .withType(type).withReason(reason).withMessage(message)
                    .withNewSource().withComponent(component).endSource()
                    .withReportingComponent(component)
                    .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .build()).create();
        } catch (KubernetesClientException e) {
            // An Event is an explanation, not state: losing one must not stop the decision it explains.
            LOG.warnf("cannot record event %s on %s/%s: %s", reason, ns, job.getMetadata().getName(), e.getMessage());
        }
    }
}
