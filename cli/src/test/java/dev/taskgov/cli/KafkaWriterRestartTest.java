package dev.taskgov.cli;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.testsupport.RestartableKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The CLI's writes to Kafka across a broker restart ({@code kill -9}, then started again on the same address with
 * its data), with a real broker: a write made while the broker is away is retried, said so on stderr, and lands
 * once the broker is back; a broker that stays away makes the command fail after the configured time, naming it.
 */
class KafkaWriterRestartTest {

    static RestartableKafka broker;
    static String adminConfig;

    @BeforeAll
    static void start() {
        broker = RestartableKafka.start("cli-writer");
        adminConfig = broker.clientConfigFile(KafkaAccess.ADMIN).toString();
    }

    @AfterAll
    static void stop() {
        if (broker != null) broker.close();
    }

    @Test
    void aWriteWhileTheBrokerRestartsIsRetriedAndLandsAndABrokerThatStaysAwayFailsItInBoundedTime()
            throws Exception {
        Cli.Result before = Cli.run("finish", "before-restart", "--kafka-bootstrap", broker.bootstrapServers(), "--kafka-config", adminConfig);
        assertThat(before.exit()).as(before.err()).isZero();

        broker.kill();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> during = CompletableFuture.supplyAsync(() -> {
            String[] args = {"finish", "during-restart", "--kafka-bootstrap", broker.bootstrapServers(), "--kafka-config", adminConfig, "--kafka-retry", "3m"};
            CommandLine cmd = TaskgovMain.commandLine(args);
            cmd.setOut(new PrintWriter(new StringWriter(), true));
            cmd.setErr(new PrintWriter(err, true));
            return cmd.execute(args);
        });
        await("the writer says it retries").atMost(Duration.ofMinutes(1)).until(() -> err.toString().contains("retrying in"));
        assertThat(during).isNotDone();
        broker.restart();
        assertThat(during.get(3, TimeUnit.MINUTES)).as(err.toString()).isZero();
        assertThat(err.toString())
                .contains("cannot write to Kafka topic taskgov.workload.finished at " + broker.bootstrapServers() + " yet")
                .contains("wrote to Kafka topic taskgov.workload.finished at attempt");
        assertThat(finishedIds()).contains("before-restart", "during-restart");

        broker.kill();
        Cli.Result away = Cli.run("finish", "broker-away", "--kafka-bootstrap", broker.bootstrapServers(), "--kafka-config", adminConfig, "--kafka-retry", "20s");
        assertThat(away.exit()).isNotZero();
        assertThat(away.err()).contains("retrying in")
                .contains("error: cannot write to Kafka topic taskgov.workload.finished")
                .containsPattern("after \\d+ attempts in \\d+s \\(--kafka-retry 20s\\)");
        broker.restart();
    }

    @Test
    void aBadRetryDurationIsRefusedNamingTheOption() {
        Cli.Result r = Cli.run("finish", "x", "--kafka-bootstrap", broker.bootstrapServers(), "--kafka-config", adminConfig, "--kafka-retry", "soon");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("--kafka-retry: 'soon' is not a duration");
    }

    private static List<String> finishedIds() {
        Properties p = new Properties();
        p.putAll(broker.clientProperties(KafkaAccess.ADMIN));
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "cli-restart-" + java.util.UUID.randomUUID());
        List<String> ids = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of(KafkaWriter.FINISHED_TOPIC));
            await().atMost(Duration.ofMinutes(1)).until(() -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    ids.add(EventCodec.read(r.value().getBytes(java.nio.charset.StandardCharsets.UTF_8), WorkloadFinished.class).workloadId());
                }
                return ids.contains("during-restart");
            });
        }
        return ids;
    }
}
