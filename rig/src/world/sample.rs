//! `--sample N`: N containers spread over every palette size class.
//!
//! A real world is mostly one-entry and small palettes; a uniform sample
//! would miss the rare wide ones. So containers are grouped by class (kind
//! and on-disk bits: one entry, 2-16, 17-32 ... for block states; 1, 2, 3-4,
//! 5-8, more for biomes), each class keeps a uniform reservoir, and the
//! sample takes from the classes in turn. Deterministic: the same input
//! gives the same sample.

use std::collections::BTreeMap;

use paletted::{Kind, Packed};

use super::report::Place;

/// A container picked for export.
#[derive(Clone, Debug)]
pub struct Picked {
    /// Where it came from.
    pub place: Place,
    /// Its kind.
    pub kind: Kind,
    /// The registry size it was checked with.
    pub registry: u32,
    /// Its palette (run ids) and longs.
    pub packed: Packed,
    seq: u64,
}

impl Picked {
    /// A container to export, outside any sample.
    pub fn new(place: Place, kind: Kind, registry: u32, packed: Packed) -> Picked {
        Picked {
            place,
            kind,
            registry,
            packed,
            seq: 0,
        }
    }
}

/// A palette size class: the kind, then the bits a value takes on disk.
pub type Class = (u8, u32);

/// Reservoirs, one a class.
pub struct Sampler {
    want: usize,
    seen: BTreeMap<Class, u64>,
    kept: BTreeMap<Class, Vec<Picked>>,
    state: u64,
    seq: u64,
}

impl Sampler {
    /// A sampler for `want` containers.
    pub fn new(want: usize) -> Sampler {
        Sampler {
            want,
            seen: BTreeMap::new(),
            kept: BTreeMap::new(),
            state: 0x9e37_79b9_7f4a_7c15,
            seq: 0,
        }
    }

    // splitmix64: small, fixed, good enough to spread a reservoir.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Offers a container of class `class`. The packed form is built only if kept.
    pub fn offer(
        &mut self,
        class: Class,
        place: &Place,
        kind: Kind,
        registry: u32,
        packed: impl FnOnce() -> Packed,
    ) {
        if self.want == 0 {
            return;
        }
        self.seq += 1;
        let n = {
            let n = self.seen.entry(class).or_insert(0);
            *n += 1;
            *n
        };
        let slot = if n as usize <= self.want {
            None
        } else {
            let r = self.next() % n;
            if r as usize >= self.want {
                return;
            }
            Some(r as usize)
        };
        let picked = Picked {
            place: place.clone(),
            kind,
            registry,
            packed: packed(),
            seq: self.seq,
        };
        let kept = self.kept.entry(class).or_default();
        match slot {
            None => kept.push(picked),
            Some(i) => kept[i] = picked,
        }
    }

    /// The sample: up to `want` containers, taken from each class in turn,
    /// each class in the order its containers were met.
    pub fn finish(self) -> Vec<Picked> {
        let mut classes: Vec<Vec<Picked>> = self
            .kept
            .into_values()
            .map(|mut v| {
                v.sort_by_key(|p| std::cmp::Reverse(p.seq));
                v
            })
            .collect();
        let mut out = Vec::with_capacity(self.want);
        while out.len() < self.want && classes.iter().any(|c| !c.is_empty()) {
            for c in &mut classes {
                if out.len() == self.want {
                    break;
                }
                if let Some(p) = c.pop() {
                    out.push(p);
                }
            }
        }
        out.sort_by_key(|p| p.seq);
        out
    }
}

/// The class of a container of `kind` whose values take `disk_bits` bits on disk.
pub fn class(kind: Kind, disk_bits: u32) -> Class {
    (
        match kind {
            Kind::BlockStates => 0,
            Kind::Biomes => 1,
        },
        disk_bits,
    )
}
