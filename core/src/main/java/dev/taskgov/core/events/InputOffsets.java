package dev.taskgov.core.events;

/**
 * Where a decider's exactly-once loop resumes one input partition: a record of the decider's own changelog
 * ({@code taskgov.admission.changelog}, {@code taskgov.preemption.changelog}), written in the transaction that
 * consumed the input up to {@code nextOffset}, so the decisions and the position commit together. Keyed by
 * {@link #key()}: compaction keeps the latest per input partition. The key cannot be a workload id (those have no
 * colon, {@code WorkloadIds}) nor another changelog record's, so every reader of a changelog tells these apart by
 * the key alone ({@link #isKey}) and skips them; only the loop reads them.
 *
 * @param topic      the input topic
 * @param partition  its partition
 * @param nextOffset the offset of the next record to process (the last one consumed plus one)
 */
public record InputOffsets(String topic, int partition, long nextOffset) {

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.decider.input-offsets";
    /** What every such record's key starts with. */
    public static final String KEY_PREFIX = "input-offsets:";

    public InputOffsets {
        if (topic == null || topic.isBlank()) throw new IllegalArgumentException("topic must be named");
        if (partition < 0) throw new IllegalArgumentException("partition must be 0 or more, not " + partition);
        if (nextOffset < 0) throw new IllegalArgumentException("nextOffset must be 0 or more, not " + nextOffset);
    }

    /** The changelog key: one per input partition. */
    public String key() {
        return KEY_PREFIX + topic + ":" + partition;
    }

    /** Whether a changelog record with this key holds input offsets (null: no). */
    public static boolean isKey(String key) {
        return key != null && key.startsWith(KEY_PREFIX);
    }
}
