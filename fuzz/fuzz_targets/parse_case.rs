//! The case and recorded-case parsers (`Case::parse`, `Recorded::parse`) on
//! arbitrary text: an error or a value, never a panic; what parses writes
//! back to text that parses to the same value.
#![no_main]

use std::path::Path;

use harness::case::Case;
use harness::recorded::Recorded;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz/input.json");
    if let Ok(case) = Case::parse(text, path) {
        let again = Case::parse(&case.to_text(), path).expect("a written case parses");
        assert_eq!(again, case, "a case changed through to_text");
    }
    if let Ok(recorded) = Recorded::parse(text, path) {
        let again = Recorded::parse(&recorded.to_text(), path).expect("a written recording parses");
        assert_eq!(again, recorded, "a recording changed through to_text");
    }
});
