package dev.taskgov.it;

import dev.taskgov.admission.AdmissionDecider;
import dev.taskgov.admission.AdmissionObserver;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.preemption.PreemptionDecider;
import dev.taskgov.preemption.PreemptionObserver;
import dev.taskgov.preemption.PreemptionProcessor;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.TransactionalLoop;
import org.apache.kafka.clients.CommonClientConfigs;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * One decider instance in its own JVM, as a service process runs it (the same {@link AdmissionDecider} or
 * {@link PreemptionDecider} the Quarkus services own, without the HTTP layer), so that a test can kill it with
 * {@code kill -9}. Usage: {@code DeciderProcess admission|preemption <bootstrap> <topic prefix> <instance> <client properties file>}.
 * It runs until its standard input closes (the parent ended) or it is killed.
 */
public final class DeciderProcess {

    /** The failover settings the local runtime uses too: 1 s sessions, 250 ms heartbeats, dynamic membership. */
    static final TransactionalLoop.Membership FAST = new TransactionalLoop.Membership(Duration.ofSeconds(1),
            Duration.ofMillis(250), null);

    private DeciderProcess() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: DeciderProcess admission|preemption <bootstrap> <topic prefix> <instance> <client properties file>");
            System.exit(2);
        }
        String role = args[0];
        String prefix = args[2];
        Properties client = new Properties();
        // the login (SASL) on a secured broker: the test's prefixed topics are the administrator's, not a service's grants
        try (var in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(args[4]))) {
            client.load(in);
        }
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, args[1]);
        client.put(CommonClientConfigs.CLIENT_ID_CONFIG, args[3]);
        AutoCloseable decider;
        if (role.equals("admission")) {
            AdmissionDecider a = new AdmissionDecider(new AdmissionDecider.Settings(client,
                    DeciderTopics.defaults(TopicCatalog.ADMISSION_CHANGELOG).prefixed(prefix), groupOf(role, prefix), "admission-" + prefix + "-",
                    "urn:taskgov:admission-service", Duration.ofMillis(20), Duration.ofMinutes(2), false, FAST),
                    Clock.systemUTC(), AdmissionObserver.NONE);
            a.start();
            decider = a;
        } else {
            PreemptionDecider p = new PreemptionDecider(new PreemptionDecider.Settings(client,
                    new PreemptionProcessor.Settings(DeciderTopics.defaults(TopicCatalog.PREEMPTION_CHANGELOG).prefixed(prefix), Map.of(), Duration.ofMinutes(5)),
                    groupOf(role, prefix), "preemption-" + prefix + "-", "urn:taskgov:preemption-service",
                    Duration.ofMillis(20), Duration.ofMinutes(2), false, FAST), Clock.systemUTC(), PreemptionObserver.NONE);
            p.start();
            decider = p;
        }
        System.out.println(role + " decider " + args[3] + " started");
        while (System.in.read() != -1) {
            // the parent writes nothing; end of input = the parent is gone
        }
        decider.close();
        System.exit(0);
    }

    /** The consumer group of a role's deciders on topics with this prefix. */
    static String groupOf(String role, String prefix) {
        return role + "-" + prefix;
    }
}
