package dev.taskgov.benchmarks;

import dev.taskgov.core.estimate.RunTime;
import dev.taskgov.core.estimate.StartForecast;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.Scheduler;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One start forecast (docs/semantics.md, "Estimated start") of a full cluster with a deep queue: 30 teams,
 * {@code pending / 3} nodes, twice {@code pending} workloads submitted and one drain run, so that the cluster is full and
 * somewhat more than {@code pending} wait (the setup prints how many). Every workload declares a run time of 10 to 120 minutes. The score is the time of one forecast
 * (the copy of the scheduler and the simulation until every pending workload is admitted), which one change of state
 * costs however many pending workloads are then read; {@code pending} counts the estimates it gave and
 * {@code cpuMicros} the CPU time of the thread that ran it.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar StartForecastBenchmark -p pending=1000,10000}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class StartForecastBenchmark {

    @Param({"1000", "10000"})
    public int pending;

    /** The time of the forecast: when the benchmark workloads were submitted. */
    static final java.time.Instant NOW = java.time.Instant.parse("2026-11-30T10:00:00Z");

    private Scheduler live;

    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counts {
        public long estimates;
        public long known;
        public long cpuMicros;

        @Setup(Level.Iteration)
        public void reset() {
            estimates = 0;
            known = 0;
            cpuMicros = 0;
        }
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    @Setup(Level.Trial)
    public void cluster() {
        live = new AdmissionWorkloads(30, pending / 3, pending * 2, 42, AdmissionWorkloads.Shapes.FEW).newSchedulerWithQueue();
        live.cycle();
        long waiting = live.workloads().stream().filter(v -> v.state() == WorkloadState.Pending).count();
        long running = live.workloads().stream().filter(v -> v.state() == WorkloadState.Admitted).count();
        System.out.printf("%n%,d pending and %,d running after the first drain, on %,d nodes%n", waiting, running, pending / 3);
    }

    /** A declared run time of 10 to 120 minutes, the same for a workload in every run. */
    static Optional<RunTime> runTime(Workload w) {
        return Optional.of(RunTime.declared(Duration.ofMinutes(10 + Math.floorMod(w.id().hashCode(), 111))));
    }

    @Benchmark
    public StartForecast forecast(Counts counts) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        StartForecast f = StartForecast.of(live, StartForecastBenchmark::runTime, NOW);
        counts.cpuMicros += (THREADS.getCurrentThreadCpuTime() - t0) / 1000;
        counts.estimates += f.estimates().size();
        counts.known += f.estimates().values().stream().filter(e -> e.known()).count();
        return f;
    }

    /** One forecast without JMH: {@code java -cp benchmarks/target/benchmarks.jar dev.taskgov.benchmarks.StartForecastBenchmark PENDING}. */
    public static void main(String[] args) {
        StartForecastBenchmark b = new StartForecastBenchmark();
        b.pending = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        b.cluster();
        for (int i = 0; i < 3; i++) {
            long t0 = THREADS.getCurrentThreadCpuTime();
            StartForecast.Prepared copy = StartForecast.prepare(b.live, StartForecastBenchmark::runTime, NOW, StartForecast.Limits.DEFAULT);
            long t1 = THREADS.getCurrentThreadCpuTime();
            StartForecast f = copy.run();
            long t2 = THREADS.getCurrentThreadCpuTime();
            System.out.printf("forecast %d: copy %,d ms CPU, simulation %,d ms CPU, %,d estimates (%,d known), %,d ends in %,d cycles, "
                    + "%,d evictions%n", i, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, f.estimates().size(),
                    f.estimates().values().stream().filter(e -> e.known()).count(), f.simulatedEnds(), f.cycles(), f.evictions());
        }
    }
}
