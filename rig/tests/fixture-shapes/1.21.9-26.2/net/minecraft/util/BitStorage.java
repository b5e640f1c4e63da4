package net.minecraft.util;

/**
 * Fixture stand-in (not Minecraft), the 1.21.9 to 26.2 API shape: the shared BitStorage without
 * fill, which came in 26.3.
 */
public interface BitStorage {
    int getAndSet(int index, int value);

    void set(int index, int value);

    int get(int index);

    long[] getRaw();

    int getSize();

    int getBits();

    /** Copies every value, in index order, into out (which has at least getSize() slots). */
    void unpack(int[] out);
}
