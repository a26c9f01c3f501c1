package dev.taskgov.core.sim;

/** A scenario file that cannot be replayed; {@link #path()} is the JSON path of the problem. */
public class ScenarioException extends RuntimeException {
    private final String path;
    private final String problem;

    public ScenarioException(String path, String problem) {
        super(path + ": " + problem);
        this.path = path;
        this.problem = problem;
    }

    /** What is wrong, without the path. */
    public String problem() {
        return problem;
    }

    public String path() {
        return path;
    }
}
