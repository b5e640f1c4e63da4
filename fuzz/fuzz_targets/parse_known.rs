//! The known-divergences parser (`Known::parse`, TOML) on arbitrary text: an
//! error or a value, never a panic.
#![no_main]

use std::path::Path;

use harness::known::Known;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(k) = Known::parse(text, Path::new("fuzz/known-divergences.toml")) {
        for e in k.entries() {
            assert!(k.reason(&e.case).is_some(), "listed case has no reason");
        }
    }
});
