package dev.taskgov.core.auth;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

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

    /** base64(iv || ciphertext+tag); the key id goes in as associated data, so a ciphertext cannot move to another key. */
    public String encrypt(String keyId, String secret) {
        try {
            byte[] iv = randomBytes(IV_BYTES);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            c.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
            byte[] ct = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + ct.length).put(iv).put(ct).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt the secret of " + keyId, e);
        }
    }

    /** The secret; refused when the ciphertext was made with another master key or altered. */
    public String decrypt(String keyId, String ciphertext) {
        try {
            byte[] all = Base64.getDecoder().decode(ciphertext);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
            c.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
            return new String(c.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("the secret of " + keyId + " does not decrypt with this master key"
                    + " (another TASKGOV_MASTER_KEY or master.key file?)", e);
        }
    }
}
