//! Strict `PalettedContainer::read` of arbitrary wire bytes into a container
//! of one value (strategy and value from the input): on `Err` the container
//! is unchanged; on success it passes `check_valid`. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paletted::PalettedContainer;
use paletted_fuzz::{check_valid, same, strategy, Tape};

fuzz_target!(|data: &[u8]| {
    let mut t = Tape::new(data);
    let strategy = strategy(&mut t);
    let initial = t.u32() % strategy.registry_size();
    let bytes = t.rest();
    let mut c = PalettedContainer::new(initial, strategy);
    let before = c.clone();
    match c.read(bytes) {
        Ok(n) => {
            assert!(
                n <= bytes.len(),
                "read consumed {n} of {} bytes",
                bytes.len()
            );
            check_valid(&c);
        }
        Err(_) => assert!(same(&c, &before), "a failed read changed the container"),
    }
});
