package dev.taskgov.core.events;

import dev.taskgov.core.model.Violation;

import java.util.List;

/**
 * The translator of a node record (a value of {@code taskgov.topology} under {@code <ClusterArn>#<node name>}):
 * the JSON into a {@link NodeRecord} that keeps {@link NodeRecord#violations()}'s rules and whose allocatable
 * converts to stored units, or why it is refused. Reading it back from the topic, every service gets the same node
 * or the same refusal.
 */
public final class NodeTranslator {

    private NodeTranslator() {
    }

    /** Translates a record value (UTF-8 JSON). */
    public static Translation<NodeRecord> translate(byte[] json) {
        Translation<NodeRecord> read = EventCodec.translate(json, NodeRecord.class);
        if (!(read instanceof Translation.Translated<NodeRecord> t)) return read;
        NodeRecord n = t.value();
        List<Violation> violations = n.violations();
        if (!violations.isEmpty()) return Translation.invalid(null, violations);
        try {
            if (n.allocatable() != null) n.allocatable().toResources();
        } catch (IllegalArgumentException e) {
            return Translation.invalid("allocatable", e.getMessage());
        }
        return read;
    }
}
