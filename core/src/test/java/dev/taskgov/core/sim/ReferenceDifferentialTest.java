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
 * reading of design.md: first the reference must hold every public scenario file (else the
 * reference or the file is wrong); then on random scenarios ({@link RandomScenarios}) the core
 * {@link Simulator}, in both scheduler modes, must see exactly what the reference sees after every
 * step (states, preempted sets, placements).
 *
 * <p>Seeds: {@code -Drefsim.from=N -Drefsim.count=M} replays another range (and
 * {@code -Drefsim.out=DIR} writes each disagreeing scenario there, with the reference's
 * expectations, for minimising). The default range leaves out the seeds listed in
 * {@link #KNOWN}; a range given on the command line replays every seed.
 */
class ReferenceDifferentialTest {

    /** The default seed range, replayed on every build. */
    private static final long FROM = Long.getLong("refsim.from", 0);
    private static final long COUNT = Long.getLong("refsim.count", 1000);

    /**
     * Seeds of 0..2999 left out of the default range, and why: only seeds on which design.md's rules
     * never settle (checked with {@code -Drefsim.from=0 -Drefsim.count=3000}: every other seed agrees
     * in both modes). A new class of disagreement gets its minimal scenario file in {@code scenarios/}.
     */
    static final Map<Long, String> KNOWN = Map.ofEntries(
            // Every other seed of 0..2999 agrees, 235, 861, 1439 (victim order vs preferred topology)
            // and 335, 730, 2435 (team head after eviction) too since core follows design.md there.
            // On these the reference finds a preemption cycle (reclaim, fair sharing and in-team priority
            // evicting each other in turn): design.md's rules never settle, so the outcome is not
            // defined ("the scheduler runs until nothing more can be admitted or preempted").
            Map.entry(401L, "preemption cycle"),
            Map.entry(411L, "preemption cycle"),
            Map.entry(1855L, "preemption cycle"),
            Map.entry(2200L, "preemption cycle"),
            Map.entry(2282L, "preemption cycle"),
            Map.entry(2483L, "preemption cycle"),
            Map.entry(2835L, "preemption cycle"));

    @TestFactory
    Stream<DynamicTest> referenceHoldsEveryScenarioFile() {
        // Only the files within the reference's scope: it does not model a changing cluster.
        return ScenarioFiles.all(Path.of("")).stream().filter(f -> ReferenceSimulator.models(Scenario.read(f))).map(f -> DynamicTest.dynamicTest(
                f.getParent().getFileName() + "/" + f.getFileName(), () -> {
                    Scenario s = Scenario.read(f);
                    List<String> wrong = disagreements(s);
                    assertThat(wrong).as("the reference reading of design.md disagrees with " + f).isEmpty();
                }));
    }

    @TestFactory
    Stream<DynamicTest> coreAgreesWithReferenceOnRandomScenarios() {
        boolean defaultRange = System.getProperty("refsim.from") == null && System.getProperty("refsim.count") == null;
        return LongStream.range(FROM, FROM + COUNT).boxed().filter(seed -> !defaultRange || !KNOWN.containsKey(seed))
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
