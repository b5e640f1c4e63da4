//! The families at every version where they mean something: cases of that
//! version, named under `v<VERSION>/`, that the Rust executor runs through
//! to the end under the version's rules.

use harness::exec::{ExecError, Executor};
use harness::rust::RustExecutor;
use paletted::Version;

#[test]
fn every_family_runs_at_every_version_it_means_something_at() {
    let mut exec = RustExecutor::new();
    for family in gen::FAMILIES {
        for v in Version::ALL {
            let Ok(cases) = family.cases_at(1, None, v) else {
                assert!(!family.means_something_at(v), "{} at {v}", family.name);
                continue;
            };
            for case in cases {
                assert_eq!(case.subject.version(), v, "{}", case.name);
                if v != Version::V26_3 {
                    assert!(case.name.starts_with(&format!("v{v}/")), "{}", case.name);
                }
                match exec.run(&case) {
                    Ok(results) => assert_eq!(results.len(), case.ops.len()),
                    Err(e @ ExecError::Internal { .. }) => panic!("{}: {e}", case.name),
                    Err(e) => panic!("{}: refused: {e}", case.name),
                }
            }
        }
    }
}

/// Older readers are most fragile where the wire differs (the long count
/// before 1.21.5), so the untrusted-wire and storage families run there too;
/// only `longs`, about the long count, is bound to the versions that send one.
#[test]
fn every_family_but_longs_means_something_at_every_version() {
    for family in gen::FAMILIES.iter().filter(|f| f.name != "longs") {
        for v in Version::ALL {
            assert!(family.means_something_at(v), "{} at {v}", family.name);
        }
    }
    // Before 26.3 a storage has no `fill`.
    let storage = gen::family("storage").unwrap();
    let fills = |v| {
        storage
            .cases_at(1, None, v)
            .unwrap()
            .iter()
            .any(|c| (0..c.ops.len()).any(|i| c.ops.kind(i) == "fill"))
    };
    assert!(fills(Version::V26_3));
    assert!(!fills(Version::V1_21_4));
}

#[test]
fn a_family_at_26_3_is_the_family_as_it_was() {
    for family in gen::FAMILIES
        .iter()
        .filter(|f| f.means_something_at(Version::V26_3))
    {
        assert_eq!(
            family.cases_at(3, None, Version::V26_3).unwrap(),
            family.cases(3, None).unwrap()
        );
    }
    let longs = gen::family("longs").unwrap();
    assert!(!longs.means_something_at(Version::V26_3));
    assert_eq!(longs.home(), Version::V1_21_4);
    let e = longs.cases_at(1, None, Version::V26_3).unwrap_err();
    assert!(e.starts_with("family longs means nothing at 26.3"), "{e}");
}

#[test]
fn coverage_runs_a_case_at_its_version() {
    let mut cov = gen::Coverage::new();
    for case in gen::family("longs")
        .unwrap()
        .cases_at(1, None, Version::V1_20_1)
        .unwrap()
    {
        cov.add(&case);
    }
    assert!(cov.failed.is_empty(), "{:?}", cov.failed);
    let reached: Vec<String> = cov.reached.keys().map(|i| i.to_string()).collect();
    assert!(reached.contains(&"at 1.20.1".to_string()), "{reached:?}");
    assert!(
        reached
            .iter()
            .any(|i| i.starts_with("throws DecoderException")),
        "{reached:?}"
    );
    // Reads of the version's own bytes (with the long count) land where
    // they were written from: single, linear, hash map and global.
    for to in ["single", "linear", "hashmap", "global"] {
        let item = format!("block_states read: single -> {to}");
        assert!(reached.contains(&item), "{item} not in {reached:?}");
    }
}

/// A case whose point is its version's rules shrinks at that version: the
/// predicate (a size one more than the bytes written, the pre-1.20.2 bug of
/// a global palette) holds only there.
#[test]
fn the_shrinker_keeps_a_cases_version() {
    let case = gen::family("sizes")
        .unwrap()
        .cases_at(1, None, Version::V1_20_1)
        .unwrap()
        .into_iter()
        .find(|c| c.name.ends_with("block_states-global-s1"))
        .unwrap();
    let buggy = |c: &harness::case::Case| {
        let Ok(results) = RustExecutor::new().run(c) else {
            return false;
        };
        let (mut size, mut written) = (None, None);
        for (i, r) in results.iter().enumerate() {
            match (c.ops.kind(i), r) {
                ("serialized_size", harness::outcome::Outcome::Ok(v)) => size = v.as_u64(),
                ("write", harness::outcome::Outcome::Ok(v)) => {
                    written = v.as_str().map(|s| s.len() as u64 / 2)
                }
                _ => {}
            }
        }
        matches!((size, written), (Some(s), Some(w)) if s == w + 1)
    };
    assert!(buggy(&case));
    let shrunk = gen::shrink(&case, buggy).unwrap();
    assert_eq!(shrunk.case.subject.version(), Version::V1_20_1);
    assert!(shrunk.case.ops.len() < case.ops.len());
}
