package dev.taskgov.cli;

import picocli.CommandLine.Option;

import java.net.URI;

/** Where topology-service is: {@code --topology-url}, else system property {@code taskgov.topology.url}, else env, else the local runtime's. */
final class TopologyEndpoint {

    @Option(names = "--topology-url", paramLabel = "URL",
            defaultValue = "${sys:taskgov.topology.url:-${env:TASKGOV_TOPOLOGY_URL:-http://127.0.0.1:8082}}",
            description = "topology-service base URL (env TASKGOV_TOPOLOGY_URL; default ${DEFAULT-VALUE}).")
    String topologyUrl;

    URI base() {
        return Endpoints.uri("--topology-url", topologyUrl);
    }
}
