package dev.taskgov.quota.auth;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.service.support.auth.AccessGuard;
import dev.taskgov.service.support.auth.AuthFailure;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** {@code GET /audit[?since=&principal=]}: the audit trail of every service, oldest first; admins and viewers. */
@Path("/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** The most records one answer holds (the newest ones, when there are more). */
    static final int LIMIT = 5000;

    @Inject
    AccessGuard guard;

    @Context
    HttpHeaders headers;

    @Context
    UriInfo uri;

    @GET
    @Transactional
    public Response list(@QueryParam("since") String since, @QueryParam("principal") String principal) {
        Principal caller = guard.authenticate("GET", uri, headers, null, "ListAuditEvents", "audit trail");
        guard.requireReadAll(caller, "ListAuditEvents", "audit trail");
        List<String> where = new ArrayList<>();
        Parameters params = new Parameters();
        if (since != null && !since.isBlank()) {
            try {
                params.and("since", Instant.parse(since));
            } catch (DateTimeParseException e) {
                return AccessGuard.response(new AuthFailure("ValidationException", 400,
                        "since: must be an ISO-8601 instant such as 2026-12-01T10:00:00Z, was '" + since + "'"));
            }
            where.add("at >= :since");
        }
        if (principal != null && !principal.isBlank()) {
            where.add("principal = :principal");
            params.and("principal", principal);
        }
        List<AuditEventEntity> newest = (where.isEmpty()
                ? AuditEventEntity.<AuditEventEntity>findAll(Sort.descending("at", "eventId"))
                : AuditEventEntity.<AuditEventEntity>find(String.join(" and ", where), Sort.descending("at", "eventId"), params))
                .page(0, LIMIT).list();
        ObjectNode out = AwsJson.object();
        ArrayNode events = out.putArray("events");
        for (int i = newest.size() - 1; i >= 0; i--) {
            AuditEventEntity e = newest.get(i);
            ObjectNode n = events.addObject();
            n.put("eventId", e.eventId);
            n.put("at", e.at.toString());
            n.put("service", e.service);
            n.put("principal", e.principal);
            n.put("operation", e.operation);
            if (e.target != null) n.put("target", e.target);
            n.put("outcome", e.outcome);
            if (e.beforeJson != null) n.set("before", AwsJson.parse(e.beforeJson));
            if (e.afterJson != null) n.set("after", AwsJson.parse(e.afterJson));
        }
        return Response.ok(AwsJson.write(out)).build();
    }
}
