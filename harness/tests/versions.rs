//! A case's `version` reaches the executor: the same ops give each
//! version's results (the long count on the wire, the serialized size, the
//! count read back), and an op the version lacks is refused before it runs.

use std::path::Path;

use harness::case::Case;
use harness::exec::{ExecError, Executor};
use harness::outcome::Outcome;
use harness::rust::RustExecutor;
use serde_json::json;

fn case(subject: &str, version: Option<&str>, ops: &str) -> Case {
    let version = version.map_or(String::new(), |v| format!(r#","version":"{v}""#));
    let text = format!(
        r#"{{"name":"t","subject":{{"kind":"container",{subject}{version}}},"ops":[{ops}]}}"#
    );
    Case::parse(&text, Path::new("t.json")).unwrap()
}

fn run(case: &Case) -> Result<Vec<Outcome>, ExecError> {
    RustExecutor::new().run(case)
}

const BLOCKS: &str = r#""strategy":"block_states","registry":24135,"initial":7"#;

#[test]
fn a_single_value_writes_and_sizes_as_its_version_does() {
    let ops = r#"{"op":"write"},{"op":"serialized_size"}"#;
    let got = |v| run(&case(BLOCKS, v, ops)).unwrap();
    // 1.20.1: bits, id, a long count of 0; the size counts the VarInt of 4,096.
    assert_eq!(
        got(Some("1.20.1")),
        [Outcome::Ok(json!("000700")), Outcome::Ok(json!(4))]
    );
    assert_eq!(
        got(Some("1.21.4")),
        [Outcome::Ok(json!("000700")), Outcome::Ok(json!(3))]
    );
    // 26.3 (the default) has no count.
    assert_eq!(
        got(None),
        [Outcome::Ok(json!("0007")), Outcome::Ok(json!(2))]
    );
    assert_eq!(got(Some("26.3")), got(None));
}

/// A 4-bit linear container of one entry (1) on the wire, with a long
/// count of `count` (VarInt hex) and `longs` zero longs after it.
fn linear_read(count: &str, longs: usize) -> String {
    format!(
        r#"{{"op":"read","bytes":"040101{count}{}"}},{{"op":"get","x":0,"y":0,"z":0}}"#,
        "00".repeat(8 * longs)
    )
}

#[test]
fn a_long_count_that_is_not_the_storages_is_read_as_the_version_reads_it() {
    // One too few: no error, 8 bytes left unread, the new palette over
    // zeroed storage.
    let few = run(&case(BLOCKS, Some("1.20.1"), &linear_read("ff01", 256))).unwrap();
    assert_eq!(
        few,
        [Outcome::Ok(json!(3 + 2 + 255 * 8)), Outcome::Ok(json!(1))]
    );
    // The storage's own count fills it.
    let right = run(&case(BLOCKS, Some("1.20.1"), &linear_read("8002", 256))).unwrap();
    assert_eq!(right[0], Outcome::Ok(json!(3 + 2 + 256 * 8)));
    // One too many: past what the bytes hold (256 longs and the count's 2
    // bytes, over 8).
    let many = run(&case(BLOCKS, Some("1.21.4"), &linear_read("8102", 256))).unwrap();
    assert_eq!(
        many[0],
        Outcome::throws(
            "DecoderException",
            "LongArray with size 257 is bigger than allowed 256"
        )
    );
    // 26.3 reads no count: the same bytes are the longs, two bytes short.
    let new = run(&case(BLOCKS, None, &linear_read("8002", 256))).unwrap_or_default();
    assert_ne!(new.first(), Some(&right[0]));
}

#[test]
fn fill_before_26_is_no_case_at_all() {
    let text = r#"{"name":"t","subject":{"kind":"storage","bits":5,"size":64,"version":"1.21.4"},"ops":[{"op":"fill","value":3}]}"#;
    let c = Case::parse(text, Path::new("t.json")).unwrap();
    match run(&c) {
        Err(ExecError::Invalid {
            op: Some(0),
            reason,
        }) => {
            assert_eq!(reason, "fill does not exist in 1.21.4 (only in 26.3)")
        }
        other => panic!("{other:?}"),
    }
    // 26.1 has no `fill` either; 26.3 has.
    let c = Case::parse(&text.replace("1.21.4", "26.1"), Path::new("t.json")).unwrap();
    assert!(matches!(
        run(&c),
        Err(ExecError::Invalid { op: Some(0), .. })
    ));
    let c = Case::parse(&text.replace("1.21.4", "26.3"), Path::new("t.json")).unwrap();
    assert_eq!(run(&c).unwrap(), [Outcome::Ok(serde_json::Value::Null)]);
}
