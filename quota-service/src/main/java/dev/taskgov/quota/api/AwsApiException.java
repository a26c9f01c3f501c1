package dev.taskgov.quota.api;

/**
 * An error answered in the AWS JSON 1.1 shape {@code {"__type": type, "message": message}}. The
 * types are the SageMaker model's error shapes, so the AWS SDK raises its typed exceptions
 * ({@code ResourceNotFoundException}, {@code ConflictException}); {@code ValidationException} is
 * the common AWS client error, raised by the SDK as a {@code SageMakerException} with that code.
 */
public final class AwsApiException extends RuntimeException {

    private final String type;
    private final int status;

    private AwsApiException(String type, int status, String message) {
        super(message);
        this.type = type;
        this.status = status;
    }

    /** Bad input: the message names the field and the rule. HTTP 400. */
    public static AwsApiException validation(String message) {
        return new AwsApiException("ValidationException", 400, message);
    }

    /** The named resource (or version) does not exist. HTTP 404 ({@code ResourceNotFound} shape). */
    public static AwsApiException notFound(String message) {
        return new AwsApiException("ResourceNotFound", 404, message);
    }

    /** The request conflicts with the current state (version mismatch, duplicate). HTTP 409. */
    public static AwsApiException conflict(String message) {
        return new AwsApiException("ConflictException", 409, message);
    }

    /**
     * The answer depends on what this instance has not learned yet; the same request may succeed later. HTTP 503
     * {@code ServiceUnavailable}, AWS's common error for a temporary failure: the AWS SDK for Java 2.x retries any 503
     * ({@code SdkDefaultRetrySetting.RETRYABLE_STATUS_CODES}) and so does the aws CLI (botocore's legacy and standard
     * retry modes), with backoff. Not {@code ThrottlingException}: that tells a client it called too often.
     */
    public static AwsApiException unavailable(String message) {
        return new AwsApiException("ServiceUnavailable", 503, message);
    }

    /** The X-Amz-Target names no operation this service offers. HTTP 400. */
    public static AwsApiException unknownOperation(String target) {
        return new AwsApiException("UnknownOperationException", 400,
                "X-Amz-Target '" + target + "' is not an operation of this service");
    }

    /** The error shape name, written to {@code __type}. */
    public String type() {
        return type;
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }
}
