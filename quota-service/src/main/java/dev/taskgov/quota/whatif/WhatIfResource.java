package dev.taskgov.quota.whatif;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.JsonText;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.sim.whatif.WhatIfRequest;
import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.service.support.KafkaClientSecurity;
import dev.taskgov.client.support.RecordedTopics;
import dev.taskgov.quota.auth.GuardedResource;
import dev.taskgov.service.support.auth.AccessGuard;
import dev.taskgov.service.support.auth.AuthFailure;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;

/**
 * {@code POST /what-if}: what a quota or scheduler config change would have done over a recorded window, and what it
 * would evict if made now (docs/api.md, "What-if"); the quota API's dry run for scripts. Reads the platform's topics,
 * replays through core ({@link WhatIfRequest}) and changes nothing; admins and viewers.
 */
@Path("/what-if")
@Produces(MediaType.APPLICATION_JSON)
public class WhatIfResource extends GuardedResource {

    private static final String OPERATION = "WhatIf";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DEFAULT_WINDOW = Duration.ofHours(24);

    @Inject
    QuotaServiceConfig config;

    @Inject
    Clock clock;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response whatIf(byte[] body) {
        Principal caller = guard.authenticate("POST", uri, headers, body, OPERATION, "what-if");
        guard.requireReadAll(caller, OPERATION, "what-if");
        WhatIfRequest request;
        try {
            request = request(body);
        } catch (IllegalArgumentException e) {
            return refused(e.getMessage());
        }
        List<dev.taskgov.core.sim.whatif.TopicHistory.Recorded> records;
        try {
            records = RecordedTopics.read(kafkaClient(), names(), READ_TIMEOUT);
        } catch (RuntimeException e) {
            return AccessGuard.response(new AuthFailure("ServiceUnavailable", 503,
                    "cannot read the recorded topics (" + e.getMessage() + "); try again"));
        }
        try {
            return Response.ok(EventCodec.write(request.run(records))).build();
        } catch (ValidationException e) {
            return refused(e.getMessage());
        }
    }

    /**
     * The request body: {@code {"ClusterArn", "ComputeQuotas": [CreateComputeQuota bodies], "DeleteComputeQuotas":
     * [team names], "SchedulerConfig": {...}, "Since": instant or ISO-8601 duration back from Until (default PT24H),
     * "FromTopics": true (the whole record instead), "Until": instant (default now)}}. The quota and scheduler config
     * bodies stay JSON text: core's translators read them, as the quota API's own operations do.
     */
    record Body(@JsonProperty("ClusterArn") String clusterArn,
                @JsonProperty("ComputeQuotas") List<JsonText> computeQuotas,
                @JsonProperty("DeleteComputeQuotas") List<String> deleteComputeQuotas,
                @JsonProperty("SchedulerConfig") JsonText schedulerConfig,
                @JsonProperty("Since") String since,
                @JsonProperty("FromTopics") Boolean fromTopics,
                @JsonProperty("Until") String until) {
    }

    private static final List<String> MEMBERS = List.of("ClusterArn", "ComputeQuotas", "DeleteComputeQuotas", "SchedulerConfig",
            "Since", "FromTopics", "Until");

    /** The codec's strict scalars, and an unknown member refused (a misspelt "Since" must not silently widen the window). */
    private static final ObjectMapper BODY = EventCodec.mapper().copy().clearProblemHandlers()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private WhatIfRequest request(byte[] body) {
        Body b;
        try {
            b = BODY.readValue(body == null || body.length == 0 ? "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8) : body, Body.class);
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalArgumentException(e.getPropertyName() + ": unknown member; use one of " + MEMBERS);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException(refusal(e));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("request body: is not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("request body: cannot be read (" + e.getMessage() + ")");
        }
        if (b == null) throw new IllegalArgumentException("request body: must be a JSON object");
        Instant until = b.until() != null ? instant(b.until(), "Until") : clock.instant();
        Instant since;
        if (Boolean.TRUE.equals(b.fromTopics())) {
            if (b.since() != null) throw new IllegalArgumentException("Since: give Since or FromTopics, not both");
            since = null;
        } else if (b.since() != null) {
            since = b.since().startsWith("P") ? until.minus(duration(b.since())) : instant(b.since(), "Since");
        } else {
            since = until.minus(DEFAULT_WINDOW);
        }
        List<byte[]> quotas = new ArrayList<>();
        if (b.computeQuotas() != null) {
            for (JsonText q : b.computeQuotas()) quotas.add((q == null ? JsonText.NULL : q).bytes());
        }
        TreeSet<String> deleted = new TreeSet<>();
        if (b.deleteComputeQuotas() != null) {
            for (int i = 0; i < b.deleteComputeQuotas().size(); i++) {
                String team = b.deleteComputeQuotas().get(i);
                if (team == null) throw new IllegalArgumentException("DeleteComputeQuotas[" + i + "]: must be a team name");
                deleted.add(team);
            }
        }
        return new WhatIfRequest(b.clusterArn(), since, until, quotas, deleted,
                b.schedulerConfig() == null ? null : b.schedulerConfig().bytes());
    }

    /** A member of the wrong shape, told by its name and what it must be. */
    private static String refusal(JsonMappingException e) {
        List<JsonMappingException.Reference> path = e.getPath();
        if (path.isEmpty()) return "request body: must be a JSON object";
        String member = path.get(0).getFieldName();
        if ("ComputeQuotas".equals(member)) return "ComputeQuotas: must be a list of CreateComputeQuota bodies";
        if ("DeleteComputeQuotas".equals(member)) {
            return path.size() > 1 && path.get(1).getIndex() >= 0
                    ? "DeleteComputeQuotas[" + path.get(1).getIndex() + "]: must be a team name"
                    : "DeleteComputeQuotas: must be a list of team names";
        }
        if ("FromTopics".equals(member)) return "FromTopics: must be true or false";
        if ("Since".equals(member) || "Until".equals(member) || "ClusterArn".equals(member)) return member + ": must be a JSON string";
        return member + ": " + e.getOriginalMessage();
    }

    private static Instant instant(String text, String field) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + ": must be an ISO-8601 instant such as 2026-12-01T10:00:00Z"
                    + ("Since".equals(field) ? " or a duration such as PT24H" : "") + ", was '" + text + "'");
        }
    }

    private static Duration duration(String text) {
        try {
            Duration d = Duration.parse(text);
            if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("Since: must be a positive duration, was '" + text + "'");
            return d;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("Since: must be an ISO-8601 duration such as PT24H or an instant, was '" + text + "'");
        }
    }

    private Response refused(String message) {
        return AccessGuard.response(new AuthFailure("ValidationException", 400, message));
    }

    private Properties kafkaClient() {
        return KafkaClientSecurity.client(bootstrapServers, "quota-service-what-if");
    }

    private RecordedTopics.Names names() {
        var t = config.topics();
        return new RecordedTopics.Names(t.quota(), t.topology(), t.workloadSubmitted(), t.workloadAdmitted(), t.workloadPreempted(),
                t.workloadFinished());
    }
}
