package dev.taskgov.service.support;

import dev.taskgov.core.events.CloudEvents;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class CloudEventHeadersTest {

    @Test
    void writtenHeadersReadBackAsTheSameEvent() {
        RecordHeaders h = new RecordHeaders();
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        CloudEventHeaders.write(h, "dev.taskgov.workload.admitted", "urn:taskgov:admission-service", "w-1:1", t, "w-1");
        CloudEventHeaders.write(h, "dev.taskgov.workload.admitted", "urn:taskgov:admission-service", "w-1:2", t, "w-1");
        assertThat(CloudEventHeaders.read(h)).contains(new CloudEvents.Attributes("1.0",
                "dev.taskgov.workload.admitted", "urn:taskgov:admission-service", "w-1:2", t, "w-1"));
        assertThat(h.headers(CloudEvents.ID)).as("a second write replaces").hasSize(1);
        assertThat(CloudEventHeaders.text(h, CloudEvents.CONTENT_TYPE)).isEqualTo("application/json");
    }

    @Test
    void aTombstoneHasNoContentType() {
        RecordHeaders h = new RecordHeaders();
        CloudEventHeaders.writeTombstone(h, "dev.taskgov.topology.node.removed", "urn:taskgov:topology-service", "n1:3",
                Instant.parse("2026-11-30T10:00:00Z"), "n1");
        assertThat(CloudEventHeaders.text(h, CloudEvents.CONTENT_TYPE)).isNull();
        assertThat(CloudEventHeaders.text(h, CloudEvents.TYPE)).isEqualTo("dev.taskgov.topology.node.removed");
    }

    @Test
    void aRecordWithoutHeadersIsNoEventAndABadTimeIsDropped() {
        assertThat(CloudEventHeaders.read(new RecordHeaders())).isEmpty();
        RecordHeaders h = new RecordHeaders();
        h.add(CloudEvents.SPEC_VERSION, "1.0".getBytes(StandardCharsets.UTF_8));
        h.add(CloudEvents.TIME, "yesterday".getBytes(StandardCharsets.UTF_8));
        assertThat(CloudEventHeaders.read(h)).hasValueSatisfying(e -> assertThat(e.time()).isNull());
    }
}
