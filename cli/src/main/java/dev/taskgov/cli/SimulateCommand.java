package dev.taskgov.cli;

import dev.taskgov.core.sim.Scenario;
import dev.taskgov.core.sim.ScenarioException;
import dev.taskgov.core.sim.ScenarioResult;
import dev.taskgov.core.sim.Simulator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code taskgov simulate FILE...}: replays scenario files and prints one JSON result per file.
 * Exit 0 when every expectation holds, 1 when one fails, 2 when a file is invalid.
 */
@Command(name = "simulate", description = "Replay scenario files deterministically and check their expectations.",
        mixinStandardHelpOptions = true)
public class SimulateCommand implements Callable<Integer> {

    static final int ALL_HOLD = 0;
    static final int EXPECTATION_FAILED = 1;
    static final int INVALID_FILE = 2;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Scenario files (JSON).")
    List<Path> files;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        int exit = ALL_HOLD;
        int done = 0;
        try (Progress progress = Progress.onTerminal("simulate")) {
        for (Path file : files) {
            progress.update(done++, files.size(), file.getFileName().toString());
            try {
                ScenarioResult result = Simulator.run(Scenario.read(file), file.toString());
                out.println(result.toJson());
                if (!result.ok()) exit = Math.max(exit, EXPECTATION_FAILED);
            } catch (ScenarioException e) {
                Map<String, Object> invalid = new LinkedHashMap<>();
                invalid.put("file", file.toString());
                invalid.put("ok", false);
                Map<String, Object> problem = new LinkedHashMap<>();
                problem.put("path", e.path());
                problem.put("message", e.getMessage());
                invalid.put("invalid", problem);
                out.println(Json.pretty(invalid));
                exit = INVALID_FILE;
            }
        }
        }
        return exit;
    }
}
