package dev.taskgov.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A platform process's CPU counts the processes below it, as PostgreSQL's backends are below the postmaster. */
class ProcessSampleTest {

    @Test
    void aProcessCountsTheCpuOfTheProcessesBelowIt() throws Exception {
        // The shell itself only waits; its child spins for about a second of CPU and then sleeps, still running.
        Process parent = new ProcessBuilder("sh", "-c",
                "sh -c 'end=$(( $(date +%s) + 1 )); while [ $(date +%s) -le $end ]; do :; done; sleep 30' & wait")
                .start();
        try {
            // The parent's own CPU stays near zero: only its child's spinning can bring its sample to half a second.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                BenchKueueCommand.ProcessSample sample = BenchKueueCommand.ProcessSample.of(parent.pid()).orElseThrow();
                assertTrue(sample.cpuSeconds() >= 0.5,
                        "the parent's sample counts its child's spinning: " + sample.cpuSeconds() + " s");
            });
        } finally {
            parent.descendants().forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theLocalRuntimesPostgresServerIsMeasuredFromItsOwnPidFile(@org.junit.jupiter.api.io.TempDir Path home) throws Exception {
        long self = ProcessHandle.current().pid();
        Files.createDirectories(home.resolve("run"));
        Files.writeString(home.resolve("run/quota-service.pid"), self + "\n");
        Files.createDirectories(home.resolve("postgres"));
        // postmaster.pid's first line is the server's pid; the data folder and port follow
        Files.writeString(home.resolve("postgres/postmaster.pid"), self + "\n" + home.resolve("postgres") + "\n1700000000\n5432\n");
        var samples = BenchKueueCommand.ProcessSample.all(home.resolve("run"));
        assertEquals(java.util.List.of("quota-service", "postgres-server"), java.util.List.copyOf(samples.keySet()));
        assertEquals(self, samples.get("postgres-server").pid());
    }
}
