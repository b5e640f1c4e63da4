//! The generator's named families: each a sweep of variants (the systematic
//! part) randomised by the seed. Case `i` of a run is variant `i % sweep`
//! with its own random stream, so `--count` beyond the sweep repeats the
//! variants with fresh randomness.

use std::cell::Cell;

use harness::case::Case;
use paletted::{Kind, PalettedContainer, Strategy, Version};

use crate::draft::{Draft, Pos};
use crate::rng::Rng;

mod flat;
mod ladder;
mod longs;
mod one_id;
mod positions_out;
mod random;
mod read;
mod roundtrip;
mod sizes;
mod stale;
mod storage;
mod storage_odd;
mod unpack;
mod unpack_dups;
mod wire;
mod wire_bits;
mod wire_count;
mod wire_cut;
mod wire_varint;

/// One family: its name, what it covers, its sweep and how to build case `i`.
pub struct Family {
    /// The name used on the command line and as the case name's first part.
    pub name: &'static str,
    /// What it covers, in a line.
    pub about: &'static str,
    /// Names of the variants of one sweep, in order.
    pub variants: fn() -> Vec<String>,
    /// Builds one variant (`variant` indexes `variants()`) from its stream.
    build: fn(variant: &str, rng: &mut Rng, draft_seed: u64, name: String) -> Draft,
}

/// Every family, in the order the default set runs them.
pub const FAMILIES: &[Family] = &[
    flat::FAMILY,
    ladder::FAMILY,
    stale::FAMILY,
    unpack::FAMILY,
    random::FAMILY,
    storage::FAMILY,
    read::FAMILY,
    roundtrip::FAMILY,
    wire_count::FAMILY,
    wire_varint::FAMILY,
    wire_bits::FAMILY,
    wire_cut::FAMILY,
    one_id::FAMILY,
    unpack_dups::FAMILY,
    positions_out::FAMILY,
    storage_odd::FAMILY,
    longs::FAMILY,
    sizes::FAMILY,
];

/// The families that mean something at every version: their inputs are
/// sets, unpacks, the container's own `write` bytes and hand-built wire
/// bytes in the version's form (with the long count before 1.21.5), and
/// storage ops (`fill` only where the version has it, 26.3). The one
/// family left out is about one version's rules (`longs`: the long count,
/// up to 1.21.4).
pub const EVERY_VERSION: &[&str] = &[
    "flat",
    "ladder",
    "stale",
    "unpack",
    "random",
    "storage",
    "read",
    "roundtrip",
    "wire-count",
    "wire-varint",
    "wire-bits",
    "wire-cut",
    "one-id",
    "unpack-dups",
    "positions-out",
    "storage-odd",
    "sizes",
];

thread_local! {
    /// The version the families build at while [`Family::drafts_at`] runs:
    /// [`full_registry`], [`Sim`] and [`written_by`] take it from here, so
    /// that no family's code names a version.
    static AT: Cell<Version> = const { Cell::new(Version::V26_3) };
}

/// The version the families build at now.
pub(crate) fn at_version() -> Version {
    AT.with(Cell::get)
}

/// The families CI measures coverage on, one sweep each: all but those that
/// go outside what the default set keeps to (positions inside the
/// container, no repeated unpack ids; `gen/tests/generator.rs` checks it):
/// `one-id`, `unpack-dups` and `positions-out`.
pub const DEFAULT: &[&str] = &[
    "flat",
    "ladder",
    "stale",
    "unpack",
    "random",
    "storage",
    "read",
    "roundtrip",
    "wire-count",
    "wire-varint",
    "wire-bits",
    "wire-cut",
    "storage-odd",
];

/// The family called `name`.
pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.name == name)
}

impl Family {
    /// Cases `0..count` of this family for `seed` (`count` defaults to one
    /// sweep) at its [`home`](Family::home) version. Same seed and count,
    /// same drafts, byte for byte.
    pub fn drafts(&self, seed: u64, count: Option<usize>) -> Vec<Draft> {
        self.drafts_at(seed, count, self.home())
            .expect("a family means something at its home version")
    }

    /// The version a family builds at unless told: 26.3, but 1.21.4 for
    /// `longs`, which is about a count 26.x does not send.
    pub fn home(&self) -> Version {
        if self.means_something_at(Version::V26_3) {
            Version::V26_3
        } else {
            Version::V1_21_4
        }
    }

    /// The drafts at the version [`AT`] holds.
    fn build_all(&self, seed: u64, count: Option<usize>) -> Vec<Draft> {
        let variants = (self.variants)();
        let count = count.unwrap_or(variants.len());
        (0..count)
            .map(|i| {
                let variant = &variants[i % variants.len()];
                let mut rng = Rng::for_case(seed, i as u64, self.name);
                let name = if i < variants.len() {
                    format!("{}/{}-s{}", self.name, variant, seed)
                } else {
                    format!("{}/{}-s{}-{}", self.name, variant, seed, i)
                };
                (self.build)(variant, &mut rng, seed, name)
            })
            .collect()
    }

