package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * The value of a {@code taskgov.deadletter} record: the refused record's coordinates and bytes, and why.
 *
 * @param topic         where the refused record was read
 * @param partition     its partition
 * @param offset        its offset
 * @param key           its key as UTF-8 text ({@code null} when it had none)
 * @param value         its value: UTF-8 text when the bytes are valid UTF-8, else base64
 * @param valueEncoding {@code utf-8} or {@code base64}; {@code null} when there was no value
 * @param reason        why it was refused, naming the field and the rule when there is one
 * @param failedAt      when it was refused
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record DeadLetter(String topic, int partition, long offset, String key, String value, String valueEncoding,
                         String reason, Instant failedAt) {

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.deadletter";
    public static final String UTF8 = "utf-8";
    public static final String BASE64 = "base64";

    /** The letter of a refused record, from its coordinates, key and value bytes. */
    public static DeadLetter of(String topic, int partition, long offset, String key, byte[] v, String reason,
                                Instant failedAt) {
        String text = v == null ? null : utf8OrNull(v);
        String encoding = v == null ? null : text != null ? UTF8 : BASE64;
        String value = v == null ? null : text != null ? text : Base64.getEncoder().encodeToString(v);
        return new DeadLetter(topic, partition, offset, key, value, encoding, reason, failedAt);
    }

    /** The original bytes back. */
    public byte[] originalBytes() {
        if (value == null) return null;
        return BASE64.equals(valueEncoding) ? Base64.getDecoder().decode(value) : value.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8OrNull(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
