package dev.taskgov.it;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.sim.whatif.TopicHistory;
import dev.taskgov.core.sim.whatif.WhatIfReport;
import dev.taskgov.core.sim.whatif.WhatIfRequest;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.testsupport.FlatCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The what-if's "made now" against the real deciders on a real broker: a what-if of deleting a team's quota, on the
 * records the deciders wrote, predicts the evictions that follow when the quota is deleted for real
 * (docs/semantics.md, "What-if"), and names no workload of that team that has already finished.
 */
class WhatIfPredictionLiveTest {

    @Test
    void aWhatIfOfDeletingAQuotaPredictsTheEvictionsOfTheRealDeletion() {
        try (LiveServices live = new LiveServices("what-if-prediction")) {
            DeciderTopics t = live.admissionTopics;
            live.publish(t.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY, QuotaRecords.schedulerConfig(FlatCluster.SCHEDULER_CONFIG));
            Map.of("team-a", 8L, "team-b", 8L).forEach((team, acc) ->
                    live.publish(t.quota(), team, QuotaRecords.effectiveQuota(FlatCluster.quota(team, acc))));
            for (int i = 0; i < 3; i++) live.publish(t.topology(), "node-" + i, FlatCluster.node(i, true));
            live.startAdmission();
            live.startPreemption(Map.of());
            live.awaitQuiet();

            // team-b's b-0 runs and finishes; then b-1 runs on its quota, b-2 on team-a's idle quota, and a-1 on team-a's
            Instant t0 = Instant.now();
            live.publish(t.submitted(), "b-0", FlatCluster.workload("b-0", "team-b", 4, t0));
            live.awaitQuiet();
            live.publish(t.finished(), "b-0", new WorkloadFinished("b-0", Instant.now(), WorkloadFinished.Outcome.Succeeded));
            live.awaitQuiet();
            live.publish(t.submitted(), "b-1", FlatCluster.workload("b-1", "team-b", 8, t0.plusSeconds(1)));
            live.publish(t.submitted(), "b-2", FlatCluster.workload("b-2", "team-b", 4, t0.plusSeconds(2)));
            live.awaitQuiet();
            live.publish(t.submitted(), "a-1", FlatCluster.workload("a-1", "team-a", 4, t0.plusSeconds(3)));
            live.awaitQuiet();
            assertThat(evictions(live)).isEmpty();

            WhatIfReport predicted = new WhatIfRequest(null, null, Instant.now(), List.of(), Set.of("team-b"), null).run(records(live));
            assertThat(predicted.skipped()).isEmpty();

            live.publish(t.quota(), "team-b", null);
            live.awaitQuiet();

            List<String> happened = evictions(live);
            assertThat(happened).containsExactlyInAnyOrder("b-1 QuotaRemoved", "b-2 QuotaRemoved");
            assertThat(predicted.evictedIfMadeNow()).extracting(e -> e.workloadId() + " " + e.reason())
                    .containsExactlyInAnyOrderElementsOf(happened);
        }
    }

    /** Every eviction on the preempted topic, "id reason". */
    private static List<String> evictions(LiveServices live) {
        return live.readAll(live.admissionTopics.preempted()).stream()
                .map(r -> EventCodec.read(r.value(), WorkloadPreempted.class))
                .map(p -> p.workloadId() + " " + p.reason()).toList();
    }

    /** The topics a what-if reads, as the deciders wrote them. */
    private static List<TopicHistory.Recorded> records(LiveServices live) {
        DeciderTopics t = live.admissionTopics;
        List<TopicHistory.Recorded> out = new ArrayList<>();
        add(out, live, t.topology(), TopicHistory.Source.TOPOLOGY);
        add(out, live, t.quota(), TopicHistory.Source.QUOTA);
        add(out, live, t.submitted(), TopicHistory.Source.SUBMITTED);
        add(out, live, t.admitted(), TopicHistory.Source.ADMITTED);
        add(out, live, t.preempted(), TopicHistory.Source.PREEMPTED);
        add(out, live, t.finished(), TopicHistory.Source.FINISHED);
        return out;
    }

    private static void add(List<TopicHistory.Recorded> out, LiveServices live, String topic, TopicHistory.Source source) {
        for (ConsumerRecord<String, byte[]> r : live.readAll(topic)) {
            out.add(new TopicHistory.Recorded(source, Instant.ofEpochMilli(r.timestamp()), r.key(), r.value()));
        }
    }
}
