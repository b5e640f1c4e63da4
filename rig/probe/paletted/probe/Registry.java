package paletted.probe;

import java.util.Arrays;
import java.util.Iterator;
import net.minecraft.core.IdMap;

/** An IdMap of N canonical entries, ids 0..N-1; palettes compare entries by identity. */
final class Registry implements IdMap<Entry> {
    private final Entry[] entries;

    Registry(int size) {
        entries = new Entry[size];
        for (int i = 0; i < size; i++) {
            entries[i] = new Entry(i);
        }
    }

    /** The one canonical entry for an id, or an exception naming the registry size. */
    Entry entry(int id) {
        if (id < 0 || id >= entries.length) {
            throw new ProbeRefusal("value " + id + " is not below the registry size " + entries.length);
        }
        return entries[id];
    }

    @Override
    public int getId(Entry value) {
        return value != null && value.id < entries.length && entries[value.id] == value ? value.id : -1;
    }

    @Override
    public Entry byId(int id) {
        return id >= 0 && id < entries.length ? entries[id] : null;
    }

    @Override
    public int size() {
        return entries.length;
    }

    @Override
    public Iterator<Entry> iterator() {
        return Arrays.asList(entries).iterator();
    }
}
