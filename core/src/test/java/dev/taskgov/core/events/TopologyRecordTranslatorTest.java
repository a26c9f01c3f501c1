package dev.taskgov.core.events;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.Violation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A {@code taskgov.topology} record, key and value, into a node, a node gone, a declaration, or each broken rule with its field. */
class TopologyRecordTranslatorTest {

    static final String ARN = "arn:aws:sagemaker:us-west-2:123456789012:cluster/demo00000001";
    static final String OTHER = "arn:aws:sagemaker:us-west-2:123456789012:cluster/other0000001";
    static final ClusterArn DEMO = ClusterArn.of(ARN);

    /**
     * @param expected    the exact translation; null where the parser's own words are the rule (then {@code kind} and
     *                    {@code reasonStart}: the field the reason names)
     */
    record Case(String name, String key, String value, Translation<TopologyChange> expected, Translation.Kind kind,
                String reasonStart) {
        Case(String name, String key, String value, Translation<TopologyChange> expected) {
            this(name, key, value, expected, null, null);
        }

        /** Refused in the parser's words. */
        static Case parser(String name, String key, String value, Translation.Kind kind, String reasonStart) {
            return new Case(name, key, value, null, kind, reasonStart);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static Translation<TopologyChange> invalid(String field, String rule) {
        return Translation.invalid(field, rule);
    }

    private static Translation<TopologyChange> unreadable(String what, String rule) {
        return new Translation.Refused<>(Translation.Kind.UNREADABLE, "unreadable " + what, List.of(new Violation("$", rule)));
    }

    static Stream<Case> cases() {
        NodeRecord n1 = new NodeRecord("n1", null, "ml.g5.8xlarge", null, new ResourceAmounts(BigDecimal.ONE, null, null), null);
        return Stream.of(
                new Case("a node of a named cluster", ARN + "#n1",
                        "{\"name\": \"n1\", \"instanceType\": \"ml.g5.8xlarge\", \"allocatable\": {\"accelerators\": 1}}",
                        Translation.translated(new TopologyChange.NodeSet(DEMO, n1))),
                new Case("a node that names its own cluster, the key's", ARN + "#n1",
                        "{\"name\": \"n1\", \"instanceType\": \"ml.g5.8xlarge\", \"allocatable\": {\"accelerators\": 1}, \"clusterArn\": \"" + ARN + "\"}",
                        Translation.translated(new TopologyChange.NodeSet(DEMO, n1.withClusterArn(ARN)))),
                new Case("a bare node name: the unnamed cluster", "n1",
                        "{\"name\": \"n1\", \"instanceType\": \"ml.g5.8xlarge\", \"allocatable\": {\"accelerators\": 1}}",
                        Translation.translated(new TopologyChange.NodeSet(ClusterArn.UNNAMED, n1))),
                new Case("a node's tombstone", ARN + "#n1", null, Translation.translated(new TopologyChange.NodeRemoved(DEMO, "n1"))),
                new Case("a declaration", ARN, "{\"clusterArn\": \"" + ARN + "\", \"source\": \"static\"}",
                        Translation.translated(new TopologyChange.Declared(DEMO, new ClusterDeclared(ARN, null, "static", null)))),
                new Case("a declaration's tombstone", ARN, null, Translation.translated(new TopologyChange.Undeclared(DEMO))),
                new Case("no key", null, "{}", invalid("key", "is required (<ClusterArn>#<name>, or <name> for a deployment whose "
                        + "records name no cluster) (a topology record is keyed <ClusterArn>#<node name>, or <ClusterArn> for a cluster)")),
                new Case("a key with an empty name", ARN + "#", "{}", invalid("key", "the part after '#' (the name) is empty "
                        + "(a topology record is keyed <ClusterArn>#<node name>, or <ClusterArn> for a cluster)")),
                new Case("a node naming another cluster than its key", ARN + "#n1",
                        "{\"name\": \"n1\", \"instanceType\": \"t\", \"clusterArn\": \"" + OTHER + "\"}",
                        invalid("clusterArn", "the node names cluster " + OTHER + " but its key '" + ARN + "#n1' belongs to " + ARN
                                + " (key a node of a named cluster <ClusterArn>#<node name>)")),
                new Case("a declaration naming another cluster than its key", ARN, "{\"clusterArn\": \"" + OTHER + "\"}",
                        invalid("clusterArn", "the declaration names " + OTHER + " under the key " + ARN)),
                new Case("a node without a name", ARN + "#n1", "{\"instanceType\": \"t\"}", invalid("name", "is required")),
                new Case("a node without an instance type", ARN + "#n1", "{\"name\": \"n1\"}", invalid("instanceType", "is required")),
                new Case("a negative amount", ARN + "#n1", "{\"name\": \"n1\", \"instanceType\": \"t\", \"allocatable\": {\"vcpu\": -1}}",
                        invalid("allocatable.vcpu", "must not be negative, was -1")),
                new Case("a node value of JSON null", ARN + "#n1", "null", unreadable("NodeRecord", "must be a NodeRecord object, was null")),
                new Case("a declaration of JSON null", ARN, "null", unreadable("ClusterDeclared", "must be a ClusterDeclared object, was null")),
                Case.parser("a node not JSON", ARN + "#n1", "not json", Translation.Kind.UNREADABLE, "unreadable NodeRecord: $: "),
                Case.parser("a node value that is an array", ARN + "#n1", "[1, 2]", Translation.Kind.UNREADABLE, "unreadable NodeRecord: $: "),
                Case.parser("trailing bytes after the node", ARN + "#n1", "{\"name\": \"n1\", \"instanceType\": \"t\"}xyz",
                        Translation.Kind.UNREADABLE, "unreadable NodeRecord: $: "),
                Case.parser("ready written as text", ARN + "#n1", "{\"name\": \"n1\", \"instanceType\": \"t\", \"ready\": \"true\"}",
                        Translation.Kind.INVALID, "$.ready: "),
                Case.parser("an unknown resource", ARN + "#n1", "{\"name\": \"n1\", \"instanceType\": \"t\", \"allocatable\": {\"gpus\": 8}}",
                        Translation.Kind.INVALID, "$.allocatable.gpus: "),
                Case.parser("a declaration not JSON", ARN, "{", Translation.Kind.UNREADABLE, "unreadable ClusterDeclared: $: ")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void translates(Case c) {
        Translation<TopologyChange> seen = TopologyRecordTranslator.translate(c.key(),
                c.value() == null ? null : c.value().getBytes(StandardCharsets.UTF_8));
        if (c.expected() != null) {
            assertThat(seen).isEqualTo(c.expected());
            return;
        }
        assertThat(seen).isInstanceOfSatisfying(Translation.Refused.class, r -> {
            assertThat(r.kind()).isEqualTo(c.kind());
            assertThat(r.reason()).startsWith(c.reasonStart());
        });
    }
}
