package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The recorded window as the topics hold it: the records before the window give the cluster's start, those in it its
 * events, decoded as the deciders decode them; what does not decode is left out and named.
 */
class TopicHistoryTest {

    static final String CLUSTER = Window.CLUSTER;
    static final String OTHER = "arn:aws:sagemaker:us-west-2:000000000000:cluster/otherclustr1";
    static final Instant FROM = Window.FROM;

    /** Records on the topics, built fluently; seconds are relative to the window's start (negative: before it). */
    static final class Topics {
        final List<TopicHistory.Recorded> records = new ArrayList<>();

        Topics node(int second, String cluster, String name) {
            NodeRecord n = new NodeRecord(name, null, Window.G5, Map.of(), new ResourceAmounts(BigDecimal.ONE, BigDecimal.valueOf(32),
                    BigDecimal.valueOf(128)), true, cluster);
            return add(TopicHistory.Source.TOPOLOGY, second, ClusterScopedKey.of(ClusterArn.of(cluster), name), EventCodec.bytes(n));
        }

        Topics quota(int second, String team, int accelerators) {
            String body = """
                    {"Name": "%s-quota", "ClusterArn": "%s",
                     "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Accelerators": %d}]},
                     "ComputeQuotaTarget": {"TeamName": "%s"}}""".formatted(team, CLUSTER, accelerators, team);
            return add(TopicHistory.Source.QUOTA, second, ClusterScopedKey.of(ClusterArn.of(CLUSTER), team), body.getBytes(StandardCharsets.UTF_8));
        }

        Topics submit(int second, String id, String cluster) {
            WorkloadSubmitted s = new WorkloadSubmitted(id, "hyperpod-ns-team-a", null, null, "PyTorchJob", null,
                    List.of(new PodSetSpec("worker", 1, Window.G5, new ResourceAmounts(BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE),
                            null, null)), cluster);
            return add(TopicHistory.Source.SUBMITTED, second, id, EventCodec.bytes(s));
        }

        Topics admit(int second, String id) {
            WorkloadAdmitted a = new WorkloadAdmitted(id, "team-a", FROM.plusSeconds(second), Map.of(), List.of());
            return add(TopicHistory.Source.ADMITTED, second, id, EventCodec.bytes(a));
        }

        /** Admitted with its one pod on {@code node} (a new placement after a node failure when {@code replaced}). */
        Topics admitOn(int second, String id, String node, boolean replaced) {
            WorkloadAdmitted a = new WorkloadAdmitted(id, "team-a", FROM.plusSeconds(second), Map.of(),
                    List.of(new WorkloadAdmitted.AdmittedPodSet("worker", Window.G5, null, List.of(new WorkloadAdmitted.NodeCount(node, 1)))),
                    replaced ? WorkloadAdmitted.NODE_REPLACED : null);
            return add(TopicHistory.Source.ADMITTED, second, id, EventCodec.bytes(a));
        }

        Topics preempt(int second, String id) {
            return add(TopicHistory.Source.PREEMPTED, second, id, EventCodec.bytes(new WorkloadPreempted(id, "team-a", null,
                    PreemptionReason.QuotaRemoved, "evicted", FROM.plusSeconds(second))));
        }

        Topics readinessTimeout(int second, String id) {
            return add(TopicHistory.Source.PREEMPTED, second, id, EventCodec.bytes(new WorkloadPreempted(id, "team-a", null,
                    PreemptionReason.PodsReadyTimeout, "evicted (PodsReadyTimeout)", FROM.plusSeconds(second))));
        }

        Topics fail(int second, String id) {
            return add(TopicHistory.Source.FINISHED, second, id,
                    EventCodec.bytes(new WorkloadFinished(id, FROM.plusSeconds(second), WorkloadFinished.Outcome.Failed)));
        }

        /** Submitted with {@code --max-retry 1}. */
        Topics submitRetried(int second, String id) {
            WorkloadSubmitted s = new WorkloadSubmitted(id, "hyperpod-ns-team-a", null, null, "PyTorchJob", null,
                    List.of(new PodSetSpec("worker", 1, Window.G5, new ResourceAmounts(BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE),
                            null, null)), CLUSTER).withAnnotations(Map.of(WorkloadSubmitted.MAX_RETRY_ANNOTATION, "1"));
            return add(TopicHistory.Source.SUBMITTED, second, id, EventCodec.bytes(s));
        }

