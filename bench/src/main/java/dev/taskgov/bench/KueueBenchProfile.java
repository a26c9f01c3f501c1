package dev.taskgov.bench;

import dev.taskgov.cli.CliException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The workload mix of Kueue's scheduler performance test ({@code test/performance/scheduler} in
 * the Kueue repository), restated in taskgov's terms: Kueue's cluster queues are teams of one
 * cluster (one cohort), a quota unit is one accelerator, and a workload of {@code n} units is a
 * pod set of {@code pods} pods of {@code n / pods} accelerators each. Kueue's {@code borrowingLimit}
 * is an absolute amount; taskgov's {@code BorrowLimit} is a percentage of nominal, so 100 units on
 * a nominal of 20 is 500%.
 *
 * <p>{@code baseline}: 30 teams of nominal 20 (Kueue: 5 cohorts x 6 queues), per team 350 small
 * (1 unit, 200 ms, one every 100 ms, priority 50), 100 medium (5 units, 500 ms, every 500 ms,
 * priority 100) and 50 large (20 units, 1 s, every 1,200 ms, priority 200): 15,000 workloads on
 * 600 accelerators. Kueue's published means (its {@code configs/baseline/rangespec.yaml}): wall
 * 351 s, time to admission large 6.7 s, medium 76.8 s, small 215.5 s, usage of nominal 58.7% (with its
 * SchedulingEquivalenceHashing on, large 16.5 s and usage 55.9%; the figures without it are the harder ones).
 *
 * <p>{@code tas}: the same teams and arrival pattern on 640 one-accelerator nodes in 10 racks of
 * 64 (one layer-1 and one layer-2 domain above them), with pod sets of 2, 4 and 8 pods for small,
 * medium and large, a third of each class requiring one rack, a third preferring one, a third
 * with no topology request.
 *
 * <p>{@code large-scale}: Kueue's 1,000-queue profile ({@code configs/large-scale}: 10 cohorts x 100
 * queues, here 1,000 teams of nominal 20 on 20,000 accelerators), per team 35 small (1 unit, 150 ms, one
 * every 60 ms), 11 medium (5 units, 350 ms, every 300 ms) and 4 large (20 units, 700 ms, every 700 ms):
 * 50,000 workloads. Kueue's published means (its {@code configs/large-scale/rangespec.yaml}): wall
 * 1,179.4 s, time to admission large 105.6 s, medium 256.4 s, small 700.4 s, usage of nominal 38.64%.
 *
 * <p>Three profiles of taskgov's own, for its targets (docs/benchmarks.md, "Targets"), on baseline's teams and nodes (30 teams of nominal 20,
 * 600 accelerators) with one class {@code tiny} of 1 unit running 50 ms:
 * <ul>
 *   <li>{@code throughput}: each team submits one every 10 ms for 10 s, 3,000 submissions per second in all:
 *       sustained end-to-end admissions per second (the capacity allows 12,000);</li>
 *   <li>{@code depth}: 100,000 workloads (about 1,000 per 0.01 of {@code --scale}, in equal shares per team) submitted as fast as the pipeline
 *       can, so the queue grows to tens of thousands: admissions per second as the pending depth grows;</li>
 *   <li>{@code soak}: 5 teams each submitting one every 10 ms, 500 per second, for {@code --minutes} (30 by
 *       default), for the platform's memory over time;</li>
 *   <li>{@code depth-soak}: {@code depth}'s 100,000 at once, then for {@code --minutes} (30 by default) a new submission
 *       for each first admission, so that the queue stays that deep: the platform's memory over time at that depth.
 *       Its class {@code hold} runs 5 s, so the 600 accelerators admit about 120 a second while it holds (at 50 ms
 *       the queue would turn over 2,000 times a second: millions of workloads in half an hour); once the time is up
 *       the pipeline finishes each workload as soon as it is admitted, so the queue drains at the decider's pace.</li>
 * </ul>
 *
 * <p>{@code --scale F} multiplies the number of teams (at least one) and keeps everything else,
 * so that a run fits a small machine; the capacity bound scales with it. {@code depth} scales its
 * workloads instead and keeps the teams.
 */
