package dev.taskgov.quota.capacity;

import dev.taskgov.core.resources.Resources;

/**
 * What quota-service keeps of a node record from the topology topic.
 *
 * @param name         node name (the record key)
 * @param instanceType e.g. {@code ml.p5.48xlarge}
 * @param allocatable  what the node offers, stored units
 * @param ready        only ready nodes count towards capacity
 */
public record NodeCapacity(String name, String instanceType, Resources allocatable, boolean ready) {
}
