//! Getting Minecraft onto the class path: the official server jar is a *bundler* (the server
//! jar and every library stored inside it, listed with their SHA-256 in
//! `META-INF/versions.list` and `META-INF/libraries.list`); it is unpacked once into the
//! cache, keyed by the jar's SHA-1, each entry checked. `fetch` downloads that jar the way
//! launchers do: version manifest, the version's JSON, `downloads.server` and its SHA-1; and,
//! for the obfuscated jars before 26.1, `downloads.server_mappings` (Mojang's names for the
//! classes, in ProGuard's text format) and its SHA-1.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha1::Sha1;
use sha2::{Digest, Sha256};

/// Mojang's version manifest, where launchers start.
pub const MANIFEST_URL: &str = "https://piston-meta.mojang.com/mc/game/version_manifest_v2.json";

/// A class path found for a jar, and what to call results made from it.
#[derive(Debug)]
pub struct Found {
    /// The server jar first, then its libraries.
    pub classpath: Vec<PathBuf>,
    /// Provenance: the version id and the jar's SHA-1.
    pub source: String,
    /// The version id, when the jar names one.
    pub version: Option<String>,
    /// The SHA-1 of the jar given.
    pub jar_sha1: String,
}

/// Lowercase hex of a digest.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-1 of a file, streamed.
pub fn sha1_file(path: &Path) -> Result<String, String> {
    let mut f = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut h = Sha1::new();
    io::copy(&mut f, &mut h).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(hex(&h.finalize()))
}

