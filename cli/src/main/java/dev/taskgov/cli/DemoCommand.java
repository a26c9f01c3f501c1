package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * {@code taskgov demo}: a pipeline that submits a realistic mix to the demo cluster (the seed's five
 * enterprise teams on 32 p5 nodes) and finishes each workload a random time after its admission. It
 * opens with a scripted sequence that shows borrowing, a reclaim preemption, an in-team priority
 * preemption and a topology-pending job, then submits a random mix at {@code --rate} per minute.
 * Each state change it sees is printed as one line; a progress line goes to stderr on a terminal.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the demo pipeline against the local platform (deploy/local/taskgov-local up):",
                "submits a mix of inference, training and experiment jobs of five teams, finishes them after random durations,",
                "and prints admissions (with borrowing) and preemptions as they happen."})
public class DemoCommand extends ServiceCommand {

    static final String TYPE = "ml.p5.48xlarge";
    static final String LAYER_2 = "topology.k8s.aws/network-node-layer-2";
    static final String LAYER_3 = "topology.k8s.aws/network-node-layer-3";
    static final List<String> TEAMS = List.of("team-1", "team-2", "team-3", "team-4", "team-5");
    private static final DateTimeFormatter HHMMSS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    @Option(names = "--duration", defaultValue = "3m", description = "How long to submit (e.g. 90s, 3m, 1h; default ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--rate", defaultValue = "12", description = "Random submissions per minute after the opening (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--seed", description = "Random seed (default: from the clock).")
    Long seed;

