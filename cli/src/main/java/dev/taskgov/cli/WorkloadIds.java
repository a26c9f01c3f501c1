package dev.taskgov.cli;

import picocli.CommandLine.Parameters;

import java.util.List;

/**
 * The workload ids a command reports something of ({@code finish}, {@code pods-ready}): one or more, each checked
 * against the workload id rule before anything is written, so that a malformed one among several changes nothing.
 */
final class WorkloadIds {

    @Parameters(arity = "1..*", paramLabel = "ID", description = "Workload ids.")
    List<String> ids;

    /** The ids, in the order given, once each has passed the rule (else an error naming it). */
    List<String> checked() {
        ids.forEach(CliException::checkWorkloadId);
        return ids;
    }
}
