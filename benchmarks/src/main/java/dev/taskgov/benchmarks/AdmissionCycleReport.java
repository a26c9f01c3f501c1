package dev.taskgov.benchmarks;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Runs {@link AdmissionCycleBenchmark} and prints the table {@code docs/benchmarks.md} shows:
 * per pending count and shape mix, the median drain by wall time and by the draining thread's CPU
 * time, decisions per second at each, and CPU time per decision.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar dev.taskgov.benchmarks.AdmissionCycleReport
 * [PENDING,... [SHAPES,... [WARMUPS [ITERATIONS]]]]}, defaults {@code 1000,10000,100000 FEW,DISTINCT 20 10}.
 */
public final class AdmissionCycleReport {

    private AdmissionCycleReport() {
    }

    public static void main(String[] args) throws RunnerException {
        String pending = args.length > 0 ? args[0] : "1000,10000,100000";
        String shapes = args.length > 1 ? args[1] : "FEW,DISTINCT";
        int warmups = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        Options options = new OptionsBuilder()
                .include(AdmissionCycleBenchmark.class.getSimpleName())
                .param("pending", pending.split(","))
                .param("shapes", shapes.split(","))
                .warmupIterations(warmups)
                .measurementIterations(iterations)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        List<String> rows = new ArrayList<>();
        rows.add("| pending | shapes | decisions per drain | drain, wall median (min-max) ms | decisions/s (wall median) "
                + "| drain, CPU median ms | decisions/s (CPU median) | CPU us per decision |");
        rows.add("|---:|---|---:|---:|---:|---:|---:|---:|");
        for (RunResult r : results) {
            var wall = r.getPrimaryResult().getStatistics();
            Result<?> decisions = r.getSecondaryResults().get("decisions");
            Result<?> cpu = r.getSecondaryResults().get("cpuMicros");
            double perDrain = decisions.getStatistics().getPercentile(50);
            double wallMs = wall.getPercentile(50);
            double cpuMs = cpu.getStatistics().getPercentile(50) / 1000.0;
            rows.add(String.format("| %,d | %s | %,.0f | %,.0f (%,.0f-%,.0f) | %,.0f | %,.0f | %,.0f | %.1f |",
                    Integer.parseInt(r.getParams().getParam("pending")), r.getParams().getParam("shapes"), perDrain,
                    wallMs, wall.getMin(), wall.getMax(), perDrain / (wallMs / 1000.0), cpuMs, perDrain / (cpuMs / 1000.0),
                    cpuMs * 1000.0 / perDrain));
        }
        System.out.println();
        rows.forEach(System.out::println);
    }
}
