package dev.taskgov.core.events;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A submission becomes a Workload, or is refused with the reason and the field. */
class WorkloadValidationTest {

    static final InstanceType P5 = new InstanceType("ml.p5.48xlarge", Resources.of(8, 192_000, 2048 * 1024));
    static final Instant T = Instant.parse("2026-11-30T10:00:00Z");
    static final WorkloadValidation.Context CTX = new WorkloadValidation.Context(Map.of(P5.name(), P5), Set.of("team-a")::contains,
            new SchedulerConfig(Map.of("training", 50, "experiment", 10), false),
            List.of(new Node("h1", null, P5.name(), Map.of(), Resources.of(4, 192_000, 2048 * 1024), true)));

    /** Fluent submission builder: one pod set "worker" by default. */
    static final class Sub {
        String id = "w1";
        String ns = "hyperpod-ns-team-a";
        String cls = "training-priority";
        final List<PodSetSpec> podSets = new ArrayList<>();
        final Map<String, String> annotations = new java.util.TreeMap<>();

        static Sub submission() {
            return new Sub().podSet("worker", 2, P5.name(), new ResourceAmounts(BigDecimal.ONE, null, null), null, null);
        }

        Sub podSet(String name, Integer count, String type, ResourceAmounts req, String required, String preferred) {
            podSets.add(new PodSetSpec(name, count, type, req, required, preferred));
            return this;
        }

        Sub onlyPodSet(String name, Integer count, String type, ResourceAmounts req, String required, String preferred) {
            podSets.clear();
            return podSet(name, count, type, req, required, preferred);
        }

        /** Replaces the last pod set with the same one plus a node selector. */
        Sub selector(Map<String, String> nodeSelector) {
            PodSetSpec p = podSets.remove(podSets.size() - 1);
            podSets.add(new PodSetSpec(p.name(), p.count(), p.instanceType(), p.requests(), p.requiredTopology(),
                    p.preferredTopology(), nodeSelector));
            return this;
        }

        Sub annotation(String key, String value) {
            annotations.put(key, value);
            return this;
        }

        Sub namespace(String n) {
            ns = n;
            return this;
        }

        Sub priorityClass(String c) {
            cls = c;
            return this;
        }

        WorkloadSubmitted build() {
            return new WorkloadSubmitted(id, ns, ns + "-localqueue", cls, "PyTorchJob", null, podSets, annotations);
        }
    }

    static ResourceAmounts acc(long n) {
        return new ResourceAmounts(BigDecimal.valueOf(n), null, null);
    }

