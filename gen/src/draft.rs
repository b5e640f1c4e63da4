//! A case under construction: a subject and its operations.
//!
//! Families write ops through the draft's methods, which hold them as the
//! harness's typed ops: the case is written out by the writer every case file
//! goes through (`Case::to_json`), and the generator's pinned fingerprints
//! hold that text fixed. A field the format cannot hold (an index past Java's
//! `int`, a storage op on a container) is kept as the draft's fault, and
//! [`Draft::into_case`] refuses it, as reading the JSON would. No JSON is
//! built or parsed on the way: `rig fuzz` drafts every case it runs.

use harness::case::{Case, ContainerOp, Ops, StorageOp, Subject};
use serde_json::{json, Map, Value};

/// What the `notes` of every generated case says about results.
pub const NO_RESULTS: &str =
    "operations only: results come only from Minecraft (record them, then check)";

/// A position in a container.
pub type Pos = (i32, i32, i32);

/// An op of either kind, before the draft checks it against its subject.
enum Op {
    Container(ContainerOp),
    Storage(StorageOp),
}

/// A case being built.
#[derive(Clone, Debug)]
pub struct Draft {
    /// The case's name, `family/variant`.
    pub name: String,
    /// The family that made it.
    pub family: &'static str,
    /// The seed of the run.
    pub seed: u64,
    /// What the case is about, in a line.
    pub notes: String,
    /// The subject, or why the format cannot hold it.
    subject: Result<Subject, String>,
    /// The operations, of the subject's kind.
    ops: Ops,
    /// The first op the format cannot hold, as reading its JSON would say.
    fault: Option<String>,
}

impl Draft {
    /// A container case.
    pub fn container(
        family: &'static str,
        seed: u64,
        name: String,
        strategy: &str,
        registry: u32,
        initial: u32,
    ) -> Draft {
        let subject = json!({"kind": "container", "strategy": strategy, "registry": registry, "initial": initial});
        Draft::new(family, seed, name, &subject, Ops::Container(Vec::new()))
    }

    /// A bit storage case.
    pub fn storage(family: &'static str, seed: u64, name: String, bits: u32, size: usize) -> Draft {
        let subject = json!({"kind": "storage", "bits": bits, "size": size});
        Draft::new(family, seed, name, &subject, Ops::Storage(Vec::new()))
    }

    /// The case at Minecraft `version` (26.3 unless this is called).
    pub fn at_version(&mut self, version: paletted::Version) {
        if let Ok(subject) = &mut self.subject {
            *subject = subject.at_version(version);
        }
    }

    fn new(family: &'static str, seed: u64, name: String, subject: &Value, ops: Ops) -> Draft {
        Draft {
            name,
            family,
            seed,
            notes: String::new(),
            subject: Subject::from_json(subject).map_err(|e| {
                let e = e.strip_prefix("subject: ").unwrap_or(&e);
                format!("subject: {e}")
            }),
            ops,
            fault: None,
        }
    }

    /// The draft as a harness case: the golden layout without `results`, whose
    /// `generator`, `seed` and `notes` say where it came from and that it holds
    /// no results. `Err` names what the format cannot hold.
    pub fn to_case(&self) -> Result<Case, String> {
        self.clone().into_case()
    }

    /// [`Draft::to_case`], the ops moved rather than copied.
    pub fn into_case(self) -> Result<Case, String> {
        let Draft {
            name,
            family,
            seed,
            notes,
            subject,
            ops,
            fault,
        } = self;
        let subject = match (subject, fault) {
            (Ok(subject), None) => subject,
            (Err(e), _) | (_, Some(e)) => {
                return Err(format!("generated case {name} is malformed: {e}"))
            }
        };
        let notes = if notes.is_empty() {
            NO_RESULTS.to_string()
        } else {
            format!("{notes}; {NO_RESULTS}")
        };
        let mut extra = Map::new();
        extra.insert("generator".into(), format!("paletted-gen {family}").into());
        extra.insert("seed".into(), seed.into());
        extra.insert("notes".into(), notes.into());
        Ok(Case {
            name,
            subject,
            ops,
            extra,
        })
    }

    /// Appends an op; one of the other kind than the subject is the draft's
    /// fault.
    fn push(&mut self, op: Op) {
        let (kind, name) = match (&mut self.ops, op) {
            (Ops::Container(ops), Op::Container(op)) => return ops.push(op),
            (Ops::Storage(ops), Op::Storage(op)) => return ops.push(op),
            (_, Op::Container(op)) => ("container", op.kind()),
            (_, Op::Storage(op)) => ("storage", op.kind()),
        };
        let e = format!(
            "ops[{}]: op `{name}` is a {kind} op, and the subject is a {}",
            self.ops.len(),
            self.kind()
        );
        self.fault.get_or_insert(e);
    }

