//! `op_items`: what each op reaches, the items `Coverage` counts, op by op (how `rig
//! conformance` assigns behaviours), and the stale-entry items of a resize and a pack.

use std::collections::BTreeMap;
use std::path::Path;

use gen::coverage::{Item, STALE_PACK, STALE_RESIZE};
use gen::Coverage;
use harness::case::Case;

fn case(name: &str) -> Case {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cases/ops")
        .join(format!("{name}.json"));
    Case::parse(&std::fs::read_to_string(&file).unwrap(), &file).unwrap()
}

#[test]
fn each_op_gets_what_coverage_counts_and_stale_entries_are_seen() {
    for name in [
        "stale/biomes-linear-one",
        "read/biomes-chain",
        "storage/bits-1-n256",
        "ladder/biomes-r64",
    ] {
        let c = case(name);
        let per_op = gen::op_items(&c);
        assert_eq!(per_op.len(), c.ops.len(), "{name}");
        let mut cov = Coverage::new();
        cov.add(&c);
        let mut counted: BTreeMap<Item, usize> = BTreeMap::new();
        for item in per_op.into_iter().flatten() {
            *counted.entry(item).or_default() += 1;
        }
        assert_eq!(counted, cov.reached, "{name}");
    }
    let stale = gen::op_items(&case("stale/biomes-linear-one"));
    let reached = |what: &str| {
        stale.iter().any(|items| {
            items.contains(&Item::Input(match what {
                "resize" => STALE_RESIZE,
                _ => STALE_PACK,
            }))
        })
    };
    assert!(reached("resize"), "{stale:?}");
    assert!(reached("pack"), "{stale:?}");
    // A case that only grows reaches neither.
    let ladder = gen::op_items(&case("ladder/biomes-r64"));
    assert!(!ladder
        .iter()
        .flatten()
        .any(|i| matches!(i, Item::Input(w) if *w == STALE_RESIZE || *w == STALE_PACK)));
}
