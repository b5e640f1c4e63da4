package paletted.probe;

import com.mojang.serialization.DataResult;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import net.minecraft.network.FriendlyByteBuf;
import net.minecraft.util.BitStorage;
import net.minecraft.util.SimpleBitStorage;
import net.minecraft.util.ZeroBitStorage;
import net.minecraft.world.level.chunk.PalettedContainer;
import net.minecraft.world.level.chunk.PalettedContainerRO;
import net.minecraft.world.level.chunk.Strategy;

/**
 * Every call the probe makes into Minecraft's API, and nothing else. The probe is compiled
 * against the class path at hand, so if a signature here does not match your jar, javac says
 * which line; fix it here, in one place. PROTOCOL.md ("The probe (JVM side)") lists each call.
 */
final class Minecraft {
    private Minecraft() {}

    /** A container's packed form, as plain data. */
    static final class Packed {
        final List<Entry> palette;
        final long[] data;
        final int bits;

        Packed(List<Entry> palette, long[] data, int bits) {
            this.palette = palette;
            this.data = data;
            this.bits = bits;
        }
    }

    // ---- Strategy and containers -------------------------------------------------------------

    static Strategy<Entry> strategy(boolean blockStates, Registry registry) {
        return blockStates ? Strategy.createForBlockStates(registry) : Strategy.createForBiomes(registry);
    }

    static PalettedContainer<Entry> container(Entry initial, Strategy<Entry> strategy) {
        return new PalettedContainer<>(initial, strategy);
    }

    static Entry get(PalettedContainer<Entry> c, int x, int y, int z) {
        return c.get(x, y, z);
    }

    static void set(PalettedContainer<Entry> c, int x, int y, int z, Entry value) {
        c.set(x, y, z, value);
    }

    static Entry getAndSet(PalettedContainer<Entry> c, int x, int y, int z, Entry value) {
        return c.getAndSet(x, y, z, value);
    }

    static int bits(PalettedContainer<Entry> c) {
        return c.bitsPerEntry();
    }

    static void palette(PalettedContainer<Entry> c, Consumer<Entry> out) {
        c.forEachInPalette(out);
    }

    interface CountSink {
        void accept(Entry value, int count);
    }

    static void counts(PalettedContainer<Entry> c, CountSink out) {
        c.count(out::accept);
    }

    static void getAll(PalettedContainer<Entry> c, Consumer<Entry> out) {
        c.getAll(out);
    }

    static boolean maybeHas(PalettedContainer<Entry> c, Predicate<Entry> predicate) {
        return c.maybeHas(predicate);
    }

    /** Every byte write(buf) puts into a fresh buffer. */
    static byte[] write(PalettedContainer<Entry> c) {
        FriendlyByteBuf buf = new FriendlyByteBuf(Unpooled.buffer());
        c.write(buf);
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        return out;
    }

    /** write(buf) into a fresh buffer, as a chunk packet would; returns the bytes written. */
    static int writtenLength(PalettedContainer<Entry> c) {
        FriendlyByteBuf buf = new FriendlyByteBuf(Unpooled.buffer());
        c.write(buf);
        return buf.writerIndex();
    }

    static int serializedSize(PalettedContainer<Entry> c) {
        return c.getSerializedSize();
    }

    /** read(buf) from a buffer holding bytes; returns how many bytes it consumed. */
    static int read(PalettedContainer<Entry> c, byte[] bytes) {
        FriendlyByteBuf buf = new FriendlyByteBuf(Unpooled.wrappedBuffer(bytes));
        c.read(buf);
        return buf.readerIndex();
    }

    static Packed pack(PalettedContainer<Entry> c, Strategy<Entry> strategy) {
        PalettedContainerRO.PackedData<Entry> p = c.pack(strategy);
        long[] data = p.storage().map(LongStream::toArray).orElse(null);
        return new Packed(p.paletteEntries(), data, p.bitsPerEntry());
    }

    /** The unpacked container, or the DataResult's error message as a String. */
    static Object unpack(Strategy<Entry> strategy, List<Entry> palette, long[] data, int bits) {
        Optional<LongStream> storage = data == null ? Optional.empty() : Optional.of(LongStream.of(data));
        DataResult<PalettedContainer<Entry>> result =
                PalettedContainer.unpack(strategy, new PalettedContainerRO.PackedData<>(palette, storage, bits));
        Optional<PalettedContainer<Entry>> ok = result.result();
        if (ok.isPresent()) {
            return ok.get();
        }
        return result.error().get().message();
    }

    // ---- Bit storage -------------------------------------------------------------------------

    static BitStorage storage(int bits, int size) {
        return bits == 0 ? new ZeroBitStorage(size) : new SimpleBitStorage(bits, size);
    }

    static BitStorage load(int bits, int size, long[] longs) {
        return bits == 0 ? new ZeroBitStorage(size) : new SimpleBitStorage(bits, size, longs);
    }

    static int get(BitStorage s, int index) {
        return s.get(index);
    }

    static void set(BitStorage s, int index, int value) {
        s.set(index, value);
    }

    static int getAndSet(BitStorage s, int index, int value) {
        return s.getAndSet(index, value);
    }

    static void fill(BitStorage s, int value) {
        s.fill(value);
    }

    static int[] values(BitStorage s) {
        int[] out = new int[s.getSize()];
        s.unpack(out);
        return out;
    }

    static long[] longs(BitStorage s) {
        return s.getRaw();
    }

    static int bits(BitStorage s) {
        return s.getBits();
    }

    static int size(BitStorage s) {
        return s.getSize();
    }
}
