package dev.taskgov.benchmarks;

import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * The decider's steady state on a deep queue, as a live platform meets it: the cluster is full, {@code pending}
 * workloads wait, and each cycle follows a few finishes (the oldest admissions end, as many new workloads arrive), so
 * every cycle releases room, admits into it and explains the rest. A full drain ({@link AdmissionCycleBenchmark})
 * measures one long cycle; this measures the short cycles that follow, where a queue re-walked after each release
 * costs a visit of every pending workload per admission.
 *
 * <p>Run: {@code java -Xmx4g -cp benchmarks/target/benchmarks.jar dev.taskgov.benchmarks.AdmissionSteadyState
 * PENDING[,PENDING...] [CYCLES [FINISHES_PER_CYCLE [TEAMS]]]}; prints, per depth, the CPU time of the deciding thread
 * per cycle (median and 90th percentile over the measured cycles, after as many warm-up cycles) and the decisions per
 * second of CPU.
 */
public final class AdmissionSteadyState {

    private AdmissionSteadyState() {
    }

    public static void main(String[] args) {
        int[] depths = Arrays.stream((args.length > 0 ? args[0] : "10000,50000,100000").split(",")).mapToInt(Integer::parseInt).toArray();
        int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int finishes = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int teams = args.length > 3 ? Integer.parseInt(args[3]) : 30;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.println("| pending | teams | finishes per cycle | CPU per cycle, median ms | p90 ms | decisions per cycle | decisions/s (CPU) |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (int depth : depths) {
            // twice the depth submitted: the first drain admits what fits, the rest waits
            AdmissionWorkloads w = new AdmissionWorkloads(teams, 3000, depth * 2, 42, AdmissionWorkloads.Shapes.FEW);
            Scheduler s = w.newSchedulerWithQueue();
            Deque<String> running = new ArrayDeque<>();
            admitted(s.cycle(), running);
            long[] cpu = new long[cycles];
            long decisions = 0;
            for (int i = -cycles; i < cycles; i++) { // the first half warms up
                for (int f = 0; f < finishes && !running.isEmpty(); ) {
                    String id = running.poll(); // the oldest admission ends (one preempted since is skipped)
                    if (s.workload(id).map(v -> v.state() == WorkloadState.Admitted).orElse(false)) {
                        s.finish(id);
                        f++;
                    }
                }
                long t0 = threads.getCurrentThreadCpuTime();
                List<Decision> out = s.cycle();
                long t = threads.getCurrentThreadCpuTime() - t0;
                admitted(out, running);
                if (i >= 0) {
                    cpu[i] = t;
                    decisions += out.size();
                }
            }
            long pendingNow = s.workloads().stream().filter(v -> v.state() == WorkloadState.Pending).count();
            Arrays.sort(cpu);
            long total = Arrays.stream(cpu).sum();
            System.out.printf("| %,d (%,d at the end) | %d | %d | %.2f | %.2f | %.1f | %,.0f |%n", depth, pendingNow, teams, finishes,
                    cpu[cycles / 2] / 1e6, cpu[cycles * 9 / 10] / 1e6, decisions / (double) cycles, decisions / (total / 1e9));
        }
    }

    private static void admitted(List<Decision> decisions, Deque<String> running) {
        List<String> ids = new ArrayList<>();
        for (Decision d : decisions) {
            if (d instanceof Decision.Admit a) ids.add(a.workloadId());
        }
        running.addAll(ids);
    }
}
