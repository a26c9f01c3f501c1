package dev.taskgov.core.resources;

/**
 * The resources taskgov accounts for, per instance type. Each is stored as a whole number in its
 * storage unit; {@link #jsonName()} is the name used in events, scenario files and the API, where
 * vCPU is given in vCPUs and memory in GiB.
 */
public enum ResourceName {
    /** Whole accelerator units (GPUs, Trainium/Inferentia devices). Stored as is. */
    ACCELERATORS("accelerators", 1),
    /** vCPU, stored in milli-vCPU (1 vCPU = 1000). */
    VCPU("vcpu", 1000),
    /** Memory, stored in MiB (1 GiB = 1024). */
    MEMORY("memoryGiB", 1024);

    private final String jsonName;
    private final long unitsPerJsonUnit;

    ResourceName(String jsonName, long unitsPerJsonUnit) {
        this.jsonName = jsonName;
        this.unitsPerJsonUnit = unitsPerJsonUnit;
    }

    /** The field name in JSON: {@code accelerators}, {@code vcpu}, {@code memoryGiB}. */
    public String jsonName() {
        return jsonName;
    }

    /** How many stored units make one JSON unit (1, 1000 or 1024). */
    public long unitsPerJsonUnit() {
        return unitsPerJsonUnit;
    }

    /** The resource for a JSON field name, or {@code null} when the name is unknown. */
    public static ResourceName fromJsonName(String name) {
        for (ResourceName r : values()) {
            if (r.jsonName.equals(name)) {
                return r;
            }
        }
        return null;
    }
}
