package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.model.ValidationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A what-if as callers ask for it: which cluster it replays, and each refusal naming the request's field. */
class WhatIfRequestTest {

    static final String CLUSTER = Window.CLUSTER;
    static final String OTHER = "arn:aws:sagemaker:us-west-2:000000000000:cluster/otherclustr1";
    static final Instant FROM = Window.FROM;
    static final Instant TO = FROM.plus(Duration.ofHours(1));

    /** Two one-GPU nodes of {@link #CLUSTER} and a quota of one GPU each for team-a and team-b, before the window. */
    static List<TopicHistory.Recorded> records(boolean twoClusters) {
        List<TopicHistory.Recorded> out = new ArrayList<>();
        for (String n : List.of("n1", "n2")) out.add(rec(TopicHistory.Source.TOPOLOGY, CLUSTER + "#" + n, node(n, CLUSTER)));
        if (twoClusters) out.add(rec(TopicHistory.Source.TOPOLOGY, OTHER + "#o1", node("o1", OTHER)));
        out.add(rec(TopicHistory.Source.QUOTA, CLUSTER + "#team-a", quota("team-a", 1, CLUSTER)));
        out.add(rec(TopicHistory.Source.QUOTA, CLUSTER + "#team-b", quota("team-b", 1, CLUSTER)));
        return out;
    }

    record Case(String name, WhatIfRequest request, boolean twoClusters, String refusal) {
        @Override
        public String toString() {
            return name;
        }
    }

    static WhatIfRequest request(String cluster, List<String> quotas, Set<String> deleted, String config) {
        return new WhatIfRequest(cluster, FROM, TO, quotas.stream().map(WhatIfRequestTest::json).toList(), deleted,
                config == null ? null : json(config));
    }

