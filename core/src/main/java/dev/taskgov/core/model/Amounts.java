package dev.taskgov.core.model;

import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;

/** Formats stored amounts for messages, in JSON units ("4 accelerators", "16 vcpu", "64 GiB memory"). */
public final class Amounts {
    private Amounts() {
    }

    /** One resource amount, e.g. {@code "1 accelerator"}, {@code "0.5 vcpu"}, {@code "2 GiB memory"}. */
    public static String of(ResourceName r, long stored) {
        String n = Resources.formatScaled(stored, r.unitsPerJsonUnit());
        return switch (r) {
            case ACCELERATORS -> n + (stored == 1 ? " accelerator" : " accelerators");
            case VCPU -> n + " vcpu";
            case MEMORY -> n + " GiB memory";
        };
    }

    /** The number alone, in JSON units ({@code 1500} milli-vCPU gives {@code "1.5"}). */
    public static String number(ResourceName r, long stored) {
        return Resources.formatScaled(stored, r.unitsPerJsonUnit());
    }
}
