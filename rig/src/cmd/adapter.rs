//! `rig adapter paletted`: the Rust containers as an adapter, speaking the
//! adapter protocol (PROTOCOL.md, "Adapters") on stdin and stdout, so the
//! protocol is used for real and tested end to end. Also the `--executor`
//! options the commands that take an adapter share.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use harness::adapter::{AdapterExecutor, Handshake};
use harness::case::{Case, CONTAINER_OPS, STORAGE_OPS};
use harness::exec::Executor;
use harness::rust::RustExecutor;
use serde_json::{json, Value};

/// Arguments of `rig adapter`.
#[derive(clap::Args)]
pub struct Args {
    /// The implementation to serve: `paletted` (the Rust containers).
    #[arg(value_parser = ["paletted"])]
    pub implementation: String,
    /// The version to name in the handshake, so that `rig conformance` measures paletted
    /// against that version's truth (it runs every case at the case's own version anyway).
    #[arg(long, value_name = "VERSION", default_value = "26.3")]
    pub minecraft: String,
}

/// `--executor CMD` and its timeout, shared by the commands that take an
/// adapter as a side.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AdapterArgs {
    /// Run the cases through this adapter (a command run with `sh -c`, speaking the adapter
    /// protocol of PROTOCOL.md) instead of the Rust containers.
    #[arg(long, value_name = "CMD")]
    pub executor: Option<String>,
    /// Seconds one case may take in the adapter before it is killed and restarted.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub case_timeout: f64,
}

impl AdapterArgs {
    /// The adapter, started, if `--executor` was given.
    pub fn start(&self) -> Result<Option<AdapterExecutor>, String> {
        match &self.executor {
            None => Ok(None),
            Some(cmd) => start_adapter(cmd, self.case_timeout).map(Some),
        }
    }
}

/// `s` as one word for `sh`: as it is when that is safe, else in single quotes.
pub fn shell_quote(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Starts an adapter and reads its handshake.
pub fn start_adapter(cmd: &str, case_timeout: f64) -> Result<AdapterExecutor, String> {
    let timeout = std::time::Duration::try_from_secs_f64(case_timeout)
        .map_err(|e| format!("--case-timeout {case_timeout}: {e}"))?;
    AdapterExecutor::start(cmd, timeout)
}

/// paletted's handshake: every op of both subject kinds.
pub fn paletted_handshake(minecraft: &str) -> Handshake {
    Handshake {
        implementation: "paletted".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        minecraft: minecraft.into(),
        ops: [
            ("container", &CONTAINER_OPS[..]),
            ("storage", &STORAGE_OPS[..]),
        ]
        .into_iter()
        .map(|(kind, ops)| {
            (
                kind.to_string(),
                ops.iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect(),
        notes: Some("the Rust containers of this repository (harness::rust::RustExecutor)".into()),
    }
}

/// Runs `rig adapter paletted`.
///
/// A case the Rust executor cannot run (`ExecError`: not modelled, invalid,
/// a panic) is a failure of paletted, not an unsupported op, as in plain
/// `rig check`: the adapter says why on stderr and exits 3, which the rig
/// reports against that case before it restarts the adapter.
pub fn run(args: Args) -> ExitCode {
    let mut out = io::stdout().lock();
    let mut exec = RustExecutor::new();
    if writeln!(out, "{}", paletted_handshake(&args.minecraft).to_json())
        .and_then(|()| out.flush())
        .is_err()
    {
        return ExitCode::from(2);
    }
    for (n, line) in io::stdin().lock().lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("rig adapter paletted: reading stdin: {e}");
                return ExitCode::from(2);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let (case, id) = match request(&line) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("rig adapter paletted: <stdin>:{}: {e}", n + 1);
                return ExitCode::from(2);
            }
        };
        let results = match exec.run(&case) {
            Ok(r) => r,
            Err(e) => {
                eprintln!(
                    "rig adapter paletted: case {}: could not run on {}: {e}",
                    case.label(),
                    exec.name()
                );
                return ExitCode::from(3);
            }
        };
        let mut answer = json!({ "results": results });
        if let Some(id) = id {
            answer["id"] = id;
        }
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// A request line: `{"case": {...}}`.
/// A request's case, and its `id` (echoed in the answer, so the rig can tell whose it is).
fn request(line: &str) -> Result<(Case, Option<Value>), String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let (case, id) = match v.as_object() {
        Some(m)
            if m.contains_key("case")
                && m.keys().all(|k| k == "case" || k == "id")
                && m.get("id").is_none_or(Value::is_u64) =>
        {
            (&m["case"], m.get("id").cloned())
        }
        _ => return Err("a request is {\"id\": N, \"case\": {...}}".into()),
    };
    let case = Case::parse(&case.to_string(), Path::new("<stdin>")).map_err(|e| e.to_string())?;
    Ok((case, id))
}

/// What a live comparison (`rig diff`, `rig fuzz`) compares against.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reference {
    /// Minecraft's classes on the JVM.
    #[default]
    Minecraft,
    /// The Rust containers, as Minecraft's stand-in (they pass every recorded case); needs
    /// `--executor`, and no JVM.
    Paletted,
}

/// The sides of a live comparison: `--executor` in place of the Rust containers, and what
/// they are compared against.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SideArgs {
    /// Run this adapter (a command run with `sh -c`, speaking the adapter protocol of
    /// PROTOCOL.md) in place of the Rust containers; --case-timeout holds for it too.
    #[arg(long, value_name = "CMD")]
    pub executor: Option<String>,
    /// The side the results are compared against: minecraft (the JVM) or paletted (the Rust
    /// containers as Minecraft's stand-in; with --executor, no JVM needed).
    #[arg(long, value_enum, default_value_t = Reference::Minecraft)]
    pub reference: Reference,
}

impl SideArgs {
    /// The adapter, started, if `--executor` was given; refuses paletted against itself.
    pub fn start(&self, case_timeout: f64) -> Result<Option<AdapterExecutor>, String> {
        if self.reference == Reference::Paletted && self.executor.is_none() {
            return Err(
                "--reference paletted compares an adapter with the Rust containers: give --executor CMD"
                    .into(),
            );
        }
        self.executor
            .as_deref()
            .map(|cmd| start_adapter(cmd, case_timeout))
            .transpose()
    }
}

/// Whether paletted's known divergences hold for this side: the Rust containers, or an
/// adapter that is paletted.
pub fn is_paletted(adapter: Option<&AdapterExecutor>) -> bool {
    adapter.is_none_or(|a| a.handshake().implementation == "paletted")
}
