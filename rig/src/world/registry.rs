//! Registry ids for palette names.
//!
//! The rig has no copy of Minecraft's registries, so ids are handed out in
//! the order names are first met during a run (palette order, file by file):
//! one block state or biome keeps one id in every section. A round trip
//! through `unpack` and `pack` depends on which entries are equal, not on
//! the numbers, so any such numbering checks the same thing.

use std::collections::HashMap;

use paletted::Kind;

/// 26.3's block-state registry size.
pub const BLOCK_STATES_26_3: u32 = 35_723;
/// 26.3's biome registry size.
pub const BIOMES_26_3: u32 = 65;

/// The registry size a section of `kind` gets: 26.3's, which is at least
/// every 1.18+ vanilla registry's size; if a (modded) world names more
/// entries than that, enough for every id handed out so far.
pub fn registry_size(kind: Kind, ids_handed_out: usize) -> u32 {
    let known = match kind {
        Kind::BlockStates => BLOCK_STATES_26_3,
        Kind::Biomes => BIOMES_26_3,
    };
    known.max(u32::try_from(ids_handed_out).unwrap_or(u32::MAX))
}

/// Names to ids, first come first numbered.
#[derive(Default)]
pub struct Names {
    ids: HashMap<String, u32>,
    names: Vec<String>,
}

impl Names {
    /// The id of `name`, handing out the next one if it is new.
    pub fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.ids.insert(name.to_owned(), id);
        self.names.push(name.to_owned());
        id
    }

    /// The name that got `id`.
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(String::as_str)
    }

    /// Ids handed out.
    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// The block-state and biome numberings of one run.
#[derive(Default)]
pub struct Registries {
    /// Block states, as `name[key=value,...]`.
    pub blocks: Names,
    /// Biomes.
    pub biomes: Names,
}

impl Registries {
    /// The numbering for `kind`.
    pub fn names(&self, kind: Kind) -> &Names {
        match kind {
            Kind::BlockStates => &self.blocks,
            Kind::Biomes => &self.biomes,
        }
    }

    /// The registry size a section of `kind` gets now.
    pub fn size(&self, kind: Kind) -> u32 {
        registry_size(kind, self.names(kind).len())
    }
}
