package dev.taskgov.quota;

import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.quota.auth.AuditTrail;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A measurement, not a test (its name keeps it out of the build's test runs; it asserts nothing): the CPU and wall
 * time quota-service spends storing the admission decider's audit records from the topic, on the real PostgreSQL,
 * a batch at a time as the audit consumer stores a poll. Run it alone:
 * <pre>
 * ./mvnw -B -q -o -pl quota-service -am verify -Dtest=AuditStoreMeasurement -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=none -Dfailsafe.failIfNoSpecifiedTests=false [-Daudit.records=30000] [-Daudit.batch=500]
 * </pre>
 * {@code -Daudit.batch=1} stores one record per transaction. The calling thread's CPU is the storing itself; the
 * process's CPU adds what else the service did meanwhile (its idle consumers, the collector, the compiler).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AuditStoreMeasurement {

    @Inject
    AuditTrail audit;

    @Test
    void storeTheDecidersRecords() {
        int records = Integer.getInteger("audit.records", 30_000);
        int batch = Integer.getInteger("audit.batch", 500);
        run("warm-up", 3_000, batch);
        run("measured", records, batch);
    }

    private void run(String what, int records, int batch) {
        List<AuditEvent> events = decisions(records);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = threads.getCurrentThreadCpuTime();
        long process = os.getProcessCpuTime();
        long wall = System.nanoTime();
        for (int from = 0; from < events.size(); from += batch) {
            audit.storeFromTopic(events.subList(from, Math.min(events.size(), from + batch)));
        }
        wall = System.nanoTime() - wall;
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        process = os.getProcessCpuTime() - process;
        System.out.printf("AuditStoreMeasurement %s: %d records, batch %d: wall %.2f s, storing thread CPU %.2f s "
                        + "(%.1f us/record), process CPU %.2f s%n", what, records, batch, wall / 1e9, cpu / 1e9,
                cpu / 1e3 / records, process / 1e9);
    }

    /** As the admission decider writes them: the input record's coordinates as event id, one chain. */
    private static List<AuditEvent> decisions(int count) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String service = "admission-service-" + run;
        Instant at = Instant.now();
        List<AuditEvent> events = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            boolean submit = n % 2 == 0;
            String topic = submit ? "taskgov.workload.submitted.team-a" : "taskgov.workload.finished";
            events.add(new AuditEvent("kafka:" + topic + "-" + (n % 3) + "@" + run + n, at.plusNanos(n * 1000L), service,
                    submit ? "team.team-a" : "kafka:taskgov.workload.finished (admin or a service granted it)",
                    submit ? "SubmitWorkload" : "FinishWorkload", "workload baseline-" + (n / 2),
                    submit ? AuditEvent.ALLOWED : "Allowed (Succeeded)", null, null));
        }
        return events;
    }
}
