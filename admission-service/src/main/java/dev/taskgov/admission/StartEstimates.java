package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.estimate.LearnedRunTimes;
import dev.taskgov.core.estimate.RunTime;
import dev.taskgov.core.estimate.StartEstimate;
import dev.taskgov.core.estimate.StartForecast;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.Scheduler;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The read side's estimated starts (docs/semantics.md, "Estimated start"): one {@link StartForecast} per cluster, shared
 * by every pending workload and kept until the state changes. Only the copy of the scheduler is made under the
 * state's lock ({@link #snapshot}); the simulation runs outside it, so that a forecast of a deep queue (seconds at
 * 10,000 pending) never holds up deciding. A changed state is forecast again at most once per {@code refresh} (or five
 * times what the last forecast took, if longer), in the background while readers keep the last forecast; a workload the last forecast does not know (submitted since) waits
 * for a new one at once. Reads that wait meanwhile share it: a read of a workload the copy of a forecast under way holds
 * waits for that forecast rather than making one of its own, so that a burst of reads of new workloads on a deep queue
 * costs one forecast, not one each.
 */
public final class StartEstimates {

    private static final Logger LOG = Logger.getLogger(StartEstimates.class);

    /** How often a changing cluster is forecast again at most: each forecast costs a cycle per step of its simulation. */
    public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(5);

    private final Clock clock;
    private final Duration refresh;
    private final Map<ClusterArn, Cached> forecasts = new ConcurrentHashMap<>();
    private final Map<ClusterArn, Object> running = new ConcurrentHashMap<>();
    /** Per cluster, the last forecast a read waits for while it runs: later reads of workloads its copy holds join it. */
    private final Map<ClusterArn, Awaited> awaited = new ConcurrentHashMap<>();

