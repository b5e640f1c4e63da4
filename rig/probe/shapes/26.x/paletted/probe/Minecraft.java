package paletted.probe;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import net.minecraft.util.BitStorage;
import net.minecraft.world.level.chunk.PalettedContainer;
import net.minecraft.world.level.chunk.PalettedContainerRO;
import net.minecraft.world.level.chunk.Strategy;

/**
 * The calls that are 26.x's own (the top-level {@code Strategy} holding the registry, a declared
 * bit count on disk, public bitsPerEntry, forEachInPalette and unpack, BitStorage.fill); the
 * calls every shape shares are in {@link MinecraftCommon}. The probe is compiled against the
 * class path at hand, so if a signature here does not match your jar, javac says which line;
 * fix it here. PROTOCOL.md ("The probe (JVM side)") lists each call.
 */
final class Minecraft extends MinecraftCommon {
    private Minecraft() {}

    /** A container kind: 26.x's strategy, which holds the registry. */
    static final class Kind {
        final Strategy<Entry> strategy;

        Kind(Strategy<Entry> strategy) {
            this.strategy = strategy;
        }
    }

    static Kind kind(boolean blockStates, Registry registry) {
        return new Kind(blockStates ? Strategy.createForBlockStates(registry) : Strategy.createForBiomes(registry));
    }

    static PalettedContainer<Entry> container(Entry initial, Kind kind) {
        return new PalettedContainer<>(initial, kind.strategy);
    }

    static int bits(PalettedContainer<Entry> c) {
        return c.bitsPerEntry();
    }

    static void palette(PalettedContainer<Entry> c, Consumer<Entry> out) {
        c.forEachInPalette(out);
    }

    static Packed pack(PalettedContainer<Entry> c, Kind kind) {
        PalettedContainerRO.PackedData<Entry> p = c.pack(kind.strategy);
        long[] data = p.storage().map(LongStream::toArray).orElse(null);
        return new Packed(p.paletteEntries(), data, p.bitsPerEntry());
    }

    /** The unpacked container, or the DataResult's error message as a String. */
    static Object unpack(Kind kind, List<Entry> palette, long[] data, int bits) {
        Optional<LongStream> storage = data == null ? Optional.empty() : Optional.of(LongStream.of(data));
        return resultOrMessage(
                PalettedContainer.unpack(kind.strategy, new PalettedContainerRO.PackedData<>(palette, storage, bits)));
    }

    static void fill(BitStorage s, int value) {
        s.fill(value);
    }
}
