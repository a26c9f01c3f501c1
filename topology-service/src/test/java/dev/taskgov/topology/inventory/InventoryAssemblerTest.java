package dev.taskgov.topology.inventory;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.topology.ec2.InstanceTopologyEntry;
import dev.taskgov.topology.model.InstanceTypeCatalog;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.taskgov.core.topology.TopologyLevels.HOSTNAME;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_1;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_2;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;

class InventoryAssemblerTest {

    static final Resources P5 = Resources.of(8, 192_000, 2048 * 1024);

    @Test
    void networkNodesMapTopFirstToLayersOneToThree() {
        assertThat(InventoryAssembler.layerLabels(List.of("nn-a", "nn-b", "nn-c", "nn-extra")))
                .isEqualTo(Map.of(LAYER_1, "nn-a", LAYER_2, "nn-b", LAYER_3, "nn-c"));
        assertThat(InventoryAssembler.layerLabels(List.of("nn-a"))).isEqualTo(Map.of(LAYER_1, "nn-a"));
    }

    @Test
    void ec2AloneNamesNodesByInstanceWithCatalogCapacity() {
        Map<String, Node> nodes = InventoryAssembler.fromEc2(List.of(
                new InstanceTopologyEntry("i-1", "p5.48xlarge", null, List.of("a", "b", "c")),
                new InstanceTopologyEntry("i-2", "p5.48xlarge", null, List.of())), InstanceTypeCatalog.builtIn());

        assertThat(nodes.values()).containsExactly(
                new Node("i-1", "i-1", "ml.p5.48xlarge", Map.of(LAYER_1, "a", LAYER_2, "b", LAYER_3, "c", HOSTNAME, "i-1"), P5, true),
                new Node("i-2", "i-2", "ml.p5.48xlarge", Map.of(HOSTNAME, "i-2"), P5, false));
    }

    @Test
    void ec2NodesOfATypeConfiguredInMigModeOfferItsPartitions() {
        // taskgov.topology.instance-types."ml.p5.48xlarge": accelerators 0, partitions."mig-1g.10gb" 56
        Resources mig = Resources.of(0, 192_000, 2048 * 1024).plus(Resources.partition("mig-1g.10gb", 56));
        Map<String, Node> nodes = InventoryAssembler.fromEc2(List.of(
                new InstanceTopologyEntry("i-1", "p5.48xlarge", null, List.of("a", "b", "c"))),
                new InstanceTypeCatalog(Map.of("ml.p5.48xlarge", mig)));

        assertThat(nodes.values()).containsExactly(
                new Node("i-1", "i-1", "ml.p5.48xlarge", Map.of(LAYER_1, "a", LAYER_2, "b", LAYER_3, "c", HOSTNAME, "i-1"), mig, true));
    }

    @Test
    void kubernetesNodesTakeEc2LayersForKnownInstancesAndKeepTheirOwnOtherwise() {
        Node known = new Node("k1", "i-1", "ml.p5.48xlarge", Map.of(LAYER_3, "stale", HOSTNAME, "k1"), P5, true);
        Node unknown = new Node("k2", "i-9", "ml.p5.48xlarge", Map.of(LAYER_1, "own", HOSTNAME, "k2"), P5, true);

        Map<String, Node> nodes = InventoryAssembler.fromKubernetes(List.of(known, unknown),
                Map.of("i-1", new InstanceTopologyEntry("i-1", "p5.48xlarge", null, List.of("a", "b"))));

        assertThat(nodes.values()).containsExactly(
                new Node("k1", "i-1", "ml.p5.48xlarge", Map.of(LAYER_1, "a", LAYER_2, "b", HOSTNAME, "k1"), P5, true),
                unknown);
    }
}
