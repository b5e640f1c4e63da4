package paletted.probe;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import net.minecraft.core.IdMap;

/**
 * An IdMap of N canonical entries, ids 0..N-1; palettes compare entries by identity. Each
 * entry is made the first time its id is asked for and kept for the life of the JVM, so an id
 * has one canonical object however often it is asked for, and a registry of 2^26 ids costs only
 * the ids a case touches (up front it took seconds and gigabytes).
 */
final class Registry implements IdMap<Entry> {
    /** Up to this size the entries live in an array (filled as asked); past it, in a map. */
    private static final int ARRAY_LIMIT = 1 << 20;

    private final int size;
    private final Entry[] array;
    private final Map<Integer, Entry> map;

    Registry(int size) {
        this.size = size;
        this.array = size <= ARRAY_LIMIT ? new Entry[size] : null;
        this.map = size <= ARRAY_LIMIT ? null : new HashMap<>();
    }

    /** The one canonical entry for an id, or an exception naming the registry size. */
    Entry entry(int id) {
        if (id < 0 || id >= size) {
            throw new ProbeRefusal("value " + id + " is not below the registry size " + size);
        }
        return canonical(id);
    }

    /** The canonical entry of an id in range, made now if it was never asked for. */
    private Entry canonical(int id) {
        if (array != null) {
            Entry e = array[id];
            if (e == null) {
                e = new Entry(id);
                array[id] = e;
            }
            return e;
        }
        return map.computeIfAbsent(id, Entry::new);
    }

    /** The canonical entry of an id in range if it was ever made, else null. */
    private Entry made(int id) {
        return array != null ? array[id] : map.get(id);
    }

    @Override
    public int getId(Entry value) {
        return value != null && value.id >= 0 && value.id < size && made(value.id) == value
                ? value.id
                : -1;
    }

    @Override
    public Entry byId(int id) {
        return id >= 0 && id < size ? canonical(id) : null;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Iterator<Entry> iterator() {
        return new Iterator<Entry>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            public Entry next() {
                if (next >= size) {
                    throw new NoSuchElementException();
                }
                return canonical(next++);
            }
        };
    }
}
