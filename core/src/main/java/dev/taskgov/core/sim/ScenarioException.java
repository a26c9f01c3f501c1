package dev.taskgov.core.sim;

/** A scenario file that cannot be replayed; {@link #path()} is the JSON path of the problem. */
public class ScenarioException extends RuntimeException {
    private final String path;

    public ScenarioException(String path, String problem) {
        super(path + ": " + problem);
        this.path = path;
    }

    public String path() {
        return path;
    }
}
