package dev.taskgov.core.sim;

import dev.taskgov.core.events.JsonPathException;

/** A scenario file that cannot be replayed; {@link #path()} is the JSON path of the problem. */
public class ScenarioException extends JsonPathException {

    public ScenarioException(String path, String problem) {
        super(path, problem);
    }
}
