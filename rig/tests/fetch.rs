//! `rig minecraft fetch` and `--minecraft JAR` against a local HTTP server on 127.0.0.1 that
//! the test starts, serving a manifest, a version JSON and a bundler jar the test builds. The
//! bundled "server jar" holds the test fixture's classes (a stand-in, not Minecraft), so the
//! fetched jar also runs `rig diff` end to end.

mod jvm_support;

use std::collections::HashMap;
use std::io::{Cursor, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jvm_support::{divergences, fixture, fresh_dir, golden, rig, run};
use sha1::Sha1;
use sha2::{Digest, Sha256};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// What the server answers for a path.
#[derive(Clone)]
enum Reply {
    Body(Vec<u8>),
    /// Announces the full length, sends only the first half, then hangs up.
    Truncated(Vec<u8>),
}

fn zip_of(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        w.start_file(name.as_str(), opts).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Every file under `dir` as (relative path, bytes).
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_str().unwrap().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// A plain "server jar": the fixture's classes and a version.json.
fn server_jar(fixture: &Path, id: &str) -> Vec<u8> {
    let mut entries = files_under(fixture);
    entries.push((
        "version.json".into(),
        format!("{{\"id\":\"{id}\"}}").into_bytes(),
    ));
    zip_of(&entries)
}

/// A bundler jar holding `server` and one library; `corrupt` lists a wrong SHA-256 for the
/// library.
fn bundler_jar(server: &[u8], id: &str, corrupt: bool) -> Vec<u8> {
    let library = zip_of(&[("lib/Readme.txt".into(), b"a library".to_vec())]);
    let lib_sha = if corrupt {
        "0".repeat(64)
    } else {
        hex(&Sha256::digest(&library))
    };
    let versions = format!(
        "{}\t{id}\t{id}/server-{id}.jar\n",
        hex(&Sha256::digest(server))
    );
    let libraries = format!("{lib_sha}\texample:lib:1.0\texample/lib/1.0/lib-1.0.jar\n");
    zip_of(&[
        (
            "META-INF/main-class".into(),
            b"net.minecraft.server.Main".to_vec(),
        ),
        ("META-INF/versions.list".into(), versions.into_bytes()),
        ("META-INF/libraries.list".into(), libraries.into_bytes()),
        (
            format!("META-INF/versions/{id}/server-{id}.jar"),
            server.to_vec(),
        ),
        (
            "META-INF/libraries/example/lib/1.0/lib-1.0.jar".into(),
            library,
        ),
    ])
}

struct Site {
    manifest: String,
}

/// Server mappings as the loopback site serves them (ProGuard's text format).
const MAPPINGS: &str = "net.minecraft.world.level.chunk.PalettedContainer -> a:\n";

/// A manifest listing 26.3 (good), 26.3-badsha (wrong SHA-1), 26.3-cut (truncated jar); and,
/// as obfuscated versions with server mappings, 1.20.1 (good), 1.20.1-badmap (the mappings'
/// SHA-1 wrong), 1.20.1-cutmap (mappings truncated) and 1.21.11 (none listed).
fn site(jar: &[u8]) -> Site {
    let sha = hex(&Sha1::digest(jar));
    let mut routes: HashMap<String, Reply> = HashMap::new();
    // Documents name the server as BASE; start_with_base puts its address in.
    let version = |id: &str, jar_path: &str, jar_sha: &str, mappings: Option<(&str, &str)>| {
        let mappings = mappings.map_or(String::new(), |(path, sha)| {
            format!(
                r#","server_mappings":{{"sha1":"{sha}","size":{},"url":"BASE{path}"}}"#,
                MAPPINGS.len()
            )
        });
        format!(
            r#"{{"id":"{id}","downloads":{{"server":{{"sha1":"{jar_sha}","size":{},"url":"BASE{jar_path}"}}{mappings}}}}}"#,
            jar.len()
        )
    };
    let map_sha = hex(&Sha1::digest(MAPPINGS.as_bytes()));
    let mut versions = Vec::new();
    for (id, jar_path, jar_sha, mappings) in [
        ("26.3", "/jars/server.jar", sha.clone(), None),
        ("26.3-badsha", "/jars/server.jar", "1".repeat(40), None),
        ("26.3-cut", "/jars/cut.jar", sha.clone(), None),
        (
            "1.20.1",
            "/jars/server.jar",
            sha.clone(),
            Some(("/maps/server.txt", map_sha.clone())),
        ),
        (
            "1.20.1-badmap",
            "/jars/server.jar",
            sha.clone(),
            Some(("/maps/server.txt", "2".repeat(40))),
        ),
        (
            "1.20.1-cutmap",
            "/jars/server.jar",
            sha.clone(),
            Some(("/maps/cut.txt", map_sha.clone())),
        ),
        ("1.21.11", "/jars/server.jar", sha.clone(), None),
    ] {
        let mappings = mappings.as_ref().map(|(p, s)| (*p, s.as_str()));
        versions.push((id.to_string(), version(id, jar_path, &jar_sha, mappings)));
    }
    routes.insert("/jars/server.jar".into(), Reply::Body(jar.to_vec()));
    routes.insert("/jars/cut.jar".into(), Reply::Truncated(jar.to_vec()));
    routes.insert("/maps/server.txt".into(), Reply::Body(MAPPINGS.into()));
    routes.insert("/maps/cut.txt".into(), Reply::Truncated(MAPPINGS.into()));
    let mut docs = HashMap::new();
    let mut entries = Vec::new();
    for (id, json) in &versions {
        let path = format!("/v1/packages/{id}.json");
        let sha = hex(&Sha1::digest(json.as_bytes()));
        entries.push(format!(
            r#"{{"id":"{id}","type":"release","url":"BASE{path}","sha1":"{sha}"}}"#
        ));
        docs.insert(path, json.clone());
    }
    let manifest = format!(
        r#"{{"latest":{{"release":"26.3","snapshot":"26.3"}},"versions":[{}]}}"#,
        entries.join(",")
    );
    docs.insert("/mc/game/version_manifest_v2.json".into(), manifest);
    let base = start_with_base(routes, docs);
    Site {
        manifest: format!("{base}/mc/game/version_manifest_v2.json"),
    }
}

/// Starts a server whose JSON documents have `BASE` replaced by its own address. SHA-1s
/// in the manifest were taken over the documents with `BASE`, so they are recomputed here.
fn start_with_base(mut routes: HashMap<String, Reply>, docs: HashMap<String, String>) -> String {
    // Serve on the listener that reserved the port: releasing it and binding again would
    // race any other process binding meanwhile.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let mut fixed: HashMap<String, String> = docs
        .into_iter()
        .map(|(k, v)| (k, v.replace("BASE", &base)))
        .collect();
    let manifest_path = "/mc/game/version_manifest_v2.json".to_string();
    let mut manifest = fixed.remove(&manifest_path).unwrap();
    for (path, doc) in &fixed {
        let id = path
            .trim_start_matches("/v1/packages/")
            .trim_end_matches(".json");
        let stale = hex(&Sha1::digest(doc.replace(&base, "BASE").as_bytes()));
        let fresh = hex(&Sha1::digest(doc.as_bytes()));
        assert!(manifest.contains(&stale), "{id}");
        manifest = manifest.replace(&stale, &fresh);
        routes.insert(path.clone(), Reply::Body(doc.clone().into_bytes()));
    }
    routes.insert(manifest_path, Reply::Body(manifest.into_bytes()));
    serve_fixed(listener, routes)
}

/// Serves `routes` on `listener` until 100 requests or 120 seconds, whichever first.
fn serve_fixed(listener: TcpListener, routes: HashMap<String, Reply>) -> String {
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let base = format!("http://127.0.0.1:{port}");
    std::thread::spawn(move || {
        let start = Instant::now();
        let mut served = 0;
        while served < 100 && start.elapsed() < Duration::from_secs(120) {
            let Ok((mut stream, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            served += 1;
            stream.set_nonblocking(false).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => req.extend_from_slice(&buf[..n]),
                }
            }
            let line = String::from_utf8_lossy(&req)
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            let path = line.split(' ').nth(1).unwrap_or("/").to_string();
            let head = |n: usize| {
                format!("HTTP/1.1 200 OK\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n")
            };
            let _ = match routes.get(&path) {
                Some(Reply::Body(body)) => stream
                    .write_all(head(body.len()).as_bytes())
                    .and_then(|()| stream.write_all(body)),
                Some(Reply::Truncated(body)) => stream
                    .write_all(head(body.len()).as_bytes())
                    .and_then(|()| stream.write_all(&body[..body.len() / 2])),
                None => stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                ),
            };
        }
    });
    base
}

fn fetch(site: &Site, version: &str, cache: &Path) -> (i32, String, String) {
    run(rig()
        .args([
            "minecraft",
            "fetch",
            version,
            "--manifest-url",
            &site.manifest,
        ])
        .env("RIG_CACHE_DIR", cache))
}

#[test]
fn fetch_downloads_checks_and_unbundles_then_diff_runs_on_it() {
    let Some(fx) = fixture() else { return };
    let jar = bundler_jar(&server_jar(&fx, "26.3"), "26.3", false);
    let site = site(&jar);
    let cache = fresh_dir("fetch-ok-cache");
    let (code, fetched, err) = fetch(&site, "26.3", &cache);
    assert_eq!(code, 0, "{fetched}\n{err}");
    let path = PathBuf::from(fetched.trim());
    assert_eq!(std::fs::read(&path).unwrap(), jar);
    let sha = hex(&Sha1::digest(&jar));
    let unpacked = cache.join("bundler").join(&sha);
    assert!(unpacked.join("versions/26.3/server-26.3.jar").is_file());
    assert!(unpacked
        .join("libraries/example/lib/1.0/lib-1.0.jar")
        .is_file());
    assert!(err.contains("Minecraft 26.3 server jar (bundler"), "{err}");

    // The fetched jar on the class path: the probe compiles against the bundled classes.
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .arg("--minecraft")
        .arg(&path)
        .env("RIG_CACHE_DIR", &cache));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("1 agree, 0 diverge"), "{out}");
    // Its provenance names the version and SHA-1, and still says it is the fixture.
    assert!(
        out.contains(&format!("Minecraft 26.3 server jar (bundler, SHA-1 {sha})")),
        "{out}"
    );
    assert!(out.contains("test fixture — NOT a recording"), "{out}");
    assert!(divergences(&out).is_empty());

    // `rig minecraft fetch 26.3 && rig diff`: with nothing named, diff takes the fetched jar.
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("storage/bits-5.json"))
        .env_remove("MINECRAFT_JAR")
        .env("RIG_CACHE_DIR", &cache));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        err.contains("the jar `rig minecraft fetch` got last"),
        "{err}"
    );
    assert!(out.contains("1 agree, 0 diverge"), "{out}");

    // A second fetch finds the same, already checked download.
    let (code, again, _) = fetch(&site, "26.3", &cache);
    assert_eq!(code, 0);
    assert_eq!(again, fetched);
}