    @Option(names = "--no-opening", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Start with the scripted opening (borrowing, reclaim, in-team preemption, topology wait; default on).")
    boolean opening;

    @Option(names = "--time-scale", defaultValue = "1.0", description = "Multiplies every job's run time (default ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--finish-at-end", description = "Finish every demo workload still running or pending when the duration is over.")
    boolean finishAtEnd;

    @Option(names = "--fail-node", paramLabel = "NAME",
            description = "Make node NAME not ready at --fail-at for --fail-for, as topology-service publishes a failed node: "
                    + "its jobs move to free nodes of their domain (NodeReplaced) or are evicted (NodeFailure) and requeued; "
                    + "then it is ready again. Pick a node from topology-service's GET /topology (e.g. p5-b1r1h1 of the local runtime).")
    String failNode;

    @Option(names = "--fail-at", defaultValue = "30s", description = "When --fail-node fails (default ${DEFAULT-VALUE} after the start).")
    String failAt;

    @Option(names = "--fail-for", defaultValue = "60s", description = "How long --fail-node stays not ready (default ${DEFAULT-VALUE}).")
    String failFor;

    @Option(names = "--cluster", paramLabel = "ARN", defaultValue = "${env:TASKGOV_CLUSTER:-" + DEMO_CLUSTER + "}",
            description = "The cluster the demo runs in (env TASKGOV_CLUSTER; default the local runtime's demo cluster ${DEFAULT-VALUE}).")
    String cluster;

    /** The 32-node p5 cluster of the local runtime (deploy/local/clusters.properties). */
    static final String DEMO_CLUSTER = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1";

    /**
     * A workload the pipeline submits, when, and how long it runs once admitted; {@code neverReady}: its pods never
     * get ready (the pipeline reports every other admitted workload's pods ready a moment after its admission, as the
     * job watcher does from pod status).
     */
    record Planned(Duration at, WorkloadSubmitted submission, Duration runFor, String note, boolean neverReady) {
        Planned(Duration at, WorkloadSubmitted submission, Duration runFor, String note) {
            this(at, submission, runFor, note, false);
        }
    }

    /** How long after its admission the pipeline reports a workload's pods ready (gang admission). */
    static final Duration PODS_START = Duration.ofSeconds(3);

    private final Map<String, Planned> planned = new HashMap<>();
    private final Map<String, String> lastState = new HashMap<>();
    private final Map<String, String> lastAdmittedAt = new HashMap<>();
    /** The last NodeReplaced message seen per workload: a move is printed once. */
    private final Map<String, String> lastReplacement = new HashMap<>();
    private final Map<String, Instant> finishDue = new HashMap<>();
    private final Map<String, Instant> readyDue = new HashMap<>();
    private int submitted, admissions, preemptions, finished;

    @Override
    protected int run() {
        Duration total = parseDuration(duration);
        if (rate < 0) throw CliException.invalid("--rate must be >= 0, was " + rate);
        Duration failStart = parseDuration(failAt, "--fail-at");
        Duration failLength = parseDuration(failFor, "--fail-for");
        long s = seed != null ? seed : clock.millis();
        Random random = new Random(s);
        String run = Long.toString(Math.abs(s % 46656), 36);
        List<Planned> plan = new ArrayList<>();
        if (opening) plan.addAll(opening(run));
        plan.addAll(randomMix(run, random, total, plan.size()));
        plan.sort((a, b) -> a.at().compareTo(b.at()));
        AdmissionClient admission = endpoints.admission();
        awaitAdmission(admission);
        out().println("demo run " + run + " (seed " + s + "): " + plan.size() + " workloads over " + total.toSeconds() + "s");
        out().flush();
        Instant start = clock.instant();
        Instant end = start.plus(total);
        NodeFailure failure = failNode == null ? null : new NodeFailure(failNode, failStart, failLength);
        int next = 0;
        // Finishes go as the profile goes (a team's profile through admission-service with its key); only a node
        // failure, which no team may cause, needs the Kafka login (the administrator's).
        try (Finishes finishes = Finishes.open(endpoints, clock, err());
             KafkaWriter kafka = failure == null ? null : endpoints.kafkaWriter(clock, err());
             Progress progress = Progress.onTerminal("demo")) {
            while (clock.instant().isBefore(end)) {
                Duration elapsed = Duration.between(start, clock.instant());
                while (next < plan.size() && plan.get(next).at().compareTo(elapsed) <= 0) {
                    submit(admission, plan.get(next++));
                }
                if (failure != null) failure.step(kafka, elapsed);
                observe(admission, run);
                readyDue(finishes);
                finishDue(finishes);
                progress.update(elapsed.toSeconds(), total.toSeconds(), "submitted " + submitted + ", admitted " + admissions
                        + ", preempted " + preemptions + ", finished " + finished);
                pause(1000);
            }
            if (failure != null) failure.restore(kafka);
            if (finishAtEnd) {
                for (String id : planned.keySet()) {
                    if (!"Finished".equals(lastState.get(id)) && !"Rejected".equals(lastState.get(id))) {
                        finishes.finish(id, WorkloadFinished.Outcome.Cancelled, null);
                    }
                }
            }
        }
        out().println("demo run " + run + " done: submitted " + submitted + ", admissions " + admissions + ", preemptions " + preemptions
                + ", finished " + finished + ". Try: taskgov get workloads; taskgov queue team-3; taskgov describe workload ID");
        return 0;
    }

    /** Borrowing, a reclaim, an in-team preemption and a job that waits for a rack, in the first 20 seconds. */
    static List<Planned> opening(String run) {
        List<Planned> p = new ArrayList<>();
        p.add(plan(0, run, "team-3", "train-borrow", "training-priority", 4, 8, LAYER_2, null, 240,
                "team-3 (nominal 2 nodes) borrows 2 idle nodes of the lenders"));
        p.add(plan(3, run, "team-4", "train", "training-priority", 4, 8, null, LAYER_3, 200, "team-4 fills its nominal 4 nodes"));
        p.add(plan(6, run, "team-5", "train-large", "training-priority", 10, 8, null, LAYER_2, 120,
                "team-5 reclaims its lent quota: team-3's borrowing job is preempted"));
        p.add(plan(9, run, "team-1", "train-rack", "training-priority", 5, 8, LAYER_3, null, 120,
                "5 pods that must share one rack of 4 nodes: waits (TopologyPlacementFailed)"));
        p.add(plan(12, run, "team-2", "experiment-sweep", "experiment-priority", 8, 8, null, null, 300, "team-2 fills its nominal 8 nodes"));
        p.add(plan(15, run, "team-2", "inference", "inference-priority", 2, 8, null, LAYER_3, 150,
                "team-2's inference preempts its own experiment (in-team priority)"));
        Planned stuck = plan(18, run, "team-1", "never-ready", "training-priority", 2, 8, null, LAYER_3, 600,
                "its pods never get ready: with gang admission on (taskgov-local up --demo), evicted (PodsReadyTimeout) "
                        + "after the timeout, backs off, is admitted again, and so on");
        p.add(new Planned(stuck.at(), stuck.submission(), stuck.runFor(), stuck.note(), true));
        return p;
    }

    private List<Planned> randomMix(String run, Random random, Duration total, int offset) {
        List<Planned> p = new ArrayList<>();
        if (rate == 0) return p;
        double gap = 60.0 / rate;
        double t = opening ? 20 : 0;
        int n = offset;
        while (t < total.toSeconds()) {
            String team = TEAMS.get(random.nextInt(TEAMS.size()));
            double kind = random.nextDouble();
            n++;
            if (kind < 0.3) {
                int pods = 1 + random.nextInt(2);
                p.add(plan(t, run + "-" + n, team, "inference", "inference-priority", pods, 8, null, LAYER_3, 20 + random.nextInt(40), null));
            } else if (kind < 0.7) {
                int pods = 2 + random.nextInt(7);
                p.add(plan(t, run + "-" + n, team, "train", "training-priority", pods, 8, pods <= 4 ? LAYER_3 : LAYER_2, null,
                        45 + random.nextInt(105), null));
            } else {
                int acc = 1 << random.nextInt(4);
                p.add(plan(t, run + "-" + n, team, "experiment", "experiment-priority", 1, acc, null, null, 15 + random.nextInt(45), null));
            }
            t += gap * (0.5 + random.nextDouble());
        }
        return p;
    }

    private static Planned plan(double atSeconds, String run, String team, String kind, String priority, int pods, int accelerators,
                                String required, String preferred, int runSeconds, String note) {
        String id = team + "-" + kind + "-" + run;
        ResourceAmounts perPod = new ResourceAmounts(BigDecimal.valueOf(accelerators), BigDecimal.valueOf(20L * accelerators),
                BigDecimal.valueOf(200L * accelerators));
        WorkloadSubmitted s = new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", priority,
                "PyTorchJob", null, List.of(new PodSetSpec("worker", pods, TYPE, perPod, required, preferred)));
        return new Planned(Duration.ofMillis((long) (atSeconds * 1000)), s, Duration.ofSeconds(runSeconds), note);
    }

