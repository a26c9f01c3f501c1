package dev.taskgov.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

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
            Thread.sleep(2_500);
            BenchKueueCommand.ProcessSample sample = BenchKueueCommand.ProcessSample.of(parent.pid()).orElseThrow();
            assertTrue(sample.cpuSeconds() >= 0.5,
                    "the parent's sample counts its child's spinning: " + sample.cpuSeconds() + " s");
        } finally {
            parent.descendants().forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