    /// `n` as a Java int, the op's field `key`; out of range, the draft
    /// records the fault (reading its JSON would refuse it) and gives 0.
    fn int(&mut self, op: &str, key: &str, n: i64) -> i32 {
        i32::try_from(n).unwrap_or_else(|_| {
            let e = format!(
                "ops[{}]: op `{op}`: `{key}`: expected an integer from {} to {}, got {n}",
                self.ops.len(),
                i32::MIN,
                i32::MAX
            );
            self.fault.get_or_insert(e);
            0
        })
    }

    // Container operations.

    pub fn set(&mut self, (x, y, z): Pos, value: u32) {
        let value = value.into();
        self.push(Op::Container(ContainerOp::Set { x, y, z, value }));
    }
    pub fn get(&mut self, (x, y, z): Pos) {
        self.push(Op::Container(ContainerOp::Get { x, y, z }));
    }
    pub fn get_and_set(&mut self, (x, y, z): Pos, value: u32) {
        let value = value.into();
        self.push(Op::Container(ContainerOp::GetAndSet { x, y, z, value }));
    }
    pub fn maybe_has(&mut self, value: u32) {
        let value = value.into();
        self.push(Op::Container(ContainerOp::MaybeHas { value }));
    }
    /// An op without fields: `bits`, `palette`, `counts`, `get_all`, `write`,
    /// `serialized_size`, `pack` (and for storage `values`, `longs`, `size`).
    pub fn bare(&mut self, op: &str) {
        let bare = match (&self.ops, op) {
            (Ops::Container(_), "bits") => Op::Container(ContainerOp::Bits),
            (Ops::Container(_), "palette") => Op::Container(ContainerOp::Palette),
            (Ops::Container(_), "counts") => Op::Container(ContainerOp::Counts),
            (Ops::Container(_), "get_all") => Op::Container(ContainerOp::GetAll),
            (Ops::Container(_), "write") => Op::Container(ContainerOp::Write),
            (Ops::Container(_), "serialized_size") => Op::Container(ContainerOp::SerializedSize),
            (Ops::Container(_), "pack") => Op::Container(ContainerOp::Pack),
            (Ops::Storage(_), "values") => Op::Storage(StorageOp::Values),
            (Ops::Storage(_), "longs") => Op::Storage(StorageOp::Longs),
            (Ops::Storage(_), "bits") => Op::Storage(StorageOp::Bits),
            (Ops::Storage(_), "size") => Op::Storage(StorageOp::Size),
            _ => {
                let e = format!(
                    "ops[{}]: op `{op}` has fields, or is not a {} op",
                    self.ops.len(),
                    self.kind()
                );
                self.fault.get_or_insert(e);
                return;
            }
        };
        self.push(bare);
    }
    pub fn unpack(&mut self, palette: &[u32], data: Option<&[i64]>, bits: i32) {
        self.push(Op::Container(ContainerOp::Unpack {
            palette: palette.iter().map(|&v| v.into()).collect(),
            data: data.map(<[i64]>::to_vec),
            bits,
        }));
    }
    pub fn read(&mut self, bytes: &[u8]) {
        let bytes = bytes.to_vec();
        self.push(Op::Container(ContainerOp::Read { bytes }));
    }

    // Storage operations (indices and values signed: out-of-range ones are
    // part of what is checked).

    pub fn load(&mut self, bits: u32, size: usize, longs: &[i64]) {
        let size = i64::try_from(size).unwrap_or(i64::MAX);
        self.load_raw(bits.into(), size, longs);
    }
    /// A load of any bits and size, those Minecraft refuses included.
    pub fn load_raw(&mut self, bits: i64, size: i64, longs: &[i64]) {
        let bits = self.int("load", "bits", bits);
        let size = self.int("load", "size", size);
        let longs = longs.to_vec();
        self.push(Op::Storage(StorageOp::Load { bits, size, longs }));
    }
    pub fn s_get(&mut self, index: i64) {
        let index = self.int("get", "index", index);
        self.push(Op::Storage(StorageOp::Get { index }));
    }
    pub fn s_set(&mut self, index: i64, value: i64) {
        let index = self.int("set", "index", index);
        self.push(Op::Storage(StorageOp::Set { index, value }));
    }
    pub fn s_get_and_set(&mut self, index: i64, value: i64) {
        let index = self.int("get_and_set", "index", index);
        self.push(Op::Storage(StorageOp::GetAndSet { index, value }));
    }
    pub fn fill(&mut self, value: i64) {
        self.push(Op::Storage(StorageOp::Fill { value }));
    }

    fn kind(&self) -> &'static str {
        match self.ops {
            Ops::Container(_) => "container",
            Ops::Storage(_) => "storage",
        }
    }
}

/// Lowercase hex, as `FORMAT.md` writes bytes.
pub fn hex(bytes: &[u8]) -> String {
    harness::case::to_hex(bytes)
}
