package dev.taskgov.topology.api;

import dev.taskgov.topology.capacity.CapacityView;
import dev.taskgov.topology.capacity.TopologyTree;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** The topology tree with capacity and free capacity per domain. */
@Path("/topology")
public class TopologyResource {

    @Inject
    CapacityView view;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The network topology tree (layer-1 → layer-2 → layer-3 → nodes) with capacity and free capacity per domain")
    public TopologyTree topology() {
        return view.tree();
    }
}
