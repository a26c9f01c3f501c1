package dev.taskgov.admission.api;

import dev.taskgov.admission.AdmissionProcessor;
import dev.taskgov.admission.AdmissionRuntime;
import dev.taskgov.admission.api.WorkloadViews.DryRun;
import dev.taskgov.admission.api.WorkloadViews.Problem;
import dev.taskgov.core.events.WorkloadSubmitted;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.Optional;

/**
 * {@code POST /workloads:dry-run}: its own resource class, since a literal ':' right after the
 * {@code workloads} segment is matched as a separate class-level path.
 */
@Path("/workloads:dry-run")
@Produces(MediaType.APPLICATION_JSON)
public class DryRunResource {

    @Inject
    AdmissionRuntime runtime;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Would this workload be admitted now: where, borrowing what, after preempting whom")
    public Response dryRun(WorkloadSubmitted submission) {
        if (submission == null) return Response.status(400).entity(Problem.of("the body must be a WorkloadSubmitted")).build();
        Optional<AdmissionProcessor> p = runtime.reads();
        if (p.isEmpty()) return WorkloadResource.notReady();
        return Response.ok(DryRun.of(p.get().dryRun(submission))).build();
    }
}