    /// Cases `0..count` as harness cases (parsed from the drafts' JSON, which
    /// checks every op the family wrote).
    pub fn cases(&self, seed: u64, count: Option<usize>) -> Result<Vec<Case>, String> {
        self.drafts(seed, count)
            .into_iter()
            .map(Draft::into_case)
            .collect()
    }

    /// Whether the family means something at `version` (see [`EVERY_VERSION`]).
    pub fn means_something_at(&self, version: Version) -> bool {
        match self.name {
            "longs" => version.rules().long_count(),
            name => version == Version::V26_3 || EVERY_VERSION.contains(&name),
        }
    }

    /// [`Family::drafts`] at `version`: registries, rules and the wire bytes
    /// the cases read are that version's, and a case is named
    /// `v<VERSION>/<family>/...` unless the version is 26.3. `Err` if the
    /// family means nothing there.
    pub fn drafts_at(
        &self,
        seed: u64,
        count: Option<usize>,
        version: Version,
    ) -> Result<Vec<Draft>, String> {
        if !self.means_something_at(version) {
            return Err(format!(
                "family {} means nothing at {version} (it runs at {})",
                self.name,
                Version::ALL
                    .iter()
                    .filter(|&&v| self.means_something_at(v))
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let before = AT.with(|at| at.replace(version));
        let mut drafts = self.build_all(seed, count);
        AT.with(|at| at.set(before));
        if version != Version::V26_3 {
            for d in &mut drafts {
                d.at_version(version);
                d.name = format!("v{version}/{}", d.name);
            }
        }
        Ok(drafts)
    }

    /// [`Family::cases`] at `version` (see [`Family::drafts_at`]).
    pub fn cases_at(
        &self,
        seed: u64,
        count: Option<usize>,
        version: Version,
    ) -> Result<Vec<Case>, String> {
        self.drafts_at(seed, count, version)?
            .into_iter()
            .map(Draft::into_case)
            .collect()
    }
}

/// One sweep of every default family for `seed`: what CI measures coverage on.
pub fn default_cases(seed: u64) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for name in DEFAULT {
        let family = family(name).ok_or_else(|| format!("no family {name}"))?;
        out.extend(family.cases(seed, None)?);
    }
    Ok(out)
}

/// The golden layout's name of a strategy kind.
pub(crate) fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BlockStates => "block_states",
        Kind::Biomes => "biomes",
    }
}

/// The kind a variant name starts with (`block_states-...` or `biomes-...`).
pub(crate) fn kind_of(variant: &str) -> Kind {
    if variant.starts_with("biomes") {
        Kind::Biomes
    } else {
        Kind::BlockStates
    }
}

/// Minecraft's registry sizes at the version the families build at (26.3's
/// block states and biomes unless [`Family::drafts_at`] says otherwise).
pub(crate) fn full_registry(kind: Kind) -> u32 {
    let v = at_version();
    match kind {
        Kind::BlockStates => v.block_states(),
        Kind::Biomes => v.biomes(),
    }
}

/// Numbers of distinct values around which a palette changes kind or width,
/// with their neighbours: where bugs live.
pub(crate) fn boundaries(kind: Kind) -> &'static [usize] {
    match kind {
        Kind::BlockStates => &[
            1, 2, 3, 15, 16, 17, 18, 31, 32, 33, 64, 65, 128, 129, 255, 256, 257, 258, 300,
        ],
        Kind::Biomes => &[1, 2, 3, 4, 5, 7, 8, 9, 10, 16],
    }
}

/// A number of distinct values near a boundary, at most `registry`.
pub(crate) fn boundary_span(rng: &mut Rng, kind: Kind, registry: u32) -> usize {
    let b = rng.pick(boundaries(kind));
    b.min(registry as usize).max(1)
}

/// A coordinate on an axis of `len`, biased toward the faces (0 and len-1),
/// where index arithmetic goes wrong first.
pub(crate) fn coord(rng: &mut Rng, len: i32) -> i32 {
    match rng.below(10) {
        0 | 1 => 0,
        2 | 3 => len - 1,
        _ => rng.below(len as u64) as i32,
    }
}

/// A position, biased toward the faces (corners included) and toward the
/// indices where a value starts a new long at some width the container
/// takes: where index arithmetic goes wrong first.
pub(crate) fn pos(rng: &mut Rng, strategy: &Strategy) -> Pos {
    let n = strategy.axis_len();
    match rng.below(20) {
        0 => (0, 0, 0),
        1 => (n - 1, n - 1, n - 1),
        2..=4 => {
            let widths: &[u32] = match strategy.kind() {
                Kind::BlockStates => &[4, 5, 6, 7, 8, 9, 16],
                Kind::Biomes => &[1, 2, 3, 7],
            };
            let bits = rng.pick(widths);
            let i = long_edge(rng, bits, strategy.size());
            pos_of(strategy, i)
        }
        _ => (coord(rng, n), coord(rng, n), coord(rng, n)),
    }
}

