package dev.taskgov.admission.api;

import dev.taskgov.service.support.auth.HttpRequests;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.admission.WorkloadReads;
import dev.taskgov.admission.AdmissionRuntime;
import dev.taskgov.admission.api.WorkloadViews.DryRun;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.auth.Principal;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

import java.util.List;
import java.util.Optional;

/**
 * {@code POST /workloads:dry-run}: its own resource class, since a literal ':' right after the
 * {@code workloads} segment is matched as a separate class-level path.
 */
@Path("/workloads:dry-run")
@Produces(MediaType.APPLICATION_JSON)
public class DryRunResource extends AdmissionApiResource {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Would this workload be admitted now: where, borrowing what, after preempting whom")
    @RequestBody(content = @Content(schema = @Schema(implementation = WorkloadSubmitted.class)))
    public Response dryRun(byte[] raw) {
        Principal principal = access.guard().authenticate("POST", uri, headers, raw, "DryRunWorkload", null);
        String body = HttpRequests.text(raw);
        WorkloadSubmitted submission;
        try {
            submission = WorkloadResource.read(body);
        } catch (EventCodec.EventFormatException e) {
            return WorkloadResource.unreadable(e);
        }
        access.guard().requireSubmit(principal, submission.team(), "DryRunWorkload", "workload " + submission.workloadId());
        Optional<Violation> badId = WorkloadIds.check("workloadId", submission.workloadId());
        if (badId.isPresent()) return WorkloadResource.badRequest("the workload id breaks the id rule", List.of(badId.get()));
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return WorkloadResource.notReady();
        WorkloadCluster.Result where = p.get().clusterOf(submission);
        if (where instanceof WorkloadCluster.Refused r) return WorkloadResource.clusterRefused(r, "clusterArn");
        return Response.ok(Redactions.of(principal, p.get())
                .dryRun(DryRun.of(((WorkloadCluster.Chosen) where).cluster(), p.get().dryRun(submission)))).build();
    }
}
