package dev.taskgov.core.events;

/**
 * JSON input that breaks a rule: {@link #path()} is where ({@code $.steps[3].submit}), {@link #problem()} what is
 * wrong there; the message is both, so that whoever reads it knows the field and the rule.
 */
public class JsonPathException extends IllegalArgumentException {
    private final String path;
    private final String problem;

    public JsonPathException(String path, String problem) {
        super(path + ": " + problem);
        this.path = path;
        this.problem = problem;
    }

    /** The JSON path of the problem. */
    public String path() {
        return path;
    }

    /** What is wrong, without the path. */
    public String problem() {
        return problem;
    }
}
