package dev.taskgov.bench;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A scheduled finish runs or is taken back by a preemption, never both and never neither. */
class PendingFinishesTest {

    @Test
    void aFinishRunsUnlessTakenBackAndOnlyTheLastScheduledForAWorkloadRuns() throws InterruptedException {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
        PendingFinishes finishes = new PendingFinishes(executor);
        Set<String> ran = ConcurrentHashMap.newKeySet();

        finishes.schedule("runs", 0, () -> ran.add("runs"));
        finishes.schedule("taken-back", 60_000, () -> ran.add("taken-back"));
        finishes.schedule("twice", 60_000, () -> ran.add("twice-first"));
        finishes.schedule("twice", 0, () -> ran.add("twice-second"));
        assertThat(finishes.takeBack("taken-back")).isTrue();
        assertThat(finishes.takeBack("taken-back")).as("taken back once").isFalse();
        assertThat(finishes.takeBack("never-scheduled")).isFalse();
        drain(executor);

        assertThat(ran).containsExactlyInAnyOrder("runs", "twice-second");
        assertThat(finishes.takeBack("runs")).as("a finish that ran cannot be taken back").isFalse();
    }

    @Test
    void aPreemptionReadWhileTheFinishIsDueEitherTakesItBackOrFindsItGoneNeverBoth() throws InterruptedException {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
        PendingFinishes finishes = new PendingFinishes(executor);
        Set<String> ran = ConcurrentHashMap.newKeySet();
        Set<String> takenBack = new HashSet<>();
        int workloads = 20_000;
        for (int i = 0; i < workloads; i++) {
            String id = "w-" + i;
            finishes.schedule(id, 0, () -> ran.add(id));
            // the preemption read races the finish that is due at once
            if (finishes.takeBack(id)) takenBack.add(id);
        }
        drain(executor);

        for (int i = 0; i < workloads; i++) {
            String id = "w-" + i;
            assertThat(ran.contains(id) ^ takenBack.contains(id)).as(id + ": ran %s, taken back %s", ran.contains(id),
                    takenBack.contains(id)).isTrue();
        }
    }

    private static void drain(ScheduledThreadPoolExecutor executor) throws InterruptedException {
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // the finishes due in 60 s are dropped
        executor.shutdown();
        assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
}
