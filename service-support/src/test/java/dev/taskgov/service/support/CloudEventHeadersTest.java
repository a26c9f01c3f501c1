package dev.taskgov.service.support;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class CloudEventHeadersTest {

    @Test
    void written_headers_read_back_as_the_same_event() {
        RecordHeaders h = new RecordHeaders();
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        CloudEventHeaders.write(h, "dev.taskgov.workload.admitted", "urn:taskgov:admission-service", "w-1:2", t, "w-1");
        assertThat(CloudEventHeaders.read(h)).contains(new CloudEventHeaders.CloudEvent("1.0",
                "dev.taskgov.workload.admitted", "urn:taskgov:admission-service", "w-1:2", t, "w-1"));
        assertThat(CloudEventHeaders.text(h, CloudEventHeaders.CONTENT_TYPE)).isEqualTo("application/json");
    }

    @Test
    void a_record_without_headers_is_no_event_and_a_bad_time_is_dropped() {
        assertThat(CloudEventHeaders.read(new RecordHeaders())).isEmpty();
        RecordHeaders h = new RecordHeaders();
        h.add(CloudEventHeaders.SPEC_VERSION, "1.0".getBytes(StandardCharsets.UTF_8));
        h.add(CloudEventHeaders.TIME, "yesterday".getBytes(StandardCharsets.UTF_8));
        assertThat(CloudEventHeaders.read(h)).hasValueSatisfying(e -> assertThat(e.time()).isNull());
    }
}