        Topics finish(int second, String id) {
            return add(TopicHistory.Source.FINISHED, second, id,
                    EventCodec.bytes(new WorkloadFinished(id, FROM.plusSeconds(second), WorkloadFinished.Outcome.Succeeded)));
        }

        Topics raw(int second, TopicHistory.Source source, String key, String value) {
            return add(source, second, key, value.getBytes(StandardCharsets.UTF_8));
        }

        private Topics add(TopicHistory.Source source, int second, String key, byte[] value) {
            records.add(new TopicHistory.Recorded(source, FROM.plusSeconds(second), key, value));
            return this;
        }
    }

    static Topics topics() {
        return new Topics();
    }

    record Case(String name, Topics topics, List<String> history, List<String> skipped) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case scenario(String name, Topics topics, List<String> history, String... skipped) {
        return new Case(name, topics, history, List.of(skipped));
    }

    static Stream<Case> cases() {
        return Stream.of(
                scenario("nodes and quotas before the window are its start; in it, they are events",
                        topics().node(-600, CLUSTER, "n1").node(-600, CLUSTER, "n2").quota(-300, "team-a", 1)
                                .quota(60, "team-a", 2).node(120, CLUSTER, "n3"),
                        List.of("start nodes [n1, n2] quotas [team-a 1]", "+60s quota team-a 2", "+120s node n3 ready")),
                scenario("work waiting or running when the window opens enters at its start, keeping its place in the queue",
                        topics().node(-600, CLUSTER, "n1").submit(-120, "w1", CLUSTER).admit(-100, "w1").finish(30, "w1")
                                .submit(-90, "w2", CLUSTER).submit(-80, "w3", CLUSTER).finish(-10, "w3"),
                        List.of("start nodes [n1] quotas []", "-100s admitted w1", "+0s submitted w1 queued at -120s",
                                "+0s submitted w2 queued at -90s", "+30s finished w1")),
                scenario("records of one instant read in any topic order: submission, then admission, then finish",
                        topics().node(-600, CLUSTER, "n1").finish(50, "w1").admit(20, "w1").submit(20, "w1", CLUSTER),
                        List.of("start nodes [n1] quotas []", "+20s submitted w1 queued at +20s", "+20s admitted w1", "+50s finished w1")),
                scenario("a workload of another cluster is not this cluster's; one naming none is, while it is the only cluster",
                        topics().node(-600, CLUSTER, "n1").submit(10, "mine", CLUSTER).submit(20, "theirs", OTHER)
                                .submit(30, "unnamed", null).admit(40, "theirs"),
                        List.of("start nodes [n1] quotas []", "+10s submitted mine queued at +10s",
                                "+30s submitted unnamed queued at +30s")),
                scenario("with two clusters, a workload naming none belongs to neither",
                        topics().node(-600, CLUSTER, "n1").node(-600, OTHER, "o1").submit(30, "unnamed", null),
                        List.of("start nodes [n1] quotas []")),
                scenario("records after the window are left out",
                        topics().node(-600, CLUSTER, "n1").submit(10, "w1", CLUSTER).finish(4000, "w1"),
                        List.of("start nodes [n1] quotas []", "+10s submitted w1 queued at +10s")),
                scenario("a record that does not decode is left out, named with why",
                        topics().node(-600, CLUSTER, "n1").raw(5, TopicHistory.Source.SUBMITTED, "bad", "{\"workloadId\": 3}")
                                .raw(6, TopicHistory.Source.QUOTA, CLUSTER + "#team-b", "{\"ComputeQuotaConfig\": 3}").submit(10, "w1", CLUSTER),
                        List.of("start nodes [n1] quotas []", "+10s submitted w1 queued at +10s"),
                        "submitted record at 2026-11-30T10:00:05Z key 'bad': ",
                        "quota record at 2026-11-30T10:00:06Z key '" + CLUSTER + "#team-b': "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void buildsTheWindowFromTheRecords(Case c) {
        TopicHistory.Result r = TopicHistory.build(ClusterArn.of(CLUSTER), FROM, FROM.plus(Duration.ofHours(1)), c.topics().records);
        assertThat(describe(r.history())).as(c.name()).containsExactlyElementsOf(c.history());
        assertThat(r.skipped()).as(c.name()).hasSize(c.skipped().size());
        for (int i = 0; i < c.skipped().size(); i++) assertThat(r.skipped().get(i)).startsWith(c.skipped().get(i));
    }

    /**
     * @param running what runs at the window's end, "id on node since +Ns"
     * @param pending what waits then, "id queued at +Ns"
     */
    record NowCase(String name, Topics topics, List<String> running, List<String> pending) {
        @Override
        public String toString() {
            return name;
        }
    }

    static NowCase now(String name, Topics topics, List<String> running, List<String> pending) {
        return new NowCase(name, topics, running, pending);
    }

    static Stream<NowCase> nowCases() {
        return Stream.of(
                now("admitted and not finished runs now; finished does not, whenever it ran",
                        topics().node(-600, CLUSTER, "n1").node(-600, CLUSTER, "n2")
                                .submit(-300, "old", CLUSTER).admitOn(-290, "old", "n1", false).finish(-100, "old")
                                .submit(10, "done", CLUSTER).admitOn(20, "done", "n1", false).finish(600, "done")
                                .submit(30, "runs", CLUSTER).admitOn(40, "runs", "n2", false),
                        List.of("runs on n2 since +40s"), List.of()),
                now("an evicted workload waits again at its place in the queue; admitted again, it runs from then",
                        topics().node(-600, CLUSTER, "n1").node(-600, CLUSTER, "n2")
                                .submit(10, "w1", CLUSTER).admitOn(20, "w1", "n1", false).preempt(100, "w1")
                                .submit(30, "w2", CLUSTER).admitOn(40, "w2", "n2", false).preempt(200, "w2").admitOn(300, "w2", "n1", false),
                        List.of("w2 on n1 since +300s"), List.of("w1 queued at +10s")),
                now("a new placement after a node failure moves the running workload and keeps its admission",
                        topics().node(-600, CLUSTER, "n1").node(-600, CLUSTER, "n2")
                                .submit(10, "w1", CLUSTER).admitOn(20, "w1", "n1", false).admitOn(500, "w1", "n2", true),
                        List.of("w1 on n2 since +20s"), List.of()),
                now("waiting, then cancelled: neither runs nor waits",
                        topics().node(-600, CLUSTER, "n1").submit(10, "w1", CLUSTER).submit(20, "w2", CLUSTER).finish(30, "w1"),
                        List.of(), List.of("w2 queued at +20s")),
                now("failed with a retry left waits again, queued as of its failure; failed with none left has ended",
                        topics().node(-600, CLUSTER, "n1")
                                .submitRetried(10, "w1").admitOn(20, "w1", "n1", false).fail(100, "w1")
                                .submit(30, "w2", CLUSTER).admitOn(40, "w2", "n1", false).fail(50, "w2"),
                        List.of(), List.of("w1 queued at +100s")),
                now("what happens after the window's end is not now",
                        topics().node(-600, CLUSTER, "n1").submit(10, "w1", CLUSTER).admitOn(20, "w1", "n1", false).finish(4000, "w1")
                                .submit(3900, "late", CLUSTER),
                        List.of("w1 on n1 since +20s"), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nowCases")
    void tellsWhatRunsAndWaitsAtTheWindowsEnd(NowCase c) {
        RecordedNow now = TopicHistory.build(ClusterArn.of(CLUSTER), FROM, FROM.plus(Duration.ofHours(1)), c.topics().records).now();
        assertThat(now.at()).isEqualTo(FROM.plus(Duration.ofHours(1)));
        assertThat(now.running()).extracting(r -> r.submission().workloadId() + " on "
                        + r.placement().stream().flatMap(p -> p.nodes().stream()).map(WorkloadAdmitted.NodeCount::name).toList().get(0)
                        + " since " + offset(r.admittedAt()))
                .as(c.name()).containsExactlyElementsOf(c.running());
        assertThat(now.pending()).extracting(s -> s.workloadId() + " queued at " + offset(s.submittedAt()))
                .as(c.name()).containsExactlyElementsOf(c.pending());
        assertThat(now.nodes()).isNotEmpty();
    }

    /**
     * With gang admission's setting, the readiness timeouts on the preempted topic tell each workload's requeues and the
     * backoff it waits out at the window's end (base 60 s doubling); the timeout past the requeue limit ended it.
     */
    @org.junit.jupiter.api.Test
    void gangAdmissionsRequeuesAndBackoffsComeFromTheReadinessTimeouts() {
        Topics t = topics().node(-600, CLUSTER, "n1")
                .submit(10, "backs-off", CLUSTER).admitOn(20, "backs-off", "n1", false).readinessTimeout(620, "backs-off")
                .admitOn(700, "backs-off", "n1", false).readinessTimeout(3500, "backs-off")
                .submit(30, "waited-out", CLUSTER).admitOn(40, "waited-out", "n1", false).readinessTimeout(640, "waited-out")
                .submit(50, "limit", CLUSTER).admitOn(60, "limit", "n1", false).readinessTimeout(660, "limit")
                .admitOn(800, "limit", "n1", false).readinessTimeout(1400, "limit")
                .admitOn(1600, "limit", "n1", false).readinessTimeout(2200, "limit");
        dev.taskgov.core.model.WaitForPodsReady gang = new dev.taskgov.core.model.WaitForPodsReady(Duration.ofMinutes(10),
                Duration.ofSeconds(60), Duration.ofSeconds(3600), 2);
        RecordedNow now = TopicHistory.build(ClusterArn.of(CLUSTER), FROM, FROM.plus(Duration.ofHours(1)), t.records, gang).now();

        assertThat(now.waitForPodsReady()).isEqualTo(gang);
        assertThat(now.pending()).extracting(WorkloadSubmitted::workloadId).containsExactly("backs-off", "waited-out");
        assertThat(now.readiness()).containsOnly(
                Map.entry("backs-off", new dev.taskgov.core.scheduling.Scheduler.Readiness(false, 2, FROM.plusSeconds(3500 + 120))),
                Map.entry("waited-out", new dev.taskgov.core.scheduling.Scheduler.Readiness(false, 1, null)),
                Map.entry("limit", new dev.taskgov.core.scheduling.Scheduler.Readiness(false, 2, null)));
        // without the setting, as before: every evicted workload waits, no gang state
        RecordedNow off = TopicHistory.build(ClusterArn.of(CLUSTER), FROM, FROM.plus(Duration.ofHours(1)), t.records).now();
        assertThat(off.pending()).extracting(WorkloadSubmitted::workloadId).containsExactly("backs-off", "waited-out", "limit");
        assertThat(off.readiness()).isEmpty();
        assertThat(off.waitForPodsReady()).isNull();
    }

    private static List<String> describe(History h) {
        List<String> out = new ArrayList<>();
        out.add("start nodes " + h.start().nodes().stream().map(n -> n.name()).toList() + " quotas "
                + h.start().quotas().stream().map(q -> q.team() + " " + q.nominal(Window.G5).accelerators()).toList());
        for (History.Event e : h.events()) {
            String at = offset(e.at());
            if (e instanceof History.Submitted s) {
                out.add(at + " submitted " + s.submission().workloadId() + " queued at " + offset(s.submission().submittedAt()));
            } else if (e instanceof History.Admitted a) {
                out.add(at + " admitted " + a.workloadId());
            } else if (e instanceof History.Finished f) {
                out.add(at + " finished " + f.workloadId());
            } else if (e instanceof History.QuotaChanged q) {
                out.add(at + " quota " + q.quota().team() + " " + q.quota().nominal(Window.G5).accelerators());
            } else if (e instanceof History.NodeChanged n) {
                out.add(at + " node " + n.node().name() + (n.node().ready() ? " ready" : " not ready"));
            } else {
                out.add(at + " " + e);
            }
        }
        return out;
    }

    private static String offset(Instant t) {
        long s = Duration.between(FROM, t).toSeconds();
        return (s >= 0 ? "+" : "") + s + "s";
    }
}
