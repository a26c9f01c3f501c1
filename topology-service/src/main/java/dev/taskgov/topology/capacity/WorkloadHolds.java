package dev.taskgov.topology.capacity;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.WorkloadFinished.Outcome;
import dev.taskgov.core.resources.Resources;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What admitted workloads hold on each node: per-pod requests (from the submission) times the pods placed on the
 * node (from the admission), and how little it keeps to get that right whatever order the topics arrive in.
 * Thread-safe; pure logic (the Kafka side is {@link WorkloadEventsLoop}).
 *
 * <p><b>Releases are ordered by time.</b> A finish (any outcome) or a preemption at time T releases an admission
 * made at or before T; an admission made after T holds. The same rule serves a late admission record (read after
 * the finish that ended it: ignored), a re-admission after a preemption, and a re-admission after a {@code Failed}
 * finish that admission-service turned into a retry ({@code taskgov.dev/max-retry}: the workload is pending again
 * with reason RetryAfterFailure and admitted again under the same id, later than the failure). A finish is
 * therefore not final here; what it leaves behind is a <em>release marker</em> (the latest release time per
 * workload), the only way to recognise a late admission record.
 *
 * <p><b>A marker is needed only until every admission made before it has been read.</b> An admission is committed
 * before the finish or preemption that ends it is produced (the job runs, or is chosen as a victim, only once its
 * admission is committed), so once the consumer has read every partition up to the end offsets it saw after the
 * marker was recorded, no admission older than the marker can still arrive. Markers are recorded in generations:
 * the loop {@link #sealMarkers seals} the open generation after it took such a snapshot of end offsets, and calls
 * {@link #forgetMarkersThrough} once its positions have passed the snapshot. This depends on how far the consumer
 * has read, not on a count or a time window, so it holds on a catch-up too (then the markers live until the
 * catch-up is done). The snapshot covers every partition read, the submission topics too, for the rule below.
 *
 * <p><b>Requests stay while the workload can still be admitted again.</b> A preemption keeps them; so does a
 * {@code Failed} finish while the submission allows retries and fewer failures than {@code 1 + max-retry} were
 * seen (distinct failure times, so that a finish read twice counts once). A {@code Succeeded} or
 * {@code Cancelled} finish, or the failure past the last retry, ends the workload: its requests go and the marker
 * also notes the end, so that a submission read late (made at or before the end) is not kept again; a submission
 * made after it is a new workload with the same id (admission-service forgets an ended workload after its
 * retention, and then takes the id as new). Once every marker of a workload is forgotten and it neither holds nor
 * waits to hold, nothing of it is kept.
 *
 * <p>Why not event time alone or a count: a window of N workloads or T seconds breaks on a catch-up, when the
 * finished topic can be read minutes ahead of the admitted one. Why not a finish is final: it breaks retries. Why
 * not admission-service's status topic (its Finished state and its tombstone are the decider's own word on the end):
 * it needs another topic and grant, and its compaction drops the tombstones of workloads forgotten long ago, while
 * their submissions are still on the submission topic that every start reads again; the finished topic ends those.
 * (Per-pod requests on the admitted event would make the submission topic unneeded here; that is a contract change.)
 * What the rule assumes: the services' clocks agree to better than the time from a finish to the retry's admission
 * (the preemption rule assumed it already), and a finish is produced after the admission it ends is committed. A
 * cancel that crosses the decider's admission (sent with a time before the admission's) leaves that admission in
 * place; it holds nothing, since the cancel ended the workload and dropped its requests, but its entry stays. What
 * it leaves: requests of a workload that never finishes (rejected by admission-service, or pending for ever) stay,
 * as they did; no topic this service reads ends those.
 */
public final class WorkloadHolds {

    /** Pods of one pod set per node. */
    public record PodSetPlacement(String podSet, Map<String, Integer> podsPerNode) {
        public PodSetPlacement {
            podsPerNode = Map.copyOf(podsPerNode);
        }
    }

    private record Admission(Instant admittedAt, List<PodSetPlacement> podSets, ClusterArn cluster) {
    }