    private void submit(AdmissionClient admission, Planned p) {
        WorkloadSubmitted s = p.submission().withSubmittedAt(clock.instant()).withClusterArn(cluster);
        Duration runs = Duration.ofMillis((long) (p.runFor().toMillis() * timeScale));
        if (p.submission().priorityClass().startsWith("training") && !runs.isZero() && !runs.isNegative()) {
            // Training pipelines know their run time and declare it; inference and experiments leave it to be learned
            // from their finished runs, so the demo's start estimates show both bases.
            s = s.withAnnotations(Map.of(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, runs.toString()));
        }
        try {
            admission.submit(s);
            submitted++;
            planned.put(s.workloadId(), p);
            PodSetSpec ps = s.podSets().get(0);
            String topo = ps.requiredTopology() != null ? ", required " + short_(ps.requiredTopology())
                    : ps.preferredTopology() != null ? ", preferred " + short_(ps.preferredTopology()) : "";
            event("submitted", s.workloadId(), ps.count() + (ps.count() == 1 ? " pod × " : " pods × ") + ps.requests().accelerators()
                    + (ps.requests().accelerators() != null && java.math.BigDecimal.ONE.compareTo(ps.requests().accelerators()) == 0
                    ? " accelerator, " : " accelerators, ")
                    + s.priorityClass() + topo + (p.note() == null ? "" : " — " + p.note()));
        } catch (CliException e) {
            event("refused", s.workloadId(), e.getMessage());
        }
    }

    /** Waits up to two minutes for admission-service to answer reads (a fresh one answers 503 until it has read its state). */
    private void awaitAdmission(AdmissionClient admission) {
        Instant deadline = clock.instant().plusSeconds(120);
        while (true) {
            try {
                admission.workloads(cluster, null, null);
                return;
            } catch (CliException e) {
                if (clock.instant().isAfter(deadline)) throw e;
                err().println("demo: waiting for admission-service: " + e.getMessage());
                err().flush();
                pause(3000);
            }
        }
    }

    /** Polls the demo's workloads and prints each state change. */
    private void observe(AdmissionClient admission, String run) {
        JsonNode all;
        try {
            all = admission.workloads(cluster, null, null);
        } catch (CliException e) {
            event("warning", "-", e.getMessage());
            return;
        }
        for (JsonNode w : all) {
            String id = Views.text(w, "workloadId");
            Planned p = planned.get(id);
            if (p == null) continue;
            String state = Views.text(w, "state");
            String reason = Views.text(w, "reason");
            String admittedAt = Views.text(w, "admittedAt");
            String before = lastState.put(id, state);
            String message = Views.text(w, "message");
            if ("Admitted".equals(state) && "NodeReplaced".equals(reason) && message != null && !message.equals(lastReplacement.put(id, message))) {
                StringBuilder where = new StringBuilder();
                for (JsonNode ps : w.path("placement")) where.append(Views.placement(ps));
                event("moved", id, message + "; now " + where);
            } else if ("Admitted".equals(state) && admittedAt != null && !admittedAt.equals(lastAdmittedAt.get(id))) {
                lastAdmittedAt.put(id, admittedAt);
                admissions++;
                finishDue.put(id, clock.instant().plusMillis((long) (p.runFor().toMillis() * timeScale)));
                if (!p.neverReady()) readyDue.put(id, clock.instant().plus(PODS_START));
                String borrowed = Views.amounts(w.get("borrowed"));
                StringBuilder where = new StringBuilder();
                for (JsonNode ps : w.path("placement")) where.append(Views.placement(ps));
                event("admitted", id, (borrowed == null ? "" : "borrowing " + borrowed + "; ") + where);
            } else if ("Pending".equals(state) && "Admitted".equals(before)) {
                preemptions++;
                finishDue.remove(id);
                readyDue.remove(id);
                event("preempted", id, Views.text(w, "message"));
            } else if ("Pending".equals(state) && before == null) {
                event("pending", id, reason + ": " + Views.text(w, "message"));
            } else if ("Rejected".equals(state) && !"Rejected".equals(before)) {
                event("rejected", id, reason + ": " + Views.text(w, "message"));
            }
        }
    }

