package dev.taskgov.core.events;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The value of {@code taskgov.topology}, written by topology-service and read by every other service. */
class NodeRecordTest {

    static final Node DESIGN_EXAMPLE = new Node("p5-b1r2h1", "i-0abc", "ml.p5.48xlarge", Map.of(
            "topology.k8s.aws/network-node-layer-1", "nn-1",
            "topology.k8s.aws/network-node-layer-2", "nn-b1",
            "topology.k8s.aws/network-node-layer-3", "nn-b1-r2",
            "kubernetes.io/hostname", "p5-b1r2h1"), Resources.of(8, 192_000, 2048 * 1024), true);

    private static Node read(String json) {
        return EventCodec.read(json, NodeRecord.class).toValidNode(Map.of());
    }

    @Test
    void writesTheDesignRecordShapeWithLabelsInKeyOrder() {
        assertThat(EventCodec.write(NodeRecord.of(DESIGN_EXAMPLE))).isEqualTo("{\"name\":\"p5-b1r2h1\",\"instanceId\":\"i-0abc\","
                + "\"instanceType\":\"ml.p5.48xlarge\",\"labels\":{\"kubernetes.io/hostname\":\"p5-b1r2h1\","
                + "\"topology.k8s.aws/network-node-layer-1\":\"nn-1\",\"topology.k8s.aws/network-node-layer-2\":\"nn-b1\","
                + "\"topology.k8s.aws/network-node-layer-3\":\"nn-b1-r2\"},"
                + "\"allocatable\":{\"accelerators\":8,\"vcpu\":192,\"memoryGiB\":2048},\"ready\":true}");
    }

    @Test
    void readsBackWhatItWritesZeroAmountsIncluded() {
        Node fractional = new Node("n", null, "t", Map.of(), Resources.of(0, 1500, 512), false);
        assertThat(read(EventCodec.write(NodeRecord.of(DESIGN_EXAMPLE)))).isEqualTo(DESIGN_EXAMPLE);
        assertThat(EventCodec.write(NodeRecord.of(fractional))).contains("\"accelerators\":0,\"vcpu\":1.5,\"memoryGiB\":0.5");
        assertThat(read(EventCodec.write(NodeRecord.of(fractional)))).isEqualTo(fractional);
    }

    @Test
    void readsBackPartitionsAndKeepsTheTypesOwnWhenNoneAreGiven() {
        Node mig = new Node("m1", null, "t", Map.of(), Resources.of(0, 192_000, 2048 * 1024).plus(Resources.partition("mig-1g.10gb", 7)), true);
        assertThat(EventCodec.write(NodeRecord.of(mig))).contains("\"partitions\":{\"mig-1g.10gb\":7}");
        assertThat(read(EventCodec.write(NodeRecord.of(mig)))).isEqualTo(mig);
    }

    static Stream<Arguments> invalidRecords() {
        return Stream.of(
                arguments("not JSON", "{", "$"),
                arguments("not an object", "[]", "$"),
                arguments("name missing", "{\"instanceType\":\"t\"}", "name"),
                arguments("instance type missing", "{\"name\":\"n\"}", "instanceType"),
                arguments("label not a string", "{\"name\":\"n\",\"instanceType\":\"t\",\"labels\":{\"a\":1}}", "$.labels.a"),
                arguments("unknown resource", "{\"name\":\"n\",\"instanceType\":\"t\",\"allocatable\":{\"gpu\":1}}", "$.allocatable.gpu"),
                arguments("resource as text", "{\"name\":\"n\",\"instanceType\":\"t\",\"allocatable\":{\"vcpu\":\"8\"}}", "$.allocatable.vcpu"),
                arguments("negative resource", "{\"name\":\"n\",\"instanceType\":\"t\",\"allocatable\":{\"vcpu\":-1}}", "allocatable.vcpu"),
                arguments("negative partitions", "{\"name\":\"n\",\"instanceType\":\"t\",\"allocatable\":{\"partitions\":{\"mig-1g.10gb\":-1}}}",
                        "allocatable.partitions.mig-1g.10gb"),
                arguments("fractional partitions", "{\"name\":\"n\",\"instanceType\":\"t\",\"allocatable\":{\"partitions\":{\"mig-1g.10gb\":0.5}}}",
                        "allocatable.partitions.mig-1g.10gb"),
                arguments("ready not boolean", "{\"name\":\"n\",\"instanceType\":\"t\",\"ready\":\"yes\"}", "$.ready"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidRecords")
    void refusesInvalidRecordsNamingTheField(String name, String json, String field) {
        assertThatThrownBy(() -> read(json)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> {
                    if (e instanceof EventCodec.EventFormatException f) assertThat(f.path()).isEqualTo(field);
                    else assertThat(e.getMessage()).startsWith(field + ": ");
                });
    }
}
