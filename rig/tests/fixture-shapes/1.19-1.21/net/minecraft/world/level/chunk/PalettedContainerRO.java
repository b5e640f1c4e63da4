package net.minecraft.world.level.chunk;

import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import net.minecraft.core.IdMap;

/** Fixture stand-in (not Minecraft), 1.19 to 1.21.x: the packed (on-disk) form, with no bits. */
public interface PalettedContainerRO<T> {
    record PackedData<T>(List<T> paletteEntries, Optional<LongStream> storage) {}

    PackedData<T> pack(IdMap<T> registry, PalettedContainer.Strategy strategy);
}
