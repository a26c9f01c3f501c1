package dev.taskgov.service.support;

import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * How a decider instance takes part in its consumer group (admission and preemption alike): the settings that
 * decide how fast a dead instance's clusters move to another one.
 */
public interface DeciderMembershipConfig {

    /**
     * How long a silent instance keeps its partitions: a dead one's clusters move after it (plus the rebalance
     * and the rebuild of their state). The broker refuses less than its {@code group.min.session.timeout.ms}
     * (6 s unless lowered; the local runtime and the tests lower it to 500 ms and run 1 s).
     */
    @WithDefault("PT6S")
    Duration sessionTimeout();

    /** How often an instance tells the group it lives; a third of the session timeout or less. */
    @WithDefault("PT1S")
    Duration heartbeatInterval();

    /**
     * Static membership ({@code group.instance.id}, e.g. a StatefulSet pod name): a restart within the session
     * timeout keeps the instance's partitions without a rebalance. Unset: dynamic membership.
     */
    Optional<String> groupInstanceId();

    /** These settings as the loop takes them. */
    static TransactionalLoop.Membership membership(DeciderMembershipConfig c) {
        return new TransactionalLoop.Membership(c.sessionTimeout(), c.heartbeatInterval(), c.groupInstanceId().orElse(null));
    }
}
