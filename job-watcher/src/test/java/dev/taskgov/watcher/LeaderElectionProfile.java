package dev.taskgov.watcher;

import java.util.HashMap;
import java.util.Map;

/** {@link WatcherTestProfile} with leader election on, fast enough for a test. */
public class LeaderElectionProfile extends WatcherTestProfile {
    static final String IDENTITY = "job-watcher-test-0";

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> m = new HashMap<>(super.getConfigOverrides());
        m.put("taskgov.watcher.leader-election.enabled", "true");
        m.put("taskgov.watcher.leader-election.identity", IDENTITY);
        m.put("taskgov.watcher.leader-election.lease-duration", "PT4S");
        m.put("taskgov.watcher.leader-election.renew-deadline", "PT3S");
        m.put("taskgov.watcher.leader-election.retry-period", "PT0.3S");
        return m;
    }
}
