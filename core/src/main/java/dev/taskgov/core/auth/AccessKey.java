package dev.taskgov.core.auth;

import java.util.List;
import java.util.Locale;

/**
 * An access key as the services verify it: the id a client puts in its SigV4 {@code Credential}, the principal
 * it belongs to, the principal's roles and the secret encrypted with the master key ({@link SecretBox}). The value
 * of a {@code taskgov.credentials} record (key = {@code accessKeyId}; a tombstone when revoked).
 */
public record AccessKey(String accessKeyId, String principal, List<String> roles, String secretCiphertext) {

    public AccessKey {
        roles = roles == null ? List.of() : List.copyOf(roles);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = dev.taskgov.core.events.EventCodec.mapper();

    /** The record value on the credentials topic. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads a credentials-topic value; refuses one that lacks a member, naming it. */
    public static AccessKey fromJson(String json) {
        try {
            AccessKey k = JSON.readValue(json, AccessKey.class);
            for (var member : java.util.Map.of("accessKeyId", String.valueOf(k.accessKeyId()), "principal",
                    String.valueOf(k.principal()), "secretCiphertext", String.valueOf(k.secretCiphertext())).entrySet()) {
                if (member.getValue().equals("null")) {
                    throw new IllegalArgumentException("access key record: " + member.getKey() + " is required");
                }
            }
            return k;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("access key record: " + e.getOriginalMessage(), e);
        }
    }

    public Principal toPrincipal() {
        return Principal.of(principal, roles);
    }

    /** A new key id in AWS's shape (20 upper-case characters, prefix {@code TG} for taskgov). */
    public static String newKeyId() {
        StringBuilder id = new StringBuilder("TGAK");
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        for (byte b : SecretBox.randomBytes(16)) {
            id.append(alphabet.charAt((b & 0xff) % alphabet.length()));
        }
        return id.toString().toUpperCase(Locale.ROOT);
    }

    /** A new secret: 40 characters, like AWS's. */
    public static String newSecret() {
        return java.util.Base64.getEncoder().withoutPadding().encodeToString(SecretBox.randomBytes(30))
                .replace('+', 'a').replace('/', 'b');
    }
}
