package dev.taskgov.topology.api;

import dev.taskgov.topology.capacity.CapacityView;
import dev.taskgov.topology.capacity.TopologyTree;
import dev.taskgov.core.auth.Principal;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** The topology tree with capacity and free capacity per domain; SigV4-signed requests of an admin or a viewer only. */
@Path("/topology")
public class TopologyResource {

    @Inject
    CapacityView view;

    @Inject
    ApiAccess access;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders headers;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The network topology tree (layer-1 → layer-2 → layer-3 → nodes) with capacity and free capacity per domain")
    public TopologyTree topology() {
        // The whole cluster's nodes and free capacity: cluster-wide data, for admins and viewers (docs/security.md).
        Principal principal = access.guard().authenticate("GET", uri, headers, null, "GetTopology", "topology");
        access.guard().requireReadAll(principal, "GetTopology", "topology");
        return view.tree();
    }
}
