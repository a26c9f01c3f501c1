package dev.taskgov.core.topology;

/**
 * What a pod set asks of the network topology.
 *
 * @param mode  none, required or preferred
 * @param level the topology level label for required/preferred; {@code null} for none
 */
public record TopologyRequest(Mode mode, String level) {

    public enum Mode { NONE, REQUIRED, PREFERRED }

    public static final TopologyRequest NONE = new TopologyRequest(Mode.NONE, null);

    public static TopologyRequest required(String level) {
        return new TopologyRequest(Mode.REQUIRED, level);
    }

    public static TopologyRequest preferred(String level) {
        return new TopologyRequest(Mode.PREFERRED, level);
    }
}
