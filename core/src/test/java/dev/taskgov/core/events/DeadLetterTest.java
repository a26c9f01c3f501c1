package dev.taskgov.core.events;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterTest {

    record Case(String name, byte[] value, String encoding) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("utf-8 text stays text", "{\"broken\":".getBytes(StandardCharsets.UTF_8), DeadLetter.UTF8),
                new Case("invalid utf-8 goes base64", new byte[]{(byte) 0xC3, 0x28, (byte) 0xFF}, DeadLetter.BASE64),
                new Case("no value stays null", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theOriginalBytesSurviveTheJsonRoundTrip(Case c) {
        DeadLetter letter = DeadLetter.of("taskgov.workload.submitted", 0, 42L, "k", c.value(), "unreadable: x",
                Instant.parse("2026-11-30T10:00:00Z"));
        DeadLetter back = EventCodec.read(EventCodec.bytes(letter), DeadLetter.class);
        assertThat(back).isEqualTo(letter);
        assertThat(back.valueEncoding()).isEqualTo(c.encoding());
        assertThat(back.originalBytes()).isEqualTo(c.value());
        assertThat(back.offset()).isEqualTo(42L);
    }
}
