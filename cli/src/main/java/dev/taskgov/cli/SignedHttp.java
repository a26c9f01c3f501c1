package dev.taskgov.cli;

import dev.taskgov.client.support.auth.ProfileFile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.client.support.auth.RequestSigner;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON over HTTP to one of taskgov's services, each request SigV4-signed with the profile's key; answers are JSON
 * trees, refusals {@link CliException}s that keep the service's message (and the AWS error type of an auth refusal).
 * <p>
 * It speaks through {@link HttpURLConnection}, not {@code java.net.http.HttpClient}: a command makes one or a few
 * plain-HTTP calls and exits, and building an {@code HttpClient} alone (its selector thread, the default TLS context
 * and the trust store it reads) cost several times the CPU of the whole call (docs/benchmarks.md, "CLI start time").
 */
final class SignedHttp {

    private static final int TIMEOUT_MILLIS = 10_000;

    private final URI base;
    private final String service;
    private final String flag;
    private final RequestSigner signer;

    SignedHttp(URI base, String service, ProfileFile.Credentials credentials, String flag) {
        this.base = base;
        this.service = service;
        this.flag = flag;
        this.signer = new RequestSigner(credentials.accessKeyId(), credentials.secret());
    }

    JsonNode get(String pathAndQuery) {
        return parse(send("GET", pathAndQuery, null));
    }

    /** A GET whose 404 means "no such thing" rather than a failure: empty then; any other refusal a {@link CliException}. */
    java.util.Optional<JsonNode> find(String pathAndQuery) {
        String answer = send("GET", pathAndQuery, null, true);
        return answer == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(parse(answer));
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
        return send(method, path, json, false);
    }

    /** As {@link #send(String, String, String)}; with {@code absentOn404} a 404 answers null instead of failing. */
    private String send(String method, String path, String json, boolean absentOn404) {
        URI uri = base.resolve(path);
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new LinkedHashMap<>();
        if (json != null) {
            headers.put("Content-Type", "application/json");
        }
        Map<String, String> signed = signer.sign(method, uri, headers, body);
        int status;
        String answer;
        try {
            HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
            c.setConnectTimeout(TIMEOUT_MILLIS);
            c.setReadTimeout(TIMEOUT_MILLIS);
            c.setRequestMethod(method);
            c.setInstanceFollowRedirects(false); // as before: a redirect is the service's answer, not followed unsigned
            signed.forEach(c::setRequestProperty);
            if (json != null) {
                c.setDoOutput(true);
                c.setFixedLengthStreamingMode(body.length);
                try (OutputStream out = c.getOutputStream()) {
                    out.write(body);
                }
            }
            status = c.getResponseCode();
            answer = read(status / 100 == 2 ? c.getInputStream() : c.getErrorStream());
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot reach " + service + " at " + base + " (" + describe(e)
                    + "); is it running (deploy/local/taskgov-local up), or set " + flag, e);
        }
        if (status / 100 == 2) return answer;
        if (status == 404 && absentOn404) return null;
        String message = problem(parse(answer), answer);
        if (status == 400) throw CliException.invalid(message);
        if (status == 404) throw CliException.failed(message);
        // a conflict (a workload id that is another team's: WorkloadIdTaken) is said as the service says it, with its field
        if (status == 409) throw CliException.failed(message);
        throw CliException.failed(service + " answered " + status + " to " + method + " " + uri.getPath() + ": " + message);
    }

    /** A response body as text; a refusal without a body has none ({@code getErrorStream} is then null). */
    private static String read(InputStream in) throws IOException {
        if (in == null) return "";
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
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
