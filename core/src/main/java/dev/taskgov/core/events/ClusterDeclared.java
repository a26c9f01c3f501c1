package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.Violation;

import java.util.ArrayList;
import java.util.List;

/**
 * A cluster the deployment governs (value of {@code taskgov.topology} under the key {@code <ClusterArn>}):
 * topology-service publishes one per configured cluster before its nodes, so the cluster is known (to
 * quota-service's {@code ResourceNotFound} rule, to the deciders' choice of a workload's cluster, to
 * {@code GET /clusters}) even while it has no node. A tombstone under that key: the deployment no longer
 * governs it.
 *
 * @param clusterArn the cluster
 * @param name       a short name for people (the HyperPod cluster name), optional
 * @param source     where its nodes come from: {@code ec2}, {@code kubernetes} or {@code static}
 * @param region     the AWS region of an {@code ec2} source, optional
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterDeclared(String clusterArn, String name, String source, String region) {

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.topology.cluster";

    public ClusterArn cluster() {
        return ClusterArn.of(clusterArn);
    }

    /** The rules the record breaks, each naming its field. */
    public List<Violation> violations() {
        List<Violation> v = new ArrayList<>();
        ClusterArn.problem(clusterArn).ifPresent(p -> v.add(new Violation("clusterArn", p)));
        return v;
    }
}
