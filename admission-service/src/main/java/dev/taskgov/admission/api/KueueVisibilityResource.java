package dev.taskgov.admission.api;

import dev.taskgov.admission.WorkloadReads;
import dev.taskgov.admission.AdmissionRuntime;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.scheduling.WorkloadView;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A team's pending workloads in the shape of Kueue's on-demand visibility API
 * ({@code visibility.kueue.x-k8s.io/v1beta1}), so that scripts written for {@code kubectl get --raw
 * /apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/CQ/pendingworkloads} work against taskgov.
 *
 * <p>HyperPod gives each team one ClusterQueue {@code hyperpod-ns-<team>-clusterqueue} and one LocalQueue
 * {@code hyperpod-ns-<team>-localqueue} in namespace {@code hyperpod-ns-<team>}, so both positions are the
 * same here; as in Kueue they count from 0. The same data, with the reason each workload waits, is
 * {@code GET /teams/{team}/pending}. Kueue answers for the one cluster its API server belongs to; here
 * {@code ?cluster=ARN} names the cluster, and may be left out when the deployment governs one. As
 * {@code GET /teams/{team}/pending}, a team key reads only its own team's queues; an admin or a viewer reads all.
 */
@Path("/apis/visibility.kueue.x-k8s.io/v1beta1")
@Produces(MediaType.APPLICATION_JSON)
public class KueueVisibilityResource extends AdmissionApiResource {

    static final String API_VERSION = "visibility.kueue.x-k8s.io/v1beta1";
    private static final Pattern CLUSTER_QUEUE = Pattern.compile("hyperpod-ns-(.+)-clusterqueue");
    private static final Pattern NAMESPACE = Pattern.compile("hyperpod-ns-(.+)");

    @GET
    @Path("clusterqueues/{clusterQueue}/pendingworkloads")
    @Operation(summary = "Kueue visibility API: a team's pending workloads by its ClusterQueue (hyperpod-ns-TEAM-clusterqueue, or TEAM)")
    public Response byClusterQueue(@PathParam("clusterQueue") String clusterQueue,
                                   @QueryParam("cluster") String cluster,
                                   @QueryParam("limit") @DefaultValue("1000") long limit,
                                   @QueryParam("offset") @DefaultValue("0") long offset) {
        Matcher m = CLUSTER_QUEUE.matcher(clusterQueue);
        String team = m.matches() ? m.group(1) : clusterQueue;
        requireRead(team, "clusterqueue " + clusterQueue);
        return summary(cluster, team, "clusterqueues.visibility.kueue.x-k8s.io \"" + clusterQueue + "\" not found", limit, offset);
    }

    @GET
    @Path("namespaces/{namespace}/localqueues/{localQueue}/pendingworkloads")
    @Operation(summary = "Kueue visibility API: a team's pending workloads by its LocalQueue (hyperpod-ns-TEAM-localqueue in hyperpod-ns-TEAM)")
    public Response byLocalQueue(@PathParam("namespace") String namespace, @PathParam("localQueue") String localQueue,
                                 @QueryParam("cluster") String cluster,
                                 @QueryParam("limit") @DefaultValue("1000") long limit,
                                 @QueryParam("offset") @DefaultValue("0") long offset) {
        Matcher m = NAMESPACE.matcher(namespace);
        // The namespace names the team (hyperpod-ns-<team>), as it does for the job watcher.
        requireRead(m.matches() ? m.group(1) : namespace, "localqueue " + namespace + "/" + localQueue);
        String notFound = "localqueues.visibility.kueue.x-k8s.io \"" + localQueue + "\" not found in namespace \"" + namespace + "\"";
        if (!m.matches() || !localQueue.equals(localQueueOf(m.group(1)))) return status(404, "NotFound", notFound);
        return summary(cluster, m.group(1), notFound, limit, offset);
    }

    /** The signed caller, refused unless it may read this team's queue. */
    private void requireRead(String team, String target) {
        Principal principal = access.guard().authenticate("GET", uri, headers, null, "ListPendingWorkloads", target);
        access.guard().requireRead(principal, team, "ListPendingWorkloads", target);
    }

    private Response summary(String cluster, String team, String notFound, long limit, long offset) {
        if (limit < 0 || offset < 0) {
            return status(400, "BadRequest", "limit and offset must be 0 or more (limit " + limit + ", offset " + offset + ")");
        }
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return WorkloadResource.notReady();
        WorkloadCluster.Result where = WorkloadCluster.chooseToRead(cluster == null || cluster.isBlank() ? null : cluster, p.get().governed());
        if (where instanceof WorkloadCluster.Refused r) return WorkloadResource.clusterRefused(r, "cluster");
        ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
        if (p.get().quotas(c).stream().map(TeamQuota::team).noneMatch(team::equals)) return status(404, "NotFound", notFound);
        List<WorkloadView> queue = p.get().queue(c, team);
        List<PendingWorkload> items = new ArrayList<>();
        for (long i = offset; i < queue.size() && items.size() < limit; i++) {
            WorkloadView v = queue.get((int) i);
            items.add(new PendingWorkload(new ObjectMeta(v.workloadId(), "hyperpod-ns-" + team, v.submittedAt()),
                    v.priority(), localQueueOf(team), i, i));
        }
        return Response.ok(new PendingWorkloadsSummary("PendingWorkloadsSummary", API_VERSION, Map.of(), items)).build();
    }

    static String localQueueOf(String team) {
        return "hyperpod-ns-" + team + "-localqueue";
    }

    /** A Kubernetes {@code Status}, as the API server answers a failed request. */
    private static Response status(int code, String reason, String message) {
        return Response.status(code).entity(new Status("Status", "v1", Map.of(), "Failure", message, reason, code)).build();
    }

    public record PendingWorkloadsSummary(String kind, String apiVersion, Map<String, Object> metadata,
                                          List<PendingWorkload> items) {
    }

    public record PendingWorkload(ObjectMeta metadata, int priority, String localQueueName, long positionInClusterQueue,
                                  long positionInLocalQueue) {
    }

    public record ObjectMeta(String name, String namespace, Instant creationTimestamp) {
    }

    public record Status(String kind, String apiVersion, Map<String, Object> metadata, String status, String message,
                         String reason, int code) {
    }
}
