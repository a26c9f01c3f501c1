package dev.taskgov.quota.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.sim.whatif.WhatIfRequest;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.service.support.KafkaClientSecurity;
import dev.taskgov.client.support.RecordedTopics;
import dev.taskgov.quota.auth.GuardedResource;
import dev.taskgov.service.support.auth.AccessGuard;
import dev.taskgov.service.support.auth.AuthFailure;
import dev.taskgov.service.support.auth.HttpRequests;
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
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
     * {@code {"ClusterArn", "ComputeQuotas": [CreateComputeQuota bodies], "DeleteComputeQuotas": [team names],
     * "SchedulerConfig": {...}, "Since": instant or ISO-8601 duration back from Until (default PT24H), "FromTopics": true
     * (the whole record instead), "Until": instant (default now)}}.
     */
    private WhatIfRequest request(byte[] body) {
        JsonNode n;
        try {
            n = AwsJson.MAPPER.readTree(body == null || body.length == 0 ? "{}" : HttpRequests.text(body));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("request body: is not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (n == null || !n.isObject()) throw new IllegalArgumentException("request body: must be a JSON object");
        List<String> known = List.of("ClusterArn", "ComputeQuotas", "DeleteComputeQuotas", "SchedulerConfig", "Since", "FromTopics", "Until");
        n.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) throw new IllegalArgumentException(f + ": unknown member; use one of " + known);
        });
        Instant until = n.hasNonNull("Until") ? instant(n.get("Until").asText(), "Until") : clock.instant();
        Instant since;
        if (n.path("FromTopics").asBoolean(false)) {
            if (n.hasNonNull("Since")) throw new IllegalArgumentException("Since: give Since or FromTopics, not both");
            since = null;
        } else if (n.hasNonNull("Since")) {
            String text = n.get("Since").asText();
            since = text.startsWith("P") ? until.minus(duration(text)) : instant(text, "Since");
        } else {
            since = until.minus(DEFAULT_WINDOW);
        }
        List<JsonNode> quotas = new ArrayList<>();
        JsonNode q = n.get("ComputeQuotas");
        if (q != null && !q.isNull()) {
            if (!q.isArray()) throw new IllegalArgumentException("ComputeQuotas: must be a list of CreateComputeQuota bodies");
            q.forEach(quotas::add);
        }
        TreeSet<String> deleted = new TreeSet<>();
        JsonNode d = n.get("DeleteComputeQuotas");
        if (d != null && !d.isNull()) {
            if (!d.isArray()) throw new IllegalArgumentException("DeleteComputeQuotas: must be a list of team names");
            for (int i = 0; i < d.size(); i++) {
                if (!d.get(i).isTextual()) throw new IllegalArgumentException("DeleteComputeQuotas[" + i + "]: must be a team name");
                deleted.add(d.get(i).asText());
            }
        }
        JsonNode cluster = n.get("ClusterArn");
        return new WhatIfRequest(cluster == null || cluster.isNull() ? null : cluster.asText(), since, until, quotas, deleted,
                n.hasNonNull("SchedulerConfig") ? n.get("SchedulerConfig") : null);
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
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.putAll(KafkaClientSecurity.properties());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "quota-service-what-if");
        return props;
    }

    private RecordedTopics.Names names() {
        var t = config.topics();
        return new RecordedTopics.Names(t.quota(), t.topology(), t.workloadSubmitted(), t.workloadAdmitted(), t.workloadFinished());
    }
}
