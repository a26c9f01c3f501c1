package dev.taskgov.watcher;

import dev.taskgov.service.support.KafkaClientSecurity;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.taskgov.core.cluster.InCluster;
import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.WorkloadIdTaken;
import dev.taskgov.core.view.Redaction;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.client.support.ProducerPartitions;
import dev.taskgov.watcher.config.JobWatcherConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Governs Kubernetes jobs: informers on every {@link JobKind} submit suspended jobs of governed
 * namespaces and report finished or deleted ones; a consumer of the decision topics unsuspends,
 * places, suspends and explains them. Every Kubernetes write runs on one worker thread, so the
 * decisions on one job apply in the order they were read.
 */
@ApplicationScoped
public class JobWatcher {
    private static final Logger LOG = Logger.getLogger(JobWatcher.class);

    @Inject
    KubernetesClient client;

    @Inject
    JobWatcherConfig config;

    @Inject
    MeterRegistry metrics;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private final Clock clock = Clock.systemUTC();
    private final Map<JobKind, SharedIndexInformer<GenericKubernetesResource>> informers = new EnumMap<>(JobKind.class);
    private JobTranslator translator;
    private JobEvents events;
    private ExecutorService worker;
    private KafkaProducer<String, String> producer;
    private KafkaConsumer<String, String> consumer;
    private Thread consumerThread;
    private final AtomicBoolean running = new AtomicBoolean();
    private TopologyUngater ungater;
    /** Set once {@link #start()} has built everything (read by other threads through {@link #synced()}). */
    private volatile boolean started;

    private Leadership leadership;

    void onStart(@Observes StartupEvent ev) {
        if (!config.watcher().enabled()) return;
        var election = config.watcher().leaderElection();
        if (!election.enabled()) {
            start();
            return;
        }
        String identity = election.identity().orElseGet(() -> {
            String host = System.getenv("HOSTNAME");
            return host != null && !host.isBlank() ? host : UUID.randomUUID().toString();
        });
        leadership = new Leadership(client, election.namespace(), election.leaseName(), identity,
                new Leadership.Timing(election.leaseDuration(), election.renewDeadline(), election.retryPeriod()),
                this::start, this::stop);
        leadership.start();
    }

    void onStop(@Observes ShutdownEvent ev) {
        if (leadership != null) leadership.stop();
        stop();
    }

    /** The election this replica takes part in, or null when leader election is off. */
    Leadership leadership() {
        return leadership;
    }

    /** A replica waiting for the lease: healthy, acting on nothing. */
    public boolean standby() {
        return leadership != null && !leadership.leading();
    }

