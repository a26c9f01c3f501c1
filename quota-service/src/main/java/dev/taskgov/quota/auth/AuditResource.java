package dev.taskgov.quota.auth;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.auth.AuditChain;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.service.support.auth.AccessGuard;
import dev.taskgov.service.support.auth.AuthFailure;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * {@code GET /audit[?since=&principal=]}: the audit trail of every service, oldest first; {@code GET /audit/verify}:
 * every service's hash chain checked, with its first broken link; admins and viewers.
 */
@Path("/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource extends GuardedResource {

    /** The most records one answer holds (the newest ones, when there are more). */
    static final int LIMIT = 5000;

    @Inject
    EntityManager em;

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
                AuthFailure refused = new AuthFailure("ValidationException", 400,
                        "since: must be an ISO-8601 instant such as 2026-12-01T10:00:00Z, was '" + since + "'");
                guard.record(caller.name(), "ListAuditEvents", "audit trail",
                        AuditEvent.refused(refused.type(), refused.getMessage()), null);
                return AccessGuard.response(refused);
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

    /**
     * Walks each chain in sequence order (streamed: the trail may be long) and names its first broken link; records
     * without a chain are counted, and those newer than the first chained record are named, since only a record
     * inserted behind the service's back can be unchained then.
     */
    @GET
    @Path("verify")
    @Transactional
    public Response verify() {
        Principal caller = guard.authenticate("GET", uri, headers, null, "VerifyAuditTrail", "audit trail");
        guard.requireReadAll(caller, "VerifyAuditTrail", "audit trail");
        ObjectNode out = AwsJson.object();
        ArrayNode chains = out.putArray("chains");
        boolean intact = true;
        Map<String, Object[]> heads = new TreeMap<>();
        for (Object row : em.createNativeQuery("select chain, seq, hash from audit_chain_head").getResultList()) {
            Object[] r = (Object[]) row;
            heads.put((String) r[0], r);
        }
        for (Object c : em.createNativeQuery("select distinct chain from audit_event where chain is not null").getResultList()) {
            heads.putIfAbsent((String) c, new Object[]{c, 0L, null});
        }
        for (Map.Entry<String, Object[]> head : heads.entrySet()) {
            String chain = head.getKey();
            long headSeq = ((Number) head.getValue()[1]).longValue();
            String headHash = (String) head.getValue()[2];
            AuditChain.Result result;
            try (Stream<AuditEventEntity> rows = AuditEventEntity.<AuditEventEntity>find("chain = ?1", Sort.ascending("seq"), chain).stream()) {
                Iterable<AuditChain.Link> links = () -> rows.map(AuditResource::link).iterator();
                result = AuditChain.verify(chain, links, headSeq, headHash);
            }
            em.clear();
            intact &= result.intact();
            ObjectNode n = chains.addObject();
            n.put("chain", chain);
            n.put("records", result.records());
            n.put("headSeq", result.headSeq());
            if (result.headHash() != null) n.put("headHash", result.headHash());
            n.put("intact", result.intact());
            if (!result.intact()) {
                n.put("brokenAt", result.brokenAt());
                if (result.brokenEventId() != null) n.put("brokenEventId", result.brokenEventId());
                n.put("problem", result.problem());
            }
        }
        long unchained = ((Number) em.createNativeQuery("select count(*) from audit_event where chain is null")
                .getSingleResult()).longValue();
        out.put("unchained", unchained);
        ArrayNode inserted = out.putArray("insertedOutsideChain");
        for (Object row : em.createNativeQuery("select event_id from audit_event where chain is null and at > "
                + "(select min(at) from audit_event where chain is not null) order by at, event_id limit 100").getResultList()) {
            inserted.add((String) row);
            intact = false;
        }
        out.put("intact", intact);
        return Response.ok(AwsJson.write(out)).build();
    }

    private static AuditChain.Link link(AuditEventEntity e) {
        return new AuditChain.Link(e.chain, e.seq, e.prevHash, e.hash, e.eventId, e.at.toString(), e.service, e.principal,
                e.operation, e.target, e.outcome, e.beforeJson, e.afterJson);
    }
}
