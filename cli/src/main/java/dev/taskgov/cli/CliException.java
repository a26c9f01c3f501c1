package dev.taskgov.cli;

/** A command failed; {@link #exitCode()} is what the process exits with, the message goes to stderr. */
public final class CliException extends RuntimeException {

    /** Exit code: the command failed, or what it asked for does not exist. */
    public static final int FAILED = 1;
    /** Exit code: the arguments or the input are invalid. */
    public static final int INVALID_INPUT = 2;

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public static CliException invalid(String message) {
        return new CliException(INVALID_INPUT, message);
    }

    /** Refuses an id that breaks the workload id rule before anything is sent. */
    static void checkWorkloadId(String id) {
        dev.taskgov.core.model.WorkloadIds.problem(id).ifPresent(rule -> {
            throw invalid("workload id: " + rule);
        });
    }

    public static CliException failed(String message) {
        return new CliException(FAILED, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
