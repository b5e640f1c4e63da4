//! `rig bench --classpath` against the test fixture (rig/tests/fixture, a stand-in, not
//! Minecraft): the Java column is timed inside the JVM and labelled as the fixture.

mod jvm_support;

use jvm_support::{fixture, rig, run};

#[test]
fn bench_times_the_java_side_and_labels_the_fixture() {
    let Some(fx) = fixture() else { return };
    let (code, out, err) = run(rig().args([
        "bench",
        "get/flat",
        "be_copy/flat",
        "--time-ms",
        "20",
        "--classpath",
        fx.to_str().unwrap(),
    ]));
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains("Java column: test fixture (not Minecraft)"),
        "{out}"
    );
    let row = |name: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} row in:\n{out}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    // workload, ops, Rust ns/pass, Rust ns/op, Java ns/op, Java/Rust, ...
    let get = row("get/flat");
    let java: f64 = get[4]
        .parse()
        .unwrap_or_else(|_| panic!("Java ns/op of get/flat is not a number: {get:?}\n{err}"));
    assert!(java > 0.0, "{get:?}");
    assert!(get[5].ends_with('x'), "the ratio column: {get:?}");
    // A workload with no Java counterpart says so rather than vanish.
    let copy = row("be_copy/flat");
    assert_eq!(copy[4..6], ["n/a:", "floor"], "{copy:?}");
    assert!(out.contains("JNI round trip of an empty request"), "{out}");
}