    /** What is kept of one workload besides its admission; dropped when it has neither requests nor a marker. */
    private static final class Entry {
        /** Per-pod requests by pod set, from the submission; null when not known or ended. */
        Map<String, Resources> requests;
        /** {@code taskgov.dev/max-retry} of the submission; null when the submission was not read. */
        Integer maxRetry;
        /** The latest release (finish or preemption); null when no marker is kept. */
        Instant releasedAt;
        /** The end (a final finish); null when not ended or its marker was forgotten. */
        Instant endedAt;
        /** The generation of the marker; meaningful while {@link #releasedAt} is set. */
        long generation;
        /** Distinct times of Failed finishes, to count retries; null unless some were read and it may retry. */
        TreeSet<Instant> failures;
        /** The team of the submission kept; null when not known. */
        String team;
        /**
         * Submissions of the id by other teams, kept until an admission names the team it belongs to (admission refuses
         * every team's but the first submitter's, and the teams' topics are read in no set order).
         */
        Map<String, Submission> otherTeams;

        boolean idle() {
            return requests == null && releasedAt == null;
        }
    }

    private record Marked(long generation, String workloadId) {
    }

    /** Another team's submission of an id, as kept until the id's admission. */
    private record Submission(Map<String, Resources> requests, Integer maxRetry) {
    }

    /** What each workload holds now: kept apart from {@link #entries} so that reads walk the holding ones only. */
    private final Map<String, Admission> admissions = new HashMap<>();
    private final Map<String, Entry> entries = new HashMap<>();
    /** Every marker recorded, in generation order; one entry per marking (a re-marked workload appears again). */
    private final ArrayDeque<Marked> markers = new ArrayDeque<>();
    /** The generation markers are recorded in now; earlier ones are sealed. */
    private long openGeneration = 1;
    private boolean openUsed;

    /**
     * Runs {@code changes} (calls of the methods below) under the lock the reads take: one lock for a whole batch of
     * workload events, and a read sees all of the batch or none of it.
     */
    public synchronized void update(Consumer<WorkloadHolds> changes) {
        changes.accept(this);
    }

    /** A submission with no retries and no time (tests, and submissions that carry none). */
    public synchronized void submitted(String workloadId, Map<String, Resources> perPodRequests) {
        submitted(workloadId, perPodRequests, null, null);
    }

    /**
     * A submission: the per-pod requests of each pod set, by pod set name. Ignored when it is a copy of one that
     * already ended (made at or before the end; one with no time counts as made before); the first one read is
     * kept, as admission-service keeps the first.
     *
     * @param maxRetry    its {@code taskgov.dev/max-retry}; null when absent (a failure is final)
     * @param submittedAt when it was made; null when not known
     */
    public synchronized void submitted(String workloadId, Map<String, Resources> perPodRequests, Integer maxRetry, Instant submittedAt) {
        submitted(workloadId, null, perPodRequests, maxRetry, submittedAt);
    }

    /**
     * {@link #submitted(String, Map, Integer, Instant)} by a team: the first team's is kept, another team's only until an
     * admission says the id is that team's ({@link #admitted(String, String, Instant, List, ClusterArn)}).
     */
    public synchronized void submitted(String workloadId, String team, Map<String, Resources> perPodRequests, Integer maxRetry,
                                       Instant submittedAt) {
        Entry e = entries.get(workloadId);
        if (e != null && e.endedAt != null) {
            if (submittedAt == null || !submittedAt.isAfter(e.endedAt)) return;
            // A new workload under an id that ended: its own requests and retries from now on.
            e.endedAt = null;
            e.failures = null;
            e.requests = null;
        }
        if (e == null) {
            e = new Entry();
            entries.put(workloadId, e);
        }
        if (e.requests != null) {
            if (team != null && e.team != null && !team.equals(e.team) && !admissions.containsKey(workloadId)) {
                if (e.otherTeams == null) e.otherTeams = new HashMap<>();
                e.otherTeams.putIfAbsent(team, new Submission(Map.copyOf(perPodRequests), maxRetry));
            }
            return;
        }
        e.requests = Map.copyOf(perPodRequests);
        e.team = team;
        e.maxRetry = maxRetry == null ? 0 : maxRetry;
        // Failures read before the submission (a catch-up reads the finished topic faster) count now.
        if (e.failures != null && e.failures.size() > e.maxRetry) end(workloadId, e, e.failures.last());
    }

