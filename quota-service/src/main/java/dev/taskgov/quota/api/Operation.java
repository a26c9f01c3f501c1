package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** One SageMaker operation: a request body in, a response body out, or an {@link AwsApiException}. */
@FunctionalInterface
public interface Operation {
    ObjectNode handle(JsonNode request);
}