/// The class path for `--minecraft JAR`: a bundler jar is unpacked into the cache; a plain
/// server jar is used as it is (its libraries come from `--classpath`).
pub fn resolve_jar(jar: &Path, cache: &Path) -> Result<Found, String> {
    let sha1 = sha1_file(jar)?;
    let file = File::open(jar).map_err(|e| format!("cannot open {}: {e}", jar.display()))?;
    let mut zip = zip::ZipArchive::new(file)
        .map_err(|e| format!("{} is not a jar (zip): {e}", jar.display()))?;
    if zip.by_name("META-INF/versions.list").is_ok() {
        return unbundle(jar, &sha1, &mut zip, cache);
    }
    let id = version_id(&mut zip);
    Ok(Found {
        classpath: vec![jar.to_path_buf()],
        source: format!(
            "Minecraft {} server jar {} (SHA-1 {sha1})",
            id.as_deref().unwrap_or("(unknown version)"),
            file_name(jar)
        ),
        version: id,
        jar_sha1: sha1,
    })
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The `id` in a jar's `version.json`, if it has one.
fn version_id(zip: &mut zip::ZipArchive<File>) -> Option<String> {
    let mut text = String::new();
    zip.by_name("version.json")
        .ok()?
        .read_to_string(&mut text)
        .ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v.get("id")?.as_str().map(String::from)
}

/// One line of a bundler list: `SHA256<TAB>ID<TAB>PATH`.
struct Listed {
    sha256: String,
    id: String,
    path: String,
}

fn read_list(zip: &mut zip::ZipArchive<File>, name: &str) -> Result<Vec<Listed>, String> {
    let mut text = String::new();
    match zip.by_name(name) {
        Ok(mut f) => f
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read {name}: {e}"))?,
        Err(zip::result::ZipError::FileNotFound) => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split('\t').collect();
        let [sha256, id, path] = parts[..] else {
            return Err(format!(
                "{name} line {}: expected SHA256<TAB>ID<TAB>PATH, got {line:?}",
                n + 1
            ));
        };
        if path.split('/').any(|c| c == ".." || c.is_empty()) {
            return Err(format!("{name} line {}: unsafe path {path:?}", n + 1));
        }
        out.push(Listed {
            sha256: sha256.to_ascii_lowercase(),
            id: id.to_string(),
            path: path.to_string(),
        });
    }
    Ok(out)
}

/// Unpacks a bundler jar into `cache/bundler/<sha1>/`, checking every entry's SHA-256; a
/// finished unpack (marked by a `complete` file) is reused.
fn unbundle(
    jar: &Path,
    sha1: &str,
    zip: &mut zip::ZipArchive<File>,
    cache: &Path,
) -> Result<Found, String> {
    let versions = read_list(zip, "META-INF/versions.list")?;
    let libraries = read_list(zip, "META-INF/libraries.list")?;
    let Some(version) = versions.first() else {
        return Err(format!(
            "{}: META-INF/versions.list is empty",
            jar.display()
        ));
    };
    let dir = cache.join("bundler").join(sha1);
    let mut classpath = Vec::new();
    let done = dir.join("complete");
    let fresh = !done.is_file();
    if fresh {
        let _ = fs::remove_dir_all(&dir);
    }
    for (list, folder) in [(&versions, "versions"), (&libraries, "libraries")] {
        for item in list {
            let target = dir.join(folder).join(&item.path);
            if fresh {
                let name = format!("META-INF/{folder}/{}", item.path);
                extract_checked(zip, &name, &item.sha256, &target)
                    .map_err(|e| format!("{}: {e}", jar.display()))?;
            }
            classpath.push(target);
        }
    }
    if fresh {
        fs::write(&done, b"").map_err(|e| format!("cannot write {}: {e}", done.display()))?;
    }
    Ok(Found {
        classpath,
        source: format!(
            "Minecraft {} server jar (bundler, SHA-1 {sha1})",
            version.id
        ),
        version: Some(version.id.clone()),
        jar_sha1: sha1.to_string(),
    })
}

fn extract_checked(
    zip: &mut zip::ZipArchive<File>,
    name: &str,
    sha256: &str,
    target: &Path,
) -> Result<(), String> {
    let mut entry = zip
        .by_name(name)
        .map_err(|e| format!("{name} is listed but cannot be read: {e}"))?;
    let parent = target.parent().expect("entries live in a folder");
    fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let tmp = target.with_extension("part");
    let mut out =
        File::create(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = entry
            .read(&mut buf)
            .map_err(|e| format!("cannot unpack {name}: {e}"))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    }
    let got = hex(&h.finalize());
    if got != sha256 {
        let _ = fs::remove_file(&tmp);
        return Err(format!(
            "{name}: SHA-256 is {got}, the bundler lists {sha256}"
        ));
    }
    fs::rename(&tmp, target).map_err(|e| format!("cannot write {}: {e}", target.display()))
}

/// The server jar `fetch` wrote last (newest modification time), if any.
pub fn last_fetched(cache: &Path) -> Option<PathBuf> {
    fs::read_dir(cache.join("downloads"))
        .ok()?
        .flatten()
        .map(|e| e.path().join("server.jar"))
        .filter(|jar| jar.is_file())
        .max_by_key(|jar| fs::metadata(jar).and_then(|m| m.modified()).ok())
}

/// How long a download may take: to connect, between two reads (a server that accepts the
/// connection and then says nothing), and in all for one request.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// Connecting (name lookup included).
    pub connect: std::time::Duration,
    /// Waiting for the next bytes.
    pub read: std::time::Duration,
    /// One request, whole (a server jar is about 60 MB).
    pub overall: std::time::Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        let s = std::time::Duration::from_secs;
        Timeouts {
            connect: s(30),
            read: s(60),
            overall: s(900),
        }
    }
}

/// Fetches an HTTP(S) resource whole, within `t`.
fn get(url: &str, t: Timeouts) -> Result<Vec<u8>, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_resolve(Some(t.connect))
        .timeout_connect(Some(t.connect))
        .timeout_per_read(Some(t.read))
        .timeout_global(Some(t.overall))
        .build()
        .into();
    let explain = |e: ureq::Error| match e {
        ureq::Error::Timeout(which) => format!(
            "timed out ({which}; limits: connect {}s, each read {}s, in all {}s; \
             --connect-timeout, --read-timeout, --timeout)",
            t.connect.as_secs_f64(),
            t.read.as_secs_f64(),
            t.overall.as_secs_f64()
        ),
        e => e.to_string(),
    };
    let mut response = agent
        .get(url)
        .call()
        .map_err(|e| format!("GET {url}: {}", explain(e)))?;
    response
        .body_mut()
        .with_config()
        .limit(1 << 31)
        .read_to_vec()
        .map_err(|e| format!("GET {url}: the download broke off: {}", explain(e)))
}