    record Case(String name, Sub submission, WorkloadValidation.Result expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static WorkloadValidation.Invalid invalid(RejectReason reason, String field, String rule) {
        return new WorkloadValidation.Invalid(reason, List.of(new Violation(field, rule)));
    }

    static Stream<Case> cases() {
        String layer3 = TopologyLevels.LAYER_3;
        return Stream.of(
                new Case("valid: team from the namespace, class from the -priority label", Sub.submission().podSet("ps", 1, P5.name(),
                        acc(1), layer3, null),
                        new WorkloadValidation.Valid(new Workload("w1", "team-a", "training", 50, T, List.of(
                                new PodSetRequest("worker", 2, P5.name(), Resources.accelerators(1), TopologyRequest.NONE),
                                new PodSetRequest("ps", 1, P5.name(), Resources.accelerators(1), TopologyRequest.required(layer3)))))),
                new Case("no priority class gets the lowest weight", Sub.submission().priorityClass(null),
                        new WorkloadValidation.Valid(new Workload("w1", "team-a", null, 10, T, List.of(
                                new PodSetRequest("worker", 2, P5.name(), Resources.accelerators(1), TopologyRequest.NONE))))),
                new Case("valid: an expected run time that is an ISO-8601 duration",
                        Sub.submission().annotation(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, "PT1H30M"),
                        new WorkloadValidation.Valid(new Workload("w1", "team-a", "training", 50, T, List.of(
                                new PodSetRequest("worker", 2, P5.name(), Resources.accelerators(1), TopologyRequest.NONE))))),
                new Case("an expected run time that is no duration",
                        Sub.submission().annotation(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, "90 minutes"),
                        invalid(RejectReason.InvalidWorkload, "annotations." + WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION,
                                "must be an ISO-8601 duration greater than zero (the expected run time, e.g. PT2H or PT90M), was '90 minutes'")),
                new Case("an expected run time of zero",
                        Sub.submission().annotation(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, "PT0S"),
                        invalid(RejectReason.InvalidWorkload, "annotations." + WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION,
                                "must be an ISO-8601 duration greater than zero (the expected run time, e.g. PT2H or PT90M), was 'PT0S'")),
                new Case("both requiredTopology and preferredTopology",
                        Sub.submission().onlyPodSet("worker", 1, P5.name(), acc(1), layer3, layer3),
                        invalid(RejectReason.InvalidWorkload, "podSets[0]", "give requiredTopology or preferredTopology, not both")),
                new Case("unknown topology level", Sub.submission().onlyPodSet("worker", 1, P5.name(), acc(1), "rack", null),
                        invalid(RejectReason.InvalidWorkload, "podSets[0].requiredTopology", "unknown topology level 'rack'; known: "
                                + TopologyLevels.ALL)),
                new Case("duplicate pod set names", Sub.submission().podSet("worker", 1, P5.name(), acc(1), null, null),
                        invalid(RejectReason.InvalidWorkload, "podSets[1].name", "duplicate pod set name 'worker'")),
                new Case("count below 1", Sub.submission().onlyPodSet("worker", 0, P5.name(), acc(1), null, null),
                        invalid(RejectReason.InvalidWorkload, "podSets[0].count", "must be >= 1, was 0")),
                new Case("negative request", Sub.submission().onlyPodSet("worker", 1, P5.name(),
                        new ResourceAmounts(null, new BigDecimal("-0.5"), null), null, null),
                        invalid(RejectReason.InvalidWorkload, "podSets[0].requests.vcpu", "must not be negative, was -0.5")),
                new Case("fractional partitions", Sub.submission().onlyPodSet("worker", 1, P5.name(),
                        new ResourceAmounts(null, null, null, Map.of("mig-1g.10gb", new BigDecimal("0.5"))), null, null),
                        invalid(RejectReason.InvalidWorkload, "podSets[0].requests.partitions.mig-1g.10gb",
                                "must be a whole number of partitions, was 0.5")),
                new Case("a partition type no node of the instance type offers", Sub.submission().onlyPodSet("worker", 1, P5.name(),
                        new ResourceAmounts(null, null, null, Map.of("mig-1g.10gb", BigDecimal.ONE)), null, null),
                        invalid(RejectReason.PodFitsNoNode, "podSets[0].requests",
                                "one pod asks for 1 mig-1g.10gb partition, more than any ml.p5.48xlarge node offers")),
                new Case("valid: a node selector pinning a rack reaches the pod set request",
                        Sub.submission().onlyPodSet("worker", 1, P5.name(), acc(1), layer3, null).selector(Map.of(layer3, "nn-b1-r2")),
                        new WorkloadValidation.Valid(new Workload("w1", "team-a", "training", 50, T, List.of(
                                new PodSetRequest("worker", 1, P5.name(), Resources.accelerators(1), TopologyRequest.required(layer3),
                                        Map.of(layer3, "nn-b1-r2")))))),
                new Case("node selector with an empty value",
                        Sub.submission().selector(Map.of(layer3, "")),
                        invalid(RejectReason.InvalidWorkload, "podSets[0].nodeSelector[" + layer3 + "]",
                                "must not be empty (a node must carry the label with a value)")),
                new Case("node selector with a blank label name",
                        Sub.submission().selector(Map.of(" ", "x")),
                        invalid(RejectReason.InvalidWorkload, "podSets[0].nodeSelector", "label names must not be blank")),
                new Case("node selector on another instance type than the pod set's",
                        Sub.submission().selector(Map.of(Node.INSTANCE_TYPE_LABEL, "ml.g5.8xlarge")),
                        invalid(RejectReason.InvalidWorkload, "podSets[0].nodeSelector[" + Node.INSTANCE_TYPE_LABEL + "]",
                                "is \"ml.g5.8xlarge\" but the pod set's instanceType is \"ml.p5.48xlarge\"; no node can match both")),
                new Case("unknown priority class", Sub.submission().priorityClass("urgent"),
                        invalid(RejectReason.UnknownPriorityClass, "priorityClass", "unknown priority class 'urgent'; known: [experiment, training]")),
                new Case("unknown team", Sub.submission().namespace("hyperpod-ns-team-z"),
                        invalid(RejectReason.UnknownTeam, "namespace", "team 'team-z' (namespace hyperpod-ns-team-z) has no compute quota")),
                new Case("unknown instance type", Sub.submission().onlyPodSet("worker", 1, "ml.x", acc(1), null, null),
                        invalid(RejectReason.UnknownInstanceType, "podSets[0].instanceType", "unknown instance type 'ml.x'")),
                new Case("a pod bigger than every node of its type", Sub.submission().onlyPodSet("worker", 1, P5.name(), acc(8), null, null),
                        invalid(RejectReason.PodFitsNoNode, "podSets[0].requests",
                                "one pod asks for 8 accelerators, more than any ml.p5.48xlarge node offers"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void validate(Case c) {
        WorkloadValidation.Result r = WorkloadValidation.validate(c.submission().build(), CTX, T);
        if (c.expected() instanceof WorkloadValidation.Valid v && r instanceof WorkloadValidation.Valid rv) {
            // TreeMap/record equality on Workload compares pod sets whole.
            assertThat(rv.workload()).isEqualTo(v.workload());
        } else {
            assertThat(r).isEqualTo(c.expected());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eventsRoundTrip(String name, Object event) {
        assertThat(EventCodec.read(EventCodec.write(event), event.getClass())).isEqualTo(event);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> events() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("WorkloadSubmitted", Sub.submission().build().withSubmittedAt(T)),
                org.junit.jupiter.params.provider.Arguments.of("WorkloadSubmitted with a node selector", Sub.submission()
                        .selector(Map.of(TopologyLevels.LAYER_3, "nn-b1-r2", TopologyLevels.HOSTNAME, "h1")).build().withSubmittedAt(T)),
                org.junit.jupiter.params.provider.Arguments.of("WorkloadFinished", new WorkloadFinished("w1", T, WorkloadFinished.Outcome.Succeeded)),
                org.junit.jupiter.params.provider.Arguments.of("WorkloadStatus", new WorkloadStatus("w1", "team-a",
                        dev.taskgov.core.model.WorkloadState.Pending, "QuotaExceeded", "needs 1", T)),
                org.junit.jupiter.params.provider.Arguments.of("WorkloadPreempted", new WorkloadPreempted("w1", "team-a", "w2",
                        dev.taskgov.core.model.PreemptionReason.ReclaimLentCapacity, "m", T)),
                org.junit.jupiter.params.provider.Arguments.of("WorkloadAdmitted", new WorkloadAdmitted("w1", "team-a", T,
                        Map.of(P5.name(), acc(8)), List.of(new WorkloadAdmitted.AdmittedPodSet("worker", P5.name(),
                        new WorkloadAdmitted.Domain(TopologyLevels.LAYER_3, "nn-b1-r2"), List.of(new WorkloadAdmitted.NodeCount("h1", 8)))))),
                org.junit.jupiter.params.provider.Arguments.of("NodeRecord", new NodeRecord("h1", "i-0abc", P5.name(),
                        Map.of(TopologyLevels.LAYER_1, "nn-1"), new ResourceAmounts(BigDecimal.valueOf(8), BigDecimal.valueOf(192), null), true))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contractJson")
    void contractFieldNames(String name, Object event, String json) {
        assertThat(EventCodec.write(event)).isEqualTo(json);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> contractJson() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("WorkloadAdmitted as in the wire contract", new WorkloadAdmitted("team-a-train-001", "team-a",
                                Instant.parse("2026-11-30T10:00:01Z"), Map.of("ml.p5.48xlarge", acc(8)),
                                List.of(new WorkloadAdmitted.AdmittedPodSet("worker", "ml.p5.48xlarge",
                                        new WorkloadAdmitted.Domain("topology.k8s.aws/network-node-layer-3", "nn-b1-r2"),
                                        List.of(new WorkloadAdmitted.NodeCount("p5-b1r2h1", 8), new WorkloadAdmitted.NodeCount("p5-b1r2h2", 2))))),
                        "{\"workloadId\":\"team-a-train-001\",\"team\":\"team-a\",\"admittedAt\":\"2026-11-30T10:00:01Z\","
                                + "\"borrowed\":{\"ml.p5.48xlarge\":{\"accelerators\":8}},\"podSets\":[{\"name\":\"worker\","
                                + "\"instanceType\":\"ml.p5.48xlarge\",\"domain\":{\"level\":\"topology.k8s.aws/network-node-layer-3\","
                                + "\"value\":\"nn-b1-r2\"},\"nodes\":[{\"name\":\"p5-b1r2h1\",\"count\":8},{\"name\":\"p5-b1r2h2\",\"count\":2}]}]}"),
                org.junit.jupiter.params.provider.Arguments.of("pod set without node selector: the field is left out",
                        new PodSetSpec("worker", 2, "ml.p5.48xlarge", acc(1), null, null),
                        "{\"name\":\"worker\",\"count\":2,\"instanceType\":\"ml.p5.48xlarge\",\"requests\":{\"accelerators\":1}}"),
                org.junit.jupiter.params.provider.Arguments.of("pod set with a node selector",
                        new PodSetSpec("worker", 2, "ml.p5.48xlarge", acc(1), null, null,
                                Map.of("topology.k8s.aws/network-node-layer-3", "nn-b1-r2")),
                        "{\"name\":\"worker\",\"count\":2,\"instanceType\":\"ml.p5.48xlarge\",\"requests\":{\"accelerators\":1},"
                                + "\"nodeSelector\":{\"topology.k8s.aws/network-node-layer-3\":\"nn-b1-r2\"}}"),
                org.junit.jupiter.params.provider.Arguments.of("WorkloadPreempted", new WorkloadPreempted("b-2", "team-b", "a-2",
                                dev.taskgov.core.model.PreemptionReason.ReclaimLentCapacity, "m", Instant.parse("2026-11-30T10:00:01Z")),
                        "{\"workloadId\":\"b-2\",\"team\":\"team-b\",\"preemptorWorkloadId\":\"a-2\",\"reason\":\"ReclaimLentCapacity\","
                                + "\"message\":\"m\",\"preemptedAt\":\"2026-11-30T10:00:01Z\"}")
        );
    }

    @org.junit.jupiter.api.Test
    void annotationsNeedKeysAndStringValues() {
        Map<String, String> bad = new java.util.HashMap<>();
        bad.put(" ", "x");
        bad.put("taskgov.dev/image", null);
        WorkloadSubmitted s = new WorkloadSubmitted("w1", "hyperpod-ns-team-a", "q", null, "Job", T,
                List.of(new PodSetSpec("worker", 1, P5.name(), new ResourceAmounts(BigDecimal.ONE, null, null), null, null)), bad);

        assertThat(WorkloadValidation.checkFields(s)).containsExactlyInAnyOrder(
                new dev.taskgov.core.model.Violation("annotations", "keys must not be blank"),
                new dev.taskgov.core.model.Violation("annotations.taskgov.dev/image", "must be a string, not null"));
    }
}
