package dev.taskgov.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Every query target of every Grafana dashboard in a folder. */
final class Dashboards {

    /** One panel query; {@code $team} (the template variable) stands for every team. */
    record Target(String dashboard, String panel, String refId, String expr) {
        String query() {
            return expr.replace("$team", ".*");
        }

        @Override
        public String toString() {
            return dashboard + " / " + panel + " / " + refId + ": " + expr;
        }
    }

    private Dashboards() {
    }

    static List<Target> targets(Path folder) {
        ObjectMapper json = new ObjectMapper();
        List<Target> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                JsonNode d = json.readTree(f.toFile());
                for (JsonNode panel : d.path("panels")) {
                    for (JsonNode t : panel.path("targets")) {
                        all.add(new Target(f.getFileName().toString(), panel.path("title").asText(), t.path("refId").asText(),
                                t.path("expr").asText()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }
}
