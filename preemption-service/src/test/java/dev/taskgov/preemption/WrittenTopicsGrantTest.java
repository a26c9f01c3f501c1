package dev.taskgov.preemption;

import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.DeciderTopics;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decider keeps its producers' batches within what each topic it writes accepts, read as it starts: each of those
 * topics is one whose limit its login may read (a grant of core's {@link KafkaAccess}).
 */
class WrittenTopicsGrantTest {

    @Test
    void everyTopicTheDeciderWritesIsOneItsLoginMayReadTheLimitOf() {
        List<String> describable = KafkaAccess.serviceGrants(TopicCatalog.Topic::defaultName).stream()
                .filter(g -> g.principal().equals(KafkaAccess.PREEMPTION_SERVICE)
                        && g.operation() == KafkaAccess.Operation.DESCRIBE_CONFIGS)
                .map(KafkaAccess.Grant::name).toList();
        assertThat(describable).containsExactlyInAnyOrderElementsOf(
                PreemptionDecider.writtenTopics(DeciderTopics.defaults(TopicCatalog.PREEMPTION_CHANGELOG)));
    }
}