record KueueBenchProfile(String name, int teams, int nominal, int borrowLimitPercent, List<WorkloadClass> classes,
                         String instanceType, int acceleratorsPerNode, int nodes, int racks, boolean fairShare,
                         int holdMinutes) {

    static final String CLUSTER_ARN = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovbench";
    static final String LAYER_1 = "topology.k8s.aws/network-node-layer-1";
    static final String LAYER_2 = "topology.k8s.aws/network-node-layer-2";
    static final String LAYER_3 = "topology.k8s.aws/network-node-layer-3";

    /** How a class asks for topology: all in one rack, one rack if possible, or nothing. */
    enum Topology { REQUIRED_RACK, PREFERRED_RACK, NONE, ROTATE }

    /**
     * One of Kueue's workload sets: {@code count} workloads per team, one every
     * {@code intervalMs}, each running {@code runtimeMs} once admitted.
     */
    record WorkloadClass(String name, int count, long intervalMs, long runtimeMs, int priorityWeight, int units, int pods,
                         Topology topology) {

        int acceleratorsPerPod() {
            return units / pods;
        }

        /** For {@link Topology#ROTATE}: the i-th workload of the class requires, prefers, or asks nothing. */
        Topology topologyOf(int i) {
            if (topology != Topology.ROTATE) return topology;
            return switch (i % 3) {
                case 0 -> Topology.REQUIRED_RACK;
                case 1 -> Topology.PREFERRED_RACK;
                default -> Topology.NONE;
            };
        }
    }

    /** The profiles, as {@code --profile} takes them. */
    static final List<String> NAMES = List.of("baseline", "tas", "large-scale", "throughput", "depth", "soak", "depth-soak");

    static KueueBenchProfile named(String name, double scale) {
        return named(name, scale, 30);
    }

    /** {@code soakMinutes}: how long {@code soak} submits and {@code depth-soak} holds its queue; the others ignore it. */
    static KueueBenchProfile named(String name, double scale, int soakMinutes) {
        if (!(scale > 0) || scale > 1) throw CliException.invalid("--scale must be in (0, 1], was " + scale);
        if (soakMinutes < 1) throw CliException.invalid("--minutes must be at least 1, was " + soakMinutes);
        return switch (name) {
            case "baseline" -> new KueueBenchProfile("baseline", teams(30, scale), 20, 500, List.of(
                    new WorkloadClass("small", 350, 100, 200, 25, 1, 1, Topology.NONE),
                    new WorkloadClass("medium", 100, 500, 500, 50, 5, 5, Topology.NONE),
                    new WorkloadClass("large", 50, 1200, 1000, 100, 20, 20, Topology.NONE)),
                    "ml.p5.48xlarge", 8, nodesFor(teams(30, scale) * 20, 8), 0, false, 0);
            case "tas" -> {
                int teams = teams(30, scale);
                int nodes = Math.max(64, (int) Math.ceil(640 * teams / 30.0 / 64) * 64);
                yield new KueueBenchProfile("tas", teams, 20, 500, List.of(
                        new WorkloadClass("small", 350, 100, 200, 25, 2, 2, Topology.ROTATE),
                        new WorkloadClass("medium", 100, 500, 500, 50, 4, 4, Topology.ROTATE),
                        new WorkloadClass("large", 50, 1200, 1000, 100, 8, 8, Topology.ROTATE)),
                        "ml.g5.8xlarge", 1, nodes, nodes / 64, false, 0);
            }
            case "large-scale" -> new KueueBenchProfile("large-scale", teams(1000, scale), 20, 500, List.of(
                    new WorkloadClass("small", 35, 60, 150, 25, 1, 1, Topology.NONE),
                    new WorkloadClass("medium", 11, 300, 350, 50, 5, 5, Topology.NONE),
                    new WorkloadClass("large", 4, 700, 700, 100, 20, 20, Topology.NONE)),
                    "ml.p5.48xlarge", 8, nodesFor(teams(1000, scale) * 20, 8), 0, false, 0);
            case "throughput" -> tiny("throughput", teams(30, scale), 1_000, 10);
            case "depth" -> tiny("depth", 30, depthPerTeam(scale), 0);
            case "soak" -> tiny("soak", teams(5, scale), soakMinutes * 60 * 100, 10);
            case "depth-soak" -> new KueueBenchProfile("depth-soak", 30, 20, 500,
                    List.of(new WorkloadClass("hold", depthPerTeam(scale), 0, HOLD_RUNTIME_MS, 25, 1, 1, Topology.NONE)),
                    "ml.p5.48xlarge", 8, nodesFor(30 * 20, 8), 0, false, soakMinutes);
            default -> throw CliException.invalid("--profile must be one of " + String.join(", ", NAMES) + ", was '" + name + "'");
        };
    }

    /** Baseline's quotas with one class of 1-unit, 50 ms workloads, {@code count} per team, one every {@code intervalMs}. */
    private static KueueBenchProfile tiny(String name, int teams, int count, long intervalMs) {
        return new KueueBenchProfile(name, teams, 20, 500, List.of(new WorkloadClass("tiny", count, intervalMs, 50, 25, 1, 1, Topology.NONE)),
                "ml.p5.48xlarge", 8, nodesFor(teams * 20, 8), 0, false, 0);
    }

    /** How long a {@code depth-soak} workload runs while the queue is held. */
    static final long HOLD_RUNTIME_MS = 5_000;

    /** {@code depth}'s workloads per team: 100,000 in all at scale 1, in equal shares over 30 teams. */
    private static int depthPerTeam(double scale) {
        return (int) Math.max(1, Math.round(100_000 * scale / 30));
    }

    /** Whether the run keeps its queue as deep as its first burst for {@link #holdMinutes} ({@code depth-soak}). */
    boolean holdsDepth() {
        return holdMinutes > 0;
    }

    /**
     * The submissions that bring a held queue back to {@code depth} when {@code pending} wait, at most {@code max} of
     * them (the pipeline sends a few at a time, as the admissions it reads free places).
     */
    static int topUp(int depth, int pending, int max) {
        return Math.max(0, Math.min(max, depth - pending));
    }

    /** Kueue's published means for this profile, from its checker's calibration; empty for taskgov's own profiles. */
    Optional<KueuePublished> kueuePublished() {
        return switch (name) {
            case "baseline" -> Optional.of(new KueuePublished(351.1, 58.7,
                    Map.of("large", 6.7, "medium", 76.8, "small", 215.5), "configs/baseline/rangespec.yaml"));
            case "large-scale" -> Optional.of(new KueuePublished(1179.4, 38.64,
                    Map.of("large", 105.6, "medium", 256.4, "small", 700.4), "configs/large-scale/rangespec.yaml"));
            default -> Optional.empty();
        };
    }

    /**
     * What Kueue's own run of the profile reports (means over its calibration runs, at full scale):
     * wall time, usage of nominal quota and mean time to admission per class, in seconds.
     */
    record KueuePublished(double wallSeconds, double usageOfNominalPercent, Map<String, Double> meanTimeToAdmissionSeconds,
                          String source) {
    }

    private static int teams(int full, double scale) {
        return Math.max(1, (int) Math.round(full * scale));
    }

    private static int nodesFor(int accelerators, int perNode) {
        return (accelerators + perNode - 1) / perNode;
    }

    String team(int i) {
        return String.format("bench-t%0" + Math.max(2, String.valueOf(teams - 1).length()) + "d", i);
    }

    int capacity() {
        return nodes * acceleratorsPerNode;
    }

    int workloadsPerTeam() {
        return classes.stream().mapToInt(WorkloadClass::count).sum();
    }

    int totalWorkloads() {
        return teams * workloadsPerTeam();
    }

    /** Accelerator-seconds of all the work: what the cluster must run at the very least. */
    double workUnitSeconds() {
        double perTeam = 0;
        for (WorkloadClass c : classes) perTeam += c.count() * c.units() * c.runtimeMs() / 1000.0;
        return perTeam * teams;
    }

    /**
     * No schedule can finish sooner: the work divided by the capacity the quotas give (the sum of
     * nominal quotas, all of it lendable), and no sooner than the last workload's arrival plus its run.
     */
    double capacityBoundSeconds() {
        double byWork = workUnitSeconds() / Math.min(capacity(), (double) teams * nominal);
        double byArrival = 0;
        for (WorkloadClass c : classes) byArrival = Math.max(byArrival, ((c.count() - 1) * c.intervalMs() + c.runtimeMs()) / 1000.0);
        return Math.max(byWork, byArrival);
    }

    /** The static inventory for topology-service ({@code taskgov.topology.static-file.path}) that this profile needs. */
    ObjectNode inventory() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("description", "Kueue performance profile '" + name + "': " + nodes + " nodes of " + instanceType
                + (racks > 0 ? " in " + racks + " racks" : "") + ", " + capacity() + " accelerators (taskgov bench kueue)");
        ObjectNode types = root.putObject("instanceTypes");
        ObjectNode t = types.putObject(instanceType);
        t.put("accelerators", acceleratorsPerNode);
        t.put("vcpu", acceleratorsPerNode == 1 ? 32 : 192);
        t.put("memoryGiB", acceleratorsPerNode == 1 ? 128 : 2048);
        ArrayNode list = root.putArray("nodes");
        int perRack = racks > 0 ? nodes / racks : 16;
        for (int i = 0; i < nodes; i++) {
            int rack = i / perRack;
            String name = String.format("bench-r%02dh%03d", rack, i % perRack);
            ObjectNode n = list.addObject();
            n.put("name", name);
            n.put("instanceId", String.format("i-0bench%010d", i));
            n.put("instanceType", instanceType);
            ObjectNode labels = n.putObject("labels");
            labels.put(LAYER_1, "nn-bench");
            labels.put(LAYER_2, "nn-bench-b" + (rack / 16));
            labels.put(LAYER_3, String.format("nn-bench-r%02d", rack));
            labels.put("kubernetes.io/hostname", name);
        }
        return root;
    }

    /** One planned submission: when (from the start), of which team and class, and its index in the class. */
    record Arrival(long atMs, int team, WorkloadClass workloadClass, int index) {
    }

    /** Every submission of the run in time order (Kueue's generator: each team's sets run side by side). */
    List<Arrival> arrivals() {
        List<Arrival> out = new ArrayList<>(totalWorkloads());
        for (int t = 0; t < teams; t++) {
            for (WorkloadClass c : classes) {
                for (int i = 0; i < c.count(); i++) out.add(new Arrival(i * c.intervalMs(), t, c, i));
            }
        }
        out.sort((a, b) -> a.atMs() != b.atMs() ? Long.compare(a.atMs(), b.atMs())
                : a.team() != b.team() ? Integer.compare(a.team(), b.team()) : a.workloadClass().name().compareTo(b.workloadClass().name()));
        return out;
    }
}