    /** A forecast reads wait for: its copy, and its result once run (null if it failed). */
    record Awaited(StartForecast.Prepared copy, CompletableFuture<StartForecast> result) {
    }
    /** One thread for every processor's background forecasts: a processor rebuilt after a rebalance leaves none behind. */
    private static final ExecutorService BACKGROUND = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "start-estimates");
        t.setDaemon(true);
        return t;
    });

    public StartEstimates(Clock clock, Duration refresh) {
        this.clock = clock;
        this.refresh = refresh;
    }

    /** What a forecast was made of: it is current while the key is the same. */
    record Key(int scheduler, long version, long recordVersions, int records) {
    }

    /** A forecast, of the state of {@code key}, that took {@code took} to make. */
    record Cached(Key key, StartForecast forecast, Duration took) {
        /**
         * A forecast younger than the refresh interval, or than five times what it took, is kept while the state
         * changes: on a deep queue forecasting again at once would keep a core busy; this bounds it to a fifth of one.
         */
        boolean young(Instant now, Duration refresh) {
            Duration keep = took.multipliedBy(5).compareTo(refresh) > 0 ? took.multipliedBy(5) : refresh;
            return Duration.between(forecast.at(), now).compareTo(keep) < 0;
        }
    }

    /**
     * Taken under the state's lock: the key of the state, and the copy to forecast it from when a new forecast is
     * due ({@code background}: made while the read keeps the last one); no copy when the last forecast serves.
     * {@code joins}, for a read that waits: with a copy, the forecast the read makes (reads of workloads its copy holds
     * join it until it is done); without, the forecast under way that the read waits for.
     */
    public record Snapshot(Key key, StartForecast.Prepared copy, boolean background, Awaited joins) {
        Snapshot(Key key, StartForecast.Prepared copy, boolean background) {
            this(key, copy, background, null);
        }
    }

    /**
     * Under the state's lock: what a read of {@code workloadIds} gets. The last forecast while it is of this state,
     * or young and knows them; else a copy to forecast from, now when the last forecast does not know them (or there
     * is none), else in the background.
     *
     * @param records the state's records (every cluster's)
     */
    Snapshot snapshot(ClusterArn cluster, Scheduler scheduler, Collection<WorkloadRecord> records, Collection<String> workloadIds) {
        if (scheduler == null) return null;
        long versions = 0;
        int count = 0;
        for (WorkloadRecord r : records) {
            if (!cluster.equals(r.cluster())) continue;
            versions += r.version();
            count++;
        }
        Key key = new Key(System.identityHashCode(scheduler), scheduler.clusterView().version(), versions, count);
        Cached cached = forecasts.get(cluster);
        if (cached != null && cached.key().equals(key)) return new Snapshot(key, null, false);
        boolean knowsThem = cached != null && workloadIds.stream().allMatch(id -> cached.forecast().of(id).isPresent());
        if (knowsThem && (cached.young(clock.instant(), refresh) || running.containsKey(cluster))) return new Snapshot(key, null, false);
        Awaited underWay = awaited.get(cluster);
        if (!knowsThem && underWay != null && !underWay.result().isDone() && workloadIds.stream().allMatch(underWay.copy()::holds)) {
            return new Snapshot(key, null, false, underWay);
        }
        StartForecast.Prepared copy = StartForecast.prepare(scheduler, runTimes(cluster, records), clock.instant(),
                StartForecast.Limits.DEFAULT);
        if (knowsThem) return new Snapshot(key, copy, true);
        // Registered under the state's lock, with the copy: a read right after it joins this forecast.
        Awaited mine = new Awaited(copy, new CompletableFuture<>());
        awaited.put(cluster, mine);
        return new Snapshot(key, copy, false, mine);
    }

    /** Each workload's declared run time, else the one learned from the cluster's finished workloads (the most recent last). */
    private static Function<Workload, Optional<RunTime>> runTimes(ClusterArn cluster, Collection<WorkloadRecord> records) {
        List<WorkloadRecord> finished = new ArrayList<>();
        Map<String, Duration> declared = new HashMap<>();
        for (WorkloadRecord r : records) {
            if (!cluster.equals(r.cluster())) continue;
            if (r.state() == WorkloadState.Finished && r.admittedAt() != null) finished.add(r);
            if ((r.state() == WorkloadState.Pending || r.state() == WorkloadState.Admitted) && r.spec() != null) {
                r.spec().expectedRuntime().ifPresent(d -> declared.put(r.workloadId(), d));
            }
        }
        finished.sort(Comparator.comparing(WorkloadRecord::writtenAt));
        LearnedRunTimes learned = new LearnedRunTimes();
        for (WorkloadRecord r : finished) learned.observe(r.team(), r.priorityClass(), Duration.between(r.admittedAt(), r.writtenAt()));
        return w -> {
            Duration d = declared.get(w.id());
            return d != null ? Optional.of(RunTime.declared(d)) : learned.estimate(w.team(), w.priorityClass());
        };
    }

    /** The forecast a read gets (outside the state's lock), as {@link #snapshot} decided. */
    Optional<StartForecast> forecast(ClusterArn cluster, Snapshot s) {
        if (s == null) return Optional.empty();
        if (s.copy() == null && s.joins() != null) return Optional.ofNullable(s.joins().result().join());
        Cached cached = forecasts.get(cluster);
        if (s.copy() == null) return Optional.ofNullable(cached).map(Cached::forecast);
        if (s.background() && cached != null) {
            if (running.putIfAbsent(cluster, Boolean.TRUE) == null) {
                BACKGROUND.execute(() -> {
                    try {
                        store(cluster, s);
                    } finally {
                        running.remove(cluster);
                    }
                });
            }
            return Optional.of(cached.forecast());
        }
        StartForecast f = null;
        try {
            f = store(cluster, s);
        } finally {
            if (s.joins() != null) {
                s.joins().result().complete(f);
                awaited.remove(cluster, s.joins());
            }
        }
        return Optional.ofNullable(f);
    }

    private StartForecast store(ClusterArn cluster, Snapshot s) {
        long t0 = System.nanoTime();
        StartForecast f;
        try {
            f = s.copy().run();
        } catch (RuntimeException e) {
            // An estimate is information: a read that asks for one still answers, without it.
            LOG.errorf(e, "the start forecast of cluster %s failed; pending workloads are shown without an estimate", cluster);
            return null;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        // A forecast of an older state never replaces one of a newer (forecasts of one cluster may overlap).
        forecasts.merge(cluster, new Cached(s.key(), f, took), (old, now) -> old.forecast().at().isAfter(now.forecast().at()) ? old : now);
        return f;
    }

    /** The estimate of one pending workload; empty when it is not pending (or its cluster has no scheduler yet). */
    Optional<StartEstimate> of(ClusterArn cluster, Snapshot s, String workloadId) {
        return forecast(cluster, s).flatMap(f -> f.of(workloadId));
    }
}
