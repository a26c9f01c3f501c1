package dev.taskgov.core.model;

import dev.taskgov.core.resources.Resources;

import java.util.Objects;

/**
 * An instance type (a Kueue "flavor") and what one instance of it offers.
 *
 * @param name     e.g. {@code ml.p5.48xlarge}
 * @param capacity the resources of one instance
 */
public record InstanceType(String name, Resources capacity) {
    public InstanceType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(capacity, "capacity");
    }
}
