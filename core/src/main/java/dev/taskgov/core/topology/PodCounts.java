package dev.taskgov.core.topology;

import dev.taskgov.core.topology.DomainTree.Slot;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Pods per node collected during one descent (each node appears once), turned into the sorted
 * map of a {@link PodSetPlacement} with one sort of node ranks and a linear {@link TreeMap} build
 * instead of one tree insertion per node.
 */
final class PodCounts {

    private long[] entries = new long[16];
    private final Slot[] byRank;
    private int size;

    /** @param byRank every node of the topology, indexed by its rank (name order) */
    PodCounts(Slot[] byRank) {
        this.byRank = byRank;
    }

    void add(Slot node, int pods) {
        if (size == entries.length) entries = Arrays.copyOf(entries, size * 2);
        entries[size++] = ((long) node.rank << 32) | pods;
    }

    /** The counts as a sorted map view, valid until the next {@link #add}; meant to be copied at once. */
    SortedMap<String, Integer> sorted() {
        Arrays.sort(entries, 0, size);
        return new SortedView();
    }

    private final class SortedView extends AbstractMap<String, Integer> implements SortedMap<String, Integer> {

        @Override
        public Set<Entry<String, Integer>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, Integer>> iterator() {
                    return new Iterator<>() {
                        int i;

                        @Override
                        public boolean hasNext() {
                            return i < size;
                        }

                        @Override
                        public Entry<String, Integer> next() {
                            if (i >= size) throw new NoSuchElementException();
                            long e = entries[i++];
                            return new SimpleImmutableEntry<>(byRank[(int) (e >>> 32)].name, (int) e);
                        }
                    };
                }

                @Override
                public int size() {
                    return size;
                }
            };
        }

        @Override
        public Comparator<? super String> comparator() {
            return null;
        }

        @Override
        public String firstKey() {
            if (size == 0) throw new NoSuchElementException();
            return byRank[(int) (entries[0] >>> 32)].name;
        }

        @Override
        public String lastKey() {
            if (size == 0) throw new NoSuchElementException();
            return byRank[(int) (entries[size - 1] >>> 32)].name;
        }

        @Override
        public SortedMap<String, Integer> subMap(String fromKey, String toKey) {
            return new TreeMap<>(this).subMap(fromKey, toKey);
        }

        @Override
        public SortedMap<String, Integer> headMap(String toKey) {
            return new TreeMap<>(this).headMap(toKey);
        }

        @Override
        public SortedMap<String, Integer> tailMap(String fromKey) {
            return new TreeMap<>(this).tailMap(fromKey);
        }
    }
}
