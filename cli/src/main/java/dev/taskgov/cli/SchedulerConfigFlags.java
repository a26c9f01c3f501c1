package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

import java.util.List;

/** A scheduler config's fields as flags over {@code --cli-input-json}. */
final class SchedulerConfigFlags {

    @Option(names = "--cli-input-json", paramLabel = "JSON", description = "The request as the SageMaker API takes it: file://PATH, a path, or inline JSON.")
    String cliInputJson;

    @Option(names = "--priority-class", paramLabel = "NAME=WEIGHT", description = "A priority class, e.g. inference=90. Repeatable; replaces the list.")
    List<String> priorityClasses;

    @Option(names = "--fair-share", description = "Enabled or Disabled.")
    String fairShare;

    @Option(names = "--description")
    String description;

    ObjectNode apply(ObjectNode request) {
        request.setAll(SageMakerJson.input(cliInputJson));
        if (description != null) request.put("Description", description);
        if (priorityClasses != null || fairShare != null) {
            ObjectNode config = QuotaFlags.object(request, "SchedulerConfig");
            if (priorityClasses != null) {
                ArrayNode list = config.putArray("PriorityClasses");
                for (String pc : priorityClasses) {
                    String[] kv = pc.split("=", 2);
                    try {
                        list.addObject().put("Name", kv[0].strip()).put("Weight", Integer.parseInt(kv[1].strip()));
                    } catch (RuntimeException e) {
                        throw CliException.invalid("--priority-class: '" + pc + "' is not NAME=WEIGHT with a whole weight");
                    }
                }
            }
            if (fairShare != null) config.put("FairShare", fairShare);
        }
        return request;
    }
}
