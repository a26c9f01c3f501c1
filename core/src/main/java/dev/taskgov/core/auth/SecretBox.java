package dev.taskgov.core.auth;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Encrypts access-key secrets at rest (database rows, the credentials topic) with the master key, AES-256-GCM
 * from the JDK. A one-way hash would not do: verifying a SigV4 signature needs the secret itself. The master key
 * never enters the repository, the database or Kafka (docs/security.md).
 */
public final class SecretBox {

    private static final int KEY_BYTES = 32;
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Marks a ciphertext bound to its key's principal and roles; base64 never contains a colon. */
    static final String BOUND_PREFIX = "v2:";

    private final SecretKey key;

    private SecretBox(byte[] key) {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("master key: must be " + KEY_BYTES + " bytes (base64 of 32 random bytes), was "
                    + key.length);
        }
        this.key = new SecretKeySpec(key, "AES");
    }

    /** A box for a base64 master key (as {@link #newMasterKey()} makes it). */
    public static SecretBox of(String base64Key) {
        try {
            return new SecretBox(Base64.getDecoder().decode(base64Key.trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("master key: " + e.getMessage(), e);
        }
    }

    /** A fresh random master key, base64. */
    public static String newMasterKey() {
        return Base64.getEncoder().encodeToString(randomBytes(KEY_BYTES));
    }

    /** Random bytes from the JDK's strong generator, for key ids and secrets. */
    public static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /**
     * Seals a key's secret to the key as a whole: its id, its principal and its roles are the associated data, so the
     * ciphertext opens only for the row or record it was made for. Whoever can write the table or the credentials
     * topic but does not hold the master key cannot give a key another principal or more roles: the key stops
     * working instead. Format: {@code v2:} then base64(iv || ciphertext+tag).
     */
    public String encrypt(String keyId, String principal, Collection<String> roles, String secret) {
        return BOUND_PREFIX + seal(boundData(keyId, principal, roles), secret, keyId);
    }

    /**
     * The secret of a sealed key, when the id, principal and roles are those it was sealed for; refused otherwise, and
     * refused for the older format that bound only the key id ({@link #isBound}, {@link #decryptKeyIdOnly}).
     */
    public String decrypt(String keyId, String principal, Collection<String> roles, String ciphertext) {
        if (!isBound(ciphertext)) {
            throw new IllegalStateException("the secret of " + keyId + " is sealed to its key id only, not to its principal"
                    + " and roles; quota-service re-seals such keys when it starts (or create the key again)");
        }
        try {
            return open(boundData(keyId, principal, roles), ciphertext.substring(BOUND_PREFIX.length()));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("the secret of " + keyId + " does not open for principal '" + principal
                    + "' with roles " + canonicalRoles(roles) + ": its principal or roles were changed after it was made,"
                    + " or it was sealed with another master key (another TASKGOV_AUTH_MASTER_KEY or master.key file?)", e);
        }
    }

    /** Whether a ciphertext is sealed to its key's principal and roles (not the older, key-id-only format). */
    public static boolean isBound(String ciphertext) {
        return ciphertext != null && ciphertext.startsWith(BOUND_PREFIX);
    }

    /**
     * Opens the older format, whose associated data was the key id alone. Only for re-sealing stored keys with
     * {@link #encrypt}: such a ciphertext says nothing about the roles it was meant for, so it never authenticates.
     */
    public String decryptKeyIdOnly(String keyId, String ciphertext) {
        if (isBound(ciphertext)) {
            throw new IllegalArgumentException("secret of " + keyId + ": already sealed to its principal and roles");
        }
        try {
            return open(keyId.getBytes(StandardCharsets.UTF_8), ciphertext);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("the secret of " + keyId + " does not decrypt with this master key"
                    + " (another TASKGOV_AUTH_MASTER_KEY or master.key file?)", e);
        }
    }

    /** The older format (associated data: the key id alone); kept so that tests can make keys as they were stored. */
    public String encryptKeyIdOnly(String keyId, String secret) {
        return seal(keyId.getBytes(StandardCharsets.UTF_8), secret, keyId);
    }

    /** Roles as they are bound: distinct and sorted, so that the same set in another order is the same key. */
    static List<String> canonicalRoles(Collection<String> roles) {
        return roles == null ? List.of() : new TreeSet<>(roles).stream().toList();
    }

    /** Each field length-prefixed, so that no two (id, principal, roles) give the same bytes. */
    private static byte[] boundData(String keyId, String principal, Collection<String> roles) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        field(out, "taskgov-access-key/v2");
        field(out, String.valueOf(keyId));
        field(out, String.valueOf(principal));
        for (String role : canonicalRoles(roles)) {
            field(out, role);
        }
        return out.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
        out.writeBytes(bytes);
    }

    private String seal(byte[] associatedData, String secret, String keyId) {
        try {
            byte[] iv = randomBytes(IV_BYTES);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            c.updateAAD(associatedData);
            byte[] ct = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + ct.length).put(iv).put(ct).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt the secret of " + keyId, e);
        }
    }

    private String open(byte[] associatedData, String base64) throws GeneralSecurityException {
        byte[] all = Base64.getDecoder().decode(base64);
        if (all.length <= IV_BYTES) {
            throw new IllegalArgumentException("ciphertext too short");
        }
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
        c.updateAAD(associatedData);
        return new String(c.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
    }
}
