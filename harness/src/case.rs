//! A conformance case: a subject and the operations run on it, as in
//! `shared/golden/FORMAT.md` without the results.

use std::fmt;
use std::path::Path;

use paletted::{Kind, Version};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

use crate::error::{self, ParseError};
use crate::limits;

/// The only interchange format version there is.
pub const FORMAT: u64 = 1;

/// Every container op's `op` name, in FORMAT.md's order.
pub const CONTAINER_OPS: [&str; 13] = [
    "set",
    "get",
    "get_and_set",
    "bits",
    "palette",
    "counts",
    "get_all",
    "maybe_has",
    "write",
    "serialized_size",
    "pack",
    "unpack",
    "read",
];

/// Every storage op's `op` name, in FORMAT.md's order.
pub const STORAGE_OPS: [&str; 9] = [
    "load",
    "get",
    "set",
    "get_and_set",
    "fill",
    "values",
    "longs",
    "bits",
    "size",
];

/// A case: what to build, and the operations to run on it in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The case's name: its path under `cases/ops/` without `.json`.
    pub name: String,
    /// What the operations run on.
    pub subject: Subject,
    /// The operations.
    pub ops: Ops,
    /// Top-level keys the format does not define (`generator`, `seed`,
    /// `notes`, ...), kept in their order so a file round-trips.
    pub extra: Map<String, Value>,
}

/// What a case's operations run on.
///
/// Each subject is of a Minecraft [`Version`]: the file's subject key
/// `version` (`"1.20.1"`), 26.3 when it is absent. The version decides
/// the rules the ops run under (the long count on the wire, the
/// serialized size, whether `fill` exists); the registry stays the
/// subject's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// `new PalettedContainer<>(entry(initial), Strategy.createFor...(map))`
    /// over a registry of `registry` ids.
    Container {
        /// Block states or biomes.
        strategy: Kind,
        /// The registry's size.
        registry: u32,
        /// The value everywhere at the start.
        initial: u32,
        /// The Minecraft version whose classes the case is of.
        version: Version,
    },
    /// `new SimpleBitStorage(bits, size)`, or `ZeroBitStorage(size)` for 0 bits.
    Storage {
        /// Bits a value takes, 0 to 32.
        bits: u32,
        /// Values held.
        size: u32,
        /// The Minecraft version whose classes the case is of.
        version: Version,
    },
}

/// A case's operations; their kind follows the subject's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ops {
    /// Operations on a container.
    Container(Vec<ContainerOp>),
    /// Operations on a bit storage.
    Storage(Vec<StorageOp>),
}

/// One operation on a container (FORMAT.md, "Container operations").
/// Fields are as wide as what Java accepts; the executor range-checks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ContainerOp {
    Set {
        x: i32,
        y: i32,
        z: i32,
        value: i64,
    },
    Get {
        x: i32,
        y: i32,
        z: i32,
    },
    GetAndSet {
        x: i32,
        y: i32,
        z: i32,
        value: i64,
    },
    Bits,
    Palette,
    Counts,
    GetAll,
    MaybeHas {
        value: i64,
    },
    Write,
    SerializedSize,
    Pack,
    /// `PalettedContainer.unpack(strategy, new PackedData(palette, data, bits))`;
    /// `bits` -1 means not declared.
    Unpack {
        palette: Vec<i64>,
        data: Option<Vec<i64>>,
        bits: i32,
    },
    /// `read(buf)` from a buffer holding `bytes` (hex in the file).
    Read {
        bytes: Vec<u8>,
    },
}

/// One operation on a bit storage (FORMAT.md, "Storage operations").
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum StorageOp {
    /// `new SimpleBitStorage(bits, size, longs)` (0 bits: `ZeroBitStorage(size)`).
    Load {
        bits: i32,
        size: i32,
        longs: Vec<i64>,
    },
    Get {
        index: i32,
    },
    Set {
        index: i32,
        value: i64,
    },
    GetAndSet {
        index: i32,
        value: i64,
    },
    Fill {
        value: i64,
    },
    Values,
    Longs,
    Bits,
    Size,
}

