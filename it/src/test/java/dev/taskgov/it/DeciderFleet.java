package dev.taskgov.it;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.testsupport.DeciderProgress;
import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Several clusters on one real broker (topics with a unique prefix, as the catalog creates them), decided by
 * admission and preemption deciders running as child processes ({@link DeciderProcess}): the failover test and
 * the partition benchmark drive it. Each cluster: {@code nodes} flat 8-accelerator nodes, teams with quotas.
 */
final class DeciderFleet implements AutoCloseable {

    static final String TYPE = "ml.p4d.24xlarge";
    static final Resources NODE = Resources.of(8, 96_000, 1_152 * 1024);

    final String id;
    final DeciderTopics admissionTopics;
    final DeciderTopics preemptionTopics;
    final Properties client;
    final List<ClusterArn> clusters = new ArrayList<>();
    /** The topics, the producer and the readers (no in-process decider is started on it). */
    private final LiveServices topics;
    private final Admin admin;
    private final DeciderProgress progress;
    private final Path logs;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    /** Looks between a group's committed offset and the end of a partition (read_committed, no group). */
    private final KafkaConsumer<String, byte[]> probe;
    private Map<TopicPartition, Long> lastEnds = Map.of();

    DeciderFleet(String name) {
        topics = new LiveServices(name);
        id = topics.id;
        admissionTopics = topics.admissionTopics;
        preemptionTopics = topics.preemptionTopics;
        client = topics.client;
        admin = Admin.create(client);
        progress = new DeciderProgress(client);
        Properties cp = new Properties();
        cp.putAll(client);
        cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        probe = new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer());
        logs = Path.of("target", "decider-fleet", id); // surefire runs in the module's directory
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ClusterArn arn(int i) {
        return ClusterArn.of(String.format("arn:aws:sagemaker:us-east-1:123456789012:cluster/fleet%07d", i));
    }

    /** Declares {@code count} clusters, each with {@code nodes} nodes, a policy, and the teams' accelerator quotas. */
    void declareClusters(int count, int nodes, Map<String, Long> acceleratorsByTeam) {
        for (int c = 0; c < count; c++) {
            ClusterArn arn = arn(c);
            clusters.add(arn);
            publish(admissionTopics.topology(), ClusterScopedKey.declaration(arn),
                    new ClusterDeclared(arn.value(), "fleet-" + c, "static", null));
            for (int i = 0; i < nodes; i++) {
                String node = "node-" + i;
                publish(admissionTopics.topology(), ClusterScopedKey.of(arn, node), new NodeRecord(node, "i-" + c + "-" + i, TYPE,
                        Map.of(TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_2, "nn-1-" + (i / 8),
                                TopologyLevels.LAYER_3, "nn-1-" + (i / 8) + "-" + (i / 4)),
                        ResourceAmounts.of(NODE), true, arn.value()));
            }
            publish(admissionTopics.quota(), QuotaRecords.schedulerConfigKey(arn),
                    QuotaRecords.schedulerConfig(new SchedulerConfig(Map.of("training", 50, "inference", 90), false)));
            acceleratorsByTeam.forEach((team, acc) -> publish(admissionTopics.quota(), QuotaRecords.quotaKey(arn, team),
                    QuotaRecords.effectiveQuota(TeamQuota.of(team, Map.of(TYPE, Resources.of(acc, acc * 12_000, acc * 144 * 1024))))));
        }
        flush();
    }

