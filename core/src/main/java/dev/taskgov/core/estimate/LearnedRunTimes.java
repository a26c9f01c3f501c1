package dev.taskgov.core.estimate;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Run times learned from finished workloads: the median of the most recent observed runs (admission to finish) per team
 * and priority class, falling back to the class across teams, then to the whole cluster. The medians are taken on
 * read and kept until the next observation. Not thread-safe.
 */
public final class LearnedRunTimes {

    /** How many recent runs each median is taken over: recent work says more than old work, and the cost stays bounded. */
    public static final int DEFAULT_WINDOW = 200;

    private final int window;
    private final Map<Key, Deque<Duration>> runs = new HashMap<>();
    private final Map<Key, Optional<Duration>> medians = new HashMap<>();

    /** A key of observations: team and class (null for any), class null for workloads of no class. */
    private record Key(String team, String priorityClass, boolean anyClass) {
    }

    public LearnedRunTimes() {
        this(DEFAULT_WINDOW);
    }

    public LearnedRunTimes(int window) {
        if (window < 1) throw new IllegalArgumentException("the window must be >= 1, was " + window);
        this.window = window;
    }

    /** A workload of {@code team} and {@code priorityClass} (null: none) ran for {@code ran}; a run of zero or less is skipped. */
    public LearnedRunTimes observe(String team, String priorityClass, Duration ran) {
        Objects.requireNonNull(team, "team");
        if (ran == null || ran.isNegative() || ran.isZero()) return this;
        add(new Key(team, priorityClass, false), ran);
        add(new Key(null, priorityClass, false), ran);
        add(new Key(null, null, true), ran);
        return this;
    }

    private void add(Key k, Duration ran) {
        Deque<Duration> d = runs.computeIfAbsent(k, x -> new ArrayDeque<>());
        d.addLast(ran);
        if (d.size() > window) d.removeFirst();
        medians.remove(k);
    }

    /** The learned run time of a workload of this team and class, the most specific there is; empty when nothing finished yet. */
    public Optional<RunTime> estimate(String team, String priorityClass) {
        Key[] keys = {new Key(team, priorityClass, false), new Key(null, priorityClass, false), new Key(null, null, true)};
        RunTime.Source[] sources = {RunTime.Source.LearnedTeamAndClass, RunTime.Source.LearnedClass, RunTime.Source.LearnedCluster};
        for (int i = 0; i < keys.length; i++) {
            Optional<Duration> m = median(keys[i]);
            if (m.isPresent()) return Optional.of(new RunTime(m.get(), sources[i], runs.get(keys[i]).size()));
        }
        return Optional.empty();
    }

    /** The middle run, the lower of the two middle ones for an even count (a run that happened, not an average). */
    private Optional<Duration> median(Key k) {
        return medians.computeIfAbsent(k, x -> {
            Deque<Duration> d = runs.get(x);
            if (d == null || d.isEmpty()) return Optional.empty();
            List<Duration> sorted = new ArrayList<>(d);
            sorted.sort(null);
            return Optional.of(sorted.get((sorted.size() - 1) / 2));
        });
    }
}
