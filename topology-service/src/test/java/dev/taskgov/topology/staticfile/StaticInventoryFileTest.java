package dev.taskgov.topology.staticfile;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class StaticInventoryFileTest {

    static final Path DEMO = Path.of("../deploy/local/demo-cluster.json");
    static final Resources P5 = Resources.of(8, 192_000, 2048 * 1024);

    @TempDir
    Path dir;

    @Test
    void theDemoClusterHas32P5NodesIn2Then4Then8Domains() throws IOException {
        List<Node> nodes = StaticInventoryFile.load(DEMO);

        assertThat(nodes).hasSize(32).allSatisfy(n -> {
            assertThat(n.instanceType()).isEqualTo("ml.p5.48xlarge");
            assertThat(n.allocatable()).isEqualTo(P5);
            assertThat(n.ready()).isTrue();
        });
        assertThat(distinct(nodes, TopologyLevels.LAYER_1)).hasSize(2);
        assertThat(distinct(nodes, TopologyLevels.LAYER_2)).hasSize(4);
        assertThat(distinct(nodes, TopologyLevels.LAYER_3)).hasSize(8);
        assertThat(nodes.stream().collect(Collectors.groupingBy(n -> n.levelValue(TopologyLevels.LAYER_3), Collectors.counting())))
                .allSatisfy((domain, count) -> assertThat(count).isEqualTo(4));
    }

    @Test
    void allocatableOverridesTheInstanceTypePerResourceAndYamlReadsTheSame() throws IOException {
        Path yaml = Files.writeString(dir.resolve("cluster.yaml"), """
                instanceTypes:
                  ml.g5.8xlarge: {accelerators: 1, vcpu: 32, memoryGiB: 128}
                nodes:
                  - name: g1
                    instanceType: ml.g5.8xlarge
                    labels: {topology.k8s.aws/network-node-layer-1: nn-1}
                    allocatable: {vcpu: 30.5}
                  - name: g2
                    instanceType: ml.g5.8xlarge
                    ready: false
                """);

        assertThat(StaticInventoryFile.load(yaml)).containsExactly(
                new Node("g1", null, "ml.g5.8xlarge", Map.of(TopologyLevels.LAYER_1, "nn-1"), Resources.of(1, 30_500, 128 * 1024), true),
                new Node("g2", null, "ml.g5.8xlarge", Map.of(), Resources.of(1, 32_000, 128 * 1024), false));
    }

    @Test
    void aNodeInMigModeOffersItsPartitionsAndNoWholeAccelerators() throws IOException {
        Path json = Files.writeString(dir.resolve("mig.json"), """
                {"instanceTypes": {"ml.p5.48xlarge": {"accelerators": 8, "vcpu": 192, "memoryGiB": 2048}},
                 "nodes": [{"name": "m1", "instanceType": "ml.p5.48xlarge",
                            "allocatable": {"accelerators": 0, "partitions": {"mig-1g.10gb": 7}}},
                           {"name": "p1", "instanceType": "ml.p5.48xlarge"}]}
                """);

        assertThat(StaticInventoryFile.load(json)).containsExactly(
                new Node("m1", null, "ml.p5.48xlarge", Map.of(), Resources.of(0, 192_000, 2048 * 1024)
                        .plus(Resources.partition("mig-1g.10gb", 7)), true),
                new Node("p1", null, "ml.p5.48xlarge", Map.of(), P5, true));
    }

    static Stream<Arguments> invalidFiles() {
        return Stream.of(
                arguments("no nodes", "{}", "$.nodes is required and must be an array"),
                arguments("unknown instance type", "{\"instanceTypes\":{\"a\":{\"accelerators\":1}},\"nodes\":[{\"name\":\"n\",\"instanceType\":\"b\"}]}",
                        "$.nodes[0].instanceType b is not in $.instanceTypes"),
                arguments("duplicate name", "{\"nodes\":[{\"name\":\"n\",\"instanceType\":\"t\"},{\"name\":\"n\",\"instanceType\":\"t\"}]}",
                        "$.nodes[1].name n appears twice"),
                arguments("bad capacity", "{\"instanceTypes\":{\"a\":{\"vcpu\":\"many\"}},\"nodes\":[]}", "$.instanceTypes.a.vcpu: Cannot coerce String"),
                arguments("fractional partitions", "{\"nodes\":[{\"name\":\"n\",\"instanceType\":\"t\",\"allocatable\":"
                        + "{\"partitions\":{\"mig-1g.10gb\":1.5}}}]}", "allocatable.partitions.mig-1g.10gb: must be a whole number of partitions"),
                arguments("not JSON", "{nodes", "is not valid JSON"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidFiles")
    void refusesInvalidFilesNamingThePath(String name, String content, String message) throws IOException {
        Path file = Files.writeString(dir.resolve("bad.json"), content);
        assertThatThrownBy(() -> StaticInventoryFile.load(file)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    private static Set<String> distinct(List<Node> nodes, String level) {
        return nodes.stream().map(n -> n.levelValue(level)).collect(Collectors.toSet());
    }
}
