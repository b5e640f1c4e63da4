package net.minecraft.world.level.chunk;

import com.mojang.serialization.DataResult;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import net.minecraft.core.IdMap;

/**
 * Fixture stand-in (not Minecraft), 1.18.2's API shape: as 1.19's (nested Strategy, the
 * registry given apart) but with no PalettedContainerRO; the saved form is the private
 * write(IdMap, Strategy) and read(IdMap, Strategy, DiscData). A thin layer over the shared
 * {@link FixtureContainer}, at 1.18.2's rules ({@link FixtureRules#V1_18_2}).
 */
public class PalettedContainer<T> extends FixtureContainer<T> {
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

    private record DiscData<T>(List<T> paletteEntries, Optional<LongStream> storage) {}

    public PalettedContainer(IdMap<T> registry, T value, Strategy strategy) {
        super(strategy.ladder(registry), FixtureRules.V1_18_2, value);
    }

    private PalettedContainer(FixtureLadder<T> ladder, Data<T> data) {
        super(ladder, FixtureRules.V1_18_2, data);
    }

    public void count(CountConsumer<T> consumer) {
        countInto(consumer::accept);
    }

    private DiscData<T> write(IdMap<T> registry, Strategy strategy) {
        Saved<T> saved = save();
        return new DiscData<>(saved.entries(), saved.storage());
    }

    private static <T> DataResult<PalettedContainer<T>> read(
            IdMap<T> registry, Strategy strategy, DiscData<T> disc) {
        FixtureLadder<T> ladder = strategy.ladder(registry);
        Saved<T> saved = new Saved<>(disc.paletteEntries(), disc.storage(), -1);
        return load(ladder, FixtureRules.V1_18_2, saved, data -> new PalettedContainer<>(ladder, data));
    }
}
