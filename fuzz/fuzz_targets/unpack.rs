//! Strict `PalettedContainer::unpack` on an arbitrary saved container
//! (strategy, palette, longs and declared bits from the input): an `Err` or a
//! container that passes every check of `check_valid`, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paletted::PalettedContainer;
use paletted_fuzz::{check_valid, packed, strategy, Tape};

fuzz_target!(|data: &[u8]| {
    let mut t = Tape::new(data);
    let strategy = strategy(&mut t);
    let saved = packed(&mut t);
    if let Ok(c) = PalettedContainer::unpack(strategy, saved) {
        check_valid(&c);
    }
});
