package dev.taskgov.topology.capacity;

import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.topology.model.NodeRecordCodec;

import java.math.BigDecimal;

/** Resources in JSON units, as the API shows them. */
public record ResourceAmounts(BigDecimal accelerators, BigDecimal vcpu, BigDecimal memoryGiB) {
    public static ResourceAmounts of(Resources r) {
        return new ResourceAmounts(NodeRecordCodec.jsonAmount(r.accelerators(), ResourceName.ACCELERATORS),
                NodeRecordCodec.jsonAmount(r.milliVcpu(), ResourceName.VCPU),
                NodeRecordCodec.jsonAmount(r.memoryMiB(), ResourceName.MEMORY));
    }
}