    static Stream<Case> refusals() {
        return Stream.of(
                new Case("no change at all", request(null, List.of(), Set.of(), null), false,
                        "ComputeQuotas: name a change: a quota to create or replace, a quota to delete (DeleteComputeQuotas) or a scheduler config"),
                new Case("two clusters on the topics and none named", request(null, List.of(), Set.of("team-a"), null), true,
                        "ClusterArn: is required: the topics hold 2 clusters (" + OTHER + ", " + CLUSTER + "); name the one to replay"),
                new Case("a cluster ARN that breaks the rule", request("cluster-1", List.of(), Set.of("team-a"), null), false,
                        "ClusterArn: must be a HyperPod cluster ARN"),
                new Case("a quota without its team", request(null, List.of(quota("team-a", 1, CLUSTER).replace(
                        ", \"ComputeQuotaTarget\": {\"TeamName\": \"team-a\"}", "")), Set.of(), null), false,
                        "ComputeQuotas[0].ComputeQuotaTarget.TeamName: is required"),
                new Case("a quota of another cluster", request(CLUSTER, List.of(quota("team-a", 1, OTHER)), Set.of(), null), false,
                        "ComputeQuotas[0].ClusterArn: names cluster " + OTHER + " but the what-if replays " + CLUSTER),
                new Case("a quota whose cluster is not text", request(null, List.of(quota("team-a", 1, CLUSTER).replace(
                        "\"" + CLUSTER + "\"", "7")), Set.of(), null), false,
                        "ComputeQuotas[0].ClusterArn: must be a HyperPod cluster ARN"),
                new Case("a quota that is not JSON", request(CLUSTER, List.of("{\"Name\": "), Set.of(), null), false,
                        "ComputeQuotas[0]: "),
                new Case("two quotas for one team", request(null, List.of(quota("team-a", 1, CLUSTER), quota("team-a", 0, CLUSTER)),
                        Set.of(), null), false, "ComputeQuotas[1].ComputeQuotaTarget.TeamName: team team-a has two proposed quotas"),
                new Case("a quota both replaced and deleted", request(null, List.of(quota("team-a", 1, CLUSTER)), Set.of("team-a"), null),
                        false, "ComputeQuotas[0].ComputeQuotaTarget.TeamName: team team-a's quota is both replaced and deleted"),
                new Case("quotas above the cluster's capacity", request(null, List.of(quota("team-a", 2, CLUSTER)), Set.of(), null), false,
                        "ComputeQuotas.ComputeQuotaConfig.ComputeQuotaResources: the quotas for ml.g5.8xlarge sum to 3 accelerators"),
                new Case("a scheduler config with a bad weight", request(CLUSTER, List.of(), Set.of(),
                        "{\"PriorityClasses\": [{\"Name\": \"training\", \"Weight\": 101}]}"), false,
                        "SchedulerConfig.PriorityClasses[0].Weight: must be a whole number in 0..100, was 101"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesNamingTheField(Case c) {
        assertThatThrownBy(() -> c.request().run(records(c.twoClusters())))
                .isInstanceOf(ValidationException.class).hasMessageStartingWith(c.refusal());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void replaysTheClusterNamedElseTheProposalsElseTheOnlyOne(String name, WhatIfRequest request, boolean twoClusters) {
        assertThat(request.run(records(twoClusters)).cluster()).as(name).isEqualTo(CLUSTER);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> clusters() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("named", request(CLUSTER, List.of(), Set.of("team-a"), null), true),
                org.junit.jupiter.params.provider.Arguments.of("the proposal's", request(null, List.of(quota("team-a", 1, CLUSTER)), Set.of(), null), true),
                org.junit.jupiter.params.provider.Arguments.of("the only one", request(null, List.of(), Set.of("team-a"), null), false));
    }

    /**
     * The records as the platform writes them from its start: the cluster's nodes and quotas first, then two of team-a's
     * workloads, each submitted, admitted at once and finished ten minutes later.
     */
    static List<TopicHistory.Recorded> fromTheStart() {
        List<TopicHistory.Recorded> out = new ArrayList<>(records(false));
        for (int i = 1; i <= 2; i++) {
            String id = "a" + i;
            Instant submitted = FROM.minusSeconds(300).plusSeconds(60L * i);
            out.add(new TopicHistory.Recorded(TopicHistory.Source.SUBMITTED, submitted, id, json(submission(id, CLUSTER))));
            out.add(new TopicHistory.Recorded(TopicHistory.Source.ADMITTED, submitted, id, json("{\"workloadId\": \"" + id
                    + "\", \"team\": \"team-a\", \"admittedAt\": \"" + submitted + "\", \"borrowed\": {}, \"podSets\": []}")));
            Instant finished = submitted.plusSeconds(600);
            out.add(new TopicHistory.Recorded(TopicHistory.Source.FINISHED, finished, id, json("{\"workloadId\": \"" + id
                    + "\", \"finishedAt\": \"" + finished + "\", \"outcome\": \"Succeeded\"}")));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("windowsFromTheStart")
    void replaysTheWorkOfAWindowThatOpensBeforeTheClustersNodesAndQuotas(String name, Instant since, Instant opens) {
        WhatIfReport r = new WhatIfRequest(CLUSTER, since, TO, List.of(), Set.of("team-b"), null).run(fromTheStart());
        assertThat(r.from()).as(name).isEqualTo(opens);
        assertThat(r.workloads()).as(name).isEqualTo(2);
        assertThat(r.teams()).as(name).singleElement().satisfies(t -> {
            assertThat(t.team()).isEqualTo("team-a");
            assertThat(t.asRecorded().admissions()).isEqualTo(2);
            assertThat(t.withChange().admissions()).isEqualTo(2);
        });
    }

    /**
     * A proposed quota in a window that opens before the cluster's first node: it is read with the instance types the
     * window's node records bring and checked against the nodes and quotas the window's records add (the start knows no
     * instance type, and the quota was refused as naming an unknown one).
     */
    @org.junit.jupiter.api.Test
    void aProposedQuotaInAWindowOpeningBeforeTheFirstNodeIsCheckedAgainstTheNodesAndQuotasTheWindowBrings() {
        WhatIfReport r = new WhatIfRequest(CLUSTER, FROM.minusSeconds(900), TO, List.of(json(quota("team-a", 0, CLUSTER))), Set.of(), null)
                .run(fromTheStart());
        assertThat(r.teams()).extracting(WhatIfReport.TeamComparison::team).contains("team-a");
        // the sum against the capacity: team-b's recorded quota of one GPU and two for team-a exceed the two nodes
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new WhatIfRequest(CLUSTER, FROM.minusSeconds(900), TO,
                        List.of(json(quota("team-a", 2, CLUSTER))), Set.of(), null).run(fromTheStart()))
                .isInstanceOf(dev.taskgov.core.model.ValidationException.class);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> windowsFromTheStart() {
        Instant firstSubmission = FROM.minusSeconds(240);
        return Stream.of(
                // everything the topics hold: the nodes and quotas recorded before the first submission are the start
                org.junit.jupiter.params.provider.Arguments.of("no start named", null, firstSubmission),
                // the nodes come in the window: each brings its instance type, as it does to the deciders
                org.junit.jupiter.params.provider.Arguments.of("a start before the first node", FROM.minusSeconds(900), FROM.minusSeconds(900)));
    }

    private static String submission(String id, String cluster) {
        return "{\"workloadId\": \"" + id + "\", \"namespace\": \"hyperpod-ns-team-a\", \"jobKind\": \"PyTorchJob\", \"podSets\": [{\"name\":"
                + " \"worker\", \"count\": 1, \"instanceType\": \"ml.g5.8xlarge\", \"requests\": {\"accelerators\": 1, \"vcpu\": 1,"
                + " \"memoryGiB\": 1}}], \"clusterArn\": \"" + cluster + "\"}";
    }

    private static TopicHistory.Recorded rec(TopicHistory.Source source, String key, String value) {
        return new TopicHistory.Recorded(source, FROM.minusSeconds(600), key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static String node(String name, String cluster) {
        return "{\"name\": \"" + name + "\", \"instanceType\": \"ml.g5.8xlarge\", \"clusterArn\": \"" + cluster + "\","
                + " \"allocatable\": {\"accelerators\": 1, \"vcpu\": 32, \"memoryGiB\": 128}}";
    }

    private static String quota(String team, int accelerators, String cluster) {
        return "{\"Name\": \"" + team + "-quota\", \"ClusterArn\": \"" + cluster + "\", \"ComputeQuotaConfig\": {\"ComputeQuotaResources\":"
                + " [{\"InstanceType\": \"ml.g5.8xlarge\", \"Accelerators\": " + accelerators + "}]}, \"ComputeQuotaTarget\": {\"TeamName\": \"" + team + "\"}}";
    }

    private static byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
