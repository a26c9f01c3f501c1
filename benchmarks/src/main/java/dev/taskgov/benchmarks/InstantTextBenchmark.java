package dev.taskgov.benchmarks;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.InstantText;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.model.WorkloadState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.time.Instant;

/**
 * Instants as text, as every record the services write carries them: the JDK's {@code Instant.toString} and
 * {@code Instant.parse} against {@link InstantText}, and one status record encoded whole (what the decider writes for
 * every change of a workload).
 */
@State(Scope.Benchmark)
@Fork(1)
public class InstantTextBenchmark {

    private final Instant instant = Instant.parse("2026-12-05T22:43:44.123456Z");
    private final String text = instant.toString();
    private final WorkloadStatus status = new WorkloadStatus("w-000001", "team-a", WorkloadState.Pending, "QuotaExceeded",
            "waiting for quota: team-a uses 8 of 8 nominal accelerators of ml.p5.48xlarge", instant,
            "arn:aws:sagemaker:us-west-2:000000000000:cluster/bench");

    @Benchmark
    public String formatJdk() {
        return instant.toString();
    }

    @Benchmark
    public String formatInstantText() {
        return InstantText.format(instant);
    }

    @Benchmark
    public Instant parseJdk() {
        return Instant.parse(text);
    }

    @Benchmark
    public Instant parseInstantText() {
        return InstantText.parse(text);
    }

    @Benchmark
    public byte[] encodeStatus() {
        return EventCodec.bytes(status);
    }
}
