package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

import java.util.List;

/** A compute quota's fields as flags; each given flag overrides the same field of {@code --cli-input-json}. */
final class QuotaFlags {

    @Option(names = "--cli-input-json", paramLabel = "JSON",
            description = "The request as the SageMaker API takes it: file://PATH, a path, or inline JSON.")
    String cliInputJson;

    @Option(names = "--description")
    String description;

    @Option(names = "--team-name", description = "ComputeQuotaTarget.TeamName.")
    String teamName;

    @Option(names = "--fair-share-weight", description = "ComputeQuotaTarget.FairShareWeight, 0..100.")
    Integer fairShareWeight;

    @Option(names = "--resource", paramLabel = "SPEC",
            description = "One ComputeQuotaResources entry, e.g. InstanceType=ml.p5.48xlarge,Count=4 or "
                    + "InstanceType=ml.p5.48xlarge,Accelerators=16 (also VCpu=, MemoryInGiB=). Repeatable; replaces the list.")
    List<String> resources;

    @Option(names = "--strategy", description = "ResourceSharingConfig.Strategy: LendAndBorrow, Lend, DontLend.")
    String strategy;

    @Option(names = "--borrow-limit", description = "ResourceSharingConfig.BorrowLimit, percent of the team's quota.")
    Integer borrowLimit;

    @Option(names = "--preempt-team-tasks", description = "LowerPriority or Never.")
    String preemptTeamTasks;

    @Option(names = "--activation-state", description = "Enabled or Disabled.")
    String activationState;

    /** Applies the JSON input, then the flags, over {@code request}. */
    ObjectNode apply(ObjectNode request) {
        request.setAll(SageMakerJson.input(cliInputJson));
        if (description != null) request.put("Description", description);
        if (activationState != null) request.put("ActivationState", activationState);
        if (teamName != null || fairShareWeight != null) {
            ObjectNode target = object(request, "ComputeQuotaTarget");
            if (teamName != null) target.put("TeamName", teamName);
            if (fairShareWeight != null) target.put("FairShareWeight", fairShareWeight);
        }
        if (resources != null || strategy != null || borrowLimit != null || preemptTeamTasks != null) {
            ObjectNode config = object(request, "ComputeQuotaConfig");
            if (resources != null) {
                ArrayNode list = config.putArray("ComputeQuotaResources");
                for (String r : resources) list.add(resource(r));
            }
            if (strategy != null || borrowLimit != null) {
                ObjectNode sharing = object(config, "ResourceSharingConfig");
                if (strategy != null) sharing.put("Strategy", strategy);
                if (borrowLimit != null) sharing.put("BorrowLimit", borrowLimit);
            }
            if (preemptTeamTasks != null) config.put("PreemptTeamTasks", preemptTeamTasks);
        }
        return request;
    }

    /** {@code InstanceType=ml.p5.48xlarge,Count=4} as a ComputeQuotaResourceConfig. */
    static ObjectNode resource(String spec) {
        ObjectNode o = SageMakerJson.NODES.objectNode();
        for (String part : spec.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length != 2 || kv[1].isBlank()) {
                throw CliException.invalid("--resource: '" + part + "' is not KEY=VALUE (in '" + spec + "')");
            }
            String key = kv[0].strip();
            String value = kv[1].strip();
            try {
                switch (key) {
                    case "InstanceType" -> o.put(key, value);
                    case "Count", "Accelerators" -> o.put(key, Integer.parseInt(value));
                    case "VCpu", "MemoryInGiB" -> o.put(key, new java.math.BigDecimal(value));
                    default -> throw CliException.invalid("--resource: unknown key '" + key
                            + "'; use InstanceType, Count, Accelerators, VCpu, MemoryInGiB");
                }
            } catch (NumberFormatException e) {
                throw CliException.invalid("--resource: " + key + " must be a number, was '" + value + "'");
            }
        }
        if (!o.has("InstanceType")) throw CliException.invalid("--resource: InstanceType is required (in '" + spec + "')");
        return o;
    }

    static ObjectNode object(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }
}
