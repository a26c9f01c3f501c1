package dev.taskgov.preemption;

import dev.taskgov.service.support.PartitionScope;
import dev.taskgov.service.support.TransactionalLoop;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * service-support's {@link TransactionalLoop} with first topics (run here, where a broker is at hand): a record of a
 * first topic (admission's finishes and evictions, which free capacity) is decided in a short turn ahead of a backlog
 * of another group topic (the submissions) that the consumer has fetched already, and the backlog is still read once
 * each, in its order.
 */
class FirstTopicsTest {

    @Test
    void aFinishIsDecidedInAShortTurnAheadOfABacklogAlreadyFetchedAndTheBacklogIsReadOnceInOrderAtMost250ATurn() throws Exception {
        try (TestCluster c = new TestCluster("first-topics")) {
            String backlogTopic = c.topics.preemptionRequested();
            String firstTopic = c.topics.preempted();
            Map<Integer, CatchUpPollTest.Batches> processors = new ConcurrentHashMap<>();
            TransactionalLoop loop = new TransactionalLoop(new TransactionalLoop.Settings(c.client, "first-" + c.id,
                    List.of(backlogTopic, firstTopic), List.of(), Set.of(), "first-" + c.id, "urn:taskgov:test",
                    c.topics.deadLetter(), Duration.ofMillis(50), Duration.ofMinutes(1),
                    TransactionalLoop.Membership.KAFKA_DEFAULTS, null, TransactionalLoop.Turns.DEFAULTS)
                    .withFirstTopics(Set.of(firstTopic)),
                    (PartitionScope scope) -> processors.computeIfAbsent(scope.partition(), n -> new CatchUpPollTest.Batches()), Clock.systemUTC());
            Thread thread = new Thread(loop, "first-topics-loop");
            thread.setDaemon(true);
            thread.start();
            c.own(loop);
            await().atMost(Duration.ofMinutes(2)).until(loop::isDecider);
            int home = c.home(backlogTopic);
            assertThat(c.home(firstTopic)).isEqualTo(home);
            byte[] value = "{}".getBytes(StandardCharsets.UTF_8);
            try (KafkaProducer<String, byte[]> producer = CatchUpPollTest.producer(c, lingering())) {
                producer.send(new ProducerRecord<>(backlogTopic, home, "gate", value)).get(30, TimeUnit.SECONDS);
                CatchUpPollTest.Batches p = processors.get(home);
                assertThat(p.gateReached.await(1, TimeUnit.MINUTES)).isTrue();

                // While the gate's turn runs on, a backlog of four polls' worth arrives, then one finish: without first
                // topics the consumer hands the finish out after the backlog fetched with it, in the last batch.
                List<String> backlog = IntStream.range(0, 20_000).mapToObj(i -> String.format("s-%05d", i)).toList();
                for (String key : backlog) producer.send(new ProducerRecord<>(backlogTopic, home, key, value));
                producer.flush();
                producer.send(new ProducerRecord<>(firstTopic, home, "finish", value)).get(30, TimeUnit.SECONDS);
                p.release.countDown();

                await().atMost(Duration.ofMinutes(2)).until(() -> p.applied() == backlog.size() + 2);
                List<String> backlogRead = new ArrayList<>();
                int finishBatch = -1;
                for (int i = 0; i < p.batches.size(); i++) {
                    for (String key : p.batches.get(i)) {
                        if (key.equals("finish")) finishBatch = i;
                        else if (key.startsWith("s-")) backlogRead.add(key);
                    }
                }
                assertThat(backlogRead).as("every backlog record once, in its order").isEqualTo(backlog);
                // every turn is short, with a finish or without: one may arrive at any moment
                assertThat(p.batches).as("backlog records per turn")
                        .allSatisfy(batch -> assertThat(batch.stream().filter(k -> k.startsWith("s-")).count()).isLessThanOrEqualTo(250));
                int after = p.batches.subList(finishBatch + 1, p.batches.size()).stream().mapToInt(List::size).sum();
                assertThat(after).as("backlog records decided after the finish").isGreaterThanOrEqualTo(backlog.size() / 4);
            }
        }
    }

    @Test
    void aFirstTopicThatIsNotAGroupTopicIsRefusedNamingTheField() {
        Properties client = new Properties();
        assertThatThrownBy(() -> new TransactionalLoop.Settings(client, "g", List.of("submitted"), List.of(), Set.of(), "t-",
                "urn:taskgov:test", "dead", Duration.ofMillis(50), Duration.ofMinutes(1),
                TransactionalLoop.Membership.KAFKA_DEFAULTS, null).withFirstTopics(Set.of("finished")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("firstTopics: finished must be one of the group topics [submitted]");
    }

    private static Properties lingering() {
        Properties more = new Properties();
        more.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return more;
    }
}
