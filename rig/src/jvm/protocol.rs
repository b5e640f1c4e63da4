//! The two wire formats of the JVM side.
//!
//! - Frames between `rig` and its `rig probe-server` child: a 4-byte big-endian length, then
//!   that many bytes of UTF-8 JSON.
//! - The probe's request: a case as lines of text (subject, then one op a line), which the
//!   Java side splits without a JSON parser. PROTOCOL.md documents both.

use std::io::{self, Read, Write};

use serde_json::Value;

/// Frames above this are refused as corrupt (a whole golden case is far below it).
const MAX_FRAME: usize = 1 << 30;

/// Writes one frame.
pub fn write_frame(w: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    let len = u32::try_from(payload.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "frame too large"))?;
    w.write_all(&len.to_be_bytes())?;
    w.write_all(payload)?;
    w.flush()
}

/// Reads one frame; `Ok(None)` at a clean end of stream.
pub fn read_frame(r: &mut impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut len[got..])? {
            0 if got == 0 => return Ok(None),
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => got += n,
        }
    }
    let len = u32::from_be_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "frame of {len} bytes: the stream is corrupt (something else wrote to stdout?)"
            ),
        ));
    }
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf)?;
    Ok(Some(buf))
}

/// Turns a case, in its golden JSON layout, into the probe's line form:
///
/// ```text
/// container block_states 35723 0        |  storage BITS SIZE
/// set X Y Z V | get X Y Z | get_and_set X Y Z V | bits | palette | counts | get_all
/// maybe_has V | write | serialized_size | pack | read HEX
/// unpack BITS N ID*N (- | M LONG*M)
/// load BITS SIZE M LONG*M | get I | set I V | get_and_set I V | fill V | values | longs | size
/// ```
/// The error names the op at fault, if one is.
pub fn probe_request(case: &Value) -> Result<String, (Option<usize>, String)> {
    let whole = |e: String| (None, e);
    let subject = case
        .get("subject")
        .ok_or_else(|| whole("the case has no subject".into()))?;
    let kind = str_field(subject, "kind").map_err(whole)?;
    let mut out = match kind {
        "container" => format!(
            "container {} {} {}",
            str_field(subject, "strategy").map_err(whole)?,
            int_field(subject, "registry").map_err(whole)?,
            int_field(subject, "initial").map_err(whole)?
        ),
        "storage" => format!(
            "storage {} {}",
            int_field(subject, "bits").map_err(whole)?,
            int_field(subject, "size").map_err(whole)?
        ),
        other => return Err(whole(format!("unknown subject kind {other:?}"))),
    };
    let ops = case
        .get("ops")
        .and_then(Value::as_array)
        .ok_or_else(|| whole("the case has no ops list".into()))?;
    for (i, op) in ops.iter().enumerate() {
        out.push('\n');
        op_line(kind, op, &mut out).map_err(|e| (Some(i), e))?;
    }
    Ok(out)
}

fn op_line(kind: &str, op: &Value, out: &mut String) -> Result<(), String> {
    let name = str_field(op, "op")?;
    let fields: &[&str] = match (kind, name) {
        ("container", "set" | "get_and_set") => &["x", "y", "z", "value"],
        ("container", "get") => &["x", "y", "z"],
        ("container", "maybe_has") => &["value"],
        ("container", "bits" | "palette" | "counts" | "get_all" | "write")
        | ("container", "serialized_size" | "pack") => &[],
        ("container", "read") => {
            let hex = str_field(op, "bytes")?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) || hex.len() % 2 != 0 {
                return Err(format!("`bytes` is not an even-length hex string: {hex:?}"));
            }
            out.push_str("read ");
            out.push_str(hex);
            return Ok(());
        }
        ("container", "unpack") => {
            out.push_str(&format!("unpack {}", int_field(op, "bits")?));
            let palette = op
                .get("palette")
                .and_then(Value::as_array)
                .ok_or("`palette` is not a list")?;
            out.push_str(&format!(" {}", palette.len()));
            for v in palette {
                out.push_str(&format!(" {}", int(v, "palette entry")?));
            }
            longs(op.get("data"), out)?;
            return Ok(());
        }
        ("storage", "load") => {
            out.push_str(&format!(
                "load {} {}",
                int_field(op, "bits")?,
                int_field(op, "size")?
            ));
            longs(op.get("longs"), out)?;
            return Ok(());
        }
        ("storage", "get") => &["index"],
        ("storage", "set" | "get_and_set") => &["index", "value"],
        ("storage", "fill") => &["value"],
        ("storage", "values" | "longs" | "bits" | "size") => &[],
        _ => return Err(format!("unknown {kind} op {name:?}")),
    };
    out.push_str(name);
    for f in fields {
        out.push_str(&format!(" {}", int_field(op, f)?));
    }
    Ok(())
}

