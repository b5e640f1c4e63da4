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
 * The calls of the 1.21.9 to 26.2 API shape: 26.3's (a top-level {@code Strategy} holding the
 * registry, a declared bit count on disk, public bitsPerEntry and unpack) but with no
 * BitStorage.fill (26.3's: the {@code fill} op is refused) and, before 26.2, no
 * forEachInPalette (the palette is read through the private data field, as the older shapes
 * read it, so 26.2 is read the same way). The shared calls are in {@link MinecraftCommon}.
 */
final class Minecraft extends MinecraftCommon {
    private Minecraft() {}

    static final String SHAPE = "1.21.9 to 26.2";

    /** A container kind: the top-level strategy, which holds the registry. */
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
        paletteByReflection(c, SHAPE, out);
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
        throw new ProbeRefusal("fill does not exist in the " + SHAPE + " API shape (BitStorage.fill is 26.3's)");
    }
}
