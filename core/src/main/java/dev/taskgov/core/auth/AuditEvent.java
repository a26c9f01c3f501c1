package dev.taskgov.core.auth;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * One audit record (value of {@code taskgov.audit}, row of quota-service's {@code audit_event}): who
 * ({@code principal}, {@code "anonymous"} when the request proved no key), when, which operation on which target, the
 * outcome ({@code Allowed}, or the refusal's error type and message) and, for changes, the state before and after.
 * Every text field is {@linkplain SafeText#escape escaped} on construction (a caller's path, header or body field can
 * neither forge nor hide a line of the trail, nor make PostgreSQL refuse the record), and {@code at} is cut to the
 * microseconds PostgreSQL stores, so the record hashed into the audit chain is the record read back.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AuditEvent(String eventId, Instant at, String service, String principal, String operation, String target,
                         String outcome, JsonNode before, JsonNode after) {

    /** The principal of a request that proved no key (missing, unknown or bad signature). */
    public static final String ANONYMOUS = "anonymous";
    public static final String ALLOWED = "Allowed";

    private static final ObjectMapper JSON = dev.taskgov.core.events.EventCodec.mapper();

    public AuditEvent {
        at = at == null ? null : at.truncatedTo(ChronoUnit.MICROS);
        eventId = SafeText.escape(eventId);
        service = SafeText.escape(service);
        principal = SafeText.escape(principal);
        operation = SafeText.escape(operation);
        target = SafeText.escape(target);
        outcome = SafeText.escape(outcome);
    }

    public static AuditEvent of(Instant at, String service, String principal, String operation, String target,
                                String outcome, JsonNode before, JsonNode after) {
        return new AuditEvent(UUID.randomUUID().toString(), at, service, principal == null ? ANONYMOUS : principal,
                operation, target, outcome, before, after);
    }

    /** The outcome of a refusal: its error type and message. */
    public static String refused(String errorType, String message) {
        return "Refused: " + errorType + ": " + message;
    }

    /** The outcome of a refused request that named an access key it did not prove to hold (or no key at all). */
    public static String refused(String errorType, String message, String claimedKeyId) {
        return refused(errorType, message) + (claimedKeyId == null ? "" : " (request named access key " + claimedKeyId + ")");
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static AuditEvent fromJson(String json) {
        try {
            return JSON.readValue(json, AuditEvent.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("audit record: " + e.getOriginalMessage(), e);
        }
    }
}
