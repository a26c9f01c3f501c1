package dev.taskgov.core.topology;

import java.util.List;
import java.util.Objects;

/**
 * A topology domain identified by its full path: the label values from layer-1 down to its own
 * level. Two racks that share a label value under different blocks are different domains.
 *
 * @param level the level label, one of {@link TopologyLevels#ALL}
 * @param path  the values of layer-1, layer-2, ... down to {@code level} (missing labels are "")
 */
public record TopologyDomain(String level, List<String> path) {

    public TopologyDomain {
        Objects.requireNonNull(level, "level");
        path = List.copyOf(path);
        if (path.size() != TopologyLevels.indexOf(level) + 1) {
            throw new IllegalArgumentException("path of a " + level + " domain must have "
                    + (TopologyLevels.indexOf(level) + 1) + " values, was " + path);
        }
    }

    /** The domain's own label value (the last element of the path). */
    public String value() {
        return path.get(path.size() - 1);
    }

    /** The level and own value, as written in a {@link PodSetPlacement}. */
    public PodSetPlacement.Domain toDomain() {
        return new PodSetPlacement.Domain(level, value());
    }
}
