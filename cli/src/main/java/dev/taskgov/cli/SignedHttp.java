package dev.taskgov.cli;

import dev.taskgov.service.support.auth.ProfileFile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.service.support.auth.RequestSigner;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON over HTTP to one of taskgov's services, each request SigV4-signed with the profile's key; answers are JSON
 * trees, refusals {@link CliException}s that keep the service's message (and the AWS error type of an auth refusal).
 */
final class SignedHttp {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final String service;
    private final String flag;
    private final RequestSigner signer;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    SignedHttp(URI base, String service, ProfileFile.Credentials credentials, String flag) {
        this.base = base;
        this.service = service;
        this.flag = flag;
        this.signer = new RequestSigner(credentials.accessKeyId(), credentials.secret());
    }

    JsonNode get(String pathAndQuery) {
        return parse(send("GET", pathAndQuery, null));
    }

    /** The body of a GET as text (e.g. Prometheus metrics). */
    String text(String pathAndQuery) {
        return send("GET", pathAndQuery, null);
    }

    /** Where {@code path} is on this service, to name it in messages. */
    URI at(String path) {
        return base.resolve(path);
    }

    JsonNode post(String path, String json) {
        return parse(send("POST", path, json));
    }

    JsonNode delete(String path) {
        return parse(send("DELETE", path, null));
    }

    /** The body of a 2xx answer; anything else a {@link CliException} with the service's message. */
    private String send(String method, String path, String json) {
        URI uri = base.resolve(path);
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new LinkedHashMap<>();
        if (json != null) {
            headers.put("Content-Type", "application/json");
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        signer.sign(method, uri, headers, body).forEach(b::header);
        HttpResponse<String> response;
        try {
            response = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot reach " + service + " at " + base + " (" + describe(e)
                    + "); is it running (deploy/local/taskgov-local up), or set " + flag, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
        int status = response.statusCode();
        if (status / 100 == 2) return response.body();
        String message = problem(parse(response.body()), response.body());
        if (status == 400) throw CliException.invalid(message);
        if (status == 404) throw CliException.failed(message);
        throw CliException.failed(service + " answered " + status + " to " + method + " " + uri.getPath() + ": " + message);
    }

    /** The service's message (with the AWS error type of a refusal) and each field error ("field: rule"). */
    private static String problem(JsonNode body, String raw) {
        if (body == null || !body.hasNonNull("message")) return raw == null || raw.isBlank() ? "(no body)" : raw.strip();
        StringBuilder sb = new StringBuilder();
        if (body.hasNonNull("__type")) sb.append(body.get("__type").asText()).append(": ");
        sb.append(body.get("message").asText());
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
}
