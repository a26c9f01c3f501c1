package dev.taskgov.local;

/**
 * A Kafka broker ({@link LocalBroker} with a server.properties) that stops when its standard input closes, as
 * {@link TestKafkaBroker} does: a test that starts it as a child process never leaves it behind, even when the
 * test JVM is killed. Unlike {@link TestKafkaBroker} its ports and data directory are those of the properties
 * file, so a test can kill it and start it again on the same address with the same data (a broker restart).
 *
 * <p>Usage: {@code ParentBoundKafka <server.properties>}; the storage must be formatted first
 * ({@code kafka.tools.StorageTool format}).
 */
public final class ParentBoundKafka {

    private ParentBoundKafka() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ParentBoundKafka <server.properties>");
            System.exit(2);
        }
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() != -1) {
                    // ignore anything written to us
                }
            } catch (java.io.IOException e) {
                // the parent is gone as well
            }
            System.exit(0); // Kafka's own shutdown hook stops the broker in order
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        LocalBroker.main(args);
    }
}
