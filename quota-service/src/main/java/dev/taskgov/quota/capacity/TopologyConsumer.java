package dev.taskgov.quota.capacity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.UnreadableRecordException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.math.BigDecimal;

/**
 * Learns the cluster's capacity from the compacted topology topic (key = node name, value = the
 * node record of design.md, tombstone = node gone). Every instance reads the topic from the start
 * (its own consumer group), so it always knows every node. A record that cannot be read is refused
 * and goes to the dead-letter topic with the reason ({@link QuotaDeadLetters}).
 */
@ApplicationScoped
public class TopologyConsumer {

    @Inject
    ClusterCapacity capacity;

    @Inject
    ObjectMapper mapper;

    @Incoming("topology")
    public void onNode(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            if (record.key() == null) {
                throw new IllegalArgumentException("tombstone without a key: no node to remove");
            }
            capacity.remove(record.key());
            return;
        }
        capacity.upsert(parse(record.key(), record.value()));
    }

    NodeCapacity parse(String key, String value) {
        JsonNode n;
        try {
            n = mapper.readTree(value);
        } catch (Exception e) {
            throw new UnreadableRecordException("value is not JSON: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new UnreadableRecordException("value must be a JSON object (a node record)");
        }
        String name = n.hasNonNull("name") ? n.get("name").asText() : key;
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name: is required (or the record key)");
        }
        if (!n.hasNonNull("instanceType") || n.get("instanceType").asText().isBlank()) {
            throw new IllegalArgumentException("instanceType: is required");
        }
        JsonNode alloc = n.path("allocatable");
        Resources allocatable;
        try {
            allocatable = Resources.ofJsonUnits(amount(alloc, "accelerators"), amount(alloc, "vcpu"),
                    amount(alloc, "memoryGiB"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("allocatable." + e.getMessage(), e);
        }
        boolean ready = !n.has("ready") || n.get("ready").asBoolean(true);
        return new NodeCapacity(name, n.get("instanceType").asText(), allocatable, ready);
    }

    private static BigDecimal amount(JsonNode alloc, String field) {
        JsonNode v = alloc.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber()) {
            throw new IllegalArgumentException(field + " must be a number, was " + v);
        }
        return v.decimalValue();
    }
}