impl Ops {
    /// How many operations.
    pub fn len(&self) -> usize {
        match self {
            Ops::Container(ops) => ops.len(),
            Ops::Storage(ops) => ops.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The short text of operation `i` (`set (1,0,0) = 5`), for reports.
    pub fn text(&self, i: usize) -> String {
        match self {
            Ops::Container(ops) => ops[i].to_string(),
            Ops::Storage(ops) => ops[i].to_string(),
        }
    }

    /// The `op` name of operation `i` (`set`, `write`, ...).
    pub fn kind(&self, i: usize) -> &'static str {
        match self {
            Ops::Container(ops) => ops[i].kind(),
            Ops::Storage(ops) => ops[i].kind(),
        }
    }

    /// Operation `i` as it is written in a case file.
    pub fn to_json(&self, i: usize) -> Value {
        match self {
            Ops::Container(ops) => ops[i].to_json(),
            Ops::Storage(ops) => ops[i].to_json(),
        }
    }

    /// Whether operation `i` changes the subject's state (`set`,
    /// `get_and_set`, `read`, `unpack`, `load`, `fill`). An op that does not
    /// can be left out, or go unanswered, without changing what any later op
    /// sees.
    pub fn changes_state(&self, i: usize) -> bool {
        match self {
            Ops::Container(v) => matches!(
                v[i],
                ContainerOp::Set { .. }
                    | ContainerOp::GetAndSet { .. }
                    | ContainerOp::Unpack { .. }
                    | ContainerOp::Read { .. }
            ),
            Ops::Storage(v) => matches!(
                v[i],
                StorageOp::Load { .. }
                    | StorageOp::Set { .. }
                    | StorageOp::GetAndSet { .. }
                    | StorageOp::Fill { .. }
            ),
        }
    }

    /// The operations at `indices`, in that order.
    pub fn select(&self, indices: &[usize]) -> Ops {
        match self {
            Ops::Container(v) => Ops::Container(indices.iter().map(|&i| v[i].clone()).collect()),
            Ops::Storage(v) => Ops::Storage(indices.iter().map(|&i| v[i].clone()).collect()),
        }
    }

    /// The first `n` operations.
    pub fn truncated(&self, n: usize) -> Ops {
        match self {
            Ops::Container(ops) => Ops::Container(ops[..n.min(ops.len())].to_vec()),
            Ops::Storage(ops) => Ops::Storage(ops[..n.min(ops.len())].to_vec()),
        }
    }
}

impl Subject {
    /// The subject from its JSON form, checked as a case file's is.
    pub fn from_json(v: &Value) -> Result<Subject, String> {
        parse_subject(v)
    }

    /// The Minecraft version the subject is of (26.3 unless the file names
    /// another).
    pub fn version(&self) -> Version {
        match *self {
            Subject::Container { version, .. } | Subject::Storage { version, .. } => version,
        }
    }

    /// The same subject at `version`.
    pub fn at_version(self, to: Version) -> Subject {
        match self {
            Subject::Container {
                strategy,
                registry,
                initial,
                ..
            } => Subject::Container {
                strategy,
                registry,
                initial,
                version: to,
            },
            Subject::Storage { bits, size, .. } => Subject::Storage {
                bits,
                size,
                version: to,
            },
        }
    }

    /// The subject's `kind` in a case file: `container` or `storage`.
    pub fn kind(&self) -> &'static str {
        match self {
            Subject::Container { .. } => "container",
            Subject::Storage { .. } => "storage",
        }
    }

    /// The subject as it is written in a case file: `version` only when it
    /// is not 26.3, so a 26.3 case's file is as it always was.
    pub fn to_json(&self) -> Value {
        let mut v = match *self {
            Subject::Container {
                strategy,
                registry,
                initial,
                ..
            } => json!({
                "kind": "container",
                "strategy": strategy_name(strategy),
                "registry": registry,
                "initial": initial,
            }),
            Subject::Storage { bits, size, .. } => {
                json!({"kind": "storage", "bits": bits, "size": size})
            }
        };
        let version = self.version();
        if version != Version::V26_3 {
            v["version"] = json!(version.name());
        }
        v
    }
}

/// The case file's name of a version, as `version` gives it, or an error
/// listing the versions there are.
pub fn parse_version(name: &str) -> Result<Version, String> {
    name.parse()
        .map_err(|e: paletted::UnknownVersion| e.to_string())
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Subject::Container {
                strategy,
                registry,
                initial,
                ..
            } => write!(
                f,
                "{} container over {registry} ids, initially {initial}",
                strategy_name(strategy)
            )?,
            Subject::Storage { bits, size, .. } => {
                write!(f, "{bits}-bit storage of {size} values")?
            }
        }
        // Reports name the version wherever it is not the default.
        match self.version() {
            Version::V26_3 => Ok(()),
            v => write!(f, ", at {v}"),
        }
    }
}

/// The format's name of a strategy.
pub fn strategy_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BlockStates => "block_states",
        Kind::Biomes => "biomes",
    }
}

/// Lowercase hex, two digits a byte: a table, not `write!` (the
/// formatter was a quarter of a fuzz execution, every `write` result
/// being 2-8 KB).
fn hex(bytes: &[u8]) -> String {
    let mut s = String::new();
    push_hex(bytes, &mut s);
    s
}

/// Appends `bytes` as lowercase hex, as the format writes them.
pub fn push_hex(bytes: &[u8], out: &mut String) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
}

/// A list shortened for a one-line text: the first few entries and a count.
fn brief<T: fmt::Display>(items: &[T]) -> String {
    const SHOWN: usize = 6;
    let shown: Vec<String> = items.iter().take(SHOWN).map(|v| v.to_string()).collect();
    if items.len() > SHOWN {
        format!("[{}, … {} in all]", shown.join(", "), items.len())
    } else {
        format!("[{}]", shown.join(", "))
    }
}

