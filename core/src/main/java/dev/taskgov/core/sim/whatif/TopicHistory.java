package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.QuotaChange;
import dev.taskgov.core.events.QuotaRecordTranslator;
import dev.taskgov.core.events.TopologyChange;
import dev.taskgov.core.events.TopologyRecordTranslator;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.view.ClusterInputs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns the records of the platform's topics into one cluster's {@link History}: the topology and quota records
 * before the window give its start, and the submissions, admissions and finishes, with the topology and quota records
 * in it, its events, each at its record's time; and what the records say runs and waits at the window's end
 * ({@link RecordedNow}: admitted and since neither finished nor evicted, the preemption topic telling the evictions).
 * Records are decoded the way the deciders decode them (the wire
 * contract's records, quota and topology keys {@code <ClusterArn>#<name>}); a record that does not decode is left out
 * and named in {@link Result#skipped()} with why.
 */
public final class TopicHistory {

    /**
     * Which topic a record comes from. Records of the same instant are taken in this order, whatever order the topics
     * were read in: the cluster's records first, then a workload's submission before its admission before its eviction
     * ({@code taskgov.workload.preempted}) before its finish.
     */
    public enum Source { TOPOLOGY, QUOTA, SUBMITTED, ADMITTED, PREEMPTED, FINISHED }

    /**
     * One record as read: its topic, timestamp, key and value (null: a tombstone).
     */
    public record Recorded(Source source, Instant at, String key, byte[] value) {
    }

    /** The history, the cluster as the records say it is at the window's end, and the records left out with why. */
    public record Result(History history, RecordedNow now, List<String> skipped) {
    }

    private TopicHistory() {
    }

    /**
     * @param cluster the cluster to replay; submissions that name none belong to it when it is the only cluster the
     *                topology shows (as the deciders place them)
     */
    public static Result build(ClusterArn cluster, Instant from, Instant to, List<Recorded> records) {
        return build(cluster, from, to, records, null);
    }

    /**
     * @param waitForPodsReady the cluster's gang admission setting (null: off); with it, the evictions for readiness
     *                         timeouts on the preempted topic tell each workload's requeues, the backoff it waits out at
     *                         the window's end, and the one the setting's limit ended (Rejected, no longer waiting)
     */
    public static Result build(ClusterArn cluster, Instant from, Instant to, List<Recorded> records, WaitForPodsReady waitForPodsReady) {
        List<Recorded> inOrder = records.stream()
                .sorted(Comparator.comparing(Recorded::at).thenComparing(Recorded::source)).toList();
        boolean takesUnnamed = onlyCluster(cluster, inOrder);
        List<String> skipped = new ArrayList<>();
        ClusterInputs inputs = new ClusterInputs();
        History.Start start = null;
        List<History.Event> events = new ArrayList<>();
        Map<String, Recorded> waitingAtStart = new LinkedHashMap<>();
        Map<String, WorkloadSubmitted> submissions = new LinkedHashMap<>();
        Set<String> ours = new HashSet<>();
        // what runs and waits as the records go, up to the window's end
        Map<String, RecordedNow.Running> running = new LinkedHashMap<>();
        Map<String, WorkloadSubmitted> queued = new LinkedHashMap<>();
        Map<String, Integer> retried = new HashMap<>();
        Map<String, Integer> readinessRequeues = new HashMap<>();
        Map<String, Instant> lastReadinessTimeout = new HashMap<>();
        for (Recorded r : inOrder) {
            if (r.at().isAfter(to)) break;
            boolean inWindow = !r.at().isBefore(from);
            if (inWindow && start == null) start = start(inputs, skipped);
            try {
                switch (r.source()) {
                    case TOPOLOGY -> topology(cluster, r, inputs, inWindow ? events : null);
                    case QUOTA -> quota(cluster, r, inputs, inWindow ? events : null, skipped);
                    case SUBMITTED -> {
                        WorkloadSubmitted s = EventCodec.read(r.value(), WorkloadSubmitted.class);
                        if (!belongs(s.clusterArn(), cluster, takesUnnamed) || ours.contains(s.workloadId())) continue;
                        ours.add(s.workloadId());
                        WorkloadSubmitted stamped = s.withSubmittedAt(r.at());
                        submissions.put(s.workloadId(), stamped);
                        queued.put(s.workloadId(), stamped);
                        if (inWindow) events.add(new History.Submitted(r.at(), stamped));
                        else waitingAtStart.put(s.workloadId(), r);
                    }
                    case ADMITTED -> {
                        WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                        if (!ours.contains(a.workloadId())) continue;
                        admitted(a, r.at(), submissions.get(a.workloadId()), running, queued);
                        if (!a.isNodeReplacement()) events.add(new History.Admitted(r.at(), a.workloadId()));
                    }
                    case PREEMPTED -> {
                        WorkloadPreempted p = EventCodec.read(r.value(), WorkloadPreempted.class);
                        if (!ours.contains(p.workloadId())) continue;
                        // back in its queue at its place (evicted work keeps its submission time)
                        RecordedNow.Running was = running.remove(p.workloadId());
                        if (was != null) queued.put(p.workloadId(), was.submission());
                        if (waitForPodsReady != null && p.reason() == PreemptionReason.PodsReadyTimeout) {
                            int before = readinessRequeues.getOrDefault(p.workloadId(), 0);
                            if (!waitForPodsReady.mayRequeue(before)) {
                                queued.remove(p.workloadId()); // its limit reached: Rejected (RequeuingLimitExceeded)
                            } else {
                                readinessRequeues.put(p.workloadId(), before + 1);
                                lastReadinessTimeout.put(p.workloadId(), p.preemptedAt() == null ? r.at() : p.preemptedAt());
                            }
                        }
                    }
                    case FINISHED -> {
                        WorkloadFinished f = EventCodec.read(r.value(), WorkloadFinished.class);
                        if (!ours.contains(f.workloadId())) continue;
                        finished(f, r.at(), submissions.get(f.workloadId()), running, queued, retried);
                        if (inWindow) events.add(new History.Finished(r.at(), f.workloadId(), f.outcome()));
                        else waitingAtStart.remove(f.workloadId());
                    }
                }
            } catch (IllegalArgumentException | ValidationException e) {
                skipped.add(r.source().name().toLowerCase(java.util.Locale.ROOT) + " record at " + r.at()
                        + (r.key() == null ? "" : " key '" + r.key() + "'") + ": " + e.getMessage());
            }
        }
        if (start == null) start = start(inputs, skipped);
        // Work still waiting or running when the window opened enters it at its start, in its recorded queue order.
        for (String id : waitingAtStart.keySet()) events.add(new History.Submitted(from, submissions.get(id)));
        // admissions of workloads that ended before the window tell nothing the replay uses
        events.removeIf(e -> e instanceof History.Admitted a && a.at().isBefore(from) && !waitingAtStart.containsKey(a.workloadId()));
        Map<String, TeamQuota> quotasNow = inputs.quotas((team, e) -> skipped.add("quota of " + team + " now: " + e.getMessage()));
        List<WorkloadSubmitted> pending = queued.values().stream().sorted(Comparator.comparing(WorkloadSubmitted::submittedAt)).toList();
        Map<String, Scheduler.Readiness> readiness = new HashMap<>();
        readinessRequeues.forEach((id, n) -> {
            Instant until = lastReadinessTimeout.get(id).plus(waitForPodsReady.backoff(n));
            boolean backingOff = queued.containsKey(id) && until.isAfter(to);
            readiness.put(id, new Scheduler.Readiness(false, n, backingOff ? until : null));
        });
        RecordedNow now = new RecordedNow(to, inputs.instanceTypes(), inputs.nodes(), inputs.config(), List.copyOf(quotasNow.values()),
                List.copyOf(running.values()), pending, retried, waitForPodsReady, readiness);
        return new Result(new History(cluster.value(), from, to, start, events), now, skipped);
    }

    /**
     * An admission starts a run (the latest admission last, so that the map keeps admission order); a new placement
     * after a node failure only moves the running workload.
     */
    private static void admitted(WorkloadAdmitted a, Instant at, WorkloadSubmitted submission, Map<String, RecordedNow.Running> running,
                                 Map<String, WorkloadSubmitted> queued) {
        if (a.isNodeReplacement()) {
            running.computeIfPresent(a.workloadId(), (id, r) -> new RecordedNow.Running(r.submission(), r.admittedAt(), a.podSets(), r.borrowed()));
            return;
        }
        queued.remove(a.workloadId());
        running.remove(a.workloadId());
        running.put(a.workloadId(), new RecordedNow.Running(submission, a.admittedAt() == null ? at : a.admittedAt(),
                a.podSets() == null ? List.of() : a.podSets(), a.borrowed()));
    }

    /**
     * A finish ends the workload, running or waiting; but a running one that failed with retries left waits again,
     * queued as of its failure (as the decider's {@code fail} does).
     */
    private static void finished(WorkloadFinished f, Instant at, WorkloadSubmitted submission, Map<String, RecordedNow.Running> running,
                                 Map<String, WorkloadSubmitted> queued, Map<String, Integer> retried) {
        RecordedNow.Running was = running.remove(f.workloadId());
        queued.remove(f.workloadId());
        if (was == null || f.outcome() != WorkloadFinished.Outcome.Failed) return;
        int used = retried.getOrDefault(f.workloadId(), 0);
        if (used < submission.maxRetry().orElse(0)) {
            retried.put(f.workloadId(), used + 1);
            queued.put(f.workloadId(), submission.withSubmittedAt(at));
        }
    }

    private static boolean onlyCluster(ClusterArn cluster, List<Recorded> records) {
        Set<ClusterArn> seen = new TreeSet<>();
        for (Recorded r : records) {
            if (r.source() != Source.TOPOLOGY || r.key() == null) continue;
            try {
                seen.add(ClusterScopedKey.parse(r.key()).cluster());
            } catch (IllegalArgumentException e) {
                // named as skipped when the record is read
            }
        }
        return seen.isEmpty() || seen.equals(Set.of(cluster));
    }

    private static boolean belongs(String clusterArn, ClusterArn cluster, boolean takesUnnamed) {
        return clusterArn == null ? takesUnnamed : ClusterArn.ofNullable(clusterArn).equals(cluster);
    }

    private static History.Start start(ClusterInputs inputs, List<String> skipped) {
        Map<String, TeamQuota> quotas = inputs.quotas((team, e) -> skipped.add("quota of " + team + " at the window's start: " + e.getMessage()));
        return new History.Start(inputs.instanceTypes(), inputs.nodes(), inputs.config(), List.copyOf(quotas.values()));
    }

    private static void topology(ClusterArn cluster, Recorded r, ClusterInputs inputs, List<History.Event> events) {
        TopologyChange change = TopologyRecordTranslator.translate(r.key(), r.value()).orThrow();
        if (!change.cluster().equals(cluster)) return;
        if (change instanceof TopologyChange.NodeRemoved removed) {
            if (inputs.removeNode(removed.name()) && events != null) events.add(new History.NodeRemoved(r.at(), removed.name()));
        } else if (change instanceof TopologyChange.NodeSet set) {
            inputs.putNode(set.node());
            if (events != null) events.add(new History.NodeChanged(r.at(), inputs.node(set.node().name())));
        }
    }

    private static void quota(ClusterArn cluster, Recorded r, ClusterInputs inputs, List<History.Event> events, List<String> skipped) {
        QuotaChange change = QuotaRecordTranslator.translate(r.key(), r.value()).orThrow();
        if (!change.cluster().equals(cluster)) return;
        if (change instanceof QuotaChange.SchedulerConfigSet set) {
            inputs.setConfig(set.config());
            if (events != null) events.add(new History.ConfigChanged(r.at(), set.config()));
        } else if (change instanceof QuotaChange.QuotaRemoved removed) {
            if (inputs.removeQuota(removed.team()) && events != null) events.add(new History.QuotaDeleted(r.at(), removed.team()));
        } else if (change instanceof QuotaChange.QuotaSet set) {
            inputs.putQuota(set.team(), set.request());
            if (events == null) return;
            try {
                events.add(new History.QuotaChanged(r.at(), inputs.quota(set.team())));
            } catch (ValidationException e) {
                skipped.add("quota record at " + r.at() + " key '" + r.key() + "': " + e.getMessage());
            }
        }
    }
}
