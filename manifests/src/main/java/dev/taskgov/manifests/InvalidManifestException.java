package dev.taskgov.manifests;

/**
 * A manifest taskgov cannot translate as written. The message names the field (its path in the
 * manifest) and the rule; {@code reason} is a CamelCase word fit for a Kubernetes Event's reason.
 */
public final class InvalidManifestException extends RuntimeException {

    private final String reason;

    public InvalidManifestException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
