package dev.taskgov.cli;

import dev.taskgov.core.model.AcceleratorPartitions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code taskgov list-accelerator-partition-type}, as {@code hyp list-accelerator-partition-type}: the MIG
 * profiles a job may ask for with {@code --accelerator-partition-type} (and a quota may give in
 * {@code AcceleratorPartition}), per instance type, with how many fit on one GPU and on one instance. With
 * {@code --instance-type}, it prints as hyp does: that type's partition types, sorted, one a line ({@code -o wide}
 * for the table).
 */
@Command(name = "list-accelerator-partition-type", mixinStandardHelpOptions = true,
        description = "The accelerator partition (MIG) types of each instance type, as hyp list-accelerator-partition-type.")
public class ListAcceleratorPartitionTypeCommand extends CliCommand {

    @Option(names = "--instance-type", description = "Only this instance type.")
    String instanceType;

    @Mixin
    OutputOption output;

    @Override
    protected int run() {
        Map<String, AcceleratorPartitions.Offer> offers = AcceleratorPartitions.offers();
        if (instanceType != null) {
            AcceleratorPartitions.Offer offer = offers.get(instanceType);
            if (offer == null) {
                throw CliException.invalid("--instance-type: '" + instanceType + "' offers no accelerator partitions; those that do: "
                        + String.join(", ", offers.keySet()));
            }
            offers = Map.of(instanceType, offer);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        offers.forEach((type, offer) -> offer.profiles().forEach(profile -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("instanceType", type);
            row.put("acceleratorPartitionType", profile);
            row.put("gpu", offer.gpu());
            row.put("perGpu", AcceleratorPartitions.Offer.perGpu(profile));
            row.put("perInstance", AcceleratorPartitions.Offer.perGpu(profile) * offer.gpus());
            row.put("kubernetesResource", "nvidia.com/" + profile);
            rows.add(row);
        }));
        if (output.structured()) {
            out().println(output.render(rows));
            return 0;
        }
        if (output.names()) {
            rows.forEach(r -> out().println("accelerator-partition-type/" + r.get("acceleratorPartitionType")));
            return 0;
        }
        if (instanceType != null && !output.wide()) {
            // hyp's own output for one instance type: its partition types, sorted, one a line (-o wide: the table)
            rows.stream().map(r -> (String) r.get("acceleratorPartitionType")).sorted().forEach(out()::println);
            return 0;
        }
        Table t = output.wide()
                ? new Table("INSTANCE TYPE", "ACCELERATOR PARTITION TYPE", "GPU", "PER GPU", "PER INSTANCE", "KUBERNETES RESOURCE")
                : new Table("INSTANCE TYPE", "ACCELERATOR PARTITION TYPE", "PER GPU", "PER INSTANCE");
        for (Map<String, Object> r : rows) {
            if (output.wide()) {
                t.row(r.get("instanceType"), r.get("acceleratorPartitionType"), r.get("gpu"), r.get("perGpu"), r.get("perInstance"),
                        r.get("kubernetesResource"));
            } else {
                t.row(r.get("instanceType"), r.get("acceleratorPartitionType"), r.get("perGpu"), r.get("perInstance"));
            }
        }
        t.print(out());
        return 0;
    }
}
