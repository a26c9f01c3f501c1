package dev.taskgov.topology.api;

import dev.taskgov.service.support.auth.SignedRequestResource;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.topology.capacity.CapacityView;
import dev.taskgov.topology.capacity.TopologyTree;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.List;
import java.util.Map;

/**
 * The topology tree of one governed cluster with capacity and free capacity per domain; SigV4-signed requests of an
 * admin or a viewer only.
 */
@Path("/topology")
public class TopologyResource extends SignedRequestResource {

    @Inject
    CapacityView view;

    @Inject
    ApiAccess access;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The network topology tree (layer-1 → layer-2 → layer-3 → nodes) of one cluster (?cluster=ARN, "
            + "optional when the deployment governs one) with capacity and free capacity per domain")
    public Response topology(@QueryParam("cluster") String cluster) {
        // A cluster's nodes and free capacity: cluster-wide data, for admins and viewers (docs/security.md).
        Principal principal = access.guard().authenticate("GET", uri, headers, null, "GetTopology", "topology");
        access.guard().requireReadAll(principal, "GetTopology", "topology");
        // the same rule as a submission's clusterArn (optional only while one cluster is governed), said of a read
        WorkloadCluster.Result where = WorkloadCluster.chooseToRead(cluster == null || cluster.isBlank() ? null : cluster,
                view.clusters().stream().filter(c -> !c.isUnnamed()).toList());
        if (where instanceof WorkloadCluster.Refused r) {
            boolean unknown = r.violation().rule().contains("is not governed");
            return Response.status(unknown ? 404 : 400).entity(Map.of("message", "cluster: " + r.violation().rule(),
                    "errors", List.of(Map.of("field", "cluster", "rule", r.violation().rule())))).build();
        }
        ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
        return view.tree(c)
                .map(t -> Response.ok(t).build())
                .orElseGet(() -> Response.ok(TopologyTree.build(List.of(), Map.of())).build());
    }
}
