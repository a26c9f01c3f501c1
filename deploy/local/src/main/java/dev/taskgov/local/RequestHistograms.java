package dev.taskgov.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.yammer.metrics.core.MetricsRegistry;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.network.metrics.RequestMetrics;
import org.apache.kafka.server.metrics.KafkaMetricsGroup;

/**
 * The broker's per-request histograms ({@code kafka.network:type=RequestMetrics}: eight per request type, ten for
 * produce and fetch, each updated once per request) kept in a uniform reservoir rather than Kafka's exponentially
 * decaying one. The decaying reservoir inserts into a skip list at nearly every update; on the platform's broker that
 * was about three quarters of its network threads' CPU, a sixth of the broker's, during Kueue's {@code baseline}
 * replayed (docs/benchmarks.md, "Where the broker's time goes"). A uniform reservoir takes an update in constant
 * time; its percentiles describe the broker's whole life instead of mostly its last minutes, and counts, means,
 * minima and maxima are the same.
 *
 * <p>Registered before Kafka starts, under the names Kafka's {@link RequestMetrics} asks for: the registry answers
 * a name it holds with the metric it holds, so Kafka updates these.
 */
final class RequestHistograms {

    /** The group and type of Kafka's request metrics (as {@link RequestMetrics} names them). */
    private static final KafkaMetricsGroup GROUP = new KafkaMetricsGroup("kafka.network", "RequestMetrics");
    private static final List<String> EVERY_REQUEST = List.of("RequestQueueTimeMs", "LocalTimeMs", "RemoteTimeMs",
            "ThrottleTimeMs", "ResponseQueueTimeMs", "ResponseSendTimeMs", "TotalTimeMs", "RequestBytes");
    private static final List<String> PRODUCE_AND_FETCH = List.of(RequestMetrics.MESSAGE_CONVERSIONS_TIME_MS,
            RequestMetrics.TEMPORARY_MEMORY_BYTES);

    private RequestHistograms() {
    }

    /** Every request type's name as Kafka's request metrics use it: each API's, and the fetches told apart. */
    static List<String> requestNames() {
        List<String> names = new ArrayList<>();
        for (ApiKeys api : ApiKeys.values()) names.add(api.name);
        names.add(RequestMetrics.CONSUMER_FETCH_METRIC_NAME);
        names.add(RequestMetrics.FOLLOW_FETCH_METRIC_NAME);
        names.add(RequestMetrics.VERIFY_PARTITIONS_IN_TXN_METRIC_NAME);
        return names;
    }

    /** Registers every request histogram in {@code registry} with a uniform reservoir; answers how many. */
    static int sampleUniformly(MetricsRegistry registry) {
        int registered = 0;
        for (String request : requestNames()) {
            List<String> histograms = new ArrayList<>(EVERY_REQUEST);
            if (request.equals(ApiKeys.PRODUCE.name) || request.equals(ApiKeys.FETCH.name)) histograms.addAll(PRODUCE_AND_FETCH);
            for (String histogram : histograms) {
                registry.newHistogram(GROUP.metricName(histogram, Map.of("request", request)), false);
                registered++;
            }
        }
        return registered;
    }
}