/// ` -` for null, else ` M l1 .. lM`.
fn longs(v: Option<&Value>, out: &mut String) -> Result<(), String> {
    match v {
        None | Some(Value::Null) => out.push_str(" -"),
        Some(Value::Array(items)) => {
            out.push_str(&format!(" {}", items.len()));
            for l in items {
                let l = l
                    .as_i64()
                    .ok_or_else(|| format!("{l} is not a signed 64-bit long"))?;
                out.push_str(&format!(" {l}"));
            }
        }
        Some(other) => return Err(format!("longs are a list or null, got {other}")),
    }
    Ok(())
}

fn str_field<'a>(v: &'a Value, name: &str) -> Result<&'a str, String> {
    v.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("`{name}` is missing or not a string"))
}

fn int_field(v: &Value, name: &str) -> Result<i32, String> {
    int(
        v.get(name).ok_or_else(|| format!("`{name}` is missing"))?,
        name,
    )
}

/// Java's calls take ints, so anything outside i32 cannot be asked.
fn int(v: &Value, what: &str) -> Result<i32, String> {
    v.as_i64()
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(|| format!("`{what}` is {v}, not a Java int"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frames_round_trip() {
        let mut buf = Vec::new();
        write_frame(&mut buf, b"{\"a\":1}").unwrap();
        write_frame(&mut buf, b"").unwrap();
        let mut r = &buf[..];
        assert_eq!(read_frame(&mut r).unwrap().unwrap(), b"{\"a\":1}");
        assert_eq!(read_frame(&mut r).unwrap().unwrap(), b"");
        assert!(read_frame(&mut r).unwrap().is_none());
        let mut cut = &buf[..5];
        assert!(read_frame(&mut cut).is_err());
    }

    #[test]
    fn requests() {
        let case = json!({
            "subject": {"kind": "container", "strategy": "biomes", "registry": 65, "initial": 3},
            "ops": [
                {"op": "set", "x": 1, "y": 2, "z": 3, "value": 4},
                {"op": "unpack", "palette": [1, 2], "data": null, "bits": -1},
                {"op": "unpack", "palette": [1], "data": [-1, 5], "bits": 0},
                {"op": "read", "bytes": "00ff"},
                {"op": "counts"}
            ]
        });
        assert_eq!(
            probe_request(&case).unwrap(),
            "container biomes 65 3\nset 1 2 3 4\nunpack -1 2 1 2 -\nunpack 0 1 1 2 -1 5\nread 00ff\ncounts"
        );
        let storage = json!({
            "subject": {"kind": "storage", "bits": 5, "size": 64},
            "ops": [{"op": "load", "bits": 5, "size": 64, "longs": [1]}, {"op": "set", "index": 1, "value": 2}]
        });
        assert_eq!(
            probe_request(&storage).unwrap(),
            "storage 5 64\nload 5 64 1 1\nset 1 2"
        );
        let bad = json!({"subject": {"kind": "storage", "bits": 5, "size": 64}, "ops": [{"op": "set", "index": 4294967296u64, "value": 1}]});
        let (op, why) = probe_request(&bad).unwrap_err();
        assert_eq!(op, Some(0));
        assert!(why.contains("not a Java int"), "{why}");
    }
}
