package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/** admission-service's HTTP API, signed with the profile's key; answers are JSON trees, refusals {@link CliException}s. */
public final class AdmissionClient {

    private final SignedHttp http;

    AdmissionClient(SignedHttp http) {
        this.http = http;
    }

    /** {@code GET /workloads/{id}}: the workload as admission-service describes it (a pending one with its estimated start). */
    public JsonNode workload(String id) {
        return get("/workloads/" + encode(id));
    }

    /** {@code GET /workloads/{id}}, empty when admission-service knows no such workload (or none this key may read). */
    java.util.Optional<JsonNode> findWorkload(String id) {
        return http.find("/workloads/" + encode(id));
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

    /** {@code GET /teams}: one cluster's teams (null: the only one). */
    JsonNode teams(String cluster) {
        return get("/teams" + (cluster == null ? "" : "?cluster=" + encode(cluster)));
    }

    JsonNode clusters() {
        return get("/clusters");
    }

    public JsonNode dryRun(Object submission) {
        return post("/workloads:dry-run", EventCodec.write(submission));
    }

    /** Ends a workload through admission-service, which allows it only to the workload's team (or an admin). */
    JsonNode finish(String id, String outcome) {
        return post("/workloads/" + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8) + "/finish?outcome="
                + outcome, null);
    }

    /** Gang admission: every pod of the workload is ready (POST /workloads/{id}/pods-ready). */
    JsonNode podsReady(String id) {
        return post("/workloads/" + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8) + "/pods-ready", null);
    }

    JsonNode submit(Object submission) {
        return post("/workloads", EventCodec.write(submission));
    }

    private JsonNode get(String path) {
        return http.get(path);
    }

    private JsonNode post(String path, String json) {
        return http.post(path, json);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
