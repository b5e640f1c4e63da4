//! The two wire formats of the JVM side.
//!
//! - Frames between `rig` and its `rig probe-server` child: a 4-byte big-endian length, then
//!   that many bytes of UTF-8 JSON.
//! - The probe's request: a case as lines of text (subject, then one op a line), which the
//!   Java side splits without a JSON parser. PROTOCOL.md documents both.

use std::io::{self, Read, Write};

use harness::case::{push_hex, strategy_name, Case, ContainerOp, Ops, StorageOp, Subject};

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

/// Turns a case into the probe's line form:
///
/// ```text
/// container block_states 35723 0        |  storage BITS SIZE
/// set X Y Z V | get X Y Z | get_and_set X Y Z V | bits | palette | counts | get_all
/// maybe_has V | write | serialized_size | pack | read HEX
/// unpack BITS N ID*N (- | M LONG*M)
/// load BITS SIZE M LONG*M | get I | set I V | get_and_set I V | fill V | values | longs | size
/// ```
/// Written straight from the typed case, with no JSON between: `rig fuzz` makes one a case.
/// The error names the op at fault: a value Java's `int` cannot hold.
pub fn probe_request(case: &Case) -> Result<String, (Option<usize>, String)> {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(64 + 16 * case.ops.len());
    // Writing to a String cannot fail.
    let _ = match case.subject {
        Subject::Container {
            strategy,
            registry,
            initial,
            ..
        } => write!(
            out,
            "container {} {registry} {initial}",
            strategy_name(strategy)
        ),
        Subject::Storage { bits, size, .. } => write!(out, "storage {bits} {size}"),
    };
    let fail = |i: usize| move |e: String| (Some(i), e);
    match &case.ops {
        Ops::Container(ops) => {
            for (i, op) in ops.iter().enumerate() {
                out.push('\n');
                container_line(op, &mut out).map_err(fail(i))?;
            }
        }
        Ops::Storage(ops) => {
            for (i, op) in ops.iter().enumerate() {
                out.push('\n');
                storage_line(op, &mut out).map_err(fail(i))?;
            }
        }
    }
    Ok(out)
}

fn container_line(op: &ContainerOp, out: &mut String) -> Result<(), String> {
    use std::fmt::Write as _;
    let name = op.kind();
    out.push_str(name);
    let _ = match *op {
        ContainerOp::Set { x, y, z, value } | ContainerOp::GetAndSet { x, y, z, value } => {
            write!(out, " {x} {y} {z} {}", int(value, "value")?)
        }
        ContainerOp::Get { x, y, z } => write!(out, " {x} {y} {z}"),
        ContainerOp::MaybeHas { value } => write!(out, " {}", int(value, "value")?),
        ContainerOp::Bits
        | ContainerOp::Palette
        | ContainerOp::Counts
        | ContainerOp::GetAll
        | ContainerOp::Write
        | ContainerOp::SerializedSize
        | ContainerOp::Pack => Ok(()),
        ContainerOp::Read { ref bytes } => {
            out.push(' ');
            push_hex(bytes, out);
            Ok(())
        }
        ContainerOp::Unpack {
            ref palette,
            ref data,
            bits,
        } => {
            let _ = write!(out, " {bits} {}", palette.len());
            for &v in palette {
                let _ = write!(out, " {}", int(v, "palette entry")?);
            }
            longs(data.as_deref(), out);
            Ok(())
        }
    };
    Ok(())
}

fn storage_line(op: &StorageOp, out: &mut String) -> Result<(), String> {
    use std::fmt::Write as _;
    out.push_str(op.kind());
    let _ = match *op {
        StorageOp::Load {
            bits,
            size,
            ref longs,
        } => {
            let _ = write!(out, " {bits} {size}");
            self::longs(Some(longs), out);
            Ok(())
        }
        StorageOp::Get { index } => write!(out, " {index}"),
        StorageOp::Set { index, value } | StorageOp::GetAndSet { index, value } => {
            write!(out, " {index} {}", int(value, "value")?)
        }
        StorageOp::Fill { value } => write!(out, " {}", int(value, "value")?),
        StorageOp::Values | StorageOp::Longs | StorageOp::Bits | StorageOp::Size => Ok(()),
    };
    Ok(())
}

/// ` -` for null, else ` M l1 .. lM`.
fn longs(v: Option<&[i64]>, out: &mut String) {
    use std::fmt::Write as _;
    match v {
        None => out.push_str(" -"),
        Some(items) => {
            let _ = write!(out, " {}", items.len());
            for l in items {
                let _ = write!(out, " {l}");
            }
        }
    }
}

/// Java's calls take ints, so anything outside i32 cannot be asked.
fn int(v: i64, what: &str) -> Result<i32, String> {
    i32::try_from(v).map_err(|_| format!("`{what}` is {v}, not a Java int"))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn case(text: &str) -> Case {
        Case::parse(text, std::path::Path::new("t.json")).unwrap()
    }

    #[test]
    fn requests() {
        let container = case(
            r#"{"name":"t","subject":{"kind":"container","strategy":"biomes","registry":65,"initial":3},
            "ops":[{"op":"set","x":1,"y":2,"z":3,"value":4},
                   {"op":"unpack","palette":[1,2],"data":null,"bits":-1},
                   {"op":"unpack","palette":[1],"data":[-1,5],"bits":0},
                   {"op":"read","bytes":"00FF"},
                   {"op":"counts"},
                   {"op":"get_and_set","x":-1,"y":0,"z":17,"value":2},
                   {"op":"maybe_has","value":64}]}"#,
        );
        assert_eq!(
            probe_request(&container).unwrap(),
            "container biomes 65 3\nset 1 2 3 4\nunpack -1 2 1 2 -\nunpack 0 1 1 2 -1 5\nread 00ff\ncounts\nget_and_set -1 0 17 2\nmaybe_has 64"
        );
        let storage = case(
            r#"{"name":"t","subject":{"kind":"storage","bits":5,"size":64},
            "ops":[{"op":"load","bits":5,"size":64,"longs":[1,-9223372036854775808]},{"op":"set","index":1,"value":2},
                   {"op":"fill","value":-3},{"op":"longs"}]}"#,
        );
        assert_eq!(
            probe_request(&storage).unwrap(),
            "storage 5 64\nload 5 64 2 1 -9223372036854775808\nset 1 2\nfill -3\nlongs"
        );
        let bad = case(
            r#"{"name":"t","subject":{"kind":"storage","bits":5,"size":64},"ops":[{"op":"get","index":0},{"op":"set","index":4,"value":4294967296}]}"#,
        );
        let (op, why) = probe_request(&bad).unwrap_err();
        assert_eq!(op, Some(1));
        assert!(why.contains("not a Java int"), "{why}");
    }
}
