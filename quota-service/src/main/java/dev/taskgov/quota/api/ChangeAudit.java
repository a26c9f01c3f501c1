package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * What the audit trail records of a SageMaker change: its target (the quota or config id) and the Describe document
 * before and after it, read with the service's own Describe operations.
 */
final class ChangeAudit {

    /** A changing operation: the Describe operation of its resource and the id member naming it. */
    private record Change(String describe, String idMember, boolean creates, boolean deletes) {
    }

    private static final Map<String, Change> CHANGES = Map.of(
            "CreateComputeQuota", new Change("DescribeComputeQuota", "ComputeQuotaId", true, false),
            "UpdateComputeQuota", new Change("DescribeComputeQuota", "ComputeQuotaId", false, false),
            "DeleteComputeQuota", new Change("DescribeComputeQuota", "ComputeQuotaId", false, true),
            "CreateClusterSchedulerConfig", new Change("DescribeClusterSchedulerConfig", "ClusterSchedulerConfigId", true, false),
            "UpdateClusterSchedulerConfig", new Change("DescribeClusterSchedulerConfig", "ClusterSchedulerConfigId", false, false),
            "DeleteClusterSchedulerConfig", new Change("DescribeClusterSchedulerConfig", "ClusterSchedulerConfigId", false, true));

    private final Change change;
    private final Map<String, Operation> operations;
    String target;
    JsonNode before;

    private ChangeAudit(Change change, Map<String, Operation> operations) {
        this.change = change;
        this.operations = operations;
    }

    /** The audit of this operation, or null when it changes nothing. */
    static ChangeAudit of(String operation, Map<String, Operation> operations) {
        Change c = CHANGES.get(operation);
        return c == null ? null : new ChangeAudit(c, operations);
    }

    /**
     * What a change request names, for the record of its refusal (no state is read for a request that may not run):
     * the quota or config id it updates or deletes, or the name it creates; null when it changes nothing or names
     * nothing readable.
     */
    static String requestedTarget(ChangeAudit audit, String body) {
        if (audit == null || body == null || body.isBlank()) {
            return null;
        }
        JsonNode request;
        try {
            request = AwsJson.MAPPER.readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
        if (request == null || !request.isObject()) {
            return null;
        }
        String member = audit.change.creates ? "Name" : audit.change.idMember;
        return request.path(member).isTextual() ? request.get(member).asText() : null;
    }

    /** Reads the state before the change (nothing for a create). */
    void before(JsonNode request) {
        if (!change.creates && request.path(change.idMember).isTextual()) {
            target = request.get(change.idMember).asText();
            before = describe(target);
        }
    }

    /** Reads the state after the change (nothing after a delete). */
    JsonNode after(ObjectNode response) {
        if (change.creates && response.path(change.idMember).isTextual()) {
            target = response.get(change.idMember).asText();
        }
        return change.deletes || target == null ? null : describe(target);
    }

    private JsonNode describe(String id) {
        try {
            ObjectNode request = AwsJson.object();
            request.put(change.idMember, id);
            return operations.get(change.describe).handle(request);
        } catch (AwsApiException e) {
            return null; // it does not exist (yet, or any more): nothing to show
        }
    }
}