fn get_json(url: &str, t: Timeouts) -> Result<Value, String> {
    let bytes = get(url, t)?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{url} is not JSON: {e}"))
}

/// Downloads Minecraft `version`'s server jar into the cache (checking its SHA-1 and size)
/// and returns its path; with it the server mappings where the version JSON lists them
/// ([`mappings_beside`] the jar), required before 26.1. An already downloaded file with the
/// right SHA-1 is reused.
pub fn fetch(
    version: &str,
    manifest_url: &str,
    cache: &Path,
    timeouts: Timeouts,
) -> Result<PathBuf, String> {
    let manifest = get_json(manifest_url, timeouts)?;
    let versions = manifest
        .get("versions")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{manifest_url}: no `versions` list"))?;
    let entry = versions
        .iter()
        .find(|v| v.get("id").and_then(Value::as_str) == Some(version))
        .ok_or_else(|| {
            let latest = manifest
                .pointer("/latest/release")
                .and_then(Value::as_str)
                .unwrap_or("?");
            format!("version {version} is not in {manifest_url} (latest release: {latest})")
        })?;
    let url = entry
        .get("url")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{manifest_url}: version {version} has no url"))?;
    let meta_bytes = get(url, timeouts)?;
    if let Some(want) = entry.get("sha1").and_then(Value::as_str) {
        let got = hex(&Sha1::digest(&meta_bytes));
        if !got.eq_ignore_ascii_case(want) {
            return Err(format!("{url}: SHA-1 is {got}, the manifest says {want}"));
        }
    }
    let meta: Value =
        serde_json::from_slice(&meta_bytes).map_err(|e| format!("{url} is not JSON: {e}"))?;
    let server = meta.pointer("/downloads/server").ok_or_else(|| {
        format!("{url}: version {version} has no downloads.server (no server jar)")
    })?;
    let dir = cache.join("downloads").join(version);
    let target = dir.join("server.jar");
    download_checked(server, "downloads.server", url, &target, timeouts)?;
    // Before 26.1 the jar is obfuscated: Mojang's names for its classes come beside it.
    match meta.pointer("/downloads/server_mappings") {
        Some(mappings) => download_checked(
            mappings,
            "downloads.server_mappings",
            url,
            &mappings_beside(&target),
            timeouts,
        )?,
        None if super::shape::Shape::obfuscated(version) => {
            return Err(format!(
                "{url}: version {version} has no downloads.server_mappings, and its server jar \
                 is obfuscated (before 26.1): without Mojang's mappings its classes cannot be named"
            ))
        }
        None => {}
    }
    Ok(target)
}

/// Where `fetch` keeps the server mappings (ProGuard's text format) of the jar at `jar`.
pub fn mappings_beside(jar: &Path) -> PathBuf {
    jar.with_file_name("server_mappings.txt")
}

/// Downloads the file a version JSON's `downloads` entry names (`url`, `sha1`, `size`) to
/// `target`, checked against its size and SHA-1; a file already there with that SHA-1 is kept.
fn download_checked(
    entry: &Value,
    what: &str,
    json_url: &str,
    target: &Path,
    timeouts: Timeouts,
) -> Result<(), String> {
    let file_url = entry
        .get("url")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{json_url}: {what} has no url"))?;
    let want = entry
        .get("sha1")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{json_url}: {what} has no sha1"))?
        .to_ascii_lowercase();
    if target.is_file() && sha1_file(target)? == want {
        return Ok(());
    }
    let bytes = get(file_url, timeouts)?;
    if let Some(size) = entry.get("size").and_then(Value::as_u64) {
        if bytes.len() as u64 != size {
            return Err(format!(
                "{file_url}: got {} bytes, expected {size} (a truncated download?)",
                bytes.len()
            ));
        }
    }
    let got = hex(&Sha1::digest(&bytes));
    if got != want {
        return Err(format!(
            "{file_url}: SHA-1 is {got}, the version JSON says {want}"
        ));
    }
    let dir = target.parent().expect("downloads live in a folder");
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let tmp = target.with_extension("part");
    fs::write(&tmp, &bytes)
        .and_then(|()| fs::rename(&tmp, target))
        .map_err(|e| format!("cannot write {}: {e}", target.display()))
}
