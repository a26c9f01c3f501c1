package dev.taskgov.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;

/**
 * A throw-away single-node KRaft broker for tests, configured as the local runtime's ({@link SecureBroker}:
 * SASL/SCRAM only, ACLs enforced, every service's principal and grants provisioned), on random loopback ports.
 *
 * <p>Runs as a child process of a test JVM so that the broker's classpath (Scala, Kafka server) never meets the
 * Quarkus test classpath. Usage: {@code TestKafkaBroker <broker-dir> <bootstrap-file>}: the directory gets fresh
 * credentials and data; once the broker is ready and provisioned, its bootstrap address is written to the file
 * (the credentials are then in {@code <broker-dir>/credentials.properties}). The broker stops when its standard
 * input closes, which happens when the parent JVM exits for any reason, so no broker is orphaned.
 */
public final class TestKafkaBroker {

    /** Partitions of the shared topics in tests: more than one, so that ordering-by-key bugs can show. */
    private static final int PARTITIONS = 3;

    private TestKafkaBroker() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: TestKafkaBroker <broker-dir> <bootstrap-file>");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Path bootstrapFile = Path.of(args[1]);
        int[] ports = twoFreePorts();
        int port = ports[0];
        Path config = SecureBroker.prepare(dir, port, ports[1], PARTITIONS);
        Thread broker = new Thread(() -> LocalBroker.main(new String[] {config.toString()}), "kafka-main");
        broker.setDaemon(true);
        broker.start();
        String bootstrap = "127.0.0.1:" + port;
        awaitReady(dir, bootstrap);
        KafkaProvisioning.provision(dir, bootstrap, PARTITIONS, List.of());
        writeAtomically(bootstrapFile, bootstrap);
        System.out.println("taskgov test broker ready at " + bootstrap);
        // Block until the parent closes our stdin (normal end or crash of the test JVM); Kafka's own shutdown
        // hook then stops the broker in order.
        while (System.in.read() != -1) {
            // ignore anything written to us
        }
        System.exit(0);
    }

    private static void awaitReady(Path dir, String bootstrap) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try (Admin admin = KafkaProvisioning.admin(dir, bootstrap)) {
            while (true) {
                try {
                    admin.describeCluster().nodes().get(3, TimeUnit.SECONDS);
                    return;
                } catch (Exception notYet) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("the broker did not answer", notYet);
                    TimeUnit.MILLISECONDS.sleep(200);
                }
            }
        }
    }

    /**
     * The listener's and the controller's ports, distinct: the first socket stays open while the second is chosen
     * (test-support's FreePorts does the same for tests; this process does not have test-support on its class path).
     */
    private static int[] twoFreePorts() throws IOException {
        try (ServerSocket first = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServerSocket second = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new int[] {first.getLocalPort(), second.getLocalPort()};
        }
    }

    private static void writeAtomically(Path target, String content) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
