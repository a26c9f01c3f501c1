package dev.taskgov.service.support.auth;

/**
 * A refused request, in AWS's error shapes: the {@code __type} a client (the AWS SDK, the {@code aws} CLI) maps to
 * its typed exception, the status AWS answers it with, and a message saying what was wrong.
 */
public final class AuthFailure extends RuntimeException {

    /** No {@code Authorization} header (or a scheme other than SigV4). */
    public static final String MISSING_TOKEN = "MissingAuthenticationTokenException";
    /** The access key id names no active key. */
    public static final String UNRECOGNIZED_CLIENT = "UnrecognizedClientException";
    /** The signature does not match, is too old or too new (clock skew), or was already used (replay). */
    public static final String INVALID_SIGNATURE = "InvalidSignatureException";
    /** The Authorization header lacks a part (Credential, SignedHeaders, Signature) or the request its date. */
    public static final String INCOMPLETE_SIGNATURE = "IncompleteSignature";
    /** Authenticated, but the principal's roles do not allow the operation. */
    public static final String ACCESS_DENIED = "AccessDeniedException";

    private final String type;
    private final int status;
    private String claimedKeyId;

    public AuthFailure(String type, int status, String message) {
        super(message);
        this.type = type;
        this.status = status;
    }

    static AuthFailure missingToken() {
        return new AuthFailure(MISSING_TOKEN, 403, "Missing Authentication Token");
    }

    static AuthFailure incomplete(String message) {
        return new AuthFailure(INCOMPLETE_SIGNATURE, 400, message);
    }

    static AuthFailure unrecognized(String keyId) {
        return new AuthFailure(UNRECOGNIZED_CLIENT, 400,
                "The security token included in the request is invalid (unknown or revoked access key " + keyId + ")");
    }

    static AuthFailure invalidSignature(String message) {
        return new AuthFailure(INVALID_SIGNATURE, 400, message);
    }

    /**
     * The principal may not do this. SageMaker answers {@code AccessDeniedException} with 400 (its common errors);
     * the plain HTTP APIs of admission- and topology-service answer 403, as HTTP means it.
     */
    public static AuthFailure accessDenied(int status, String message) {
        return new AuthFailure(ACCESS_DENIED, status, message);
    }

    /** Records the access key id the refused request named (unverified), for the audit trail. */
    AuthFailure claimedBy(String keyId) {
        this.claimedKeyId = keyId;
        return this;
    }

    /** The access key id the request named, when it named one; not proof of who sent it. */
    public String claimedKeyId() {
        return claimedKeyId;
    }

    public String type() {
        return type;
    }

    public int status() {
        return status;
    }
}