impl ContainerOp {
    /// The `op` name.
    pub fn kind(&self) -> &'static str {
        match self {
            ContainerOp::Set { .. } => "set",
            ContainerOp::Get { .. } => "get",
            ContainerOp::GetAndSet { .. } => "get_and_set",
            ContainerOp::Bits => "bits",
            ContainerOp::Palette => "palette",
            ContainerOp::Counts => "counts",
            ContainerOp::GetAll => "get_all",
            ContainerOp::MaybeHas { .. } => "maybe_has",
            ContainerOp::Write => "write",
            ContainerOp::SerializedSize => "serialized_size",
            ContainerOp::Pack => "pack",
            ContainerOp::Unpack { .. } => "unpack",
            ContainerOp::Read { .. } => "read",
        }
    }

    /// The operation as it is written in a case file.
    pub fn to_json(&self) -> Value {
        let op = self.kind();
        match self {
            ContainerOp::Set { x, y, z, value } | ContainerOp::GetAndSet { x, y, z, value } => {
                json!({"op": op, "x": x, "y": y, "z": z, "value": value})
            }
            ContainerOp::Get { x, y, z } => json!({"op": op, "x": x, "y": y, "z": z}),
            ContainerOp::MaybeHas { value } => json!({"op": op, "value": value}),
            ContainerOp::Unpack {
                palette,
                data,
                bits,
            } => json!({"op": op, "palette": palette, "data": data, "bits": bits}),
            ContainerOp::Read { bytes } => json!({"op": op, "bytes": hex(bytes)}),
            _ => json!({ "op": op }),
        }
    }
}

impl fmt::Display for ContainerOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContainerOp::Set { x, y, z, value } => write!(f, "set ({x},{y},{z}) = {value}"),
            ContainerOp::Get { x, y, z } => write!(f, "get ({x},{y},{z})"),
            ContainerOp::GetAndSet { x, y, z, value } => {
                write!(f, "get_and_set ({x},{y},{z}) = {value}")
            }
            ContainerOp::MaybeHas { value } => write!(f, "maybe_has {value}"),
            ContainerOp::Unpack {
                palette,
                data,
                bits,
            } => {
                write!(f, "unpack palette {}", brief(palette))?;
                match data {
                    Some(d) => write!(f, ", {} longs", d.len())?,
                    None => f.write_str(", no data")?,
                }
                write!(f, ", bits {bits}")
            }
            ContainerOp::Read { bytes } => {
                let shown = &bytes[..bytes.len().min(8)];
                let more = if bytes.len() > 8 { "…" } else { "" };
                write!(f, "read {} bytes ({}{more})", bytes.len(), hex(shown))
            }
            other => f.write_str(other.kind()),
        }
    }
}

impl StorageOp {
    /// The `op` name.
    pub fn kind(&self) -> &'static str {
        match self {
            StorageOp::Load { .. } => "load",
            StorageOp::Get { .. } => "get",
            StorageOp::Set { .. } => "set",
            StorageOp::GetAndSet { .. } => "get_and_set",
            StorageOp::Fill { .. } => "fill",
            StorageOp::Values => "values",
            StorageOp::Longs => "longs",
            StorageOp::Bits => "bits",
            StorageOp::Size => "size",
        }
    }

    /// The operation as it is written in a case file.
    pub fn to_json(&self) -> Value {
        let op = self.kind();
        match self {
            StorageOp::Load { bits, size, longs } => {
                json!({"op": op, "bits": bits, "size": size, "longs": longs})
            }
            StorageOp::Get { index } => json!({"op": op, "index": index}),
            StorageOp::Set { index, value } | StorageOp::GetAndSet { index, value } => {
                json!({"op": op, "index": index, "value": value})
            }
            StorageOp::Fill { value } => json!({"op": op, "value": value}),
            _ => json!({ "op": op }),
        }
    }
}

impl fmt::Display for StorageOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageOp::Load { bits, size, longs } => {
                write!(f, "load {bits} bits, size {size}, {} longs", longs.len())
            }
            StorageOp::Get { index } => write!(f, "get [{index}]"),
            StorageOp::Set { index, value } => write!(f, "set [{index}] = {value}"),
            StorageOp::GetAndSet { index, value } => write!(f, "get_and_set [{index}] = {value}"),
            StorageOp::Fill { value } => write!(f, "fill {value}"),
            other => f.write_str(other.kind()),
        }
    }
}

/// Top-level keys the format defines; everything else goes to `extra`.
const DEFINED: [&str; 6] = ["format", "name", "source", "subject", "ops", "results"];

impl Case {
    /// Parses a case file (or a recorded file, whose `source` and `results`
    /// are left out). Errors name `path`, the line and column, and the part.
    pub fn parse(text: &str, path: &Path) -> Result<Case, ParseError> {
        Ok(Document::parse(text, path)?.case)
    }

