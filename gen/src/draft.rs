//! A case under construction: a subject and its operations, in the golden
//! layout of `FORMAT.md`.
//!
//! Families write JSON ops rather than harness enums so that what they emit is
//! exactly the interchange format a recorder reads; the harness parses it into
//! a `Case` at the end, which also validates every op the generator wrote.

use serde_json::{json, Value};

/// What the `notes` of every generated case says about results.
pub const NO_RESULTS: &str =
    "operations only: results come only from Minecraft (record them, then check)";

/// A position in a container.
pub type Pos = (i32, i32, i32);

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
    /// The subject, as `FORMAT.md` writes it.
    pub subject: Value,
    /// The operations, as `FORMAT.md` writes them.
    pub ops: Vec<Value>,
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
        Draft {
            name,
            family,
            seed,
            notes: String::new(),
            subject: json!({"kind": "container", "strategy": strategy, "registry": registry, "initial": initial}),
            ops: Vec::new(),
        }
    }

    /// A bit storage case.
    pub fn storage(family: &'static str, seed: u64, name: String, bits: u32, size: usize) -> Draft {
        Draft {
            name,
            family,
            seed,
            notes: String::new(),
            subject: json!({"kind": "storage", "bits": bits, "size": size}),
            ops: Vec::new(),
        }
    }

    /// The case as a golden-format file without `results`; `generator`,
    /// `seed` and `notes` say where it came from and that it holds no results.
    pub fn to_json(&self) -> Value {
        let notes = if self.notes.is_empty() {
            NO_RESULTS.to_string()
        } else {
            format!("{}; {}", self.notes, NO_RESULTS)
        };
        json!({
            "format": 1,
            "name": self.name,
            "generator": format!("paletted-gen {}", self.family),
            "seed": self.seed,
            "notes": notes,
            "subject": self.subject,
            "ops": self.ops,
        })
    }

    fn push(&mut self, op: Value) {
        self.ops.push(op);
    }

    // Container operations.

    pub fn set(&mut self, (x, y, z): Pos, value: u32) {
        self.push(json!({"op": "set", "x": x, "y": y, "z": z, "value": value}));
    }
    pub fn get(&mut self, (x, y, z): Pos) {
        self.push(json!({"op": "get", "x": x, "y": y, "z": z}));
    }
    pub fn get_and_set(&mut self, (x, y, z): Pos, value: u32) {
        self.push(json!({"op": "get_and_set", "x": x, "y": y, "z": z, "value": value}));
    }
    pub fn maybe_has(&mut self, value: u32) {
        self.push(json!({"op": "maybe_has", "value": value}));
    }
    /// An op without fields: `bits`, `palette`, `counts`, `get_all`, `write`,
    /// `serialized_size`, `pack` (and for storage `values`, `longs`, `size`).
    pub fn bare(&mut self, op: &str) {
        self.push(json!({"op": op}));
    }
    pub fn unpack(&mut self, palette: &[u32], data: Option<&[i64]>, bits: i32) {
        self.push(json!({"op": "unpack", "palette": palette, "data": data, "bits": bits}));
    }
    pub fn read(&mut self, bytes: &[u8]) {
        self.push(json!({"op": "read", "bytes": hex(bytes)}));
    }

    // Storage operations (indices and values signed: out-of-range ones are
    // part of what is checked).

    pub fn load(&mut self, bits: u32, size: usize, longs: &[i64]) {
        self.push(json!({"op": "load", "bits": bits, "size": size, "longs": longs}));
    }
    /// A load of any bits and size, those Minecraft refuses included.
    pub fn load_raw(&mut self, bits: i64, size: i64, longs: &[i64]) {
        self.push(json!({"op": "load", "bits": bits, "size": size, "longs": longs}));
    }
    pub fn s_get(&mut self, index: i64) {
        self.push(json!({"op": "get", "index": index}));
    }
    pub fn s_set(&mut self, index: i64, value: i64) {
        self.push(json!({"op": "set", "index": index, "value": value}));
    }
    pub fn s_get_and_set(&mut self, index: i64, value: i64) {
        self.push(json!({"op": "get_and_set", "index": index, "value": value}));
    }
    pub fn fill(&mut self, value: i64) {
        self.push(json!({"op": "fill", "value": value}));
    }
}

/// Lowercase hex, as `FORMAT.md` writes bytes.
pub fn hex(bytes: &[u8]) -> String {
    harness::case::to_hex(bytes)
}
