package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.quota.auth.AuditTrail;
import dev.taskgov.quota.auth.Caller;
import dev.taskgov.quota.auth.QuotaAccess;
import dev.taskgov.quota.metrics.QuotaMetrics;
import dev.taskgov.service.support.auth.AuthFailure;
import dev.taskgov.service.support.auth.HttpRequests;
import dev.taskgov.service.support.auth.SigV4Verifier;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The SageMaker wire protocol (AWS JSON 1.1): {@code POST /} with {@code X-Amz-Target:
 * SageMaker.<Operation>}; the body is the operation's input, the answer its output or an error
 * {@code {"__type", "message"}}. Every request must carry a valid AWS SigV4 signature of an active access key
 * ({@link SigV4Verifier}) and the key's roles must allow the operation ({@link QuotaAccess}), else the answer is
 * AWS's error shape for it. Dispatches to the {@link OperationRegistry} beans.
 */
@Path("/")
public class SageMakerApi {

    private static final Logger LOG = Logger.getLogger(SageMakerApi.class);
    private static final String TARGET_PREFIX = "SageMaker.";

    @Inject
    Instance<OperationRegistry> registries;

    @Inject
    QuotaMetrics metrics;

    @Inject
    SigV4Verifier verifier;

    @Inject
    Caller caller;

    @Inject
    AuditTrail audit;

    @Context
    HttpHeaders headers;

    @Context
    UriInfo uri;

    private final Map<String, Operation> operations = new HashMap<>();

    @PostConstruct
    void collectOperations() {
        registries.forEach(r -> operations.putAll(r.operations()));
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(AwsJson.CONTENT_TYPE)
    public Response call(@HeaderParam("X-Amz-Target") String target, byte[] raw) {
        String body = HttpRequests.text(raw);
        String requestId = UUID.randomUUID().toString();
        String operationName = target != null && target.startsWith(TARGET_PREFIX)
                ? target.substring(TARGET_PREFIX.length()) : String.valueOf(target);
        Operation operation = operations.get(operationName);
        Principal principal = null;
        ChangeAudit change = ChangeAudit.of(operationName, operations);
        try {
            principal = verifier.verify(HttpRequests.of("POST", uri, headers, raw));
            caller.set(principal);
            if (operation != null) {
                QuotaAccess.check(principal, operationName);
            }
            if (operation == null) {
                operationName = "unknown";
                throw AwsApiException.unknownOperation(target);
            }
            JsonNode request = parse(body);
            if (change != null) {
                change.before(request);
            }
            ObjectNode result = operation.handle(request);
            if (change != null) {
                JsonNode after = change.after(result);
                audit.record(principal.name(), operationName, change.target, AuditEvent.ALLOWED, change.before, after);
            }
            metrics.countRequest(operationName, "success");
            return Response.ok(AwsJson.write(result), AwsJson.CONTENT_TYPE)
                    .header("x-amzn-RequestId", requestId).build();
        } catch (AuthFailure e) {
            metrics.countRequest(operation == null ? "unknown" : operationName, e.type());
            audit.refused(principal == null ? null : principal.name(), operationName, ChangeAudit.requestedTarget(change, body), e);
            return error(e.status(), e.type(), e.getMessage(), requestId);
        } catch (AwsApiException e) {
            metrics.countRequest(operationName, e.type());
            if (change != null) {
                audit.record(principal.name(), operationName, change.target, "Failed: " + e.type() + ": " + e.getMessage(),
                        change.before, null);
            }
            return error(e.status(), e.type(), e.getMessage(), requestId);
        } catch (RuntimeException e) {
            LOG.errorf(e, "%s failed (request %s)", operationName, requestId);
            metrics.countRequest(operationName, "InternalFailure");
            return error(500, "InternalFailure", "internal error, request " + requestId, requestId);
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return AwsJson.object();
        }
        JsonNode node;
        try {
            node = AwsJson.MAPPER.readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw AwsApiException.validation("request body: is not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (node == null || !node.isObject()) {
            throw AwsApiException.validation("request body: must be a JSON object");
        }
        return node;
    }

    private static Response error(int status, String type, String message, String requestId) {
        ObjectNode error = AwsJson.object();
        error.put("__type", type);
        error.put("message", message);
        return Response.status(status).entity(AwsJson.write(error)).type(AwsJson.CONTENT_TYPE)
                .header("x-amzn-RequestId", requestId).header("x-amzn-ErrorType", type).build();
    }
}