    /** A one-pod-set workload of {@code pods} one-accelerator pods in {@code cluster}. */
    static WorkloadSubmitted workload(ClusterArn cluster, String id, String team, int pods, Instant at) {
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", "training-priority",
                "PyTorchJob", at, List.of(new PodSetSpec("worker", pods, TYPE,
                new ResourceAmounts(BigDecimal.ONE, BigDecimal.valueOf(4), BigDecimal.valueOf(32)), null, null)),
                cluster.value());
    }

    /** Publishes with CloudEvents headers, partitioned by the key (as a producer unaware of clusters would). */
    void publish(String topic, String key, Object value) {
        topics.publishAsync(topic, null, key, value);
    }

    /** A preemption request straight onto the requests topic, at its cluster's {@code partition} (as admission-service sends it). */
    void publishRequest(int partition, String key, dev.taskgov.core.events.PreemptionRequested request) {
        topics.publishAsync(preemptionTopics.preemptionRequested(), partition, key, request,
                dev.taskgov.core.events.PreemptionRequested.TYPE);
    }

    /** Publishes straight to the partition of the value's cluster (as the CLI and admission's HTTP API do). */
    void publishToPartition(String topic, int partition, String key, Object value) {
        topics.publishAsync(topic, partition, key, value);
    }

    void flush() {
        topics.flush();
    }

    /** Starts a decider process ({@code admission} or {@code preemption}) named {@code instance}. */
    Process start(String role, String instance) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.jboss.logging.provider=jdk", "-Duser.timezone=UTC",
                // millisecond timestamps on one line: the failover bench times the takeover from the survivor's log
                "-Djava.util.logging.SimpleFormatter.format=%1$tT.%1$tL %4$s %3$s: %5$s%6$s%n", "-cp", System.getProperty("java.class.path"), DeciderProcess.class.getName(), role,
                SharedKafka.bootstrapServers(), id, instance, SharedKafka.clientConfigFile(KafkaAccess.ADMIN).toString())
                .redirectErrorStream(true).redirectOutput(logs.resolve(instance + ".log").toFile());
        try {
            Process p = pb.start();
            processes.put(instance, p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + instance, e);
        }
    }

    /** {@code kill -9} of a decider process: no clean shutdown, no leaving the group, open transactions left open. */
    void kill9(String instance) {
        Process p = processes.get(instance);
        try {
            Process kill = new ProcessBuilder("kill", "-9", Long.toString(p.pid())).inheritIO().start();
            if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) throw new IllegalStateException("kill -9 failed");
            if (!p.waitFor(30, TimeUnit.SECONDS)) throw new IllegalStateException(instance + " survived kill -9");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The operating system's id of a decider process. */
    long pid(String instance) {
        return processes.get(instance).pid();
    }

    /** The decider group of a role. */
    String group(String role) {
        return DeciderProcess.groupOf(role, id);
    }

    /** Partition numbers owned per instance (client id) in a role's group, as the broker has them now. */
    Map<String, Set<Integer>> owners(String role) {
        try {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group(role))).all().get(30, TimeUnit.SECONDS)
                    .get(group(role));
            Map<String, Set<Integer>> out = new TreeMap<>();
            if (d.groupState() != GroupState.STABLE) return out;
            for (MemberDescription m : d.members()) {
                Set<Integer> ps = new TreeSet<>();
                m.assignment().topicPartitions().forEach(tp -> ps.add(tp.partition()));
                out.put(m.clientId(), ps);
            }
            return out;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) return Map.of(); // no member yet
            throw new IllegalStateException("cannot describe " + group(role), e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe " + group(role), e);
        }
    }

    /**
     * Waits until a role's group is stable with exactly these instances sharing all {@code partitions} partitions;
     * answers who owns what then (a read of {@link #owners} at another moment may fall in a rebalance and be empty).
     */
    Map<String, Set<Integer>> awaitOwners(String role, Set<String> instances, int partitions) {
        List<Map<String, Set<Integer>>> seen = new ArrayList<>(List.of(Map.of()));
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100)).until(() -> {
            Map<String, Set<Integer>> o = owners(role);
            Set<Integer> all = new TreeSet<>();
            o.values().forEach(all::addAll);
            seen.set(0, o);
            return o.keySet().equals(instances) && all.size() == partitions
                    && o.values().stream().mapToInt(Set::size).sum() == partitions;
        });
        return seen.get(0);
    }

    /**
     * Waits until both groups have committed every input record (their committed offsets reached the end offsets
     * of every partition of their input topics), twice in a row with the same end offsets.
     */
    void awaitQuiet(Duration atMost) {
        lastEnds = Map.of();
        await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(this::quiet);
    }

    private boolean quiet() throws Exception {
        // Offsets committed BEFORE end offsets: a transaction committing between the two reads (a record forwarded to its
        // cluster's partition, say) then shows as not done, where read the other way round the ends could miss its output
        // while the offsets already count its input.
        Map<TopicPartition, OffsetAndMetadata> done = new HashMap<>();
        done.putAll(admin.listConsumerGroupOffsets(group("admission")).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS));
        done.putAll(admin.listConsumerGroupOffsets(group("preemption")).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS));
        Map<TopicPartition, Long> ends = endOffsets(List.of(admissionTopics.submitted(), admissionTopics.finished(),
                admissionTopics.preempted(), preemptionTopics.preemptionRequested()));
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (e.getValue() == 0) continue;
            OffsetAndMetadata committed = done.get(e.getKey());
            if (committed == null || !nothingAfter(e.getKey(), committed.offset(), e.getValue())) return false;
        }
        if (!ends.equals(lastEnds)) {
            lastEnds = ends;
            return false;
        }
        return true;
    }

    /**
     * Whether a read_committed reader finds no record from {@code from} up to {@code end}: the committed offset of a
     * caught-up group stops short of the end by transaction markers and aborted records, which are no work.
     */
    private boolean nothingAfter(TopicPartition tp, long from, long end) {
        if (from >= end) return true;
        probe.assign(List.of(tp));
        probe.seek(tp, from);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (probe.position(tp) < end && System.nanoTime() < deadline) {
            if (!probe.poll(Duration.ofMillis(100)).isEmpty()) return false;
        }
        return probe.position(tp) >= end;
    }

    /** High watermarks (open transactions included, see {@link #quiet}) of every partition of the topics. */
    Map<TopicPartition, Long> endOffsets(List<String> names) {
        return progress.endOffsets(names, IsolationLevel.READ_UNCOMMITTED);
    }

    /** Every committed record of a topic (read_committed). */
    List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        return topics.readAll(topic);
    }

    Path logs() {
        return logs;
    }

    /** Whether a decider process's log has a line containing {@code text} so far. */
    boolean logContains(String instance, String text) {
        try {
            return Files.readString(logs.resolve(instance + ".log")).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        List<Process> all = new ArrayList<>(processes.values());
        for (Process p : all) {
            try {
                p.getOutputStream().close(); // the decider leaves its group and stops
            } catch (IOException e) {
                p.destroyForcibly();
            }
        }
        for (Process p : all) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        probe.close(Duration.ofSeconds(5));
        admin.close(Duration.ofSeconds(5));
        progress.close();
        topics.close();
    }
}
