package dev.taskgov.it;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.WorkloadSubmitted;

/**
 * Where a scenario's records go in a deployment shared with other scenarios: its own cluster, and its workload ids
 * prefixed so that they are unique in the deployment (a workload id is the identity of a workload across every
 * cluster: the key of the status and changelog records and of {@code GET /workloads/{id}}). One prefix for all ids
 * of a scenario keeps their order, which breaks queue ties.
 *
 * @param cluster  the scenario's cluster; {@link ClusterArn#UNNAMED} for a deployment of one scenario
 * @param idPrefix put before each of the scenario's workload ids ("" for none)
 */
record ScenarioCluster(ClusterArn cluster, String idPrefix) {

    /** A deployment of one scenario whose records name no cluster, with the file's own ids. */
    static final ScenarioCluster UNNAMED = new ScenarioCluster(ClusterArn.UNNAMED, "");

    /** The {@code n}th scenario cluster of a shared deployment. */
    static ScenarioCluster numbered(int n) {
        return new ScenarioCluster(ClusterArn.of(String.format("arn:aws:sagemaker:us-west-2:000000000000:cluster/scenario%04d", n)),
                "s" + n + ".");
    }

    /** The id a workload of the scenario file has in the deployment. */
    String liveId(String scenarioId) {
        return idPrefix + scenarioId;
    }

    /** The scenario file's id of a workload of this scenario. */
    String scenarioId(String liveId) {
        if (!liveId.startsWith(idPrefix)) throw new IllegalArgumentException(liveId + " is not a workload of " + this);
        return liveId.substring(idPrefix.length());
    }

    /** The scenario's submission as it is published in the deployment: its live id, in its cluster. */
    WorkloadSubmitted submission(WorkloadSubmitted w) {
        return new WorkloadSubmitted(liveId(w.workloadId()), w.namespace(), w.queueName(), w.priorityClass(), w.jobKind(),
                w.submittedAt(), w.podSets(), cluster.orNull(), w.annotations());
    }
}
