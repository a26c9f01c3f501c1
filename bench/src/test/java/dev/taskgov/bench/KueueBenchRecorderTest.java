package dev.taskgov.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class KueueBenchRecorderTest {

    @Test
    void aTimedOutRunNamesWhatItStillWaitedForAsThePipelineSawIt() {
        KueueBenchRecorder rec = new KueueBenchRecorder();
        for (String id : new String[]{"planned", "queued", "running", "preempted", "finished", "early"}) {
            rec.planned(id, "small", 1, 200);
        }
        for (String id : new String[]{"queued", "running", "preempted", "finished", "early"}) rec.submitted(id, 10);
        rec.admitted("running", 20);
        rec.admitted("preempted", 20);
        rec.preempted("preempted", 30);
        rec.admitted("finished", 20);
        rec.finished("finished", 220);
        rec.admitted("early", 20);
        rec.admitted("early", 25); // its re-admission, read before its preemption

        assertThat(rec.unfinished(10)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "planned", "not submitted (admissions 0, preemptions 0)",
                "queued", "submitted at 10 ms, never admitted (admissions 0, preemptions 0)",
                "running", "running since 20 ms (admissions 1, preemptions 0)",
                "preempted", "preempted, waiting (admissions 1, preemptions 1)",
                "early", "running since 20 ms (admissions 1, preemptions 0, a re-admission read before its preemption)"));
        assertThat(rec.unfinished(2)).hasSize(2);
    }
}
