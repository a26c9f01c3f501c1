package dev.taskgov.core.resources;

import java.util.Objects;

/**
 * One resource of an instance type as quota and placement count it: one of the fixed
 * {@link ResourceName}s, or one accelerator partition type ({@code partitions.<type>}, e.g.
 * {@code partitions.mig-1g.10gb}), each a resource of its own in whole units.
 *
 * @param name      the fixed resource, or null for a partition type
 * @param partition the partition type (a MIG profile such as {@code mig-1g.10gb}), or null
 */
public record ResourceKey(ResourceName name, String partition) implements Comparable<ResourceKey> {

    /** The prefix of a partition type's resource name in messages and metric labels. */
    public static final String PARTITIONS = "partitions";

    public static final ResourceKey ACCELERATORS = new ResourceKey(ResourceName.ACCELERATORS, null);
    public static final ResourceKey VCPU = new ResourceKey(ResourceName.VCPU, null);
    public static final ResourceKey MEMORY = new ResourceKey(ResourceName.MEMORY, null);

    public ResourceKey {
        if ((name == null) == (partition == null)) {
            throw new IllegalArgumentException("a resource is either a fixed resource or a partition type");
        }
    }

    /** The key of a fixed resource. */
    public static ResourceKey of(ResourceName name) {
        return switch (Objects.requireNonNull(name, "name")) {
            case ACCELERATORS -> ACCELERATORS;
            case VCPU -> VCPU;
            case MEMORY -> MEMORY;
        };
    }

    /** The key of an accelerator partition type. */
    public static ResourceKey partition(String type) {
        return new ResourceKey(null, Objects.requireNonNull(type, "type"));
    }

    public boolean isPartition() {
        return partition != null;
    }

    /** {@code accelerators}, {@code vcpu}, {@code memoryGiB} or {@code partitions.<type>}. */
    public String jsonName() {
        return isPartition() ? PARTITIONS + "." + partition : name.jsonName();
    }

    /** How many stored units make one JSON unit; partitions are whole units. */
    public long unitsPerJsonUnit() {
        return isPartition() ? 1 : name.unitsPerJsonUnit();
    }

    /** The fixed resources in their enum order, then partition types by name. */
    @Override
    public int compareTo(ResourceKey o) {
        if (isPartition() != o.isPartition()) return isPartition() ? 1 : -1;
        return isPartition() ? partition.compareTo(o.partition) : name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return jsonName();
    }
}
