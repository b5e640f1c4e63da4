//! The snapshot parser (`Snapshot::parse`, insta's YAML header and one result
//! a line) on arbitrary text: an error or a value, never a panic; what
//! parses writes back (`to_text`) to text that parses to the same
//! provenance and as many results. (Results are compared by count only:
//! serde_json without `float_roundtrip` may print a float beyond f64's
//! exact integers as another float; recordings hold integers.)
#![no_main]

use std::path::Path;

use harness::snapshot::Snapshot;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz/input.snap");
    if let Ok(s) = Snapshot::parse(text, path) {
        let _ = s.provenance.refusal();
        let again =
            Snapshot::parse(&s.to_text("fuzz/input"), path).expect("a written snapshot parses");
        assert_eq!(
            again.provenance, s.provenance,
            "provenance changed through to_text"
        );
        assert_eq!(
            again.results.len(),
            s.results.len(),
            "results changed through to_text"
        );
    }
});
