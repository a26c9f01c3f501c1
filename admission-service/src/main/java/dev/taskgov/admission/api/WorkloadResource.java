package dev.taskgov.admission.api;

import dev.taskgov.service.support.auth.HttpRequests;
import dev.taskgov.admission.ClusterSummary;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.admission.WorkloadReads;
import dev.taskgov.admission.AdmissionRuntime;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.admission.api.WorkloadViews.Accepted;
import dev.taskgov.admission.api.WorkloadViews.Clusters;
import dev.taskgov.admission.api.WorkloadViews.Described;
import dev.taskgov.admission.api.WorkloadViews.Estimate;
import dev.taskgov.admission.api.WorkloadViews.FieldError;
import dev.taskgov.admission.api.WorkloadViews.Problem;
import dev.taskgov.admission.api.WorkloadViews.Queue;
import dev.taskgov.admission.api.WorkloadViews.QueueEntry;
import dev.taskgov.admission.api.WorkloadViews.Team;
import dev.taskgov.admission.api.WorkloadViews.Teams;
import dev.taskgov.core.estimate.StartEstimate;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.model.WorkloadIdTaken;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.WorkloadView;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * admission-service over HTTP. Reads come from the decider's in-memory state on the decider, and from the
 * read replica ({@link dev.taskgov.admission.AdmissionReplica}) on every other instance. Only an instance whose
 * replica has not caught up yet answers 503, and its readiness check says DOWN meanwhile. Every request must be
 * SigV4-signed by an active key, and a team key reads and submits only for its own team ({@link ApiAccess}).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class WorkloadResource extends AdmissionApiResource {

    private static final String NOT_READY = "this admission-service instance has not read admission's state yet "
            + "(starting, or its broker is unreachable); retry shortly or on another instance";

    @GET
    @Path("workloads/{id}")
    @Operation(summary = "A workload's state, reason, placement, borrowing and history")
    public Response describe(@PathParam("id") String id) {
        Principal principal = access.guard().authenticate("GET", uri, headers, null, "DescribeWorkload", id);
        Optional<Violation> badId = WorkloadIds.check("id", id);
        if (badId.isPresent()) return badRequest("the workload id breaks the id rule", List.of(badId.get()));
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return notReady();
        Optional<WorkloadRecord> found = p.get().workload(id);
        if (found.isPresent() && !principal.mayRead(found.get().team())) {
            // Another team's id answers exactly as an id nobody submitted: neither its existence nor its owner shows.
            // The audit, which only administrators read, says what happened.
            access.guard().record(principal.name(), "DescribeWorkload", "workload " + id, AuditEvent.refused("ResourceNotFound",
                    "the workload belongs to team '" + found.get().team() + "', which this key does not read; answered as unknown"), null);
            found = Optional.empty();
        }
        Redactions redact = Redactions.of(principal, p.get());
        return found
                .map(r -> Response.ok(redact.described(Described.of(r,
                        Estimate.of(p.get().startEstimate(r).orElse(null), Instant.now())))).build())
                .orElseGet(() -> Response.status(404).entity(Problem.of(unknownWorkload(id))).build());
    }

    /** The answer for an unknown id, and for another team's id to a team key: the same words. */
    static String unknownWorkload(String id) {
        return "no workload with id '" + id + "'";
    }

    @GET
    @Path("workloads")
    @Operation(summary = "Workloads, optionally of one team and in one state")
    public Response list(@QueryParam("cluster") String cluster, @QueryParam("team") String team, @QueryParam("state") String state) {
        String t = team == null || team.isBlank() ? null : team;
        Principal principal = access.guard().authenticate("GET", uri, headers, null, "ListWorkloads", t);
        if (t != null) {
            access.guard().requireRead(principal, t, "ListWorkloads", "team " + t);
        }
        ClusterArn c = null;
        if (cluster != null && !cluster.isBlank()) {
            Optional<String> bad = ClusterArn.problem(cluster);
            if (bad.isPresent()) return badRequest("the cluster breaks the ClusterArn rule", List.of(new Violation("cluster", bad.get())));
            c = ClusterArn.of(cluster);
        }
        WorkloadState s = null;
        if (state != null && !state.isBlank()) {
            try {
                s = WorkloadState.valueOf(state);
            } catch (IllegalArgumentException e) {
                return Response.status(400).entity(new Problem("state must be one of " + Arrays.toString(WorkloadState.values()),
                        List.of(new FieldError("state", "unknown state '" + state + "'")))).build();
            }
        }
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return notReady();
        // Without ?team=, a team key sees its own teams' workloads only; an admin or a viewer sees all.
        Redactions redact = Redactions.of(principal, p.get());
        return Response.ok(p.get().workloads(c, t, s).stream().filter(r -> principal.mayRead(r.team()))
                .map(r -> redact.described(Described.of(r))).toList()).build();
    }

    @GET
    @Path("teams/{team}/pending")
    @Operation(summary = "A team's pending workloads in queue order, with positions and why each waits")
    public Response pending(@PathParam("team") String team, @QueryParam("cluster") String cluster) {
        Principal principal = access.guard().authenticate("GET", uri, headers, null, "ListPendingWorkloads", "team " + team);
        access.guard().requireRead(principal, team, "ListPendingWorkloads", "team " + team);
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return notReady();
        // A team name means a team of one cluster: the same rule as a submission's clusterArn.
        WorkloadCluster.Result where = WorkloadCluster.chooseToRead(cluster == null || cluster.isBlank() ? null : cluster, p.get().governed());
        if (where instanceof WorkloadCluster.Refused r) return clusterRefused(r, "cluster");
        ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
        List<WorkloadView> queue = p.get().queue(c, team);
        List<QueueEntry> entries = new ArrayList<>();
        Redactions redact = Redactions.of(principal, p.get());
        Map<String, StartEstimate> estimates = p.get().startEstimates(c, queue.stream().map(WorkloadView::workloadId).toList());
        Instant now = Instant.now();
        for (int i = 0; i < queue.size(); i++) {
            WorkloadView v = queue.get(i);
            entries.add(redact.queueEntry(QueueEntry.of(i + 1, v, Estimate.of(estimates.get(v.workloadId()), now))));
        }
        return Response.ok(new Queue(team, c.orNull(), entries.size(), entries)).build();
    }

    @GET
    @Path("teams")
    @Operation(summary = "One cluster's teams: nominal quota, used, borrowed and lent per instance type, and pending workloads")
    public Response teams(@QueryParam("cluster") String cluster) {
        // Every valid key may ask; a team key is shown its own team only (as ListComputeQuotas shows it its own quota).
        Principal principal = access.guard().authenticate("GET", uri, headers, null, "ListTeams", "teams");
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return notReady();
        // The same rule as a submission's clusterArn: may be left out while the deployment governs one cluster.
        WorkloadCluster.Result where = WorkloadCluster.chooseToRead(cluster == null || cluster.isBlank() ? null : cluster, p.get().governed());
        if (where instanceof WorkloadCluster.Refused r) return clusterRefused(r, "cluster");
        ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
        Teams all = Teams.of(c, p.get().teams(c));
        List<Team> shown = all.teams().stream().filter(t -> principal.mayRead(t.team())).toList();
        return Response.ok(new Teams(all.clusterArn(), shown.size(), shown)).build();
    }

    @GET
    @Path("clusters")
    @Operation(summary = "The clusters this deployment governs, each with nodes, capacity, quotas, use and workloads")
    public Response clusters() {
        // Cluster-wide totals and team names, no team's workloads: every principal with a valid key reads them.
        access.guard().authenticate("GET", uri, headers, null, "ListClusters", "clusters");
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return notReady();
        List<ClusterSummary> out = p.get().governed().stream().map(c -> p.get().summary(c)).flatMap(Optional::stream).toList();
        return Response.ok(new Clusters(out.size(), out)).build();
    }

    /**
     * A cluster that cannot be chosen: not governed is 404 naming it (as SageMaker's ResourceNotFound for an
     * unknown cluster), a malformed or missing one 400 naming the field.
     */
    static Response clusterRefused(WorkloadCluster.Refused r, String field) {
        // a read's refusal already names its cluster parameter and says what to read (WorkloadCluster.chooseToRead)
        Violation v = new Violation(field, r.violation().rule());
        int status = v.rule().contains("is not governed") ? 404 : 400;
        return Response.status(status).entity(new Problem(v.toString(), List.of(new FieldError(v.field(), v.rule())))).build();
    }

    @POST
    @Path("workloads")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit a workload: validated, then published to the submissions topic (202)")
    @RequestBody(content = @Content(schema = @Schema(implementation = WorkloadSubmitted.class)))
    public Response submit(byte[] raw) throws Exception {
        Principal principal = access.guard().authenticate("POST", uri, headers, raw, "SubmitWorkload", null);
        String body = HttpRequests.text(raw);
        WorkloadSubmitted submission;
        try {
            submission = read(body);
        } catch (EventCodec.EventFormatException e) {
            access.guard().record(principal.name(), "SubmitWorkload", null, "Failed: unreadable body: " + e.getMessage(), null);
            return unreadable(e);
        }
        String target = "workload " + submission.workloadId();
        access.guard().requireSubmit(principal, submission.team(), "SubmitWorkload", target);
        List<Violation> violations = new ArrayList<>(WorkloadValidation.checkFields(submission));
        Optional<WorkloadReads> p = runtime.reads();
        if (violations.isEmpty() && p.isPresent()
                && p.get().validate(submission) instanceof WorkloadValidation.Invalid invalid) {
            violations.addAll(invalid.violations());
        }
        if (!violations.isEmpty()) {
            access.guard().record(principal.name(), "SubmitWorkload", target, "Failed: " + violations, null);
            return badRequest("the workload breaks " + violations.size() + " rule(s)", violations);
        }
        Optional<WorkloadRecord> known = p.flatMap(r -> r.workload(submission.workloadId()));
        if (known.isPresent() && !known.get().team().equals(submission.team())) {
            // Refused here already so the client hears why; the decider refuses it too (a dead letter) if two teams race.
            WorkloadIdTaken taken = new WorkloadIdTaken(submission.workloadId(), submission.team());
            access.guard().record(principal.name(), "SubmitWorkload", target, "Failed: " + taken.message(), null);
            return Response.status(409).entity(new Problem(WorkloadIdTaken.REASON + ": the workload id is another team's",
                    List.of(new FieldError(taken.violation().field(), taken.violation().rule())))).build();
        }
        runtime.publishSubmission(submission);
        access.guard().record(principal.name(), "SubmitWorkload", target, AuditEvent.ALLOWED,
                EventCodec.mapper().valueToTree(submission));
        return Response.accepted(new Accepted(submission.workloadId(),
                "published; GET /workloads/" + submission.workloadId() + " shows its state")).build();
    }

    /**
     * Ends a workload (what the job watcher reports when a job ends): the workload's own team (or an admin) may; to
     * any other key the workload reads as absent (404, as an id that does not exist), and the refusal is audited.
     * The finish is published on the finished topic by this service, so a team finishes its work with its own key
     * and no team writes that topic, whose records name any team's workload.
     */
    @POST
    @Path("workloads/{id}/finish")
    @Operation(summary = "End a workload (outcome Succeeded, Failed or Cancelled), freeing its quota and nodes")
    public Response finish(@PathParam("id") String id, @QueryParam("outcome") String outcome, byte[] raw) throws Exception {
        String target = "workload " + id;
        Principal principal = access.guard().authenticate("POST", uri, headers, raw, "FinishWorkload", target);
        Optional<Violation> badId = WorkloadIds.check("id", id);
        if (badId.isPresent()) return badRequest("the workload id breaks the id rule", List.of(badId.get()));
        dev.taskgov.core.events.WorkloadFinished.Outcome how;
        try {
            how = dev.taskgov.core.events.WorkloadFinished.Outcome.valueOf(outcome == null || outcome.isBlank() ? "Succeeded" : outcome);
        } catch (IllegalArgumentException e) {
            return badRequest("the outcome is not one of " + Arrays.toString(dev.taskgov.core.events.WorkloadFinished.Outcome.values()),
                    List.of(new Violation("outcome", "must be one of " + Arrays.toString(dev.taskgov.core.events.WorkloadFinished.Outcome.values())
                            + ", was '" + outcome + "'")));
        }
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return notReady();
        Optional<WorkloadRecord> found = p.get().workload(id);
        if (found.isEmpty() || !principal.mayRead(found.get().team())) {
            if (found.isPresent()) {
                access.guard().record(principal.name(), "FinishWorkload", target, AuditEvent.refused(
                        dev.taskgov.service.support.auth.AuthFailure.ACCESS_DENIED, "another team's workload: answered as not found"), null);
            }
            return Response.status(404).entity(Problem.of("no workload with id '" + id + "'"
                    + (principal.mayReadAll() ? "" : " of team(s) " + new java.util.TreeSet<>(principal.teams())))).build();
        }
        WorkloadRecord r = found.get();
        if (!principal.maySubmitFor(r.team())) {
            throw access.guard().deny(principal, "FinishWorkload", target, "only team '" + r.team() + "' (or an admin) finishes team '"
                    + r.team() + "''s workloads");
        }
        runtime.publishFinish(new dev.taskgov.core.events.WorkloadFinished(id, java.time.Instant.now(), how, r.cluster().orNull()));
        access.guard().record(principal.name(), "FinishWorkload", target, AuditEvent.ALLOWED, null);
        return Response.accepted(new Accepted(id, "finish published (" + how + "); GET /workloads/" + id + " shows its state")).build();
    }

    /**
     * Gang admission (docs/semantics.md, "Gang admission"): every pod of an admitted workload is ready, what the job
     * watcher reports from pod status and a pipeline that runs the workload itself reports here. The same rights as a
     * finish: the workload's own team (or an admin); to any other key the workload reads as absent (404). Published on
     * the readiness topic by this service; the decider counts it for the workload's current admission only.
     */
    @POST
    @Path("workloads/{id}/pods-ready")
    @Operation(summary = "Report every pod of an admitted workload ready (gang admission: its readiness timeout no longer applies)")
    public Response podsReady(@PathParam("id") String id, byte[] raw) throws Exception {
        String target = "workload " + id;
        String operation = "ReportPodsReady";
        Principal principal = access.guard().authenticate("POST", uri, headers, raw, operation, target);
        Optional<Violation> badId = WorkloadIds.check("id", id);
        if (badId.isPresent()) return badRequest("the workload id breaks the id rule", List.of(badId.get()));
        Optional<WorkloadReads> p = runtime.reads();
        if (p.isEmpty()) return notReady();
        Optional<WorkloadRecord> found = p.get().workload(id);
        if (found.isEmpty() || !principal.mayRead(found.get().team())) {
            if (found.isPresent()) {
                access.guard().record(principal.name(), operation, target, AuditEvent.refused(
                        dev.taskgov.service.support.auth.AuthFailure.ACCESS_DENIED, "another team's workload: answered as not found"), null);
            }
            return Response.status(404).entity(Problem.of("no workload with id '" + id + "'"
                    + (principal.mayReadAll() ? "" : " of team(s) " + new java.util.TreeSet<>(principal.teams())))).build();
        }
        WorkloadRecord r = found.get();
        if (!principal.maySubmitFor(r.team())) {
            throw access.guard().deny(principal, operation, target, "only team '" + r.team() + "' (or an admin) reports team '"
                    + r.team() + "''s workloads ready");
        }
        if (r.state() != dev.taskgov.core.model.WorkloadState.Admitted) {
            Violation v = new Violation("id", "readiness counts only for an admitted workload; '" + id + "' is " + r.state()
                    + (r.reason() == null ? "" : " (" + r.reason() + ")"));
            access.guard().record(principal.name(), operation, target, "Failed: " + v, null);
            return Response.status(409).entity(new Problem("the workload is not running", List.of(new FieldError(v.field(), v.rule()))))
                    .build();
        }
        runtime.publishPodsReady(new dev.taskgov.core.events.WorkloadPodsReady(id, java.time.Instant.now(), r.cluster().orNull()));
        access.guard().record(principal.name(), operation, target, AuditEvent.ALLOWED, null);
        return Response.accepted(new Accepted(id, "readiness published; GET /workloads/" + id + " shows it")).build();
    }

    /**
     * A request body read by the one codec, as strictly as a Kafka record.
     *
     * @throws EventCodec.EventFormatException naming the field that does not parse (or an empty body)
     */
    static WorkloadSubmitted read(String body) {
        if (body == null || body.isBlank()) throw new EventCodec.EventFormatException("$", "the body must be a WorkloadSubmitted");
        WorkloadSubmitted s = EventCodec.read(body, WorkloadSubmitted.class);
        if (s == null) throw new EventCodec.EventFormatException("$", "the body must be a WorkloadSubmitted, not null");
        return s;
    }

    static Response unreadable(EventCodec.EventFormatException e) {
        return badRequest("the body is not a readable WorkloadSubmitted", List.of(new Violation(e.path(), e.problem())));
    }

    static Response badRequest(String message, List<Violation> violations) {
        return Response.status(400).entity(new Problem(message,
                violations.stream().map(v -> new FieldError(v.field(), v.rule())).toList())).build();
    }

    static Response notReady() {
        return Response.status(503).entity(Problem.of(NOT_READY)).build();
    }
}
