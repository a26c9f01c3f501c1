package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.quota.Share;
import dev.taskgov.service.support.CoalescedRefresh;
import dev.taskgov.service.support.DeciderMetrics;
import dev.taskgov.service.support.GaugeRows;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The decider's Micrometer meters (names in docs/metrics.md). Counters and the wait-time histogram
 * are updated as decisions are made; the gauges are recomputed from the decider's state at most once
 * per refresh interval after a batch changed it ({@link #refresh}), on a thread of their own: one
 * recomputation walks every workload record and quota, which after every batch of a burst cost the
 * decider a sixth of its CPU.
 */
public final class AdmissionMetrics extends DeciderMetrics implements AdmissionObserver, AutoCloseable {

    /** The state that changed since the gauges were last recomputed; null when they are current. */
    private final AtomicReference<AdmissionReads> changed = new AtomicReference<>();
    private final CoalescedRefresh refresher;

    /** The states of every partition this instance decides for (one, outside the partitioned loop). */
    private volatile Supplier<List<AdmissionReads>> processors;

    /** One instance decides for several partitions: the gauges are the sum of their processors' clusters. */
    public void followProcessors(Supplier<List<AdmissionReads>> all) {
        this.processors = all;
    }

    @Override
    public void stateChanged(AdmissionReads processor) {
        changed.set(processor);
        refresher.markStale();
    }

    private void refreshIfChanged() {
        AdmissionReads processor = changed.getAndSet(null);
        if (processor == null) return;
        Supplier<List<AdmissionReads>> all = processors;
        refresh(all == null ? List.of(processor) : all.get());
    }

    @Override
    public void close() {
        refresher.close();
    }

    /** The label naming the cluster on every per-team meter. */
    static final String CLUSTER = "cluster";

    private final GaugeRows pending;
    private final GaugeRows nominal;
    private final GaugeRows used;
    private final GaugeRows borrowed;
    private final GaugeRows lent;
    private final GaugeRows borrowingLimit;
    private final GaugeRows lendable;
    private final GaugeRows running;
    private final GaugeRows share;

    /** @param inputTopics the topics the decider reads: their dead-letter counters start at 0 */
    public AdmissionMetrics(MeterRegistry registry, Supplier<Boolean> decider, Supplier<Long> lag,
                            Collection<String> inputTopics, Duration refreshInterval) {
        super(registry, inputTopics);
        this.refresher = new CoalescedRefresh("admission-meters", refreshInterval, this::refreshIfChanged);
        this.pending = new GaugeRows(registry, "taskgov.admission.pending.workloads", "Pending workloads per team and reason");
        this.nominal = new GaugeRows(registry, "taskgov.quota.nominal", "Nominal quota per team, instance type and resource (accelerators, vCPU, GiB)");
        this.used = new GaugeRows(registry, "taskgov.quota.used", "What admitted workloads use per team, instance type and resource");
        this.borrowed = new GaugeRows(registry, "taskgov.quota.borrowed", "Usage above nominal per team, instance type and resource");
        this.lent = new GaugeRows(registry, "taskgov.quota.lent", "Idle lendable quota of a team that borrowers use now (the cohort's borrowing split in proportion to idle lendable quota)");
        this.borrowingLimit = new GaugeRows(registry, "taskgov.quota.borrowing.limit", "How much a team may use above its nominal, per instance type and resource (0 when it may not borrow)");
        this.lendable = new GaugeRows(registry, "taskgov.quota.lendable", "What a team lends to the cohort while unused (its nominal when its strategy lends, else 0)");
        this.running = new GaugeRows(registry, "taskgov.admission.running.workloads", "Admitted workloads that have not finished or been evicted, per team");
        this.share = new GaugeRows(registry, "taskgov.admission.weighted.share", "Weighted (dominant resource) share per team; +Inf for weight 0 while borrowing");
        io.micrometer.core.instrument.Gauge.builder("taskgov.admission.decider", () -> decider.get() ? 1 : 0)
                .description("1 while this instance decides for (owns) partitions of the inputs").register(registry);
        io.micrometer.core.instrument.Gauge.builder("taskgov.admission.processing.lag", lag::get)
                .description("Input records behind the end of the decider's partitions").baseUnit("records").register(registry);
    }

    @Override
    public void admitted(ClusterArn cluster, String team, String priorityClass, Duration waited) {
        Counter.builder("taskgov.admission.admitted").description("Admissions per cluster and team")
                .tags(CLUSTER, label(cluster), "team", team).register(registry).increment();
        Timer.builder("taskgov.admission.wait").description("Time from submission to admission")
                .tags(CLUSTER, label(cluster), "team", team, "priority_class", priorityClass == null ? "none" : priorityClass)
                .publishPercentileHistogram().register(registry)
                .record(waited.isNegative() ? Duration.ZERO : waited);
    }

    @Override
    public void finished(ClusterArn cluster, String team) {
        Counter.builder("taskgov.admission.finished").description("Finished workloads per cluster and team")
                .tags(CLUSTER, label(cluster), "team", team).register(registry).increment();
    }

    @Override
    public void forgotten(ClusterArn cluster, String team, dev.taskgov.core.model.WorkloadState state) {
        Counter.builder("taskgov.admission.forgotten")
                .description("Ended workloads forgotten after their retention, per cluster, team and final state")
                .tags(CLUSTER, label(cluster), "team", team, "state", state.name()).register(registry).increment();
    }

    @Override
    public void preemptionRequested(ClusterArn cluster, String team) {
        Counter.builder("taskgov.admission.preemption.requests").description("Preemption requests per cluster and preemptor team")
                .tags(CLUSTER, label(cluster), "team", team).register(registry).increment();
    }

    @Override
    public void preemptionsStopped(ClusterArn cluster, String team) {
        Counter.builder("taskgov.admission.runs.preemptions.stopped")
                .description("Runs of the scheduler that reached their bound of preemption evictions and stopped preempting "
                        + "(a preemption cycle the rules failed to prevent; 0 is the only healthy value), per cluster and the "
                        + "team whose preemptor crossed the bound")
                .tags(CLUSTER, label(cluster), "team", team).register(registry).increment();
    }

    @Override
    public void rejected(ClusterArn cluster, String team, String reason) {
        Counter.builder("taskgov.admission.rejected").description("Rejected submissions per cluster, team and reason")
                .tags(CLUSTER, label(cluster), "team", team, "reason", reason).register(registry).increment();
    }

    @Override
    public void clusterChanged(ClusterArn cluster, String team, String outcome) {
        Counter.builder("taskgov.admission.cluster.changes").description("Running workloads moved off a failed node (NodeReplaced) "
                + "or evicted without a preemptor (NodeFailure, QuotaRemoved), per cluster and team")
                .tags(CLUSTER, label(cluster), "team", team, "outcome", outcome)
                .register(registry).increment();
    }

    /** Recomputes the gauges from the decider's state. */
    public void refresh(List<AdmissionReads> processors) {
        Map<Tags, Number> p = new LinkedHashMap<>();
        Map<Tags, Number> a = new LinkedHashMap<>();
        for (AdmissionReads processor : processors) {
            AdmissionReads.WorkloadCounts counts = processor.workloadCounts();
            counts.pendingByTeamAndReason().forEach((cluster, byTeam) -> byTeam.forEach((team, byReason) ->
                    byReason.forEach((reason, n) -> p.put(Tags.of(CLUSTER, label(cluster), "team", team, "reason", reason), n))));
            counts.admittedByTeam().forEach((cluster, byTeam) ->
                    byTeam.forEach((team, n) -> a.put(Tags.of(CLUSTER, label(cluster), "team", team), n)));
        }
        pending.set(p);
        running.set(a);
        QuotaRows rows = new QuotaRows(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(),
                new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
        boolean[] deciding = {false};
        for (AdmissionReads processor : processors) {
            processor.forEachScheduler((cluster, s) -> {
                deciding[0] = true;
                quotaRows(cluster, s, rows);
            });
        }
        if (!deciding[0]) return;
        nominal.set(rows.nominal());
        used.set(rows.used());
        borrowed.set(rows.borrowed());
        lent.set(rows.lent());
        borrowingLimit.set(rows.borrowingLimit());
        lendable.set(rows.lendable());
        share.set(rows.share());
    }

    /** The {@code cluster} label: the cluster ARN, empty for the unnamed cluster. */
    static String label(ClusterArn cluster) {
        return cluster.value();
    }

    /** The rows of the quota gauges, gathered over every cluster before they are registered at once. */
    private record QuotaRows(Map<Tags, Number> nominal, Map<Tags, Number> used, Map<Tags, Number> borrowed,
                             Map<Tags, Number> lent, Map<Tags, Number> borrowingLimit,
                             Map<Tags, Number> lendable, Map<Tags, Number> share) {
    }

    private static void quotaRows(ClusterArn cluster, Scheduler s, QuotaRows rows) {
        for (TeamUsage t : TeamUsage.of(s.ledger())) {
            t.instanceTypes().forEach((type, f) -> {
                // one row per fixed resource, and per partition type (resource="partitions.mig-1g.10gb") the team has or uses
                for (ResourceKey r : f.lent().keySet()) {
                    Tags tags = Tags.of(CLUSTER, label(cluster), "team", t.team(), "instance_type", type, "resource", r.jsonName());
                    rows.nominal().put(tags, json(r, f.nominal().get(r)));
                    rows.used().put(tags, json(r, f.used().get(r)));
                    rows.borrowed().put(tags, json(r, f.borrowed().get(r)));
                    rows.borrowingLimit().put(tags, json(r, f.borrowingLimit().get(r)));
                    rows.lendable().put(tags, json(r, f.lendable().get(r)));
                    rows.lent().put(tags, f.lent().get(r) / r.unitsPerJsonUnit());
                }
            });
            Share s1 = t.share();
            double v = s1.isInfinite() ? Double.POSITIVE_INFINITY : s1.denominator() == 0 ? 0 : (double) s1.numerator() / s1.denominator();
            rows.share().put(Tags.of(CLUSTER, label(cluster), "team", t.team()), v);
        }
    }

    private static double json(ResourceKey r, long stored) {
        return (double) stored / r.unitsPerJsonUnit();
    }
}
