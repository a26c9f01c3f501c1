package dev.taskgov.watcher;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** team-name runs on one instance type only, so seed 000's jobs need no instance-type selector. */
public class WatcherTestProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("taskgov.watcher.team-instance-types.team-name", "ml.p5.48xlarge",
                "taskgov.watcher.resync-period", "PT0S");
    }
}