    /** Reports the pods of each workload admitted a moment ago ready (gang admission), as the job watcher would. */
    private void readyDue(Finishes reports) {
        Instant now = clock.instant();
        for (var it = readyDue.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().isAfter(now)) continue;
            it.remove();
            try {
                reports.podsReady(e.getKey(), cluster);
            } catch (CliException refused) {
                // finished or evicted meanwhile (409), as a job whose pods came up too late; a Kafka write that fails
                // for good ends the demo, as a finish's does
                if (reports.throughKafka()) throw refused;
            }
        }
    }

    private void finishDue(Finishes finishes) {
        Instant now = clock.instant();
        for (var it = finishDue.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().isAfter(now)) continue;
            try {
                finishes.finish(e.getKey(), WorkloadFinished.Outcome.Succeeded, null);
            } catch (CliException refused) {
                // admission-service's answer about this one workload (another team's, already gone); a Kafka
                // write that fails for good ends the demo, as it always did
                if (finishes.throughKafka()) throw refused;
                event("refused", e.getKey(), refused.getMessage());
                it.remove();
                continue;
            }
            finished++;
            event("finished", e.getKey(), "ran " + planned.get(e.getKey()).runFor().toSeconds() + "s");
            it.remove();
        }
    }

    private void event(String what, String id, String detail) {
        out().println(HHMMSS.format(clock.instant()) + "  " + String.format(Locale.ROOT, "%-9s", what) + " " + id
                + (detail == null || detail.isBlank() ? "" : "  " + detail));
        out().flush();
    }

    private static String short_(String level) {
        return level.substring(level.lastIndexOf('/') + 1);
    }

    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
    }

    /**
     * {@code --fail-node}: the node's record as on {@code taskgov.topology}, published with
     * {@code ready: false} when its time comes and as it was when its time is over (or the demo ends).
     */
    private final class NodeFailure {
        final String node;
        final Duration failAt;
        final Duration restoreAt;
        /** The node's record before the failure (read at the start, so an unknown name stops the demo at once). */
        final NodeRecord before;
        /** Its key on the topology topic: {@code <ClusterArn>#<node>}. */
        final String key;
        boolean failed;
        boolean restored;

        NodeFailure(String node, Duration failAt, Duration failFor) {
            this.node = node;
            this.failAt = failAt;
            this.restoreAt = failAt.plus(failFor);
            this.key = ClusterScopedKey.of(ClusterArn.of(cluster), node);
            this.before = TopologyTopic.latest(endpoints.kafkaClient(), key).orElseThrow(() ->
                    CliException.invalid("--fail-node: no node " + node + " on " + TopologyTopic.TOPIC + "; see topology-service's GET /topology"));
        }

        void step(KafkaWriter kafka, Duration elapsed) {
            if (!failed && elapsed.compareTo(failAt) >= 0) {
                failed = true;
                kafka.send(TopologyTopic.TOPIC, key, TopologyTopic.withReady(before, false), NodeRecord.TYPE);
                event("node", node, "not ready (--fail-node): its pods move to free nodes of their domain or their jobs are evicted");
            } else if (failed && !restored && elapsed.compareTo(restoreAt) >= 0) {
                restore(kafka);
            }
        }

        void restore(KafkaWriter kafka) {
            if (!failed || restored) return;
            restored = true;
            kafka.send(TopologyTopic.TOPIC, key, before, NodeRecord.TYPE);
            event("node", node, "ready again: free capacity at once");
        }
    }

    /** 90s, 3m, 1h, 1m30s, or ISO-8601 (PT3M). */
    public static Duration parseDuration(String text) {
        return parseDuration(text, "--duration");
    }

    static Duration parseDuration(String text, String option) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt")) return Duration.parse(t.toUpperCase(Locale.ROOT));
            if (t.matches("[0-9]+")) return Duration.ofSeconds(Long.parseLong(t));
            if (t.matches("([0-9]+h)?([0-9]+m)?([0-9]+s)?") && !t.isEmpty()) return Duration.parse("PT" + t.toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            // falls through to the error below
        }
        throw CliException.invalid(option + ": '" + text + "' is not a duration such as 90s, 3m, 1h30m");
    }
}
