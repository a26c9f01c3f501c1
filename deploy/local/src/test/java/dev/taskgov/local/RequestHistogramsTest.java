package dev.taskgov.local;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Optional;

import com.yammer.metrics.core.Histogram;
import com.yammer.metrics.core.Metric;
import com.yammer.metrics.core.MetricName;
import com.yammer.metrics.stats.UniformSample;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.network.metrics.RequestMetrics;
import org.apache.kafka.server.metrics.KafkaYammerMetrics;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka's own request metrics, built after {@link RequestHistograms} registered, update the uniform histograms: no
 * histogram of theirs is created, and each one they hold samples uniformly.
 */
class RequestHistogramsTest {

    @Test
    void kafkasRequestMetricsUpdateTheUniformHistogramsRegisteredBeforeThem() throws Exception {
        var registry = KafkaYammerMetrics.defaultRegistry();
        int registered = RequestHistograms.sampleUniformly(registry);
        assertThat(registered).isEqualTo(RequestHistograms.requestNames().size() * 8 + 2 * 2);
        int before = histograms();

        for (String request : List.of(ApiKeys.FETCH.name, ApiKeys.PRODUCE.name, RequestMetrics.CONSUMER_FETCH_METRIC_NAME,
                ApiKeys.END_TXN.name, ApiKeys.ADD_PARTITIONS_TO_TXN.name)) {
            RequestMetrics metrics = new RequestMetrics(request);
            List<Histogram> held = List.of(metrics.requestQueueTimeHist, metrics.localTimeHist, metrics.remoteTimeHist,
                    metrics.throttleTimeHist, metrics.responseQueueTimeHist, metrics.responseSendTimeHist,
                    metrics.totalTimeHist, metrics.requestBytesHist);
            for (Histogram h : held) assertThat(sample(h)).as(request).isInstanceOf(UniformSample.class);
            for (Optional<Histogram> h : List.of(metrics.messageConversionsTimeHist, metrics.tempMemoryBytesHist)) {
                h.ifPresent(x -> assertThat(sample(x)).as(request).isInstanceOf(UniformSample.class));
            }
        }
        assertThat(histograms()).as("histograms in the registry").isEqualTo(before);
    }

    private static int histograms() {
        int n = 0;
        for (java.util.Map.Entry<MetricName, Metric> m : KafkaYammerMetrics.defaultRegistry().allMetrics().entrySet()) {
            if (m.getValue() instanceof Histogram) n++;
        }
        return n;
    }

    /** The reservoir a histogram keeps (the metrics library does not expose it). */
    private static Object sample(Histogram h) {
        try {
            Field f = Histogram.class.getDeclaredField("sample");
            f.setAccessible(true);
            return f.get(h);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
