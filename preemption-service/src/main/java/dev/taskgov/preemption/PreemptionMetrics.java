package dev.taskgov.preemption;

import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.service.support.DeciderMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** The decider's Micrometer meters (names and tags in docs/metrics.md). */
public final class PreemptionMetrics extends DeciderMetrics implements PreemptionObserver {

    private final AtomicInteger graces = new AtomicInteger();
    private final Timer handling;

    /** @param inputTopics the topics whose bad records the decider refuses: their dead-letter counters start at 0 */
    public PreemptionMetrics(MeterRegistry registry, Supplier<Boolean> decider, Supplier<Long> lag,
                             Collection<String> inputTopics) {
        super(registry, inputTopics);
        Gauge.builder("taskgov.preemption.grace.pending", graces::get)
                .description("Victims chosen and waiting for their grace period to end").register(registry);
        Gauge.builder("taskgov.preemption.decider", () -> decider.get() ? 1 : 0)
                .description("1 while this instance is the preemption decider").register(registry);
        Gauge.builder("taskgov.preemption.processing.lag", lag::get)
                .description("Preemption requests behind the end of the decider's partitions").baseUnit("records").register(registry);
        handling = Timer.builder("taskgov.preemption.request.duration")
                .description("Time to handle one preemption request (view catch-up, plan, emit)")
                .publishPercentileHistogram().register(registry);
    }

    @Override
    public void evicted(dev.taskgov.core.cluster.ClusterArn cluster, String team, PreemptionReason reason) {
        Counter.builder("taskgov.preemption.evictions").description("Published evictions per cluster, victim team and reason")
                .tags("cluster", cluster.value(), "team", team == null ? "" : team, "reason", reason == null ? "" : reason.name())
                .register(registry).increment();
    }

    @Override
    public void relayed(dev.taskgov.core.cluster.ClusterArn cluster, String team, PreemptionReason reason) {
        Counter.builder("taskgov.preemption.relayed.evictions")
                .description("Evictions admission-service decided without a preemptor, published on its behalf, per cluster, team and reason")
                .tags("cluster", cluster.value(), "team", team, "reason", reason.name())
                .register(registry).increment();
    }

    @Override
    public void noVictims(String why) {
        Counter.builder("taskgov.preemption.no.victims")
                .description("Requests that evicted nothing, per cause (NoPlan, AlreadyFits, AlreadyAdmitted, ...)")
                .tag("cause", why).register(registry).increment();
    }

    @Override
    public void handled(Duration took) {
        handling.record(took);
    }

    @Override
    public void gracesPending(int count) {
        graces.set(count);
    }
}
