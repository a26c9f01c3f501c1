package dev.taskgov.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A throw-away single-node KRaft broker (broker and controller in one process) for tests,
 * started with Kafka's own {@link KafkaClusterTestKit} on random loopback ports.
 *
 * <p>Runs as a child process of a test JVM so that the broker's classpath (Scala, Kafka server)
 * never meets the Quarkus test classpath. Usage: {@code TestKafkaBroker <bootstrap-file>}: once the
 * broker is ready its bootstrap address is written to that file. The broker stops when its standard
 * input closes, which happens when the parent JVM exits for any reason, so no broker is orphaned.
 */
public final class TestKafkaBroker {

    private TestKafkaBroker() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: TestKafkaBroker <bootstrap-file>");
            System.exit(2);
        }
        Path bootstrapFile = Path.of(args[0]);
        TestKitNodes nodes = new TestKitNodes.Builder()
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("auto.create.topics.enable", "true")
                .setConfigProp("num.partitions", "3")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                // Deciders' failover tests run 1 s sessions (a dead instance's clusters move within seconds, not 6 s or more).
                .setConfigProp("group.min.session.timeout.ms", "500")
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "3")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "3")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        writeAtomically(bootstrapFile, cluster.bootstrapServers());
        System.out.println("taskgov test broker ready at " + cluster.bootstrapServers());

        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(cluster), "broker-shutdown"));
        // Block until the parent closes our stdin (normal end or crash of the test JVM).
        while (System.in.read() != -1) {
            // ignore anything written to us
        }
        System.exit(0);
    }

    private static void writeAtomically(Path target, String content) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void closeQuietly(KafkaClusterTestKit cluster) {
        try {
            cluster.close();
        } catch (Exception e) {
            System.err.println("broker close failed: " + e);
        }
    }
}
