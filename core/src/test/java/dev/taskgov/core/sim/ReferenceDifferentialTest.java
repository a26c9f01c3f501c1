package dev.taskgov.core.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.scheduling.Scheduler;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A differential check of the core scheduler against {@link ReferenceSimulator}, an independent
 * reading of docs/semantics.md: first the reference must hold every public scenario file (else the
 * reference or the file is wrong); then on random scenarios ({@link RandomScenarios}) the core
 * {@link Simulator}, in both scheduler modes, must see exactly what the reference sees after every
 * step (states, preempted sets, placements).
 *
 * <p>Seeds: {@code -Drefsim.from=N -Drefsim.count=M} replays another range (and
 * {@code -Drefsim.out=DIR} writes each disagreeing scenario there, with the reference's
 * expectations, for minimising). Every seed of the range is replayed: with "Every run ends" each run of
 * the rules is finite, so no seed is left out.
 */
class ReferenceDifferentialTest {

    /** The default seed range, replayed on every build. */
    private static final long FROM = Long.getLong("refsim.from", 0);
    private static final long COUNT = Long.getLong("refsim.count", 1000);

    @TestFactory
    Stream<DynamicTest> referenceHoldsEveryScenarioFile() {
        // Only the files within the reference's scope: it does not model a changing cluster.
        return ScenarioFiles.all(Path.of("")).stream().filter(f -> ReferenceSimulator.models(Scenario.read(f))).map(f -> DynamicTest.dynamicTest(
                f.getParent().getFileName() + "/" + f.getFileName(), () -> {
                    Scenario s = Scenario.read(f);
                    List<String> wrong = disagreements(s);
                    assertThat(wrong).as("the reference reading of docs/semantics.md disagrees with " + f).isEmpty();
                }));
    }

    @TestFactory
    Stream<DynamicTest> coreAgreesWithReferenceOnRandomScenarios() {
        return LongStream.range(FROM, FROM + COUNT).boxed()
                .flatMap(seed -> Stream.of(Scheduler.Mode.values()).map(mode ->
                DynamicTest.dynamicTest("seed " + seed + " (" + mode + ")", () -> {
                    ObjectNode file = RandomScenarios.withReferenceExpectations(RandomScenarios.generate(seed));
                    ScenarioResult r = Simulator.run(Scenario.parse(file), "random-" + seed, mode);
                    if (!r.ok()) save(seed, file);
                    assertThat(r.ok()).as(() -> "core disagrees with the reference on seed " + seed + " (" + mode + "): "
                            + r.expectations().stream().filter(c -> !c.ok()).limit(4).toList() + "\nlog: " + r.log()).isTrue();
                })));
    }

    private static void save(long seed, ObjectNode file) throws IOException {
        String dir = System.getProperty("refsim.out");
        if (dir == null) return;
        Files.createDirectories(Path.of(dir));
        Files.writeString(Path.of(dir, "random-" + seed + ".json"),
                EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(file));
    }

    /** Where the reference's snapshots contradict a file's expect steps. */
    static List<String> disagreements(Scenario s) {
        List<String> out = new ArrayList<>();
        Map<Integer, ReferenceSimulator.Snapshot> snaps = new TreeMap<>();
        for (ReferenceSimulator.Snapshot snap : ReferenceSimulator.run(s)) snaps.put(snap.stepIndex(), snap);
        for (Scenario.Step step : s.steps()) {
            if (!(step instanceof Scenario.Expect e)) continue;
            ReferenceSimulator.Snapshot snap = snaps.get(e.index());
            for (String id : e.admitted()) {
                if (!"Admitted".equals(snap.states().get(id))) out.add("[" + e.index() + "] " + id + " admitted, reference: " + snap.states().get(id));
            }
            for (String id : e.pending()) {
                if (!"Pending".equals(snap.states().get(id))) out.add("[" + e.index() + "] " + id + " pending, reference: " + snap.states().get(id));
            }
            if (e.preemptedSinceLastExpect() != null && !new TreeSet<>(e.preemptedSinceLastExpect()).equals(snap.preemptedSince())) {
                out.add("[" + e.index() + "] preempted " + new TreeSet<>(e.preemptedSinceLastExpect()) + ", reference: " + snap.preemptedSince());
            }
            e.placements().forEach((id, podSets) -> podSets.forEach((ps, nodes) -> {
                Map<String, Integer> seen = snap.placements().getOrDefault(id, Map.of()).get(ps);
                if (!Objects.equals(nodes, seen)) out.add("[" + e.index() + "] " + id + "/" + ps + " " + nodes + ", reference: " + seen);
            }));
        }
        return out;
    }
}
