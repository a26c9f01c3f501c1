package dev.taskgov.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up beside the main thread: only for commands that sign requests, never for help; it ends by itself. */
class StartupWarmupTest {

    @Test
    void aSignedCommandGetsAWarmupThatEndsByItself() throws InterruptedException {
        for (String[] args : new String[][] {{"get", "workloads"}, {"quota", "list"}, {"describe", "workload", "w1"}}) {
            Thread warmup = StartupWarmup.start(args);
            assertThat(warmup).as(String.join(" ", args)).isNotNull();
            assertThat(warmup.isDaemon()).as("never keeps the command's JVM alive").isTrue();
            warmup.join();
        }
    }

    @Test
    void helpAndCommandsThatSignNothingGetNone() {
        for (String[] args : new String[][] {{}, {"--help"}, {"quota", "list", "--help"}, {"get", "-h"}, {"completion", "bash"},
                {"simulate"}, {"gett", "workloads"}}) {
            assertThat(StartupWarmup.start(args)).as(String.join(" ", args)).isNull();
        }
    }
}
