package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.cluster.ClusterArn;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code taskgov set-cluster-context}: the HyperPod CLI's {@code hyp set-cluster-context} with its flags. hyp points
 * kubectl at the cluster; here the cluster, checked against what the deployment governs, becomes the one later
 * commands work in ({@code create hyp-pytorch-job}, {@code submit}, {@code get workloads}, ...) when they are given
 * no {@code --cluster} and no {@code TASKGOV_CLUSTER}, so the seeds' {@code hyp} commands run verbatim against a
 * deployment of several clusters.
 */
@Command(name = "set-cluster-context", description = {
        "Choose the cluster later commands work in (as hyp set-cluster-context): its name or ARN, one this deployment governs.",
        "--cluster and TASKGOV_CLUSTER still win over it; get-cluster-context shows it."})
public class SetClusterContextCommand extends ServiceCommand {

    @Mixin
    HelpOption help;

    @Option(names = "--cluster-name", required = true, paramLabel = "NAME",
            description = {"The cluster: the last part of its ARN (arn:...:cluster/<this>) or the whole ARN. taskgov knows a cluster",
                    "by its ARN only (GET /clusters), so the part after cluster/ stands for hyp's cluster name."})
    String clusterName;

    @Option(names = "--region", paramLabel = "REGION", description = "The cluster's AWS region, when several governed clusters share the name.")
    String region;

    @Option(names = "--namespace", paramLabel = "NS",
            description = "The team namespace (hyperpod-ns-<team>) hyp commands use when given no --namespace.")
    String namespace;

    @Override
    protected int run() {
        List<String> governed = new ArrayList<>();
        for (JsonNode c : endpoints.admission().clusters().path("clusters")) {
            if (c.hasNonNull("clusterArn")) governed.add(c.get("clusterArn").asText());
        }
        List<String> matching = governed.stream().filter(this::names).toList();
        if (matching.size() != 1) {
            throw CliException.invalid("--cluster-name: " + (matching.isEmpty() ? "no governed cluster is named '" + clusterName + "'"
                    : "several governed clusters are named '" + clusterName + "' " + matching + "; give --region or the ARN")
                    + "; this deployment governs " + (governed.isEmpty() ? "no named cluster" : governed));
        }
        ClusterContext context = new ClusterContext(matching.get(0), namespace);
        java.nio.file.Path file = context.save();
        out().println("Cluster context set to " + context.cluster() + (namespace == null ? "" : " (namespace " + namespace + ")")
                + " in " + file);
        return 0;
    }

    private boolean names(String arn) {
        if (arn.equals(clusterName)) return true;
        if (!ClusterArn.isValid(arn) || !ClusterArn.of(arn).shortId().equals(clusterName)) return false;
        return region == null || region.equals(arn.split(":")[3]); // arn:aws:sagemaker:<region>:<account>:cluster/<id>
    }
}
