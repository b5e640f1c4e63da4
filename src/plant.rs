//! Planted bugs, for the conformance rig's test of its own loop
//! (`rig/tests/plant.rs`): with the `plant` feature, which only the rig's
//! tests turn on, `PALETTED_PLANT=<name>` (read once) breaks one behaviour
//! of the containers, so the test can show that `rig check` and `rig repro`
//! find it and name its op. Without the variable nothing changes; without
//! the feature this module is not compiled.

use std::sync::OnceLock;

use crate::palette::Palette;

/// One behaviour to break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plant {
    /// A resize adds the new value before the stored ones.
    ResizeOrder,
    /// A resize keeps the old palette's stale entries (those no index
    /// refers to), which Minecraft drops.
    StaleEntry,
    /// A wire read no longer checks palette ids against the registry.
    WireCheck,
    /// The width for a palette of `n` entries is that of `n + 1`: one bit
    /// more where `n` is a power of two.
    StorageWidth,
}

const NAMES: [(&str, Plant); 4] = [
    ("resize-order", Plant::ResizeOrder),
    ("stale-entry", Plant::StaleEntry),
    ("wire-check", Plant::WireCheck),
    ("storage-width", Plant::StorageWidth),
];

/// The plant `PALETTED_PLANT` names, if any. An unknown name plants
/// nothing, and says so once.
fn planted() -> Option<Plant> {
    static PLANTED: OnceLock<Option<Plant>> = OnceLock::new();
    *PLANTED.get_or_init(|| {
        let name = std::env::var("PALETTED_PLANT").ok()?;
        let plant = NAMES.iter().find(|(n, _)| *n == name).map(|&(_, p)| p);
        if plant.is_none() && !name.is_empty() {
            let names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
            eprintln!(
                "PALETTED_PLANT={name}: no such plant (one of {}); nothing planted",
                names.join(", ")
            );
        }
        plant
    })
}

fn on(plant: Plant) -> bool {
    planted() == Some(plant)
}

/// `resize-order`: the grown palette takes `value` before any stored value.
pub(crate) fn resize_order(next: &mut Palette, value: u32) {
    if on(Plant::ResizeOrder) {
        let _ = next.id_for(value);
    }
}

/// `stale-entry`: after the stored values, the grown palette takes every
/// entry of the old one it lacks.
pub(crate) fn stale_entry(old: &Palette, next: &mut Palette) {
    if on(Plant::StaleEntry) {
        for v in old.entries().unwrap_or_default() {
            let _ = next.id_for(v);
        }
    }
}

/// `wire-check`: the registry size a wire read checks palette ids against.
pub(crate) fn wire_registry(registry: u32) -> u32 {
    if on(Plant::WireCheck) {
        u32::MAX
    } else {
        registry
    }
}

/// `storage-width`: the palette length a width is computed for.
pub(crate) fn palette_len(len: usize) -> usize {
    if on(Plant::StorageWidth) {
        len + 1
    } else {
        len
    }
}
