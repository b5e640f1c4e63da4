//! The reading behind `rig world` (`paletted::anvil`: region sector table,
//! decompression, chunk NBT, sections; rig/src/world: the check through
//! unpack and pack) on an arbitrary file: the first byte picks a region file
//! (`.mca`, even) or a chunk's NBT (`.nbt`, odd), the rest is the file. Bad
//! input must come back as findings in the tally, never a panic; and through
//! the library alone (`paletted_fuzz::anvil_round_trip`) what reads writes
//! back as read.
#![no_main]

#[allow(dead_code, unused_imports)]
#[path = "../../rig/src/world/mod.rs"]
mod world;

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, file)) = data.split_first() else {
        return;
    };
    // Region coordinates in the name, as real files have, in a folder that
    // does not exist: an external (.mcc) chunk fails to open, quickly.
    let path = if which & 1 == 0 {
        Path::new("/nonexistent/paletted-fuzz/r.0.0.mca")
    } else {
        Path::new("/nonexistent/paletted-fuzz/c.nbt")
    };
    let mut w = world::World::new(&world::Options::default());
    let tally = w.bytes(path, file);
    assert_eq!(tally.bytes, file.len() as u64, "bytes read");
    paletted_fuzz::anvil_round_trip(path, file);
});
