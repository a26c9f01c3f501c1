package dev.taskgov.quota.api;

import java.security.SecureRandom;

/** Resource ids as SageMaker shapes them: 12 characters of [a-z0-9]. */
public final class Ids {
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Ids() {
    }

    public static String newId() {
        char[] id = new char[12];
        for (int i = 0; i < id.length; i++) {
            id[i] = ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length()));
        }
        return new String(id);
    }
}
