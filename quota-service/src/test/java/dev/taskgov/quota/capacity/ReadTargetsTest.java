package dev.taskgov.quota.capacity;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the topology channel has read far enough: what it handled against the offset after the last record each
 * partition had at the start, not against the end offset (a commit marker or an aborted transaction after the last
 * record puts the end further, and no handled record ever reaches it; the broker's real markers are in
 * {@code TopologyCatchUpTest}). Maps are written {@code partition:offset ...}; an empty cell is an empty map, an empty
 * answer means caught up.
 */
class ReadTargetsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an empty topic (no partition)                                    |           |           |
            a partition with no record (empty, all compacted or aborted)     |           | 1:5       |
            nothing handled yet                                              | 0:40      |           | partition 0 read up to offset 0 of 40 (40 behind)
            one record short                                                 | 0:40      | 0:39      | partition 0 read up to offset 39 of 40 (1 behind)
            handled through the last record, whatever markers follow it      | 0:40      | 0:40      |
            read past it (records since, or one compaction kept in its place) | 0:40     | 0:57      |
            only the partition behind is named                               | 0:40 1:20 2:9 | 0:40 1:3 2:9 | partition 1 read up to offset 3 of 20 (17 behind)
            each partition behind is named, in partition order               | 1:20 0:40 | 1:3       | partition 0 read up to offset 0 of 40 (40 behind), partition 1 read up to offset 3 of 20 (17 behind)
            a partition read past its target does not make up for another   | 0:40 1:20 | 0:90 1:19 | partition 1 read up to offset 19 of 20 (1 behind)
            a partition empty at the start that got records since            | 0:4       | 0:4 2:1   |
            """)
    void behind(String scenario, String lastRecordEnds, String handled, String expected) {
        ReadTargets targets = ReadTargets.of(offsets(lastRecordEnds));
        assertThat(targets.behind(offsets(handled))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            the offset after the last record                 | 0:40 | 0 | 40
            a partition without records has nothing to read  | 0:40 | 1 | 0
            """)
    void target(String scenario, String lastRecordEnds, int partition, long expected) {
        assertThat(ReadTargets.of(offsets(lastRecordEnds)).target(partition)).isEqualTo(expected);
    }

    private static Map<Integer, Long> offsets(String cell) {
        Map<Integer, Long> out = new TreeMap<>();
        if (cell == null) return out;
        for (String entry : cell.trim().split("\\s+")) {
            String[] parts = entry.split(":");
            out.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
        }
        return out;
    }
}
