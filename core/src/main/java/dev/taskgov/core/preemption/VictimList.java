package dev.taskgov.core.preemption;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A plan's victims whose messages are written when the list is first read: after each admission with evictions every
 * team's head that needs preemption is planned for again, and only the plan of the head chosen is read. Every figure
 * the messages name was read when the plan was found, so they say the same whenever they are written. Unmodifiable, as
 * {@link List#copyOf}.
 */
final class VictimList extends AbstractList<Victim> {
    private final List<Supplier<Victim>> suppliers;
    private List<Victim> written;

    VictimList(List<Supplier<Victim>> suppliers) {
        this.suppliers = List.copyOf(suppliers);
    }

    private List<Victim> written() {
        List<Victim> w = written;
        if (w == null) {
            List<Victim> out = new ArrayList<>(suppliers.size());
            for (Supplier<Victim> s : suppliers) out.add(s.get());
            w = written = List.copyOf(out); // an immutable list: safe to publish without a lock
        }
        return w;
    }

    @Override
    public Victim get(int index) {
        return written().get(index);
    }

    @Override
    public int size() {
        return suppliers.size();
    }
}
