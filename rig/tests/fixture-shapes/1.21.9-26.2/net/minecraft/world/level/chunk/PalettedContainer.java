package net.minecraft.world.level.chunk;

import com.mojang.serialization.DataResult;

/**
 * Fixture stand-in (not Minecraft), the 1.21.9 to 26.2 API shape: 26.3's layer (a top-level
 * {@link Strategy} holding the registry, a declared bit count on disk) without forEachInPalette,
 * which came in 26.2. A thin layer over the shared {@link FixtureContainer}, at 26.x's rules,
 * which are 1.21.9's too for everything a container does. Planted differences: see
 * {@link Plants}.
 */
public class PalettedContainer<T> extends FixtureContainer<T> implements PalettedContainerRO<T> {
    /** Receives each value and how many times it is stored. */
    @FunctionalInterface
    public interface CountConsumer<T> {
        void accept(T value, int count);
    }

    public PalettedContainer(T value, Strategy<T> strategy) {
        super(strategy.ladder, FixtureRules.V26, value);
    }

    private PalettedContainer(Strategy<T> strategy, Data<T> data) {
        super(strategy.ladder, FixtureRules.V26, data);
    }

    public int bitsPerEntry() {
        return bits();
    }

    public void count(CountConsumer<T> consumer) {
        countInto(consumer::accept);
    }

    public PalettedContainerRO.PackedData<T> pack(Strategy<T> strategy) {
        Saved<T> saved = save();
        return new PalettedContainerRO.PackedData<>(saved.entries(), saved.storage(), saved.bits());
    }

    public static <T> DataResult<PalettedContainer<T>> unpack(
            Strategy<T> strategy, PalettedContainerRO.PackedData<T> packed) {
        Saved<T> saved = new Saved<>(packed.paletteEntries(), packed.storage(), packed.bitsPerEntry());
        return load(strategy.ladder, FixtureRules.V26, saved, data -> new PalettedContainer<>(strategy, data));
    }
}
