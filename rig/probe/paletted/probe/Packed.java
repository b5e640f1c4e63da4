package paletted.probe;

import java.util.List;

/** A container's packed (disk) form, as plain data; bits is -1 where the shape saves none. */
final class Packed {
    final List<Entry> palette;
    final long[] data;
    final int bits;

    Packed(List<Entry> palette, long[] data, int bits) {
        this.palette = palette;
        this.data = data;
        this.bits = bits;
    }
}
