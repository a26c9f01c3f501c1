package dev.taskgov.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.cli.AdmissionClient;
import dev.taskgov.cli.CliException;
import dev.taskgov.core.events.EventCodec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * How good the estimated start (docs/semantics.md, "Estimated start") is live ({@code --estimate-every N}): right after
 * every N-th submission it reads {@code GET /workloads/{id}} as any client would, until admission-service knows the
 * workload, and keeps the estimate it gives while the workload is pending; the decider's admission time of the
 * workload's first admission is its actual start. Per class: how many were read pending with a known estimate, unknown,
 * or already admitted when first read (no estimate to judge), and the median and 90th percentile of the absolute error
 * (estimate minus actual start) with the median signed error (negative: estimated too early).
 *
 * <p>The reads run on one thread of their own, so that they never hold up the submissions; each read of a workload the
 * last forecast does not know makes admission-service forecast again, which is the feature's own cost and is counted in
 * its CPU.
 */
final class StartEstimateSampler implements AutoCloseable {

    /** A read estimate: the workload's class, the forecast's time and the expected start (null: unknown). */
    private record Read(String workloadClass, Instant forecastAt, Instant expectedStart, String basis, long lagMs) {
    }

    private static final Duration GIVE_UP = Duration.ofSeconds(10);

    private final AdmissionClient admission;
    private final int every;
    private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bench-estimates");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Read> reads = new ConcurrentHashMap<>();
    private final Map<String, String> admittedBeforeRead = new ConcurrentHashMap<>();
    private final Map<String, String> notRead = new ConcurrentHashMap<>();
    private final Map<String, Instant> firstAdmission = new ConcurrentHashMap<>();
    private final Map<String, String> sampled = new ConcurrentHashMap<>();
    private int submissions;

    StartEstimateSampler(AdmissionClient admission, int every) {
        this.admission = admission;
        this.every = every;
    }

    /** After a submission was sent: every {@code every}-th is read. */
    void submitted(String id, String workloadClass, Instant at) {
        if (every <= 0 || submissions++ % every != 0) return;
        sampled.put(id, workloadClass);
        reader.execute(() -> read(id, workloadClass, at));
    }

    /** The decider's admission time of a workload (only its first counts). */
    void admitted(String id, Instant admittedAt) {
        if (admittedAt != null && sampled.containsKey(id)) firstAdmission.putIfAbsent(id, admittedAt);
    }

    private void read(String id, String workloadClass, Instant submittedAt) {
        long deadline = System.nanoTime() + GIVE_UP.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode w;
            try {
                w = admission.workload(id);
            } catch (CliException e) {
                pause(); // not known to admission-service yet
                continue;
            }
            String state = w.path("state").asText("");
            if (state.equals("Pending") && w.has("startEstimate")) {
                JsonNode e = w.path("startEstimate");
                Instant start = e.path("known").asBoolean() ? Instant.parse(e.path("expectedStartAt").asText()) : null;
                Instant forecastAt = Instant.parse(e.path("estimatedAt").asText());
                reads.put(id, new Read(workloadClass, forecastAt, start, e.path("basis").asText(),
                        Duration.between(submittedAt, forecastAt).toMillis()));
                return;
            }
            if (!state.equals("Pending")) {
                admittedBeforeRead.put(id, workloadClass);
                return;
            }
            pause();
        }
        notRead.put(id, workloadClass);
    }

    private static void pause() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The figures per class, in {@code classes} order. */
    ObjectNode report(List<String> classes) {
        ObjectNode out = EventCodec.mapper().createObjectNode();
        out.put("every", every);
        for (String cls : classes) {
            List<Long> errors = new ArrayList<>();
            List<Long> lags = new ArrayList<>();
            int unknown = 0;
            int neverAdmitted = 0;
            for (Map.Entry<String, Read> r : reads.entrySet()) {
                if (!r.getValue().workloadClass().equals(cls)) continue;
                lags.add(r.getValue().lagMs());
                if (r.getValue().expectedStart() == null) {
                    unknown++;
                    continue;
                }
                Instant actual = firstAdmission.get(r.getKey());
                if (actual == null) {
                    neverAdmitted++;
                    continue;
                }
                errors.add(Duration.between(actual, r.getValue().expectedStart()).toMillis());
            }
            ObjectNode c = out.putObject(cls);
            c.put("sampled", sampled.values().stream().filter(cls::equals).count());
            c.put("estimated", errors.size());
            c.put("unknown", unknown);
            c.put("admittedBeforeRead", admittedBeforeRead.values().stream().filter(cls::equals).count());
            c.put("notReadWithin10s", notRead.values().stream().filter(cls::equals).count());
            c.put("estimatedButNotAdmitted", neverAdmitted);
            if (!lags.isEmpty()) {
                long[] lag = lags.stream().mapToLong(Long::longValue).sorted().toArray();
                c.put("forecastAfterSubmissionP50Ms", KueueBenchRecorder.percentile(lag, 50));
                c.put("forecastAfterSubmissionP90Ms", KueueBenchRecorder.percentile(lag, 90));
            }
            if (errors.isEmpty()) continue;
            long[] abs = errors.stream().mapToLong(Math::abs).sorted().toArray();
            long[] signed = errors.stream().mapToLong(Long::longValue).sorted().toArray();
            c.put("absErrorP50Ms", KueueBenchRecorder.percentile(abs, 50));
            c.put("absErrorP90Ms", KueueBenchRecorder.percentile(abs, 90));
            c.put("signedErrorP50Ms", KueueBenchRecorder.percentile(signed, 50));
            c.put("tooEarly", Arrays.stream(signed).filter(v -> v < 0).count());
        }
        Map<String, Integer> bases = new LinkedHashMap<>();
        reads.values().forEach(r -> bases.merge(r.basis().startsWith("unknown") ? r.basis() : r.basis().replaceAll("\\d+", "N"), 1, Integer::sum));
        ObjectNode b = out.putObject("bases");
        bases.forEach(b::put);
        return out;
    }

    @Override
    public void close() {
        reader.shutdownNow();
        try {
            reader.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