    /// The case's name for reports: with its version when that is not
    /// 26.3 (`v1.20.1/wire-count-s1 (1.20.1)`).
    pub fn label(&self) -> String {
        match self.subject.version() {
            Version::V26_3 => self.name.clone(),
            v => format!("{} ({v})", self.name),
        }
    }

    /// The case file's JSON: `format`, `name`, the extra keys, `subject`, `ops`.
    pub fn to_json(&self) -> Value {
        Value::Object(self.to_map(None, None))
    }

    /// The case file's text: compact JSON and a newline, as the golden files.
    pub fn to_text(&self) -> String {
        let mut s = self.to_json().to_string();
        s.push('\n');
        s
    }

    /// The golden layout, with `source` and `results` where given.
    pub(crate) fn to_map(
        &self,
        source: Option<&str>,
        results: Option<Value>,
    ) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("format".into(), json!(FORMAT));
        m.insert("name".into(), json!(self.name));
        if let Some(source) = source {
            m.insert("source".into(), json!(source));
        }
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        m.insert("subject".into(), self.subject.to_json());
        let ops: Vec<Value> = (0..self.ops.len()).map(|i| self.ops.to_json(i)).collect();
        m.insert("ops".into(), Value::Array(ops));
        if let Some(results) = results {
            m.insert("results".into(), results);
        }
        m
    }
}

/// A parsed case file with what a recording adds, and where each part was.
pub(crate) struct Document<'a> {
    pub case: Case,
    pub source: Option<(String, usize)>,
    /// Each result's JSON text and byte offset.
    pub results: Option<(Vec<&'a RawValue>, usize)>,
}

