package dev.taskgov.benchmarks;

import dev.taskgov.core.scheduling.Decision;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A full drain: 100 teams, 5,000 nodes, {@code pending} queued workloads; one {@link Scheduler#cycle()}
 * admits everything it can (with in-process preemptions) and explains the rest. The score is the
 * time of one drain; the {@code decisions} and {@code admitted} counters give decisions per drain,
 * so decisions/s = decisions / score; {@code cpuMicros} is the draining thread's CPU time.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar AdmissionCycleBenchmark -p pending=1000,10000,100000}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 20) // a drain at 1k pending lasts milliseconds: the JIT needs many of them
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class AdmissionCycleBenchmark {

    @Param({"1000", "10000", "100000"})
    public int pending;

    /** FEW: alike workloads, as pipelines submit them; DISTINCT: no two alike (the worst case). */
    @Param({"FEW", "DISTINCT"})
    public AdmissionWorkloads.Shapes shapes;

    private AdmissionWorkloads workloads;
    private Scheduler scheduler;

    /**
     * Decisions of the measured drain, and the CPU time of the thread that ran it (in microseconds):
     * on a shared machine wall time includes waiting for a core, CPU time much less so.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counts {
        public long decisions;
        public long admitted;
        public long cpuMicros;

        @Setup(Level.Iteration)
        public void reset() {
            decisions = 0;
            admitted = 0;
            cpuMicros = 0;
        }
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    @Setup(Level.Trial)
    public void cluster() {
        workloads = new AdmissionWorkloads(100, 5000, pending, 42, shapes);
    }

    @Setup(Level.Iteration)
    public void queue() {
        scheduler = workloads.newSchedulerWithQueue();
    }

    @Benchmark
    public List<Decision> drain(Counts counts) {
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        List<Decision> decisions = scheduler.cycle();
        counts.cpuMicros += (THREADS.getCurrentThreadCpuTime() - cpu0) / 1_000;
        counts.decisions += decisions.size();
        counts.admitted += decisions.stream().filter(d -> d instanceof Decision.Admit).count();
        return decisions;
    }
}