#[test]
fn fetch_refuses_a_wrong_sha1_a_truncated_download_and_a_missing_version() {
    let Some(fx) = fixture() else { return };
    let jar = bundler_jar(&server_jar(&fx, "26.3"), "26.3", false);
    let site = site(&jar);
    let cache = fresh_dir("fetch-bad-cache");

    let (code, _, err) = fetch(&site, "26.3-badsha", &cache);
    assert_eq!(code, 1);
    assert!(
        err.contains("SHA-1 is") && err.contains(&"1".repeat(40)),
        "{err}"
    );

    let (code, _, err) = fetch(&site, "26.3-cut", &cache);
    assert_eq!(code, 1);
    assert!(err.contains("cut.jar"), "{err}");

    let (code, _, err) = fetch(&site, "9.9", &cache);
    assert_eq!(code, 1);
    assert!(
        err.contains("version 9.9 is not in") && err.contains("latest release: 26.3"),
        "{err}"
    );

    // Nothing half-downloaded is left to be mistaken for a jar.
    for v in ["26.3-badsha", "26.3-cut"] {
        assert!(!cache.join("downloads").join(v).join("server.jar").exists());
    }
}

/// Before 26.1 the jar is obfuscated: fetch also gets the version's server mappings, checked
/// against the version JSON's SHA-1 and size, and refuses a version that lists none. No JDK
/// is needed: nothing runs.
#[test]
fn fetch_gets_and_checks_the_server_mappings_before_26_1() {
    let server = zip_of(&[("version.json".into(), br#"{"id":"1.20.1"}"#.to_vec())]);
    let site = site(&bundler_jar(&server, "1.20.1", false));
    let cache = fresh_dir("fetch-mappings-cache");

    let (code, fetched, err) = fetch(&site, "1.20.1", &cache);
    assert_eq!(code, 0, "{fetched}\n{err}");
    let jar = PathBuf::from(fetched.trim());
    let mappings = jar.with_file_name("server_mappings.txt");
    assert_eq!(std::fs::read_to_string(&mappings).unwrap(), MAPPINGS);
    assert!(
        err.contains("Mojang's server mappings (SHA-1 checked)"),
        "{err}"
    );

    let (code, _, err) = fetch(&site, "1.20.1-badmap", &cache);
    assert_eq!(code, 1);
    assert!(
        err.contains("/maps/server.txt: SHA-1 is") && err.contains(&"2".repeat(40)),
        "{err}"
    );
    let (code, _, err) = fetch(&site, "1.20.1-cutmap", &cache);
    assert_eq!(code, 1);
    assert!(err.contains("cut.txt"), "{err}");
    for v in ["1.20.1-badmap", "1.20.1-cutmap"] {
        assert!(!cache
            .join("downloads")
            .join(v)
            .join("server_mappings.txt")
            .exists());
    }

    let (code, _, err) = fetch(&site, "1.21.11", &cache);
    assert_eq!(code, 1);
    assert!(
        err.contains("version 1.21.11 has no downloads.server_mappings"),
        "{err}"
    );
    // 26.x needs none.
    let (code, out, err) = fetch(&site, "26.3", &cache);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!err.contains("server mappings"), "{err}");
}

#[test]
fn a_bundler_entry_with_a_wrong_sha256_is_refused_and_a_plain_jar_is_used_as_is() {
    let Some(fx) = fixture() else { return };
    let dir = fresh_dir("bundler-bad");
    let bad = dir.join("bad-bundler.jar");
    std::fs::write(&bad, bundler_jar(&server_jar(&fx, "26.3"), "26.3", true)).unwrap();
    let (code, _, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .arg("--minecraft")
        .arg(&bad)
        .env("RIG_CACHE_DIR", dir.join("cache")));
    assert_eq!(code, 2);
    assert!(err.contains("lib-1.0.jar: SHA-256 is"), "{err}");

    // A listed path that climbs out of the cache is refused before anything is written.
    let evil = dir.join("evil-bundler.jar");
    let server = server_jar(&fx, "26.3");
    let list = format!("{}\t26.3\t../../evil.jar\n", hex(&Sha256::digest(&server)));
    std::fs::write(
        &evil,
        zip_of(&[
            ("META-INF/versions.list".into(), list.into_bytes()),
            ("META-INF/versions/../../evil.jar".into(), server),
        ]),
    )
    .unwrap();
    let (code, _, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .arg("--minecraft")
        .arg(&evil)
        .env("RIG_CACHE_DIR", dir.join("cache")));
    assert_eq!(code, 2);
    assert!(err.contains("unsafe path"), "{err}");
    assert!(!dir.join("evil.jar").exists() && !dir.join("cache/evil.jar").exists());

    let plain = dir.join("server.jar");
    std::fs::write(&plain, server_jar(&fx, "26.3-plain")).unwrap();
    let (code, out, err) = run(rig()
        .arg("diff")
        .arg(golden().join("flat"))
        .arg("--minecraft")
        .arg(&plain)
        .env("RIG_CACHE_DIR", dir.join("cache")));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("Minecraft 26.3-plain server jar server.jar (SHA-1"),
        "{out}"
    );
}

/// A server that accepts connections and never answers: the fetch ends on its read timeout,
/// says so, and points at --minecraft JAR (no JDK needed; nothing here races the clock, since
/// the server never answers at all).
#[test]
fn a_server_that_never_answers_times_out_with_a_hint() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    let cache = fresh_dir("fetch-silent");
    let (code, _, err) = run(rig()
        .args(["minecraft", "fetch", "26.3", "--manifest-url"])
        .arg(format!("http://127.0.0.1:{port}/manifest.json"))
        .args(["--read-timeout", "1", "--timeout", "600"])
        .env("RIG_CACHE_DIR", &cache));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("timed out"), "{err}");
    assert!(err.contains("--read-timeout"), "{err}");
    assert!(err.contains("--minecraft JAR"), "{err}");
}
