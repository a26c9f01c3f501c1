package dev.taskgov.watcher;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.watcher.config.JobWatcherConfig;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A mutating admission webhook (AdmissionReview v1) that creates queue-labelled jobs of governed
 * namespaces suspended, as Kueue's webhook does: the response carries a JSON patch setting
 * {@code spec.suspend} (Job) or {@code spec.runPolicy.suspend} (PyTorchJob, MPIJob, TFJob, HyperPodPyTorchJob) to true.
 * Anything else is allowed unchanged. It never refuses: with {@code failurePolicy: Ignore} a webhook
 * that is down lets jobs through, and the watcher's fallback suspends them on first sight.
 */
@Path("/admission/suspend-jobs")
public class SuspendWebhook {

    @Inject
    JobWatcherConfig config;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public ObjectNode review(JsonNode review) {
        JsonNode request = review == null ? null : review.get("request");
        ObjectNode out = EventCodec.mapper().createObjectNode();
        out.put("apiVersion", "admission.k8s.io/v1");
        out.put("kind", "AdmissionReview");
        ObjectNode response = out.putObject("response");
        response.put("uid", request == null ? "" : request.path("uid").asText(""));
        response.put("allowed", true);
        if (request == null) return out;
        List<Map<String, Object>> patch = patch(request);
        if (!patch.isEmpty()) {
            response.put("patchType", "JSONPatch");
            response.put("patch", Base64.getEncoder().encodeToString(EventCodec.bytes(patch)));
        }
        return out;
    }

    /** The JSON patch that suspends the reviewed job, or none. */
    List<Map<String, Object>> patch(JsonNode request) {
        if (!"CREATE".equals(request.path("operation").asText())) return List.of();
        JobKind kind;
        try {
            kind = JobKind.ofKind(request.path("kind").path("kind").asText());
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        JsonNode object = request.path("object");
        String namespace = request.hasNonNull("namespace") ? request.get("namespace").asText()
                : object.path("metadata").path("namespace").asText(null);
        String prefix = config.watcher().namespacePrefix();
        if (namespace == null || !namespace.startsWith(prefix) || namespace.length() == prefix.length()) return List.of();
        if (!object.path("metadata").path("labels").hasNonNull(JobTranslator.QUEUE_LABEL)) return List.of();
        JsonNode at = object.path("spec");
        if (at.isMissingNode()) return List.of(op("/spec", nested(kind.suspendPath())));
        StringBuilder pointer = new StringBuilder("/spec");
        List<String> path = kind.suspendPath();
        for (int i = 0; i < path.size(); i++) {
            String field = path.get(i);
            boolean last = i == path.size() - 1;
            if (last) {
                if (at.path(field).asBoolean(false)) return List.of();
                return List.of(op(pointer + "/" + field, true));
            }
            if (!at.has(field) || !at.get(field).isObject()) {
                return List.of(op(pointer + "/" + field, nested(path.subList(i + 1, path.size()))));
            }
            pointer.append('/').append(field);
            at = at.get(field);
        }
        return List.of();
    }

    private static Map<String, Object> op(String path, Object value) {
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("op", "add");
        op.put("path", path);
        op.put("value", value);
        return op;
    }

    /** {@code {a: {b: true}}} for the path [a, b]. */
    private static Object nested(List<String> path) {
        Object value = true;
        List<String> reversed = new ArrayList<>(path);
        java.util.Collections.reverse(reversed);
        for (String field : reversed) value = Map.of(field, value);
        return value;
    }
}
