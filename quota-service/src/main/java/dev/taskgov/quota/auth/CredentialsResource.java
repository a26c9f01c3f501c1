package dev.taskgov.quota.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.service.support.auth.HttpRequests;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.core.auth.SafeText;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.service.support.auth.AuthFailure;
import dev.taskgov.service.support.auth.AccessGuard;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Access keys over HTTP+JSON ({@code taskgov credentials create|list|revoke}), admin only, SigV4-signed like every
 * request. The secret of a new key is in the create answer and nowhere else.
 */
@Path("/credentials")
@Produces(MediaType.APPLICATION_JSON)
public class CredentialsResource extends GuardedResource {

    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    @Inject
    AccessKeys keys;

    @Inject
    Caller caller;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response create(byte[] body) {
        return asAdmin("POST", body, "CreateAccessKey", null, () -> {
            JsonNode request = parse(HttpRequests.text(body));
            List<String> roles = new ArrayList<>();
            if (request.has("roles") && !request.get("roles").isArray()) {
                throw new IllegalArgumentException("roles: must be a JSON array of strings such as [\"team:team-a\"]");
            }
            request.path("roles").forEach(r -> roles.add(r.asText()));
            AccessKeys.Created created = keys.create(request.path("principal").asText(null), roles,
                    request.path("description").asText(null), caller.name());
            ObjectNode out = AwsJson.object();
            out.put("accessKeyId", created.accessKeyId());
            out.put("secretAccessKey", created.secret());
            out.put("principal", created.principal());
            ArrayNode r = out.putArray("roles");
            created.roles().forEach(r::add);
            ObjectNode after = out.deepCopy();
            after.remove("secretAccessKey");
            audit.record(caller.name(), "CreateAccessKey", created.accessKeyId(), "Allowed", null, after);
            return Response.status(201).entity(AwsJson.write(out)).build();
        });
    }

    @GET
    public Response list() {
        return asAdmin("GET", null, "ListAccessKeys", null, () -> {
            ObjectNode out = AwsJson.object();
            ArrayNode list = out.putArray("accessKeys");
            keys.list().forEach(e -> list.add(AccessKeys.describe(e)));
            return Response.ok(AwsJson.write(out)).build();
        });
    }

    @DELETE
    @Path("{id}")
    public Response revoke(@PathParam("id") String id) {
        return asAdmin("DELETE", null, "RevokeAccessKey", id, () -> {
            if (!KEY_ID.matcher(id).matches()) {
                // Checked before the database sees it: PostgreSQL refuses NUL in text, which answered 500.
                throw new IllegalArgumentException("access key id: must be 1 to 64 letters, digits, '-' or '_' (such as "
                        + "TGAK...), was '" + SafeText.escape(id) + "'");
            }
            AccessKeyEntity before = AccessKeyEntity.findById(id);
            ObjectNode beforeDoc = before == null ? null : AccessKeys.describe(before);
            AccessKeyEntity e = keys.revoke(id, caller.name());
            audit.record(caller.name(), "RevokeAccessKey", id, "Allowed", beforeDoc, AccessKeys.describe(e));
            return Response.ok(AwsJson.write(AccessKeys.describe(e))).build();
        });
    }

    private Response asAdmin(String method, byte[] body, String operation, String target, Supplier<Response> action) {
        Principal principal = guard.authenticate(method, uri, headers, body, operation, target);
        caller.set(principal);
        if (!principal.mayAdminister()) {
            throw guard.deny(principal, operation, target, "only an admin manages access keys");
        }
        try {
            return action.get();
        } catch (IllegalArgumentException e) {
            return failed(principal, operation, target, 400, "ValidationException", e.getMessage());
        } catch (NoSuchElementException e) {
            return failed(principal, operation, target, 404, "ResourceNotFound", e.getMessage());
        }
    }

    /** An admin's request this service refused as invalid: answered, and recorded like every refusal. */
    private Response failed(Principal principal, String operation, String target, int status, String type, String message) {
        audit.storeNew(AuditEvent.of(clock.instant(), AuditTrail.SERVICE, principal.name(), operation, target,
                AuditEvent.refused(type, message), null, null));
        return error(status, type, message);
    }

    private static JsonNode parse(String body) {
        try {
            JsonNode n = AwsJson.MAPPER.readTree(body == null || body.isBlank() ? "{}" : body);
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException("request body: must be a JSON object");
            }
            return n;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("request body: is not valid JSON (" + e.getOriginalMessage() + ")");
        }
    }

    static Response error(int status, String type, String message) {
        return AccessGuard.response(new AuthFailure(type, status, message));
    }
}
