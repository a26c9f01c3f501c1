package dev.taskgov.service.support;

/**
 * An input record that is not the expected shape at all (not JSON, not an object, ...), as opposed to a
 * readable record that breaks a rule ({@link IllegalArgumentException}). Counted as {@code reason="unreadable"}.
 */
public class UnreadableRecordException extends IllegalArgumentException {
    public UnreadableRecordException(String message) {
        super(message);
    }

    public UnreadableRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