/// An index on either side of a long boundary for `bits`-wide values in a
/// storage of `size`: the last value of one long or the first of the next.
pub(crate) fn long_edge(rng: &mut Rng, bits: u32, size: usize) -> usize {
    let per = (64 / bits.max(1)) as usize;
    let longs = size.div_ceil(per).max(1);
    let k = rng.below(longs as u64) as usize;
    let i = if rng.chance(1, 2) {
        k * per
    } else {
        (k * per).saturating_sub(1)
    };
    i.min(size - 1)
}

/// The position of index `i` (x fastest, then z, then y).
pub(crate) fn pos_of(strategy: &Strategy, i: usize) -> Pos {
    let n = strategy.axis_len() as usize;
    ((i % n) as i32, (i / (n * n)) as i32, ((i / n) % n) as i32)
}

/// A draft together with the Rust container that the same operations build,
/// so that a family can put that container's own `write` bytes or `pack` into
/// later operations (only inputs: results still come from Minecraft).
pub(crate) struct Sim {
    pub draft: Draft,
    pub shadow: PalettedContainer,
    pub strategy: Strategy,
}

impl Sim {
    pub fn new(
        family: &'static str,
        seed: u64,
        name: String,
        strategy: Strategy,
        initial: u32,
    ) -> Sim {
        // The version's rules, so that bytes taken from the shadow are its.
        let strategy = strategy.with_rules(at_version().rules());
        let mut draft = Draft::container(
            family,
            seed,
            name,
            kind_name(strategy.kind()),
            strategy.registry_size(),
            initial,
        );
        draft.at_version(at_version());
        Sim {
            draft,
            shadow: PalettedContainer::new(initial, strategy),
            strategy,
        }
    }

    pub fn set(&mut self, p: Pos, v: u32) {
        self.draft.set(p, v);
        let _ = self
            .shadow
            .try_set_at(self.strategy.index(p.0, p.1, p.2), v);
    }

    pub fn get_and_set(&mut self, p: Pos, v: u32) {
        self.draft.get_and_set(p, v);
        let _ = self
            .shadow
            .try_get_and_set_at(self.strategy.index(p.0, p.1, p.2), v);
    }

    /// `set` or `get_and_set`, one in three the latter.
    pub fn put(&mut self, rng: &mut Rng, p: Pos, v: u32) {
        if rng.chance(1, 3) {
            self.get_and_set(p, v)
        } else {
            self.set(p, v)
        }
    }

    /// Unpacks what the container packs now (a round trip); nothing if it
    /// cannot be packed.
    pub fn unpack_own_pack(&mut self) {
        if let Ok(packed) = self.shadow.try_pack() {
            self.draft
                .unpack(&packed.palette, packed.data.as_deref(), packed.bits);
            if let Ok(c) = PalettedContainer::unpack_lenient(self.strategy, packed) {
                self.shadow = c;
            }
        }
    }

    /// Unpacks `palette` and `data`; on success the shadow becomes the result.
    pub fn unpack(&mut self, palette: &[u32], data: Option<&[i64]>, bits: i32) {
        self.draft.unpack(palette, data, bits);
        let packed = paletted::Packed {
            palette: palette.to_vec(),
            data: data.map(<[i64]>::to_vec),
            bits,
        };
        if let Ok(c) = PalettedContainer::unpack_lenient(self.strategy, packed) {
            self.shadow = c;
        }
    }

    /// Reads `bytes` into the container.
    pub fn read(&mut self, bytes: &[u8]) {
        self.draft.read(bytes);
        let _ = self.shadow.read_lenient(bytes);
    }

    /// The observations a family makes between steps.
    pub fn observe(&mut self, ops: &[&str]) {
        for op in ops {
            self.draft.bare(op);
        }
    }
}

/// The bytes a container holding `n` distinct values (random ids, random
/// places; the first value is the initial one) writes, with that container.
pub(crate) fn written_by(
    rng: &mut Rng,
    strategy: Strategy,
    n: usize,
) -> (Vec<u8>, PalettedContainer) {
    let strategy = strategy.with_rules(at_version().rules());
    let ids = rng.distinct_ids(n, strategy.registry_size());
    let mut c = PalettedContainer::new(ids[0], strategy);
    let size = strategy.size();
    // Every value at least once, at random indices, then some repeats.
    let mut order: Vec<usize> = (0..size).collect();
    rng.shuffle(&mut order);
    for (k, &id) in ids.iter().enumerate().skip(1) {
        c.set_at(order[k % size], id);
    }
    for _ in 0..rng.below(size as u64 / 4) {
        let i = rng.below(size as u64) as usize;
        let v = ids[rng.below(n as u64) as usize];
        // Keep every value present: only overwrite the initial value's cells.
        if c.get_at(i) == ids[0] {
            c.set_at(i, v);
        }
    }
    let mut out = Vec::new();
    c.write(&mut out);
    (out, c)
}
