package net.minecraft.world.level.chunk;

import com.mojang.serialization.DataResult;
import net.minecraft.core.IdMap;

/**
 * Fixture stand-in (not Minecraft), the 1.19 to 1.21.x API shape: a nested Strategy with static
 * instances, the registry given to the constructor and to pack, unpack private, no public
 * bitsPerEntry or forEachInPalette. A thin layer over the shared {@link FixtureContainer}, at
 * the rules of 1.19 to 1.20.1 ({@link FixtureRules#V1_18_2}).
 */
public class PalettedContainer<T> extends FixtureContainer<T> implements PalettedContainerRO<T> {
    /** Receives each value and how many times it is stored. */
    @FunctionalInterface
    public interface CountConsumer<T> {
        void accept(T value, int count);
    }

    /** Which container: the block states of a section, or its biomes. */
    public abstract static class Strategy extends FixtureNestedStrategy {
        public static final Strategy SECTION_STATES = new Strategy(true) {};
        public static final Strategy SECTION_BIOMES = new Strategy(false) {};

        Strategy(boolean blocks) {
            super(blocks);
        }
    }

    public PalettedContainer(IdMap<T> registry, T value, Strategy strategy) {
        super(strategy.ladder(registry), FixtureRules.V1_18_2, value);
    }

    private PalettedContainer(FixtureLadder<T> ladder, Data<T> data) {
        super(ladder, FixtureRules.V1_18_2, data);
    }

    public void count(CountConsumer<T> consumer) {
        countInto(consumer::accept);
    }

    @Override
    public PalettedContainerRO.PackedData<T> pack(IdMap<T> registry, Strategy strategy) {
        Saved<T> saved = save();
        return new PalettedContainerRO.PackedData<>(saved.entries(), saved.storage());
    }

    private static <T> DataResult<PalettedContainer<T>> unpack(
            IdMap<T> registry, Strategy strategy, PalettedContainerRO.PackedData<T> packed) {
        FixtureLadder<T> ladder = strategy.ladder(registry);
        Saved<T> saved = new Saved<>(packed.paletteEntries(), packed.storage(), -1);
        return load(ladder, FixtureRules.V1_18_2, saved, data -> new PalettedContainer<>(ladder, data));
    }
}
