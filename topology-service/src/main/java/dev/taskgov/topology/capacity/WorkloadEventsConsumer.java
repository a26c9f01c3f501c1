package dev.taskgov.topology.capacity;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.EventValues;
import dev.taskgov.service.support.FollowerFetch;
import dev.taskgov.service.support.KafkaClientSecurity;
import dev.taskgov.service.support.TopicsConfig;
import dev.taskgov.service.support.UnreadableRecordException;
import dev.taskgov.topology.config.TopologyServiceConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Keeps free capacity current from the workload topics: per-pod requests from submissions, pods per
 * node from admissions, releases from finishes and preemptions. Values are read by the one codec
 * into the contract's records; a record that does not parse or breaks a rule is refused with the
 * field and the rule, and goes to the dead-letter topic ({@link TopologyDeadLetters}).
 *
 * <p>The topics are read by a plain Kafka consumer loop ({@link WorkloadEventsLoop}: group-less, read_committed,
 * from the beginning at every start), which applies each poll's records in one step; this bean turns a record into
 * its change of the holds and says whether the loop has caught up ({@link #ready}).
 */
@Startup
@ApplicationScoped
public class WorkloadEventsConsumer {

    @Inject
    CapacityView view;

    @Inject
    TopologyServiceConfig config;

    @Inject
    TopologyDeadLetters deadLetters;

    @Inject
    MeterRegistry registry;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private WorkloadEventsLoop loop;

    @PostConstruct
    void start() {
        TopicsConfig t = config.topics();
        Properties props = KafkaClientSecurity.client(bootstrapServers);
        // The shared submission topic and every team's own (<topic>.<team>, written by that team's principal only).
        Pattern teamSubmissions = Pattern.compile(Pattern.quote(t.workloadSubmitted()) + "\\..+");
        loop = new WorkloadEventsLoop(FollowerFetch.batched(props, config.topology().workloadEventsFetchWait(),
                "taskgov.topology.workload-events-fetch-wait"),
                List.of(t.workloadSubmitted(), t.workloadAdmitted(), t.workloadFinished(), t.workloadPreempted()),
                teamSubmissions, r -> change(r, teamSubmissions), view, deadLetters.writer(), registry).start();
    }

    @PreDestroy
    void stop() {
        if (loop != null) loop.close();
    }

    /**
     * Null when the holds show every workload event committed before the start (and the consumer is not held up by
     * a dead letter it cannot write); otherwise why not.
     */
    public String notReady() {
        // Held back by a dead letter it cannot write, it cannot reach the end either: that is the reason to give.
        String stuck = loop.stuck();
        if (stuck != null) return stuck;
        return loop.caughtUp() ? null : "reading the workload topics to their end";
    }

    /** Whether the consumer's thread runs. */
    public boolean alive() {
        return loop.alive();
    }

    /** The change of the holds a record of one of the workload topics makes; throws to refuse it. */
    Consumer<WorkloadHolds> change(ConsumerRecord<String, byte[]> record, Pattern teamSubmissions) {
        if (record.value() == null) return null;
        String value = new String(record.value(), StandardCharsets.UTF_8);
        TopicsConfig t = config.topics();
        String topic = record.topic();
        if (topic.equals(t.workloadSubmitted()) || teamSubmissions.matcher(topic).matches()) return submitted(value);
        if (topic.equals(t.workloadAdmitted())) return admitted(value);
        if (topic.equals(t.workloadFinished())) return finished(value, recordTime(record));
        if (topic.equals(t.workloadPreempted())) return preempted(value, recordTime(record));
        throw new UnreadableRecordException("not a workload topic: " + topic);
    }

    private static Consumer<WorkloadHolds> submitted(String value) {
        WorkloadSubmitted s = EventValues.read(value, WorkloadSubmitted.class);
        String id = id(s.workloadId());
        if (s.podSets() == null) throw new IllegalArgumentException("$.podSets: is required");
        Map<String, Resources> requests = new HashMap<>();
        for (int i = 0; i < s.podSets().size(); i++) {
            String path = "$.podSets[" + i + "]";
            PodSetSpec p = s.podSets().get(i);
            if (p == null || p.name() == null || p.name().isBlank()) throw new IllegalArgumentException(path + ".name: is required");
            try {
                requests.put(p.name(), p.requests() == null ? Resources.ZERO : p.requests().toResources());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(path + ".requests: " + e.getMessage(), e);
            }
        }
        Integer maxRetry = s.maxRetry().orElse(null);
        String team = s.team();
        return holds -> holds.submitted(id, team, requests, maxRetry, s.submittedAt());
    }

    private static Consumer<WorkloadHolds> admitted(String value) {
        WorkloadAdmitted a = EventValues.read(value, WorkloadAdmitted.class);
        String id = id(a.workloadId());
        if (a.podSets() == null) throw new IllegalArgumentException("$.podSets: is required");
        List<WorkloadHolds.PodSetPlacement> placements = new ArrayList<>();
        for (int i = 0; i < a.podSets().size(); i++) {
            String path = "$.podSets[" + i + "]";
            WorkloadAdmitted.AdmittedPodSet ps = a.podSets().get(i);
            if (ps == null || ps.name() == null || ps.name().isBlank()) throw new IllegalArgumentException(path + ".name: is required");
            Map<String, Integer> pods = new LinkedHashMap<>();
            List<WorkloadAdmitted.NodeCount> nodes = ps.nodes() == null ? List.of() : ps.nodes();
            for (int j = 0; j < nodes.size(); j++) {
                String npath = path + ".nodes[" + j + "]";
                WorkloadAdmitted.NodeCount n = nodes.get(j);
                if (n == null || n.name() == null || n.name().isBlank()) throw new IllegalArgumentException(npath + ".name: is required");
                if (n.count() < 0) throw new IllegalArgumentException(npath + ".count: must be >= 0, was " + n.count());
                pods.merge(n.name(), n.count(), Integer::sum);
            }
            placements.add(new WorkloadHolds.PodSetPlacement(ps.name(), pods));
        }
        return holds -> holds.admitted(id, a.team(), a.admittedAt(), placements, a.cluster());
    }

    /** A release orders against admissions by its time: one that names none is taken at the time it was written. */
    private static Consumer<WorkloadHolds> finished(String value, Instant written) {
        WorkloadFinished f = EventValues.read(value, WorkloadFinished.class);
        String id = id(f.workloadId());
        Instant at = f.finishedAt() == null ? written : f.finishedAt();
        // One that names no outcome is taken as final (only a failure may be retried).
        WorkloadFinished.Outcome outcome = f.outcome() == null ? WorkloadFinished.Outcome.Succeeded : f.outcome();
        return holds -> holds.finished(id, at, outcome);
    }

    private static Consumer<WorkloadHolds> preempted(String value, Instant written) {
        WorkloadPreempted p = EventValues.read(value, WorkloadPreempted.class);
        String id = id(p.workloadId());
        Instant at = p.preemptedAt() == null ? written : p.preemptedAt();
        return holds -> holds.preempted(id, at);
    }

    /** The record's own timestamp (the producer's clock when it was written). */
    private static Instant recordTime(ConsumerRecord<String, byte[]> record) {
        return Instant.ofEpochMilli(Math.max(0, record.timestamp()));
    }

    private static String id(String workloadId) {
        WorkloadIds.problem(workloadId).ifPresent(rule -> {
            throw new IllegalArgumentException("$.workloadId: " + rule);
        });
        return workloadId;
    }
}
