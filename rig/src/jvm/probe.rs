//! The probe's Java source (built into the binary) and its compilation: `javac` against the
//! class path at hand, so the probe binds to the real API of that jar; cached by (probe
//! source, API shape, class path) so a second run starts at once.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::jdk::Jdk;
use super::shape::Shape;

/// The probe's source files that every API shape shares, as (path under the source root,
/// text); each shape adds its own `paletted/probe/Minecraft.java` ([`shape_source`]).
pub const SOURCES: &[(&str, &str)] = &[
    (
        "paletted/probe/Probe.java",
        include_str!("../../probe/paletted/probe/Probe.java"),
    ),
    (
        "paletted/probe/Bench.java",
        include_str!("../../probe/paletted/probe/Bench.java"),
    ),
    (
        "paletted/probe/MinecraftCommon.java",
        include_str!("../../probe/paletted/probe/MinecraftCommon.java"),
    ),
    (
        "paletted/probe/Packed.java",
        include_str!("../../probe/paletted/probe/Packed.java"),
    ),
    (
        "paletted/probe/Registry.java",
        include_str!("../../probe/paletted/probe/Registry.java"),
    ),
    (
        "paletted/probe/Entry.java",
        include_str!("../../probe/paletted/probe/Entry.java"),
    ),
    (
        "paletted/probe/ProbeRefusal.java",
        include_str!("../../probe/paletted/probe/ProbeRefusal.java"),
    ),
];

/// Where a shape's `Minecraft.java` is compiled from, under the source root.
const MINECRAFT: &str = "paletted/probe/Minecraft.java";

/// A shape's `Minecraft.java`, built in.
pub fn shape_source(shape: Shape) -> &'static str {
    match shape {
        Shape::V26 => include_str!("../../probe/shapes/26.x/paletted/probe/Minecraft.java"),
        Shape::V1_21_9 => {
            include_str!("../../probe/shapes/1.21.9-26.2/paletted/probe/Minecraft.java")
        }
        Shape::V1_19 => include_str!("../../probe/shapes/1.19-1.21/paletted/probe/Minecraft.java"),
        Shape::V1_18 => include_str!("../../probe/shapes/1.18/paletted/probe/Minecraft.java"),
    }
}

/// Where a shape's `Minecraft.java` is, under `rig/probe/` (or `RIG_PROBE_SRC`).
pub fn shape_path(shape: Shape) -> String {
    format!("shapes/{}/{MINECRAFT}", shape.folder())
}

/// The probe's sources for `shape`: built in, or read from `RIG_PROBE_SRC` (a folder laid out
/// like `rig/probe/`: the shared files under `paletted/probe/`, each shape's `Minecraft.java`
/// under `shapes/<shape>/paletted/probe/`), so a signature fixed for another jar takes effect
/// without rebuilding the rig.
fn sources(shape: Shape) -> Result<Vec<(String, String)>, String> {
    let files = SOURCES
        .iter()
        .map(|&(p, t)| (p.to_string(), p.to_string(), t))
        .chain([(
            MINECRAFT.to_string(),
            shape_path(shape),
            shape_source(shape),
        )]);
    match std::env::var_os("RIG_PROBE_SRC").filter(|v| !v.is_empty()) {
        None => Ok(files.map(|(p, _, t)| (p, t.to_string())).collect()),
        Some(dir) => files
            .map(|(p, from, _)| {
                let file = Path::new(&dir).join(&from);
                fs::read_to_string(&file)
                    .map(|t| (p, t))
                    .map_err(|e| format!("RIG_PROBE_SRC: cannot read {}: {e}", file.display()))
            })
            .collect(),
    }
}

/// Compiles the probe of API shape `shape` against `classpath` (or reuses the cached build)
/// and returns the folder holding its classes.
pub fn compile(
    jdk: &Jdk,
    classpath: &[PathBuf],
    cache: &Path,
    shape: Shape,
) -> Result<PathBuf, String> {
    let sources = sources(shape)?;
    let key = cache_key(&sources, shape, jdk, classpath);
    let dir = cache.join("probe").join(&key[..16]);
    let classes = dir.join("classes");
    if classes.join("paletted/probe/Probe.class").is_file() {
        return Ok(classes);
    }
    let work = cache
        .join("probe")
        .join(format!("{}.tmp{}", &key[..16], std::process::id()));
    let _ = fs::remove_dir_all(&work);
    let src = work.join("src");
    let out = work.join("classes");
    fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut files = Vec::new();
    for (path, text) in &sources {
        let file = src.join(path);
        fs::create_dir_all(file.parent().expect("source paths have a folder"))
            .and_then(|()| fs::write(&file, text))
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        files.push(file);
    }
    let cp = join_classpath(classpath)?;
    let output = Command::new(jdk.javac())
        .arg("-nowarn")
        .arg("-encoding")
        .arg("UTF-8")
        .arg("-proc:none")
        .arg("-d")
        .arg(&out)
        .arg("-cp")
        .arg(&cp)
        .args(&files)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", jdk.javac().display()))?;
    if !output.status.success() {
        let _ = fs::remove_dir_all(&work);
        return Err(compile_error(
            &String::from_utf8_lossy(&output.stderr),
            &cp,
            jdk,
            shape,
        ));
    }
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Another process may have finished first; either build is the same.
    if fs::rename(&out, &classes).is_err() && !classes.join("paletted/probe/Probe.class").is_file()
    {
        return Err(format!(
            "cannot move the probe's classes into {}",
            classes.display()
        ));
    }
    let _ = fs::remove_dir_all(&work);
    Ok(classes)
}

