package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.StringJoiner;

/** admission-service's HTTP API; answers are JSON trees, refusals become {@link CliException}s. */
final class AdmissionClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    AdmissionClient(URI base) {
        this.base = base;
    }

    JsonNode workload(String id) {
        return get("/workloads/" + encode(id));
    }

    JsonNode workloads(String cluster, String team, String state) {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        if (cluster != null) query.add("cluster=" + encode(cluster));
        if (team != null) query.add("team=" + encode(team));
        if (state != null) query.add("state=" + encode(state));
        return get("/workloads" + query);
    }

    JsonNode pending(String team, String cluster) {
        return get("/teams/" + encode(team) + "/pending" + (cluster == null ? "" : "?cluster=" + encode(cluster)));
    }

    JsonNode clusters() {
        return get("/clusters");
    }

    JsonNode dryRun(Object submission) {
        return post("/workloads:dry-run", EventCodec.write(submission));
    }

    JsonNode submit(Object submission) {
        return post("/workloads", EventCodec.write(submission));
    }

    private JsonNode get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT).GET().build());
    }

    private JsonNode post(String path, String json) {
        return send(HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private JsonNode send(HttpRequest request) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot reach admission-service at " + base
                    + " (" + describe(e) + "); is it running (deploy/local/taskgov-local up), or set --admission-url / TASKGOV_ADMISSION_URL", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
        JsonNode body = parse(response.body());
        int status = response.statusCode();
        if (status / 100 == 2) return body;
        String message = problem(body, response.body());
        String what = request.method() + " " + request.uri().getPath();
        if (status == 400) throw CliException.invalid(message);
        if (status == 404) throw CliException.failed(message);
        throw CliException.failed("admission-service answered " + status + " to " + what + ": " + message);
    }

    /** The service's message and each field error ("field: rule"). */
    private static String problem(JsonNode body, String raw) {
        if (body == null || !body.hasNonNull("message")) return raw == null || raw.isBlank() ? "(no body)" : raw.strip();
        StringBuilder sb = new StringBuilder(body.get("message").asText());
        for (JsonNode e : body.path("errors")) {
            sb.append(System.lineSeparator()).append("  ").append(e.path("field").asText()).append(": ").append(e.path("rule").asText());
        }
        return sb.toString();
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) return null;
        try {
            return EventCodec.mapper().readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
