package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.ValidationException;

import java.util.Optional;

/**
 * The optional top-level {@code ClusterArn} member of a quota API body (a {@code CreateComputeQuota} or
 * {@code CreateClusterSchedulerConfig} body), read on its own: a caller that replays one cluster learns which one a
 * proposal names before translating it against that cluster. The rest of the body is its translator's to judge.
 */
public final class ClusterArnMember {

    /** Only the member; the codec skips the body's other members. */
    record Peek(@JsonProperty("ClusterArn") String clusterArn) {
    }

    private ClusterArnMember() {
    }

    /**
     * The cluster the body names; empty when it names none, or is no JSON object at all (its translator names that).
     *
     * @throws ValidationException on {@code ClusterArn} when the member is there but not text
     */
    public static Optional<String> of(byte[] json) {
        if (json == null) return Optional.empty();
        Peek peek;
        try {
            peek = EventCodec.read(json, Peek.class);
        } catch (EventCodec.EventFormatException e) {
            if (e.path().equals("$")) return Optional.empty();
            throw new ValidationException("ClusterArn", ClusterArn.RULE + ", was not a JSON string");
        }
        return Optional.ofNullable(peek == null ? null : peek.clusterArn());
    }
}