    /** An admission in the unnamed cluster; ignored when a release at or after its time was read. */
    public synchronized boolean admitted(String workloadId, Instant admittedAt, List<PodSetPlacement> podSets) {
        return admitted(workloadId, admittedAt, podSets, ClusterArn.UNNAMED);
    }

    /**
     * An admission, or a new placement after a node failure, in a cluster (node names are a cluster's own). Ignored
     * when a release at or after its time was read (it was released already), or when a later placement holds.
     * One without a time is taken as older than any release.
     */
    public synchronized boolean admitted(String workloadId, Instant admittedAt, List<PodSetPlacement> podSets, ClusterArn cluster) {
        return admitted(workloadId, null, admittedAt, podSets, cluster);
    }

    /** An admission of a team's workload: the id is that team's, so its submission is the one whose requests count. */
    public synchronized boolean admitted(String workloadId, String team, Instant admittedAt, List<PodSetPlacement> podSets,
                                         ClusterArn cluster) {
        Entry e = entries.get(workloadId);
        if (e != null && e.otherTeams != null) {
            Submission owner = team == null || team.equals(e.team) ? null : e.otherTeams.get(team);
            if (owner != null) {
                e.requests = owner.requests();
                e.maxRetry = owner.maxRetry() == null ? 0 : owner.maxRetry();
                e.team = team;
            }
            e.otherTeams = null;
        }
        if (e != null && e.releasedAt != null && (admittedAt == null || !admittedAt.isAfter(e.releasedAt))) return false;
        Admission held = admissions.get(workloadId);
        // A record read again (a dead letter's partition rewound) does not put an older placement back.
        if (held != null && held.admittedAt() != null && admittedAt != null && held.admittedAt().isAfter(admittedAt)) return false;
        admissions.put(workloadId, new Admission(admittedAt, List.copyOf(podSets), cluster));
        return true;
    }

    /** A finish that names no outcome: taken as final (only a failure may be retried). */
    public synchronized void finished(String workloadId, Instant finishedAt) {
        finished(workloadId, finishedAt, Outcome.Succeeded);
    }

    /**
     * A finish releases the admission made at or before {@code finishedAt}. It ends the workload unless it is a
     * failure with a retry left (the submission's max-retry against the failures seen), which keeps the requests for
     * the next admission.
     */
    public synchronized void finished(String workloadId, Instant finishedAt, Outcome outcome) {
        Entry e = release(workloadId, finishedAt);
        if (outcome != Outcome.Failed) {
            end(workloadId, e, finishedAt);
            return;
        }
        if (e.failures == null) e.failures = new TreeSet<>();
        e.failures.add(finishedAt);
        // Not read yet: decided when the submission comes (it counts the failures then).
        if (e.maxRetry == null && e.requests == null && e.endedAt == null) return;
        int max = e.maxRetry == null ? 0 : e.maxRetry;
        if (e.failures.size() > max) end(workloadId, e, e.failures.last());
    }

    /** A preemption releases the admission made at or before it; the workload may be admitted again later. */
    public synchronized void preempted(String workloadId, Instant preemptedAt) {
        release(workloadId, preemptedAt);
    }

    /** Records the release marker and drops the admission it releases. */
    private Entry release(String workloadId, Instant at) {
        Entry e = entries.computeIfAbsent(workloadId, id -> new Entry());
        Admission held = admissions.get(workloadId);
        if (held != null && (held.admittedAt() == null || !held.admittedAt().isAfter(at))) admissions.remove(workloadId);
        if (e.releasedAt == null || at.isAfter(e.releasedAt)) e.releasedAt = at;
        mark(workloadId, e);
        return e;
    }

