//! The move to a wider palette when a new value finds the palette full.

use super::{PalettedContainer, at};
use crate::Error;
use crate::palette::Palette;
use crate::storage::BitStorage;

impl PalettedContainer {
    /// The palette id of a value the palette lacks, growing the container
    /// when the palette is full.
    #[inline(never)]
    pub(super) fn id_for(&mut self, value: u32) -> Result<u32, Error> {
        match self.palette.id_for(value)? {
            Some(id) => Ok(id),
            None => self.grow(value),
        }
    }

    /// Moves to the configuration of one more bit: the values still stored
    /// are copied in index order (so stale entries drop out and the rest keep
    /// their first-appearance order), then `value` is added last. A hash
    /// palette has already taken `value` when it asks to grow, so a failed
    /// grow leaves it there, as in Minecraft.
    #[cold]
    fn grow(&mut self, value: u32) -> Result<u32, Error> {
        let config = self.strategy.configuration(self.config.bits + 1);
        let mut next = PalettedContainer::empty(self.strategy, config);
        #[cfg(feature = "plant")]
        crate::plant::resize_order(&mut next.palette, value);
        // A fresh palette of one more bit holds every value the old storage
        // can refer to (at most 2^bits), so adding them never fails.
        const ROOM: &str = "a grown palette holds every stored value";
        if let Palette::Single(Some(v)) = self.palette {
            let id = next.palette.id_for(v).ok().flatten().expect(ROOM);
            next.storage.fill(id);
        } else {
            // Old ids map to new ones; the first sight of an old id adds its
            // value to the new palette.
            let mut map: Vec<u32> = vec![u32::MAX; self.palette.len().clamp(1, 1 << 16)];
            let mut failure = None;
            let mut ids: Vec<u32> = Vec::with_capacity(self.storage.len());
            let (old_palette, next_palette, next_storage) =
                (&self.palette, &mut next.palette, &mut ids);
            self.storage.for_each(|i, old| {
                if failure.is_some() {
                    return;
                }
                let slot = map.get(old as usize).copied().unwrap_or(u32::MAX);
                let id = if slot != u32::MAX {
                    slot
                } else {
                    match old_palette.value_for(old) {
                        Ok(v) => {
                            let id = next_palette.id_for(v).ok().flatten().expect(ROOM);
                            if let Some(s) = map.get_mut(old as usize) {
                                *s = id;
                            }
                            id
                        }
                        Err(e) => {
                            failure = Some(at(e, i));
                            return;
                        }
                    }
                };
                next_storage.push(id);
            });
            if let Some(e) = failure {
                return Err(e);
            }
            #[cfg(feature = "plant")]
            crate::plant::stale_entry(&self.palette, &mut next.palette);
            next.storage = BitStorage::from_values(config.bits, ids.len(), &ids);
        }
        *self = next;
        Ok(self.palette.id_for(value).ok().flatten().expect(ROOM))
    }
}
