package paletted.probe;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import net.minecraft.core.IdMap;
import net.minecraft.util.BitStorage;
import net.minecraft.world.level.chunk.PalettedContainer;
import net.minecraft.world.level.chunk.PalettedContainerRO;

/**
 * The calls of the 1.19 to 1.21.8 API shape: {@code PalettedContainer.Strategy} nested, with
 * static instances, the registry given to the constructor and to pack, a disk form with no bit
 * count, unpack private (reached by reflection), no public bitsPerEntry or forEachInPalette (the
 * bits are the first byte write puts out; the palette is read through the private data field),
 * and no BitStorage.fill (refused). The shared calls are in {@link MinecraftCommon}.
 */
final class Minecraft extends MinecraftCommon {
    private Minecraft() {}

    static final String SHAPE = "1.19 to 1.21.8";

    /** A container kind: a nested strategy and the registry these versions pass beside it. */
    static final class Kind {
        final PalettedContainer.Strategy strategy;
        final Registry registry;

        Kind(PalettedContainer.Strategy strategy, Registry registry) {
            this.strategy = strategy;
            this.registry = registry;
        }
    }

    static Kind kind(boolean blockStates, Registry registry) {
        return new Kind(
                blockStates ? PalettedContainer.Strategy.SECTION_STATES : PalettedContainer.Strategy.SECTION_BIOMES,
                registry);
    }

    static PalettedContainer<Entry> container(Entry initial, Kind kind) {
        return new PalettedContainer<>(kind.registry, initial, kind.strategy);
    }

    static int bits(PalettedContainer<Entry> c) {
        return bitsFromWrite(c);
    }

    static void palette(PalettedContainer<Entry> c, Consumer<Entry> out) {
        paletteByReflection(c, SHAPE, out);
    }

    /** The packed form; these versions save no bit count, so bits is -1. */
    static Packed pack(PalettedContainer<Entry> c, Kind kind) {
        PalettedContainerRO.PackedData<Entry> p = c.pack(kind.registry, kind.strategy);
        long[] data = p.storage().map(LongStream::toArray).orElse(null);
        return new Packed(p.paletteEntries(), data, -1);
    }

    private static Method unpack;

    /**
     * The private static unpack(IdMap, Strategy, PackedData), looked up on first use (so classes
     * without it refuse the op that needs it, not the whole probe).
     */
    private static Method unpackMethod() {
        if (unpack == null) {
            unpack = method(PalettedContainer.class, "unpack", SHAPE,
                    IdMap.class, PalettedContainer.Strategy.class, PalettedContainerRO.PackedData.class);
        }
        return unpack;
    }

    /**
     * The unpacked container, or the DataResult's error message as a String. The bits are not
     * given: these versions' saved form declares none.
     */
    static Object unpack(Kind kind, List<Entry> palette, long[] data, int bits) {
        Optional<LongStream> storage = data == null ? Optional.empty() : Optional.of(LongStream.of(data));
        Object result = call(unpackMethod(), null, kind.registry, kind.strategy,
                new PalettedContainerRO.PackedData<>(palette, storage));
        return resultOrMessage((com.mojang.serialization.DataResult<?>) result);
    }

    static void fill(BitStorage s, int value) {
        throw new ProbeRefusal("fill does not exist in the " + SHAPE + " API shape (BitStorage.fill is 26.3's)");
    }
}