    /** The workload ended at {@code at}: its requests go; the marker remembers the end for late submissions. */
    private void end(String workloadId, Entry e, Instant at) {
        e.requests = null;
        e.maxRetry = null;
        e.failures = null;
        if (e.endedAt == null || at.isAfter(e.endedAt)) e.endedAt = at;
        if (e.releasedAt == null || at.isAfter(e.releasedAt)) e.releasedAt = at;
        mark(workloadId, e);
    }

    private void mark(String workloadId, Entry e) {
        // Marked in the open generation already: queued once is enough.
        if (e.generation == openGeneration) return;
        e.generation = openGeneration;
        markers.addLast(new Marked(openGeneration, workloadId));
        openUsed = true;
    }

    /** Whether markers were recorded since the last {@link #sealMarkers}. */
    public synchronized boolean hasOpenMarkers() {
        return openUsed;
    }

    /**
     * Closes the generation markers are recorded in, once the caller has taken the end offsets that cover them
     * (after the records that made them were applied).
     *
     * @return the generation closed, or 0 when no marker was recorded in it (nothing to forget later)
     */
    public synchronized long sealMarkers() {
        if (!openUsed) return 0;
        openUsed = false;
        return openGeneration++;
    }

    /**
     * Every record made before the markers of generations up to {@code generation} has been read: those markers are
     * forgotten, and a workload that then neither holds nor waits to hold is forgotten entirely.
     */
    public synchronized void forgetMarkersThrough(long generation) {
        while (!markers.isEmpty() && markers.peekFirst().generation() <= generation) {
            Marked m = markers.pollFirst();
            Entry e = entries.get(m.workloadId());
            // A later marking of the same workload (a newer generation) keeps it.
            if (e == null || e.generation != m.generation()) continue;
            e.releasedAt = null;
            e.endedAt = null;
            // With no requests, the submission was read and dropped (or never made): failures decide nothing more.
            if (e.requests == null) e.failures = null;
            if (e.idle()) entries.remove(m.workloadId());
        }
    }

    /** Resources held per node name in the unnamed cluster. Pod sets whose requests are not known yet hold nothing. */
    public synchronized Map<String, Resources> heldPerNode() {
        return heldPerNode(ClusterArn.UNNAMED);
    }

    /** Resources held per node name of one cluster. Pod sets whose requests are not known yet hold nothing. */
    public synchronized Map<String, Resources> heldPerNode(ClusterArn cluster) {
        Map<String, Resources> out = new TreeMap<>();
        admissions.forEach((workloadId, admission) -> {
            if (!admission.cluster().equals(cluster)) return;
            Entry e = entries.get(workloadId);
            Map<String, Resources> requests = e == null || e.requests == null ? Map.of() : e.requests;
            for (PodSetPlacement ps : admission.podSets()) {
                Resources perPod = requests.get(ps.podSet());
                if (perPod == null) continue;
                ps.podsPerNode().forEach((node, count) -> out.merge(node, perPod.times(count), Resources::plus));
            }
        });
        return out;
    }

    /** Ids of admitted workloads whose requests are not known yet (their submission was not seen). */
    public synchronized Set<String> admittedWithoutRequests() {
        Set<String> out = new HashSet<>();
        admissions.forEach((id, a) -> {
            Entry e = entries.get(id);
            Map<String, Resources> r = e == null ? null : e.requests;
            if (r == null || a.podSets().stream().anyMatch(ps -> !r.containsKey(ps.podSet()))) out.add(id);
        });
        return out;
    }

    public synchronized int admittedCount() {
        return admissions.size();
    }

    /** How many workloads requests or a release marker are kept for (the holding ones are {@link #admittedCount}). */
    public synchronized int trackedCount() {
        return entries.size();
    }

    /** Whether anything is kept for this workload (its requests, admission or a release marker). */
    public synchronized boolean tracks(String workloadId) {
        return entries.containsKey(workloadId) || admissions.containsKey(workloadId);
    }

    /** How many markings wait to be forgotten (one workload marked in several generations counts several times). */
    synchronized int markerCount() {
        return markers.size();
    }
}