/// Byte offset of a slice of `text` within it.
fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// What is wrong with a case's JSON, and where: a top-level key (`""` for
/// the whole) or an op.
enum Fault {
    Key(&'static str, String),
    Op(usize, String),
}

/// The case in a parsed top-level object (the part the text and the value
/// forms share).
fn case_from_map(map: &Map<String, Value>) -> Result<Case, Fault> {
    match map.get("format") {
        None => {}
        Some(v) if v.as_u64() == Some(FORMAT) => {}
        Some(v) => {
            return Err(Fault::Key(
                "format",
                format!("format {v} is not supported (only 1)"),
            ))
        }
    }
    let name = match map.get("name") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(v) => {
            return Err(Fault::Key(
                "name",
                format!("expected a non-empty string, got {v}"),
            ))
        }
        None => return Err(Fault::Key("", "missing key `name`".into())),
    };
    let subject = match map.get("subject") {
        // The context already says `subject`; the field reader's prefix would repeat it.
        Some(v) => parse_subject(v).map_err(|m| {
            let m = m
                .strip_prefix("subject: ")
                .map_or(m.clone(), str::to_string);
            Fault::Key("subject", m)
        })?,
        None => return Err(Fault::Key("", "missing key `subject`".into())),
    };
    let ops = match map.get("ops") {
        Some(Value::Array(ops)) => parse_ops(&subject, ops)?,
        Some(v) => {
            return Err(Fault::Key(
                "ops",
                format!("expected a list of ops, got {}", short(v)),
            ))
        }
        None => return Err(Fault::Key("", "missing key `ops`".into())),
    };
    // What it would cost to run, before anything runs it.
    limits::check(&subject, &ops).map_err(|e| match e.at {
        limits::At::Subject => Fault::Key("subject", e.to_string()),
        limits::At::Ops => Fault::Key("ops", e.to_string()),
        limits::At::Op(i) => Fault::Op(i, e.to_string()),
    })?;
    let extra = map
        .iter()
        .filter(|(k, _)| !DEFINED.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(Case {
        name,
        subject,
        ops,
        extra,
    })
}

impl Case {
    /// A case from its JSON value, as [`Case::parse`] reads it from text
    /// (`source` and `results` left out); errors name the part at fault.
    /// For cases built in memory, such as the generator's, which have no
    /// text to point into.
    pub fn from_json(v: &Value) -> Result<Case, String> {
        let map = v
            .as_object()
            .ok_or_else(|| format!("a case is an object, got {}", short(v)))?;
        case_from_map(map).map_err(|fault| match fault {
            Fault::Key("", m) => m,
            Fault::Key(key, m) => format!("{key}: {m}"),
            Fault::Op(i, m) => format!("ops[{i}]: {m}"),
        })
    }
}

/// A JSON object's members in their order, each value as its text: where
/// each is in the file, and nothing parsed that is not asked for (a
/// recording's results can be most of its bytes).
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Members<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Members<'a>, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Members<'de>, A::Error> {
                let mut members: Vec<(String, &'de RawValue)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, &'de RawValue>()? {
                    // A repeated key keeps its first place and its last value, as a map does.
                    match members.iter_mut().find(|(k, _)| *k == key) {
                        Some(member) => member.1 = value,
                        None => members.push((key, value)),
                    }
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Visitor)
    }
}

impl<'a> Document<'a> {
    pub fn parse(text: &'a str, path: &Path) -> Result<Document<'a>, ParseError> {
        let json_err = |base: usize, slice: &str, ctx: &str, e: &serde_json::Error| {
            error::from_json(path, text, base, slice, ctx, e)
        };
        let Members(members) = serde_json::from_str(text).map_err(|e| json_err(0, text, "", &e))?;
        let raw = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
        let at = |key: &str| raw(key).map_or(0, |raw| offset_in(text, raw.get()));
        // Every member but the results, as values in their order (for `extra`).
        let mut map = Map::new();
        for (key, value) in members.iter().filter(|(k, _)| k != "results") {
            let v: Value = serde_json::from_str(value.get())
                .map_err(|e| json_err(at(key), value.get(), key, &e))?;
            map.insert(key.clone(), v);
        }
        let case = case_from_map(&map).map_err(|fault| match fault {
            Fault::Key(key, m) => ParseError::at(path, text, at(key), key, m),
            Fault::Op(i, m) => {
                // Where the op starts: its raw text within the list.
                let ops: Option<Vec<&RawValue>> =
                    raw("ops").and_then(|raw| serde_json::from_str(raw.get()).ok());
                let offset = ops
                    .as_ref()
                    .and_then(|ops| ops.get(i))
                    .map_or(at("ops"), |op| offset_in(text, op.get()));
                ParseError::at(path, text, offset, format!("ops[{i}]"), m)
            }
        })?;
        let source = match map.get("source") {
            None => None,
            Some(Value::String(s)) => Some((s.clone(), at("source"))),
            Some(v) => {
                return Err(ParseError::at(
                    path,
                    text,
                    at("source"),
                    "source",
                    format!("expected a string, got {v}"),
                ))
            }
        };
        let results = match raw("results") {
            None => None,
            Some(raw) => {
                let list: Vec<&'a RawValue> = serde_json::from_str(raw.get())
                    .map_err(|e| json_err(at("results"), raw.get(), "results", &e))?;
                Some((list, at("results")))
            }
        };
        Ok(Document {
            case,
            source,
            results,
        })
    }
}

fn parse_subject(v: &Value) -> Result<Subject, String> {
    let m = v
        .as_object()
        .ok_or_else(|| format!("expected an object, got {v}"))?;
    let mut f = Fields::new(m, "subject");
    let subject = match f.string("kind")? {
        "container" => {
            let strategy = match f.string("strategy")? {
                "block_states" => Kind::BlockStates,
                "biomes" => Kind::Biomes,
                other => {
                    return Err(format!(
                        "unknown strategy `{other}` (block_states or biomes)"
                    ))
                }
            };
            let registry: u32 = f.int("registry")?;
            let initial: u32 = f.int("initial")?;
            if registry == 0 {
                return Err("registry 0: a registry has at least one id".into());
            }
            if initial >= registry {
                return Err(format!(
                    "initial {initial} is not an id of a registry of {registry}"
                ));
            }
            Subject::Container {
                strategy,
                registry,
                initial,
                version: Version::V26_3,
            }
        }
        "storage" => {
            let bits: u32 = f.int("bits")?;
            let size: u32 = f.int("size")?;
            if bits > 32 {
                return Err(format!("bits {bits}: a storage holds 0 to 32 bits a value"));
            }
            if size > 1 << 26 {
                return Err(format!("size {size}: more than 2^26 values"));
            }
            Subject::Storage {
                bits,
                size,
                version: Version::V26_3,
            }
        }
        other => return Err(format!("unknown kind `{other}` (container or storage)")),
    };
    let subject = match f.optional_string("version")? {
        None => subject,
        Some(name) => subject.at_version(parse_version(name)?),
    };
    f.finish()?;
    Ok(subject)
}

fn parse_ops(subject: &Subject, ops: &[Value]) -> Result<Ops, Fault> {
    let object = |i: usize| {
        ops[i]
            .as_object()
            .ok_or_else(|| Fault::Op(i, format!("expected an object, got {}", short(&ops[i]))))
    };
    Ok(match subject {
        Subject::Container { .. } => Ops::Container(
            (0..ops.len())
                .map(|i| container_op(object(i)?).map_err(|m| Fault::Op(i, m)))
                .collect::<Result<_, _>>()?,
        ),
        Subject::Storage { .. } => Ops::Storage(
            (0..ops.len())
                .map(|i| storage_op(object(i)?).map_err(|m| Fault::Op(i, m)))
                .collect::<Result<_, _>>()?,
        ),
    })
}

fn container_op(m: &Map<String, Value>) -> Result<ContainerOp, String> {
    let mut f = Fields::new(m, "op");
    let name = f.string("op")?;
    f.op = Some(name);
    let op = match name {
        "set" => ContainerOp::Set {
            x: f.int("x")?,
            y: f.int("y")?,
            z: f.int("z")?,
            value: f.int("value")?,
        },
        "get" => ContainerOp::Get {
            x: f.int("x")?,
            y: f.int("y")?,
            z: f.int("z")?,
        },
        "get_and_set" => ContainerOp::GetAndSet {
            x: f.int("x")?,
            y: f.int("y")?,
            z: f.int("z")?,
            value: f.int("value")?,
        },
        "bits" => ContainerOp::Bits,
        "palette" => ContainerOp::Palette,
        "counts" => ContainerOp::Counts,
        "get_all" => ContainerOp::GetAll,
        "maybe_has" => ContainerOp::MaybeHas {
            value: f.int("value")?,
        },
        "write" => ContainerOp::Write,
        "serialized_size" => ContainerOp::SerializedSize,
        "pack" => ContainerOp::Pack,
        "unpack" => ContainerOp::Unpack {
            palette: f.ints("palette")?,
            data: f.optional_ints("data")?,
            bits: f.int("bits")?,
        },
        "read" => ContainerOp::Read {
            bytes: f.hex("bytes")?,
        },
        "load" | "fill" | "values" | "longs" | "size" => {
            return Err(format!(
                "op `{name}` is a storage op, and the subject is a container"
            ))
        }
        other => return Err(format!("unknown op `{other}`")),
    };
    f.finish()?;
    Ok(op)
}

fn storage_op(m: &Map<String, Value>) -> Result<StorageOp, String> {
    let mut f = Fields::new(m, "op");
    let name = f.string("op")?;
    f.op = Some(name);
    let op = match name {
        "load" => StorageOp::Load {
            bits: f.int("bits")?,
            size: f.int("size")?,
            longs: f.ints("longs")?,
        },
        "get" => StorageOp::Get {
            index: f.int("index")?,
        },
        "set" => StorageOp::Set {
            index: f.int("index")?,
            value: f.int("value")?,
        },
        "get_and_set" => StorageOp::GetAndSet {
            index: f.int("index")?,
            value: f.int("value")?,
        },
        "fill" => StorageOp::Fill {
            value: f.int("value")?,
        },
        "values" => StorageOp::Values,
        "longs" => StorageOp::Longs,
        "bits" => StorageOp::Bits,
        "size" => StorageOp::Size,
        "palette" | "counts" | "get_all" | "maybe_has" | "write" | "serialized_size" | "pack"
        | "unpack" | "read" => {
            return Err(format!(
                "op `{name}` is a container op, and the subject is a storage"
            ))
        }
        other => return Err(format!("unknown op `{other}`")),
    };
    f.finish()?;
    Ok(op)
}

/// Reads an object's fields by name, and at the end refuses any it did
/// not read (a misspelt field is a mistake, not something to ignore).
/// Nothing is allocated unless a field is wrong: a generated run parses
/// every op it makes.
struct Fields<'m> {
    map: &'m Map<String, Value>,
    /// The fields read so far (an op has at most five).
    read: [&'static str; 6],
    reads: usize,
    /// What the object is, for messages: `subject`, or the op's name.
    what: &'static str,
    op: Option<&'m str>,
}

impl<'m> Fields<'m> {
    fn new(map: &'m Map<String, Value>, what: &'static str) -> Fields<'m> {
        Fields {
            map,
            read: [""; 6],
            reads: 0,
            what,
            op: None,
        }
    }

