package paletted.probe;

import com.mojang.serialization.DataResult;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import net.minecraft.core.IdMap;
import net.minecraft.util.BitStorage;
import net.minecraft.world.level.chunk.PalettedContainer;

/**
 * The calls of 1.18.2's API shape: as 1.19 to 1.21.x (nested {@code PalettedContainer.Strategy},
 * the registry given to the constructor, bits from write's first byte, the palette through the
 * private data field, no BitStorage.fill), but with no {@code PalettedContainerRO}: the disk
 * form is the private {@code write(IdMap, Strategy)} and {@code read(IdMap, Strategy,
 * DiscData)}, reached by reflection. Not the public {@code codec(...)}: it needs a Codec for
 * the entries and a DynamicOps (NBT or JSON) around them, whose own encoding and errors would
 * stand between the probe and the container; reflection reaches exactly the pair the codec
 * wraps. The shared calls are in {@link MinecraftCommon}.
 */
final class Minecraft extends MinecraftCommon {
    private Minecraft() {}

    static final String SHAPE = "1.18";

    /** A container kind: a nested strategy and the registry this version passes beside it. */
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

    /**
     * The private disk-form members, looked up on first use (so classes without them refuse
     * the op that needs them, not the whole probe).
     */
    private static final class Disc {
        final Method write = method(PalettedContainer.class, "write", SHAPE,
                IdMap.class, PalettedContainer.Strategy.class);
        final Class<?> type = write.getReturnType();
        final Method read = method(PalettedContainer.class, "read", SHAPE,
                IdMap.class, PalettedContainer.Strategy.class, type);
        final Method entries = method(type, "paletteEntries", SHAPE);
        final Method storage = method(type, "storage", SHAPE);
        final Constructor<?> make = constructor(type);

        private static Constructor<?> constructor(Class<?> type) {
            try {
                Constructor<?> k = type.getDeclaredConstructor(List.class, Optional.class);
                k.setAccessible(true);
                return k;
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw absent(type, "constructor (List, Optional) (" + e + ")", SHAPE);
            }
        }
    }

    private static Disc disc;

    private static Disc disc() {
        if (disc == null) {
            disc = new Disc();
        }
        return disc;
    }

    /** The saved form (private write(IdMap, Strategy)); this version saves no bit count: -1. */
    @SuppressWarnings("unchecked")
    static Packed pack(PalettedContainer<Entry> c, Kind kind) {
        Disc d = disc();
        Object saved = call(d.write, c, kind.registry, kind.strategy);
        List<Entry> entries = (List<Entry>) call(d.entries, saved);
        Optional<LongStream> storage = (Optional<LongStream>) call(d.storage, saved);
        return new Packed(entries, storage.map(LongStream::toArray).orElse(null), -1);
    }

    /**
     * The loaded container (private static read(IdMap, Strategy, DiscData)), or the
     * DataResult's error message as a String. No bits are given: none are saved.
     */
    static Object unpack(Kind kind, List<Entry> palette, long[] data, int bits) {
        Optional<LongStream> storage = data == null ? Optional.empty() : Optional.of(LongStream.of(data));
        Disc d = disc();
        Object saved;
        try {
            saved = d.make.newInstance(palette, storage);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make the saved form: " + e, e);
        }
        Object result = call(d.read, null, kind.registry, kind.strategy, saved);
        return result instanceof DataResult ? resultOrMessage((DataResult<?>) result) : result;
    }

    static void fill(BitStorage s, int value) {
        throw new ProbeRefusal("fill does not exist in the " + SHAPE + " API shape (BitStorage.fill is 26.3's)");
    }
}
