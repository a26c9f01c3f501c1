package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Mixin;

import java.util.List;

/**
 * A command that prints what the platform answers: as data with {@code -o json|yaml}, else in its own view (a table, a
 * summary line; {@link OutputOption}).
 */
abstract class AnswerCommand extends ServiceCommand {

    @Mixin
    OutputOption output;

    /** With {@code -o json|yaml}: prints {@code answer} as data and answers true; otherwise prints nothing, false. */
    boolean printedAsData(Object answer) {
        if (!output.structured()) return false;
        out().println(output.render(answer));
        return true;
    }

    /**
     * With {@code -o json|yaml}: the answers of the clusters read as data (the one cluster's as it is; several under
     * {@code clusters} of {@code combined}) and true; otherwise prints nothing, false.
     */
    boolean printedAsData(List<? extends JsonNode> perCluster, ObjectNode combined) {
        if (perCluster.size() != 1) combined.putArray("clusters").addAll(perCluster);
        return printedAsData(perCluster.size() == 1 ? perCluster.get(0) : combined);
    }

    /** {@code answer} as data with {@code -o json|yaml}, else the one line {@code summary}. */
    void printAnswer(Object answer, String summary) {
        if (!printedAsData(answer)) out().println(summary);
    }
}