    /// `subject`, `op`, or ``op `set` `` once the op's name is known.
    fn what(&self) -> String {
        match self.op {
            Some(name) => format!("op `{name}`"),
            None => self.what.to_string(),
        }
    }

    fn get(&mut self, key: &'static str) -> Result<&'m Value, String> {
        debug_assert!(
            self.reads < self.read.len(),
            "more fields than any object has"
        );
        if self.reads < self.read.len() {
            self.read[self.reads] = key;
            self.reads += 1;
        }
        self.map
            .get(key)
            .ok_or_else(|| format!("{}: missing field `{key}`", self.what()))
    }

    fn string(&mut self, key: &'static str) -> Result<&'m str, String> {
        match self.get(key)? {
            Value::String(s) => Ok(s),
            v => Err(format!(
                "{}: `{key}`: expected a string, got {v}",
                self.what()
            )),
        }
    }

    fn int<T: TryFrom<i64>>(&mut self, key: &'static str) -> Result<T, String> {
        let v = self.get(key)?;
        integer(v).ok_or_else(|| {
            format!(
                "{}: `{key}`: expected an integer from {} to {}, got {v}",
                self.what(),
                bound::<T>(i64::MIN),
                bound::<T>(i64::MAX)
            )
        })
    }

    /// A string field that may be absent.
    fn optional_string(&mut self, key: &'static str) -> Result<Option<&'m str>, String> {
        if !self.map.contains_key(key) {
            return Ok(None);
        }
        self.string(key).map(Some)
    }

    fn ints(&mut self, key: &'static str) -> Result<Vec<i64>, String> {
        let v = self.get(key)?;
        list(v).ok_or_else(|| {
            format!(
                "{}: `{key}`: expected a list of integers, got {}",
                self.what(),
                short(v)
            )
        })
    }

    fn optional_ints(&mut self, key: &'static str) -> Result<Option<Vec<i64>>, String> {
        match self.get(key)? {
            Value::Null => Ok(None),
            v => list(v).map(Some).ok_or_else(|| {
                format!(
                    "{}: `{key}`: expected null or a list of integers, got {}",
                    self.what(),
                    short(v)
                )
            }),
        }
    }

    fn hex(&mut self, key: &'static str) -> Result<Vec<u8>, String> {
        let s = self.string(key)?;
        parse_hex(s).map_err(|m| format!("{}: `{key}`: {m}", self.what()))
    }

    fn finish(self) -> Result<(), String> {
        let read = &self.read[..self.reads];
        match self.map.keys().find(|k| !read.contains(&k.as_str())) {
            Some(k) => Err(format!("{}: unknown field `{k}`", self.what())),
            None => Ok(()),
        }
    }
}

fn integer<T: TryFrom<i64>>(v: &Value) -> Option<T> {
    v.as_i64().and_then(|n| T::try_from(n).ok())
}

fn list(v: &Value) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(Value::as_i64).collect()
}

/// The least (`n` < 0) or greatest (`n` > 0) value `T` holds, for messages;
/// `T` is one of the integer types fields use.
fn bound<T: TryFrom<i64>>(n: i64) -> i64 {
    const CANDIDATES: [i64; 6] = [
        i64::MIN,
        i32::MIN as i64,
        0,
        i32::MAX as i64,
        u32::MAX as i64,
        i64::MAX,
    ];
    let fits = CANDIDATES
        .iter()
        .copied()
        .filter(|&c| T::try_from(c).is_ok());
    if n < 0 {
        fits.min().unwrap_or(0)
    } else {
        fits.max().unwrap_or(0)
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

/// Decodes a hex string (either case) into bytes.
pub fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", s.len()));
    }
    let digit = |i: usize, c: u8| -> Result<u8, String> {
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("`{}` at {i} is not a hex digit", c as char))
    };
    let b = s.as_bytes();
    (0..b.len() / 2)
        .map(|i| Ok(digit(2 * i, b[2 * i])? << 4 | digit(2 * i + 1, b[2 * i + 1])?))
        .collect()
}

/// Encodes bytes as lowercase hex, as the format writes them.
pub fn to_hex(bytes: &[u8]) -> String {
    hex(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_two_lowercase_digits_a_byte_and_parses_back() {
        let all: Vec<u8> = (0..=255).collect();
        let expected: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(to_hex(&all), expected);
        assert_eq!(parse_hex(&to_hex(&all)), Ok(all));
        assert_eq!(to_hex(&[]), "");
    }

    fn parse(text: &str) -> Result<Case, String> {
        Case::parse(text, Path::new("cases/x.json")).map_err(|e| e.to_string())
    }

    #[test]
    fn subject_errors_say_subject_once() {
        let text = r#"{"name":"t","subject":{"kind":"storage","bits":5},"ops":[]}"#;
        let e = Case::parse(text, Path::new("t.json"))
            .unwrap_err()
            .to_string();
        assert!(e.contains(": subject: missing field `size`"), "{e}");
        assert!(!e.contains("subject: subject"), "{e}");
    }

    const HEAD: &str = r#"{"name":"t","subject":{"kind":"container","strategy":"biomes","registry":4,"initial":0},"#;

    #[test]
    fn unknown_op_is_named_with_its_place() {
        let text = format!("{HEAD}\n\"ops\":[{{\"op\":\"bits\"}},\n  {{\"op\":\"sett\"}}]}}");
        assert_eq!(
            parse(&text).unwrap_err(),
            "cases/x.json:3:3: ops[1]: unknown op `sett`"
        );
    }

    #[test]
    fn syntax_errors_have_line_and_column() {
        let err = parse("{\n \"name\": \"t\",\n oops}").unwrap_err();
        assert!(
            err.starts_with("cases/x.json:3:2: key must be a string"),
            "{err}"
        );
    }

    #[test]
    fn fields_are_checked() {
        let text =
            format!("{HEAD}\"ops\":[{{\"op\":\"set\",\"x\":1,\"y\":0,\"z\":0,\"vaule\":5}}]}}");
        assert_eq!(
            parse(&text).unwrap_err(),
            "cases/x.json:1:96: ops[0]: op `set`: missing field `value`"
        );
        let text = format!("{HEAD}\"ops\":[{{\"op\":\"get\",\"x\":1,\"y\":0,\"z\":0,\"w\":5}}]}}");
        assert!(parse(&text)
            .unwrap_err()
            .ends_with("op `get`: unknown field `w`"));
        let text = format!("{HEAD}\"ops\":[{{\"op\":\"get\",\"x\":1e3,\"y\":0,\"z\":0}}]}}");
        assert!(parse(&text)
            .unwrap_err()
            .ends_with("`x`: expected an integer from -2147483648 to 2147483647, got 1000.0"));
        let text = format!("{HEAD}\"ops\":[{{\"op\":\"load\"}}]}}");
        assert!(parse(&text).unwrap_err().contains("storage op"));
    }

    #[test]
    fn round_trips_with_extra_keys_in_order() {
        let text = r#"{"format":1,"name":"t","seed":7,"notes":"n","subject":{"kind":"storage","bits":5,"size":64},"ops":[{"op":"load","bits":5,"size":64,"longs":[1,-2]},{"op":"set","index":3,"value":31},{"op":"values"}]}
"#;
        let case = parse(text).unwrap();
        assert_eq!(case.to_text(), text);
        assert_eq!(case.ops.text(1), "set [3] = 31");
    }

    #[test]
    fn the_text_and_the_value_read_alike() {
        // A repeated key: its first place and its last value, results left unread.
        let text = format!(
            "{HEAD}\"seed\":1,\"notes\":\"a\",\"seed\":2,\"ops\":[{{\"op\":\"bits\"}}],\"results\":[{{\"ok\":1e999}}]}}"
        );
        let case = parse(&text).unwrap();
        assert_eq!(
            case.to_text(),
            format!("{{\"format\":1,\"name\":\"t\",\"seed\":2,\"notes\":\"a\",\"subject\":{{\"kind\":\"container\",\"strategy\":\"biomes\",\"registry\":4,\"initial\":0}},\"ops\":[{{\"op\":\"bits\"}}]}}\n")
        );
        assert_eq!(Case::from_json(&case.to_json()).unwrap(), case);
        let bad = serde_json::json!({"name": "t", "subject": {"kind": "storage", "bits": 5, "size": 64}, "ops": [{"op": "get"}]});
        assert_eq!(
            Case::from_json(&bad).unwrap_err(),
            "ops[0]: op `get`: missing field `index`"
        );
        assert!(Case::from_json(&serde_json::json!([])).is_err());
        // A number no double holds, outside the results: refused where it is.
        let text = format!("{HEAD}\"seed\":1e999,\"ops\":[]}}");
        assert!(
            parse(&text).unwrap_err().starts_with("cases/x.json:1:"),
            "{}",
            parse(&text).unwrap_err()
        );
    }

    #[test]
    fn a_subject_names_its_version_and_26_3_is_written_by_absence() {
        let old = r#"{"format":1,"name":"t","subject":{"kind":"container","strategy":"biomes","registry":64,"initial":0,"version":"1.20.1"},"ops":[{"op":"write"}]}
"#;
        let case = parse(old).unwrap();
        assert_eq!(case.subject.version(), Version::V1_20_1);
        assert_eq!(case.to_text(), old);
        assert!(case.subject.to_string().ends_with(", at 1.20.1"));
        assert_eq!(case.label(), "t (1.20.1)");
        let storage = r#"{"format":1,"name":"t","subject":{"kind":"storage","bits":5,"size":64,"version":"1.21.4"},"ops":[]}
"#;
        assert_eq!(parse(storage).unwrap().subject.version(), Version::V1_21_4);
        assert_eq!(parse(storage).unwrap().to_text(), storage);
        let new = format!("{HEAD}\"ops\":[]}}");
        let case = parse(&new).unwrap();
        assert_eq!(case.subject.version(), Version::V26_3);
        assert!(!case.to_text().contains("version"));
        assert!(!case.subject.to_string().contains(", at"));
        assert_eq!(case.label(), "t");
        // Named 26.3 is 26.3, written as every 26.3 case is.
        let named = new.replace(r#""initial":0}"#, r#""initial":0,"version":"26.3"}"#);
        assert_eq!(parse(&named).unwrap(), case);
    }

    #[test]
    fn an_unknown_version_lists_the_known_ones_where_it_is() {
        let text = "{\"name\":\"t\",\n\"subject\":{\"kind\":\"storage\",\"bits\":5,\"size\":64,\"version\":\"1.21.12\"},\"ops\":[]}";
        let err = parse(text).unwrap_err();
        assert!(
            err.starts_with("cases/x.json:2:11: subject: unknown version `1.21.12` (known: 1.18, 1.18.1, 1.18.2, "),
            "{err}"
        );
        assert!(
            err.ends_with(", 1.21.11, 26.1, 26.1.1, 26.1.2, 26.2, 26.3)"),
            "{err}"
        );
        let text = text.replace(r#""1.21.12""#, "1");
        assert!(parse(&text)
            .unwrap_err()
            .ends_with("subject: `version`: expected a string, got 1"));
    }

    #[test]
    fn hex_round_trips() {
        assert_eq!(parse_hex("00ff0A").unwrap(), [0, 255, 10]);
        assert!(parse_hex("0g").is_err());
        assert_eq!(to_hex(&[0, 255, 10]), "00ff0a");
    }
}
