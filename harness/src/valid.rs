//! Whether a case is one Minecraft's API can be given (ids in the registry,
//! Java ints, sizes a storage takes), decided from the case alone: checking
//! a case awaiting recording must never run it, and a run checks first.

use crate::case::{Case, ContainerOp, Ops, StorageOp, Subject};
use crate::exec::ExecError;

/// Most values a bit storage holds (the crate's limit, as exact as
/// Minecraft's index arithmetic is).
pub const MAX_STORAGE_SIZE: i64 = 1 << 26;

/// `Ok` if every op of `case` can be given to Minecraft's API; else the
/// first that cannot, as [`ExecError::Invalid`] (the op is `None` when the
/// subject is to blame).
pub fn check(case: &Case) -> Result<(), ExecError> {
    let invalid = |op, reason| Err(ExecError::Invalid { op, reason });
    match (&case.subject, &case.ops) {
        (
            &Subject::Container {
                registry, initial, ..
            },
            Ops::Container(ops),
        ) => {
            if initial >= registry {
                return invalid(
                    None,
                    format!("initial {initial} is not below the registry size {registry}"),
                );
            }
            for (i, op) in ops.iter().enumerate() {
                let ids: &[i64] = match op {
                    ContainerOp::Set { value, .. }
                    | ContainerOp::GetAndSet { value, .. }
                    | ContainerOp::MaybeHas { value } => std::slice::from_ref(value),
                    ContainerOp::Unpack { palette, .. } => palette,
                    _ => &[],
                };
                if let Some(&v) = ids
                    .iter()
                    .find(|&&v| u32::try_from(v).map_or(true, |v| v >= registry))
                {
                    return invalid(
                        Some(i),
                        format!(
                            "value {v} is not an id of the registry (0 to {})",
                            registry - 1
                        ),
                    );
                }
            }
        }
        (
            &Subject::Storage {
                bits,
                size,
                version,
            },
            Ops::Storage(ops),
        ) => {
            if bits > 32 || i64::from(size) > MAX_STORAGE_SIZE {
                return invalid(None, format!("no storage of {size} values at {bits} bits"));
            }
            for (i, op) in ops.iter().enumerate() {
                match *op {
                    // No recording can hold a result of an op the version lacks.
                    StorageOp::Fill { .. } if !version.rules().has_fill() => {
                        return invalid(
                            Some(i),
                            format!("fill does not exist in {version} (only in 26.3)"),
                        );
                    }
                    StorageOp::Set { value, .. }
                    | StorageOp::GetAndSet { value, .. }
                    | StorageOp::Fill { value }
                        if i32::try_from(value).is_err() =>
                    {
                        return invalid(Some(i), format!("value {value} does not fit Java's int"));
                    }
                    // Bits out of range are Minecraft's to refuse (a result); a size
                    // past 2^26 has no Minecraft result to record.
                    StorageOp::Load { bits, size, .. }
                        if (bits == 0 || (1..=32).contains(&bits))
                            && !(0..=MAX_STORAGE_SIZE).contains(&i64::from(size)) =>
                    {
                        return invalid(
                            Some(i),
                            format!("load of size {size}: sizes run from 0 to 2^26"),
                        );
                    }
                    _ => {}
                }
            }
        }
        _ => return invalid(None, "the ops are not of the subject's kind".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn case(subject: &str, ops: &str) -> Case {
        let text = format!(r#"{{"name":"t","subject":{subject},"ops":[{ops}]}}"#);
        Case::parse(&text, Path::new("t.json")).unwrap()
    }

    const BIOMES: &str = r#"{"kind":"container","strategy":"biomes","registry":4,"initial":0}"#;
    const STORAGE: &str = r#"{"kind":"storage","bits":5,"size":64}"#;

    #[test]
    fn the_first_op_minecraft_cannot_be_given_is_named() {
        let c = case(
            BIOMES,
            r#"{"op":"set","x":0,"y":0,"z":0,"value":3},{"op":"unpack","palette":[0,4],"data":null,"bits":-1}"#,
        );
        assert_eq!(
            check(&c).unwrap_err().to_string(),
            "invalid case at op 1: value 4 is not an id of the registry (0 to 3)"
        );
        let c = case(
            STORAGE,
            r#"{"op":"get","index":-1},{"op":"fill","value":2147483648}"#,
        );
        assert_eq!(
            check(&c).unwrap_err().to_string(),
            "invalid case at op 1: value 2147483648 does not fit Java's int"
        );
    }

    #[test]
    fn a_load_is_minecrafts_to_refuse_unless_its_size_has_no_storage() {
        let load = |bits: i64, size: i64| {
            case(
                STORAGE,
                &format!(r#"{{"op":"load","bits":{bits},"size":{size},"longs":[]}}"#),
            )
        };
        // Bits out of range: Minecraft's `Validate` throws, a result.
        assert!(check(&load(33, -1)).is_ok());
        assert!(check(&load(5, 64)).is_ok());
        let e = check(&load(0, -1)).unwrap_err();
        assert_eq!(e.op(), Some(0));
        assert!(check(&load(5, (1 << 26) + 1)).is_err());
    }
}
