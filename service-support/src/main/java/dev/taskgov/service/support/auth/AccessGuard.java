package dev.taskgov.service.support.auth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.auth.Principal;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The door of a plain HTTP API (admission-service, topology-service): verifies the request's SigV4 signature,
 * refuses what the principal's roles do not allow with 403 and a message saying why, and records every refusal
 * (and what the service asks it to, e.g. submissions) in the audit trail.
 */
public final class AccessGuard {

    /** A plain HTTP API refuses a principal's role with 403, as HTTP means it. */
    public static final int DENIED_STATUS = 403;

    private final SigV4Verifier verifier;
    private final Consumer<AuditEvent> audit;
    private final String service;
    private final Clock clock;

    public AccessGuard(SigV4Verifier verifier, Consumer<AuditEvent> audit, String service, Clock clock) {
        this.verifier = verifier;
        this.audit = audit;
        this.service = service;
        this.clock = clock;
    }

    /**
     * The principal that signed the request; an audited {@link AuthFailure} when none did. {@code body} is the
     * request's body as it arrived (the signature covers those bytes, not a decoding of them).
     */
    public Principal authenticate(String method, UriInfo uri, HttpHeaders headers, byte[] body, String operation,
                                  String target) {
        try {
            return verifier.verify(HttpRequests.of(method, uri, headers, body));
        } catch (AuthFailure e) {
            record(null, operation, target, AuditEvent.refused(e.type(), e.getMessage(), e.claimedKeyId()), null);
            throw e;
        }
    }

    /** An audited refusal of this principal: throw it. */
    public AuthFailure deny(Principal principal, String operation, String target, String why) {
        AuthFailure e = AuthFailure.accessDenied(DENIED_STATUS, "User: " + principal.name() + " " + principal.roleNames()
                + " is not authorized to perform: " + operation + (target == null ? "" : " on " + target) + ": " + why);
        record(principal.name(), operation, target, AuditEvent.refused(e.type(), e.getMessage()), null);
        return e;
    }

    /** Refuses unless the principal may read this team's data. */
    public void requireRead(Principal principal, String team, String operation, String target) {
        if (!principal.mayRead(team)) {
            throw deny(principal, operation, target, "it belongs to team '" + team + "', and this key reads only "
                    + teamsOf(principal));
        }
    }

    /** Refuses unless the principal may read every team's data (admin, viewer). */
    public void requireReadAll(Principal principal, String operation, String target) {
        if (!principal.mayReadAll()) {
            throw deny(principal, operation, target, "only an admin or a viewer reads it; this key reads only "
                    + teamsOf(principal));
        }
    }

    /** Refuses unless the principal may submit for this team. */
    public void requireSubmit(Principal principal, String team, String operation, String target) {
        if (!principal.maySubmitFor(team)) {
            throw deny(principal, operation, target, "only team '" + team + "' (or an admin) submits for team '" + team
                    + "'; this key " + (principal.teams().isEmpty() ? "belongs to no team" : "submits only for " + teamsOf(principal)));
        }
    }

    /** Records an event of this service (an allowed submission, for example). */
    public void record(String principal, String operation, String target, String outcome, JsonNode after) {
        audit.accept(AuditEvent.of(clock.instant(), service, principal, operation, target, outcome, null, after));
    }

    private static String teamsOf(Principal p) {
        Set<String> teams = new TreeSet<>(p.teams());
        return teams.isEmpty() ? "no team's data" : "team(s) " + teams;
    }

    /** A refusal as the HTTP answer: AWS's error shape {@code {"__type", "message"}} and status. */
    public static Response response(AuthFailure e) {
        return Response.status(e.status()).type(MediaType.APPLICATION_JSON)
                .header("x-amzn-ErrorType", e.type())
                .entity(Map.of("__type", e.type(), "message", e.getMessage())).build();
    }
}