/// The class the probe needs first; when it is missing, the class path has no Minecraft.
const CONTAINER: &str = "net.minecraft.world.level.chunk.PalettedContainer";

/// javac's failure, led by one line saying what is missing: Minecraft itself (javac cannot
/// find the container class or its package), or a library javac names; then the details.
fn compile_error(stderr: &str, cp: &str, jdk: &Jdk, shape: Shape) -> String {
    let stderr = stderr.trim_end();
    let missing_minecraft = stderr
        .contains("package net.minecraft.world.level.chunk does not exist")
        || stderr.contains("class PalettedContainer")
            && stderr.contains("location: package net.minecraft.world.level.chunk");
    let first = if missing_minecraft {
        format!("the class path has no Minecraft: javac cannot find {CONTAINER} (give --minecraft JAR, or the jar and its libraries with --classpath)")
    } else if let Some(package) = stderr
        .lines()
        .find_map(|l| l.split_once("error: package ").map(|(_, p)| p))
        .and_then(|p| p.strip_suffix(" does not exist"))
    {
        format!("the class path lacks the library with package {package} (javac cannot find it)")
    } else {
        let line = stderr
            .lines()
            .find(|l| l.contains("error:"))
            .unwrap_or("javac failed");
        format!("javac could not compile the probe: {}", line.trim())
    };
    let errors = stderr.lines().filter(|l| l.contains("error:")).count();
    let mut msg = format!(
        "{first}\n\
         javac could not compile the probe of the {} API shape against the class path {cp} \
         ({errors} errors; the probe calls Minecraft's API only through \
         paletted/probe/MinecraftCommon.java, the same in every shape, and the shape's own \
         rig/probe/{}; a missing class means the class path lacks Minecraft or a library, or \
         is of another shape than the one picked (name its version with --classes-version); a \
         wrong signature means that file needs a fix for this version: copy rig/probe/, fix it, \
         and point RIG_PROBE_SRC at the copy):\n{stderr}",
        shape.span(),
        shape_path(shape)
    );
    if jdk.version < 25 {
        msg.push_str(&format!(
            "\nnote: this is Java {} ({}); Minecraft 26.x needs Java 25",
            jdk.version,
            jdk.home.display()
        ));
    }
    msg
}

/// The class path as one string for `-cp`; entries must not hold the separator.
pub fn join_classpath(classpath: &[PathBuf]) -> Result<String, String> {
    let mut parts = Vec::new();
    for p in classpath {
        let s = p
            .to_str()
            .ok_or_else(|| format!("class path entry {} is not UTF-8", p.display()))?;
        if s.contains(':') {
            return Err(format!("class path entry {s} holds a ':'"));
        }
        parts.push(s.to_string());
    }
    Ok(parts.join(":"))
}

/// Hash of the probe's source and shape, the JDK, and each class path entry's path, size and
/// mtime (every file, for folders), so a changed jar or a recompiled fixture gets a fresh probe.
fn cache_key(
    sources: &[(String, String)],
    shape: Shape,
    jdk: &Jdk,
    classpath: &[PathBuf],
) -> String {
    let mut h = Sha256::new();
    h.update(shape.folder().as_bytes());
    h.update([0]);
    for (path, text) in sources {
        h.update(path.as_bytes());
        h.update([0]);
        h.update(text.as_bytes());
        h.update([0]);
    }
    h.update(jdk.home.to_string_lossy().as_bytes());
    h.update([0]);
    for entry in classpath {
        h.update(entry.to_string_lossy().as_bytes());
        h.update([0]);
        stamp(entry, &mut h);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn stamp(path: &Path, h: &mut Sha256) {
    let Ok(meta) = fs::metadata(path) else {
        h.update(b"missing");
        return;
    };
    if meta.is_dir() {
        let mut entries: Vec<PathBuf> = fs::read_dir(path)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            h.update(e.to_string_lossy().as_bytes());
            stamp(&e, h);
        }
    } else {
        h.update(meta.len().to_le_bytes());
        if let Ok(t) = meta.modified() {
            if let Ok(d) = t.duration_since(std::time::UNIX_EPOCH) {
                h.update(d.as_nanos().to_le_bytes());
            }
        }
    }
}