    /** Lists and watches every governed kind, then follows the decision topics. */
    public synchronized void start() {
        if (!running.compareAndSet(false, true)) return;
        translator = new JobTranslator(config.watcher().namespacePrefix(), config.watcher().teamInstanceTypes(), clock);
        events = new JobEvents(client, config.watcher().source(), clock);
        worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "job-watcher-worker"));
        producer = new KafkaProducer<>(producerProps());
        for (JobKind kind : JobKind.values()) {
            informers.put(kind, client.genericKubernetesResources(kind.context()).inAnyNamespace()
                    .inform(handler(kind), config.watcher().resyncPeriod().toMillis()));
        }
        ungater = new TopologyUngater(client, worker, this::podChanged);
        ungater.start();
        consumer = new KafkaConsumer<>(consumerProps());
        // the dead letters too: a submission refused there (another team's workload id) is said on its job
        consumer.subscribe(List.of(config.topics().workloadAdmitted(), config.topics().workloadPreempted(),
                config.topics().workloadStatus(), config.topics().deadletter()));
        consumerThread = new Thread(this::consumeDecisions, "job-watcher-decisions");
        started = true;
        consumerThread.start();
    }

    /** Stops informers and the consumer (what a restart of the process does). */
    public synchronized void stop() {
        if (!running.compareAndSet(true, false)) return;
        started = false;
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
        ungater.stop();
        consumer.wakeup();
        try {
            consumerThread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        worker.shutdown();
        try {
            worker.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }

    /** Whether every informer has listed its kind once. */
    public boolean synced() {
        // not synchronized: the decision thread asks while stop() holds the lock and joins it
        return started && !informers.isEmpty() && informers.values().stream().allMatch(SharedIndexInformer::hasSynced)
                && ungater.synced();
    }

    private ResourceEventHandler<GenericKubernetesResource> handler(JobKind kind) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource job) {
                worker.execute(() -> guarded(() -> observe(kind, job)));
            }

            @Override
            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource job) {
                worker.execute(() -> guarded(() -> observe(kind, job)));
            }

            @Override
            public void onDelete(GenericKubernetesResource job, boolean unknownFinalState) {
                worker.execute(() -> guarded(() -> deleted(kind, job)));
            }
        };
    }

    private static void guarded(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            // The next resync or decision retries; one bad job must not stop the worker.
            LOG.warnf(e, "job-watcher step failed: %s", e.getMessage());
        }
    }

    // ---- informer side: submit, refuse, finish, cancel -------------------------------------------

    private void observe(JobKind kind, GenericKubernetesResource job) {
        if (!translator.governedNamespace(job.getMetadata().getNamespace())) return;
        String state = JobEditor.annotations(job).get(JobStates.STATE);
        if (state == null) {
            submit(kind, job);
        } else if (JobStates.live(state)) {
            Optional<WorkloadFinished.Outcome> outcome = finishedOutcome(kind, job);
            if (outcome.isPresent()) finish(kind, job, outcome.get());
            else reportIfPodsReady(kind, job);
        }
    }

    // ---- gang admission: every pod of an admitted job ready -----------------------------------------

    /** A pod of a job changed: its job may have every pod ready now. */
    private void podChanged(io.fabric8.kubernetes.api.model.Pod pod) {
        String[] job = TopologyUngater.jobOf(pod);
        if (job == null || !translator.governedNamespace(job[0])) return;
        for (var e : informers.entrySet()) {
            GenericKubernetesResource found = e.getValue().getStore().getByKey(job[0] + "/" + job[1]);
            if (found != null) {
                reportIfPodsReady(e.getKey(), found);
                return;
            }
        }
    }

    /**
     * Gang admission (docs/semantics.md, "Gang admission"): once every pod of an admitted job's placement is running
     * and ready, the watcher reports it ({@code WorkloadPodsReady}) and marks the job, once per admission. The pods
     * expected are those its admission placed ({@link JobEditor#NODE_ASSIGNMENTS}).
     */
    private void reportIfPodsReady(JobKind kind, GenericKubernetesResource job) {
        Map<String, String> ann = JobEditor.annotations(job);
        if (!JobStates.ADMITTED.equals(ann.get(JobStates.STATE)) || "true".equals(ann.get(JobStates.PODS_READY))) return;
        int expected = placedPods(ann.get(JobEditor.NODE_ASSIGNMENTS));
        if (expected == 0) return;
        List<io.fabric8.kubernetes.api.model.Pod> pods = ungater.podsOfJob(job.getMetadata().getNamespace(), job.getMetadata().getName());
        long ready = pods.stream().filter(TopologyUngater::ready).count();
        if (ready < expected) return;
        // Reported, then marked: a report the decider already has changes nothing, a mark without a report would lose it.
        String id = ann.getOrDefault(JobStates.WORKLOAD_ID, translator.workloadId(job));
        dev.taskgov.core.events.WorkloadPodsReady report = new dev.taskgov.core.events.WorkloadPodsReady(id, clock.instant(),
                config.watcher().clusterArn().orElse(null));
        publish(config.topics().workloadPodsReady(), id, report, dev.taskgov.core.events.WorkloadPodsReady.TYPE,
                "pods-ready-" + report.readyAt().toEpochMilli());
        annotate(kind, job, j -> {
            if (!JobStates.ADMITTED.equals(JobEditor.annotations(j).get(JobStates.STATE))) return j;
            JobEditor.annotationsForEdit(j).put(JobStates.PODS_READY, "true");
            return j;
        });
        events.record(kind, job, JobEvents.NORMAL, "PodsReady", "every pod (" + ready + " of " + expected
                + ") is ready; reported to taskgov for workload " + id);
        metrics.counter("taskgov.watcher.jobs", "outcome", "pods-ready", "kind", kind.kind()).increment();
    }

    /** How many pods an admission placed: the sum of its {@link JobEditor#NODE_ASSIGNMENTS} counts (0 when absent). */
    static int placedPods(String assignments) {
        if (assignments == null) return 0;
        try {
            Map<String, Map<String, Integer>> byPodSet = EventCodec.mapper().readValue(assignments,
                    new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Map<String, Integer>>>() { });
            return byPodSet.values().stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private void submit(JobKind kind, GenericKubernetesResource job) {
        if (!JobEditor.suspended(kind, job) && finishedOutcome(kind, job).isEmpty()) {
            boolean labelled = job.getMetadata().getLabels() != null
                    && job.getMetadata().getLabels().containsKey(JobTranslator.QUEUE_LABEL);
            if (labelled) {
                suspendUnadmitted(kind, job);
            } else {
                refuse(kind, job, "MissingQueueName", "label " + JobTranslator.QUEUE_LABEL
                        + " is required on jobs in this namespace, and the job must be created suspended");
            }
            return;
        }
        JobTranslator.Translation t = translator.translate(kind, job);
        if (t instanceof JobTranslator.Invalid invalid) {
            refuse(kind, job, invalid.reason(), invalid.message());
            return;
        }
        WorkloadSubmitted submission = ((JobTranslator.Submit) t).submission().withClusterArn(config.watcher().clusterArn().orElse(null));
        publish(config.topics().workloadSubmitted(), submission.workloadId(), submission, WorkloadSubmitted.TYPE,
                submission.submittedAt().toEpochMilli() + "");
        annotate(kind, job, j -> {
            JobEditor.annotationsForEdit(j).put(JobStates.WORKLOAD_ID, submission.workloadId());
            return state(j, JobStates.SUBMITTED, "Submitted", "queued in " + submission.queueName() + " as workload "
                    + submission.workloadId());
        });
        events.record(kind, job, JobEvents.NORMAL, "Submitted", "submitted to taskgov as workload " + submission.workloadId()
                + " (queue " + submission.queueName() + ", " + submission.podSets().size() + " pod set(s))");
        metrics.counter("taskgov.watcher.jobs", "outcome", "submitted", "kind", kind.kind()).increment();
    }

    /**
     * The fallback for a queue-labelled job created running (no admission webhook, or it failed
     * open): suspend it, as Kueue's webhook would have at creation. Its controller then stops its
     * pods; the informer sees it suspended and submits it.
     */
    private void suspendUnadmitted(JobKind kind, GenericKubernetesResource job) {
        boolean[] applied = {false};
        annotate(kind, job, j -> {
            // Only a job taskgov never saw: an admitted one is unsuspended on purpose.
            if (JobEditor.annotations(j).get(JobStates.STATE) != null || JobEditor.suspended(kind, j)) return j;
            JobEditor.setSuspended(kind, j, true);
            applied[0] = true;
            return j;
        });
        if (!applied[0]) return;
        events.record(kind, job, JobEvents.WARNING, "SuspendedByTaskgov", "created without " + kind.suspendField()
                + ": true; taskgov suspended it until it is admitted (its pods, if any started, are stopped). "
                + "Create queue-labelled jobs suspended, or install the taskgov admission webhook that does it");
        metrics.counter("taskgov.watcher.jobs", "outcome", "suspended-at-creation", "kind", kind.kind()).increment();
    }

    private void refuse(JobKind kind, GenericKubernetesResource job, String reason, String message) {
        annotate(kind, job, j -> state(j, JobStates.INVALID, reason, message));
        events.record(kind, job, JobEvents.WARNING, reason, message);
        metrics.counter("taskgov.watcher.jobs", "outcome", "invalid", "kind", kind.kind()).increment();
    }

    private void finish(JobKind kind, GenericKubernetesResource job, WorkloadFinished.Outcome outcome) {
        String id = translator.workloadId(job);
        WorkloadFinished finished = new WorkloadFinished(id, clock.instant(), outcome, config.watcher().clusterArn().orElse(null));
        publish(config.topics().workloadFinished(), id, finished, WorkloadFinished.TYPE, outcome.name());
        annotate(kind, job, j -> state(j, JobStates.FINISHED, outcome.name(), "the job ended: " + outcome));
        events.record(kind, job, JobEvents.NORMAL, "Finished", "workload " + id + " finished: " + outcome);
        metrics.counter("taskgov.watcher.jobs", "outcome", outcome.name().toLowerCase(java.util.Locale.ROOT), "kind", kind.kind()).increment();
    }

    private void deleted(JobKind kind, GenericKubernetesResource job) {
        if (!translator.governedNamespace(job.getMetadata().getNamespace())) return;
        if (!JobStates.live(JobEditor.annotations(job).get(JobStates.STATE))) return;
        String id = translator.workloadId(job);
        WorkloadFinished cancelled = new WorkloadFinished(id, clock.instant(), WorkloadFinished.Outcome.Cancelled,
                config.watcher().clusterArn().orElse(null));
        publish(config.topics().workloadFinished(), id, cancelled, WorkloadFinished.TYPE, "Cancelled");
        metrics.counter("taskgov.watcher.jobs", "outcome", "cancelled", "kind", kind.kind()).increment();
    }

    /** Complete/Failed (Job) or Succeeded/Failed (Kubeflow) with status True. */
    static Optional<WorkloadFinished.Outcome> finishedOutcome(JobKind kind, GenericKubernetesResource job) {
        Map<String, Object> status = JobMaps.map(job.getAdditionalProperties().get("status"));
        for (Object c : JobMaps.list(status.get("conditions"))) {
            Map<String, Object> cond = JobMaps.map(c);
            if (!"True".equals(cond.get("status"))) continue;
            if (kind.successCondition().equals(cond.get("type"))) return Optional.of(WorkloadFinished.Outcome.Succeeded);
            if ("Failed".equals(cond.get("type"))) return Optional.of(WorkloadFinished.Outcome.Failed);
        }
        return Optional.empty();
    }

    // ---- decision side: admitted, preempted, status -----------------------------------------------

    private void consumeDecisions() {
        try {
            while (running.get()) {
                var records = consumer.poll(config.watcher().pollTimeout());
                if (records.isEmpty()) continue;
                // Lookups need the informers' first list; wait for it before applying decisions.
                while (running.get() && !synced()) java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
                List<java.util.concurrent.Future<?>> done = new ArrayList<>();
                for (ConsumerRecord<String, String> r : records) {
                    done.add(worker.submit(() -> guarded(() -> decide(r))));
                }
                for (var f : done) f.get();
                consumer.commitSync();
            }
        } catch (WakeupException e) {
            // stop() asked us to end.
        } catch (Exception e) {
            LOG.errorf(e, "decision consumer stopped: %s", e.getMessage());
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void decide(ConsumerRecord<String, String> r) {
        if (r.value() == null || r.key() == null) return;
        Optional<Found> found = find(r.key());
        if (found.isEmpty()) return; // not a job this watcher governs
        JobKind kind = found.get().kind();
        GenericKubernetesResource job = found.get().job();
        String topic = r.topic();
        // A decision is about the workload of the team that owns the id: never applied to a job of another team's
        // namespace that asked for the same id (its submission was refused: WorkloadIdTaken).
        String jobTeam = translator.team(job.getMetadata().getNamespace());
        try {
            if (topic.equals(config.topics().workloadAdmitted())) {
                WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                if (jobTeam.equals(a.team())) admitted(kind, job, a);
            } else if (topic.equals(config.topics().workloadPreempted())) {
                WorkloadPreempted p = EventCodec.read(r.value(), WorkloadPreempted.class);
                if (jobTeam.equals(p.team())) preempted(kind, job, p);
            } else if (topic.equals(config.topics().workloadStatus())) {
                WorkloadStatus st = EventCodec.read(r.value(), WorkloadStatus.class);
                if (jobTeam.equals(st.team())) status(kind, job, st);
            } else if (topic.equals(config.topics().deadletter())) {
                deadLettered(kind, job, jobTeam, EventCodec.read(r.value(), DeadLetter.class));
            }
        } catch (EventCodec.EventFormatException e) {
            LOG.warnf("unreadable record on %s for %s: %s", topic, r.key(), e.getMessage());
        }
    }

    /**
     * A submission of this job refused because its workload id is another team's: the job stays suspended, marked
     * invalid with a Warning event that says why (the reason names the field and the rule, not the owner).
     */
    private void deadLettered(JobKind kind, GenericKubernetesResource job, String jobTeam, DeadLetter letter) {
        if (letter == null || letter.reason() == null || !letter.reason().startsWith(WorkloadIdTaken.REASON + ":")) return;
        WorkloadSubmitted refused;
        try {
            refused = letter.value() == null ? null : EventCodec.read(letter.value(), WorkloadSubmitted.class);
        } catch (EventCodec.EventFormatException e) {
            return;
        }
        if (refused == null || !jobTeam.equals(refused.team())) return;
        if (!JobStates.SUBMITTED.equals(JobEditor.annotations(job).get(JobStates.STATE))) return;
        refuse(kind, job, WorkloadIdTaken.REASON, letter.reason().substring(WorkloadIdTaken.REASON.length() + 1).strip());
    }

    private void admitted(JobKind kind, GenericKubernetesResource job, WorkloadAdmitted a) {
        if (a.isNodeReplacement()) {
            nodeReplaced(kind, job, a);
            return;
        }
        List<String> conflicts = new ArrayList<>();
        boolean[] applied = {false};
        annotate(kind, job, j -> {
            String state = JobEditor.annotations(j).get(JobStates.STATE);
            if (!JobStates.SUBMITTED.equals(state) && !JobStates.PENDING.equals(state) && !JobStates.PREEMPTED.equals(state)) {
                return j; // already admitted, finished or not ours: an admission is applied once
            }
            conflicts.addAll(JobEditor.admit(kind, j, a.podSets()));
            JobEditor.annotationsForEdit(j).remove(JobStates.PODS_READY); // each admission reports readiness again
            applied[0] = true;
            return state(j, JobStates.ADMITTED, "Admitted", describe(a));
        });
        if (!applied[0]) return;
        events.record(kind, job, JobEvents.NORMAL, "Admitted", describe(a));
        for (String c : conflicts) events.record(kind, job, JobEvents.WARNING, "PlacementConflict", c);
        metrics.counter("taskgov.watcher.jobs", "outcome", "admitted", "kind", kind.kind()).increment();
    }

    /** A node under the running job failed and its pods there were placed again: the ungater gives new pods the new hosts. */
    private void nodeReplaced(JobKind kind, GenericKubernetesResource job, WorkloadAdmitted a) {
        boolean[] applied = {false};
        annotate(kind, job, j -> {
            if (!JobStates.ADMITTED.equals(JobEditor.annotations(j).get(JobStates.STATE))) return j; // not running: nothing to move
            JobEditor.replacePlacement(j, a.podSets());
            applied[0] = true;
            return j;
        });
        if (!applied[0]) return;
        String message = "a node failed; pods moved: " + describe(a).substring("admitted as ".length());
        events.record(kind, job, JobEvents.NORMAL, WorkloadAdmitted.NODE_REPLACED, message);
        metrics.counter("taskgov.watcher.jobs", "outcome", "node-replaced", "kind", kind.kind()).increment();
    }

    private void preempted(JobKind kind, GenericKubernetesResource job, WorkloadPreempted p) {
        // node failures and quota removals evict without a preemptor. The job's namespace is its team's: a preemptor
        // of another team (a reclaim or fair sharing) is not named there, as admission's answers name it to no team key.
        String preemptor = p.preemptorWorkloadId();
        boolean otherTeams = p.reason() == PreemptionReason.ReclaimLentCapacity || p.reason() == PreemptionReason.FairSharing;
        Redaction redaction = otherTeams && preemptor != null
                ? new Redaction(team -> false, id -> id.equals(preemptor) ? "" : null) : Redaction.none();
        String message = (preemptor == null ? "evicted" : "preempted by " + redaction.text(preemptor))
                + " (" + p.reason() + ")" + (p.message() == null ? "" : ": " + redaction.text(p.message()));
        boolean[] applied = {false};
        annotate(kind, job, j -> {
            if (!JobStates.ADMITTED.equals(JobEditor.annotations(j).get(JobStates.STATE))) return j;
            JobEditor.preempt(kind, j);
            JobEditor.annotationsForEdit(j).remove(JobStates.PODS_READY);
            applied[0] = true;
            return state(j, JobStates.PREEMPTED, String.valueOf(p.reason()), message);
        });
        if (!applied[0]) return;
        events.record(kind, job, JobEvents.NORMAL, "Preempted", message);
        metrics.counter("taskgov.watcher.jobs", "outcome", "preempted", "kind", kind.kind()).increment();
    }

    private void status(JobKind kind, GenericKubernetesResource job, WorkloadStatus s) {
        if (s.state() == null) return;
        String target = switch (s.state().name()) {
            case "Pending" -> JobStates.PENDING;
            case "Rejected" -> JobStates.REJECTED;
            default -> null; // Admitted and Finished come from the admitted topic and the job itself
        };
        if (target == null) return;
        String reason = s.reason() == null ? target : s.reason();
        String message = s.message() == null ? "" : s.message();
        boolean[] applied = {false};
        annotate(kind, job, j -> {
            Map<String, String> ann = JobEditor.annotations(j);
            String state = ann.get(JobStates.STATE);
            if (!JobStates.SUBMITTED.equals(state) && !JobStates.PENDING.equals(state) && !JobStates.PREEMPTED.equals(state)) return j;
            if (target.equals(state) && reason.equals(ann.get(JobStates.REASON)) && message.equals(ann.get(JobStates.MESSAGE))) return j;
            applied[0] = true;
            return state(j, target, reason, message);
        });
        if (!applied[0]) return;
        events.record(kind, job, JobStates.REJECTED.equals(target) ? JobEvents.WARNING : JobEvents.NORMAL,
                JobStates.REJECTED.equals(target) ? "Rejected" : "Pending", reason + ": " + message);
    }

    private static String describe(WorkloadAdmitted a) {
        StringBuilder sb = new StringBuilder("admitted as workload ").append(a.workloadId());
        for (WorkloadAdmitted.AdmittedPodSet p : a.podSets()) {
            sb.append("; ").append(p.name()).append(" on ").append(p.instanceType());
            if (p.domain() != null) sb.append(" in ").append(p.domain().level()).append('=').append(p.domain().value());
            if (p.nodes() != null) sb.append(" (").append(p.nodes().size()).append(" node(s))");
        }
        if (a.borrowed() != null && !a.borrowed().isEmpty()) sb.append("; borrowing ").append(EventCodec.write(a.borrowed()));
        return sb.toString();
    }

    // ---- helpers ----------------------------------------------------------------------------------

    record Found(JobKind kind, GenericKubernetesResource job) {
    }

    /** The governed job with this workload id, from the informers' caches. */
    Optional<Found> find(String workloadId) {
        for (var e : informers.entrySet()) {
            for (GenericKubernetesResource job : e.getValue().getStore().list()) {
                if (!translator.governedNamespace(job.getMetadata().getNamespace())) continue;
                String id = JobEditor.annotations(job).get(JobStates.WORKLOAD_ID);
                if (workloadId.equals(id) || (id == null && workloadId.equals(translator.workloadId(job)))) {
                    return Optional.of(new Found(e.getKey(), job));
                }
            }
        }
        return Optional.empty();
    }

    private static GenericKubernetesResource state(GenericKubernetesResource j, String state, String reason, String message) {
        Map<String, String> ann = JobEditor.annotationsForEdit(j);
        ann.put(JobStates.STATE, state);
        ann.put(JobStates.REASON, reason);
        ann.put(JobStates.MESSAGE, message);
        return j;
    }

    /** Edits the live job (fresh read, JSON patch of the difference). */
    private void annotate(JobKind kind, GenericKubernetesResource job, UnaryOperator<GenericKubernetesResource> edit) {
        try {
            client.genericKubernetesResources(kind.context()).inNamespace(job.getMetadata().getNamespace())
                    .withName(job.getMetadata().getName()).edit(edit);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) return; // deleted meanwhile; the informer reports it
            throw e;
        }
    }

    /** Publishes to the event's cluster's partition when it names one (else by key, forwarded by the owner there). */
    private void publish(String topic, String key, InCluster event, String type, String idSuffix) {
        // Deterministic ce_id: a resubmission after a restart carries the same id as the first copy.
        String id = UUID.nameUUIDFromBytes((type + "/" + key + "/" + idSuffix).getBytes(StandardCharsets.UTF_8)).toString();
        try {
            ProducerRecord<String, String> record = new ProducerRecord<>(topic,
                    ProducerPartitions.ofNamed(producer, topic, event), key, EventCodec.write(event));
            CloudEventHeaders.write(record.headers(), type, CloudEvents.source(config.watcher().source()), id, clock.instant(), key);
            producer.send(record).get(config.watcher().publishTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + topic + " for " + key + ": " + e.getMessage(), e);
        }
    }

    private Properties producerProps() {
        Properties p = KafkaClientSecurity.client(bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    private Properties consumerProps() {
        Properties p = KafkaClientSecurity.client(bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.watcher().groupId());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return p;
    }
}
