package dev.taskgov.preemption;

import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.service.support.Outbox;
import dev.taskgov.service.support.PartitionScope;
import dev.taskgov.service.support.TransactionalLoop;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * service-support's {@link TransactionalLoop} (run here, where a broker is at hand) when a processor throws while
 * restoring a side record: the loop thread goes on, the record is left out of the state and dead-lettered with the
 * failure as its reason, once, and the partition decides as before.
 */
class UnrestorableSideRecordTest {

    /** Restores the keys of its side topic; one record it cannot restore (a processor's bug, not the record's). */
    static final class Restoring implements TransactionalLoop.Processor<String> {
        @Override
        public String decode(ConsumerRecord<String, byte[]> record) {
            return record.key();
        }

        final List<String> restored = new CopyOnWriteArrayList<>();
        final List<String> applied = new CopyOnWriteArrayList<>();
        final List<String> refused = new CopyOnWriteArrayList<>();

        @Override
        public void rebuild(Properties clientProps, Duration timeout) {
            restored.clear();
        }

        @Override
        public void restoreSide(ConsumerRecord<String, byte[]> record, String key) {
            if ("bad".equals(key)) throw new IllegalStateException("cannot restore " + key);
            restored.add(key);
        }

        @Override
        public void settle(Outbox outbox) {
        }

        @Override
        public void apply(ConsumerRecord<String, byte[]> record, String key, Outbox outbox) {
            applied.add(key);
        }

        @Override
        public void afterBatch(Outbox outbox) {
        }

        @Override
        public void revoked() {
        }

        @Override
        public void refusedAfterFailure(ConsumerRecord<String, byte[]> record, String reason) {
            refused.add(record.key());
        }
    }

    @Test
    void aSideRecordThatCannotBeRestoredIsDeadLetteredAndTheLoopGoesOn() {
        try (TestCluster c = new TestCluster("unrestorable")) {
            byte[] value = "{}".getBytes(StandardCharsets.UTF_8);
            c.publishRaw(c.topics.changelog(), "good-1", value);
            c.publishRaw(c.topics.changelog(), "bad", value);
            c.publishRaw(c.topics.changelog(), "good-2", value);
            Map<Integer, Restoring> processors = new ConcurrentHashMap<>();
            TransactionalLoop loop = new TransactionalLoop(new TransactionalLoop.Settings(c.client, "unrestorable-" + c.id,
                    List.of(c.topics.preemptionRequested()), List.of(c.topics.changelog()), Set.of(c.topics.changelog()),
                    "unrestorable-" + c.id, "urn:taskgov:test", c.topics.deadLetter(), Duration.ofMillis(50), Duration.ofMinutes(1),
                    TransactionalLoop.Membership.KAFKA_DEFAULTS, null),
                    (PartitionScope scope) -> processors.computeIfAbsent(scope.partition(), n -> new Restoring()), Clock.systemUTC());
            Thread thread = new Thread(loop, "unrestorable-loop");
            thread.setDaemon(true);
            thread.start();
            c.own(loop);
            int home = c.home(c.topics.changelog());

            await().atMost(Duration.ofMinutes(2)).until(loop::isDecider);
            assertThat(thread.isAlive()).isTrue();
            assertThat(processors.get(home).restored).containsExactly("good-1", "good-2");
            await().atMost(Duration.ofMinutes(1)).until(() -> !c.readAll(c.topics.deadLetter()).isEmpty());
            assertThat(c.readAll(c.topics.deadLetter(), DeadLetter.class)).singleElement().satisfies(letter -> {
                assertThat(letter.topic()).isEqualTo(c.topics.changelog());
                assertThat(letter.partition()).isEqualTo(home);
                assertThat(letter.offset()).isEqualTo(1);
                assertThat(letter.reason()).contains("restoring the state failed").contains("cannot restore bad");
            });
            assertThat(processors.get(home).refused).containsExactly("bad");

            // The partition decides as before.
            c.publishRaw(c.topics.preemptionRequested(), "next", value);
            await().atMost(Duration.ofMinutes(1)).until(() -> processors.get(home).applied.contains("next"));
            assertThat(thread.isAlive()).isTrue();
            assertThat(c.readAll(c.topics.deadLetter())).hasSize(1);
        }
    }
}
