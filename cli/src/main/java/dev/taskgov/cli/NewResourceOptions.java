package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

/** The name and cluster of a SageMaker resource being created (a compute quota, a cluster scheduler config). */
final class NewResourceOptions {

    @Option(names = "--name", description = "The resource's name.")
    String name;

    @Option(names = "--cluster-arn", defaultValue = "${env:TASKGOV_CLUSTER_ARN:-${env:TASKGOV_CLUSTER}}",
            description = "The HyperPod cluster ARN (env TASKGOV_CLUSTER_ARN, else TASKGOV_CLUSTER).")
    String clusterArn;

    /** The request with {@code Name} and {@code ClusterArn} set from the flags given (over --cli-input-json's). */
    ObjectNode apply(ObjectNode request) {
        if (name != null) request.put("Name", name);
        if (clusterArn != null) request.put("ClusterArn", clusterArn);
        return request;
    }
}
