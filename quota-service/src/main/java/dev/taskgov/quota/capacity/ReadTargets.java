package dev.taskgov.quota.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far the topology channel must read for quota-service's view to hold every node record committed before the
 * start: per partition, the offset just after its last such record (its target).
 *
 * <p>The target is not the partition's end offset. With read_committed the end is the last stable offset, and a
 * transaction's commit marker, or records of an aborted transaction, may lie between the last record a reader is given
 * and that end: a reader's position steps over them, but a record handler never sees them, so a count of handled
 * records that waited for the end would wait for ever. A partition with no record before the end (empty, or every
 * record compacted or aborted) has nothing to read.
 */
final class ReadTargets {

    private final Map<Integer, Long> targets;

    private ReadTargets(Map<Integer, Long> targets) {
        this.targets = targets;
    }

    /**
     * @param lastRecordEnds per partition, the offset after the last record a read_committed reader was given below
     *                       the partition's end offset as of the start; a partition it was given none of is absent
     */
    static ReadTargets of(Map<Integer, Long> lastRecordEnds) {
        return new ReadTargets(new TreeMap<>(lastRecordEnds));
    }

    /** The offset a partition must be read up to; 0 when it has nothing to read. */
    long target(int partition) {
        return targets.getOrDefault(partition, 0L);
    }

    /**
     * Null when every partition was read up to its target (a partition read past it counts: it was given records
     * written after the start, or a record compaction put in the place of the last one); otherwise the partitions that
     * were not, with how far each was read and how far behind it is.
     *
     * @param readUpTo per partition, the offset after the last record handled; a partition none of whose records was
     *                 handled yet is absent
     */
    String behind(Map<Integer, Long> readUpTo) {
        List<String> behind = new ArrayList<>();
        targets.forEach((partition, target) -> {
            long read = readUpTo.getOrDefault(partition, 0L);
            if (read < target) {
                behind.add("partition " + partition + " read up to offset " + read + " of " + target + " ("
                        + (target - read) + " behind)");
            }
        });
        return behind.isEmpty() ? null : String.join(", ", behind);
    }
}
