//! The Rust adapter kit (PROTOCOL.md, "Adapter kits"), shared by the Rust
//! adapters (included with `#[path]`, as benches/ shares its workloads): the
//! line loop, outcomes and panic capture. Each adapter supplies only its
//! subjects.

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

use serde_json::{json, Value};

/// One op's result, in PROTOCOL.md's encoding.
pub type Outcome = Value;

pub fn ok(value: impl Into<Value>) -> Outcome {
    json!({ "ok": value.into() })
}

/// An error the implementation reported: `class` is the Java exception
/// Minecraft throws for the same condition, `message` the implementation's
/// own text, so classes compare and Minecraft-built messages show the gap.
pub fn throws(class: &str, message: impl ToString) -> Outcome {
    json!({ "throws": class, "message": message.to_string() })
}

pub fn unsupported(why: impl ToString) -> Outcome {
    json!({ "unsupported": why.to_string() })
}

/// A subject under test: one case's container or storage. `Err` is an
/// outcome found before the call (an `unsupported` field or value).
pub trait Subject {
    fn run(&mut self, op: &Value) -> Result<Outcome, Outcome>;
}

/// What an adapter provides: its handshake and how it makes a subject.
pub trait Adapter {
    fn handshake(&self) -> Value;
    /// The subject, or `Err(outcome)`: a whole-case `unsupported`.
    fn subject(&self, subject: &Value) -> Result<Box<dyn Subject>, Outcome>;
}

/// An integer field of an op or subject; a case missing one is malformed.
pub fn int(v: &Value, field: &str) -> Result<i64, Outcome> {
    v.get(field)
        .and_then(Value::as_i64)
        .ok_or_else(|| unsupported(format!("malformed case: no integer `{field}`")))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn from_hex(text: &str) -> Result<Vec<u8>, Outcome> {
    if !text.len().is_multiple_of(2) {
        return Err(unsupported("malformed case: odd hex length"));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16))
        .collect::<Result<_, _>>()
        .map_err(|_| unsupported("malformed case: bad hex"))
}

/// Runs one op, a panic caught and reported as `{"throws": "panic"}`: a
/// panic in the implementation is a divergence, not an adapter crash.
fn guarded(subject: &mut dyn Subject, op: &Value) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(|| subject.run(op).unwrap_or_else(|e| e))) {
        Ok(outcome) => outcome,
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-text panic payload".into());
            throws("panic", text)
        }
    }
}

/// Ops that leave Minecraft's subject as it was: after one of these is
/// unsupported the state is still known, so later ops still run (the rig
/// counts the case unsupported all the same; the later results are extra
/// evidence). After an unsupported op that changes state, nothing runs.
const READ_ONLY: &[&str] = &[
    "get",
    "bits",
    "palette",
    "counts",
    "get_all",
    "maybe_has",
    "write",
    "serialized_size",
    "pack",
    "values",
    "longs",
    "size",
];

fn run_case(adapter: &dyn Adapter, case: &Value) -> Value {
    let Some(ops) = case.get("ops").and_then(Value::as_array) else {
        return unsupported("malformed case: no ops");
    };
    let mut subject =
        match panic::catch_unwind(AssertUnwindSafe(|| adapter.subject(&case["subject"]))) {
            Ok(Ok(s)) => s,
            Ok(Err(outcome)) => return outcome,
            Err(_) => return unsupported("the subject's constructor panicked"),
        };
    let mut results = Vec::with_capacity(ops.len());
    let mut after: Option<String> = None;
    for op in ops {
        if let Some(why) = &after {
            results.push(unsupported(why));
            continue;
        }
        let outcome = guarded(subject.as_mut(), op);
        let name = op["op"].as_str().unwrap_or("");
        if let Some(why) = outcome.get("unsupported").and_then(Value::as_str) {
            if !READ_ONLY.contains(&name) {
                after = Some(format!("after an unsupported op ({why})"));
            }
        }
        results.push(outcome);
    }
    json!({ "results": results })
}

/// The line loop: handshake, then one answer per `{"case": ...}` line until
/// stdin closes.
pub fn serve(adapter: &dyn Adapter) -> io::Result<()> {
    // Panics are reported as results; their default report would only be noise.
    panic::set_hook(Box::new(|_| {}));
    serve_on(adapter, io::stdin().lock(), io::stdout().lock())
}

fn serve_on(adapter: &dyn Adapter, input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    writeln!(out, "{}", adapter.handshake())?;
    out.flush()?;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(request) => run_case(adapter, &request["case"]),
            Err(e) => unsupported(format!("not a JSON request: {e}")),
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A storage of `size` values: `size`, `get` (an out-of-range index is
    /// Minecraft's `IllegalArgumentException`), and a `set` that panics.
    struct Toy(i64);

    impl Subject for Toy {
        fn run(&mut self, op: &Value) -> Result<Outcome, Outcome> {
            Ok(match op["op"].as_str().unwrap_or("") {
                "size" => ok(self.0),
                "get" if int(op, "index")? >= self.0 => throws("IllegalArgumentException", "index"),
                "get" => ok(Value::Null),
                "set" => panic!("set {}", int(op, "index")?),
                other => unsupported(format!("no {other}")),
            })
        }
    }

    impl Adapter for Toy {
        fn handshake(&self) -> Value {
            json!({"protocol": 1, "implementation": "toy"})
        }

        fn subject(&self, subject: &Value) -> Result<Box<dyn Subject>, Outcome> {
            match subject["kind"].as_str() {
                Some("storage") => Ok(Box::new(Toy(int(subject, "size")?))),
                _ => Err(unsupported("no containers")),
            }
        }
    }

    fn exchange(cases: &[Value]) -> Vec<Value> {
        let mut input = String::from("\n");
        for case in cases {
            input += &format!("{}\n", json!({ "case": case }));
        }
        input += "not json\n";
        let mut out = Vec::new();
        serve_on(&Toy(0), input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn the_loop_answers_each_case_in_order() {
        let storage = |ops: Value| json!({"format": 1, "name": "t", "subject": {"kind": "storage", "size": 4}, "ops": ops});
        let out = exchange(&[
            storage(json!([{"op": "size"}, {"op": "get", "index": 9}, {"op": "set", "index": 2}])),
            storage(json!([{"op": "counts"}, {"op": "size"}, {"op": "fill"}, {"op": "size"}])),
            json!({"format": 1, "name": "c", "subject": {"kind": "container"}, "ops": []}),
        ]);
        assert_eq!(out.len(), 5, "{out:?}");
        assert_eq!(out[0], json!({"protocol": 1, "implementation": "toy"}));
        assert_eq!(
            out[1],
            json!({"results": [{"ok": 4}, {"throws": "IllegalArgumentException", "message": "index"},
                               {"throws": "panic", "message": "set 2"}]})
        );
        assert_eq!(
            out[2],
            json!({"results": [{"unsupported": "no counts"}, {"ok": 4}, {"unsupported": "no fill"},
                               {"unsupported": "after an unsupported op (no fill)"}]})
        );
        assert_eq!(out[3], json!({"unsupported": "no containers"}));
        assert!(out[4]["unsupported"]
            .as_str()
            .unwrap()
            .starts_with("not a JSON request"));
    }
}
