//! The untrusted-input families through the Rust executor: for several
//! seeds, every case runs to its end with no internal error (a panic in the
//! crate, or the strict and Minecraft-exact APIs disagreeing) and nothing the
//! executor calls invalid. Minecraft throws on such input; it never aborts.

use std::path::Path;

use gen::coverage::Item;
use gen::Coverage;
use harness::case::Case;
use harness::exec::{ExecError, Executor};
use harness::rust::RustExecutor;

const UNTRUSTED: &[&str] = &[
    "wire-count",
    "wire-varint",
    "wire-bits",
    "wire-cut",
    "one-id",
    "unpack-dups",
    "positions-out",
    "storage-odd",
];

/// Seeds 1..=6, or 1..=`UNTRUSTED_SEEDS` for a longer hunt.
#[test]
fn untrusted_families_run_without_internal_errors() {
    let seeds: u64 = std::env::var("UNTRUSTED_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let mut exec = RustExecutor::new();
    let mut internal = Vec::new();
    let mut ran = 0;
    for name in UNTRUSTED {
        let family = gen::family(name).unwrap_or_else(|| panic!("no family {name}"));
        for seed in 1..=seeds {
            for case in family.cases(seed, None).unwrap() {
                match exec.run(&case) {
                    Ok(results) => {
                        assert_eq!(results.len(), case.ops.len(), "{}", case.name);
                        ran += 1;
                    }
                    Err(e @ ExecError::Internal { .. }) => {
                        internal.push(format!("{}: {e}\n{}", case.name, case.to_text()))
                    }
                    Err(e) => panic!("{}: {e}", case.name),
                }
            }
        }
    }
    assert!(internal.is_empty(), "{}", internal.join("\n\n"));
    assert!(ran > 1000, "{ran} cases ran");
}

fn one(ops: &str) -> Coverage {
    let text = format!(
        r#"{{"name":"t/wire","subject":{{"kind":"container","strategy":"block_states","registry":35723,"initial":0}},"ops":[{ops}]}}"#
    );
    let mut cov = Coverage::new();
    cov.add(&Case::parse(&text, Path::new("t.json")).unwrap());
    cov
}

fn reached(cov: &Coverage, what: &str) -> bool {
    cov.reached
        .keys()
        .any(|i| matches!(i, Item::Input(w) if *w == what))
}

#[test]
fn coverage_tells_untrusted_reads_apart() {
    // A 5-bit hash map palette announcing 33 ids: beyond capacity.
    let ids: String = (1..=33).map(|v| format!("{v:02x}")).collect();
    let over = one(&format!(r#"{{"op":"read","bytes":"0521{ids}"}}"#));
    assert!(reached(&over, "read: palette count beyond capacity"));
    assert!(reached(&over, "read: cut in the longs"));
    assert!(!reached(&over, "read: bits byte off the ladder"));
    // What a container writes is none of these.
    let written = one(r#"{"op":"write"},{"op":"read","bytes":"0000"}"#);
    assert!(written.reached.keys().all(|i| !matches!(i, Item::Input(_))));
    // A negative count padded to five bytes after a negative bits byte.
    let neg = one(r#"{"op":"read","bytes":"fffbffffff0f"}"#);
    // 0xff picks the global palette, which has no count: only the byte counts.
    assert!(reached(&neg, "read: negative bits byte"));
    assert!(reached(&neg, "read: bits byte off the ladder"));
    assert!(reached(&neg, "read: cut in the longs"));
    let neg = one(r#"{"op":"read","bytes":"02fbffffff0f"}"#);
    assert!(reached(&neg, "read: negative palette count"));
    assert!(reached(&neg, "read: five-byte VarInt"));
    assert!(reached(
        &one(r#"{"op":"read","bytes":""}"#),
        "read: cut in the bits byte"
    ));
    assert!(reached(
        &one(r#"{"op":"read","bytes":"0480"}"#),
        "read: cut in the palette"
    ));
}
