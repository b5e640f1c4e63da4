//! Finding a JDK: `JAVA_HOME`, then the newest JDK under `/usr/lib/jvm`, then `java` on the
//! PATH. The probe needs `javac` as well as `libjvm`, so a bare JRE does not count.

use std::env;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// Where distributions put their JDKs; `RIG_JDK_DIR` overrides it (tests use this).
const JDK_DIR: &str = "/usr/lib/jvm";

/// A usable JDK.
#[derive(Clone, Debug)]
pub struct Jdk {
    /// The JDK's home (the folder holding `bin/` and `lib/`).
    pub home: PathBuf,
    /// The feature release (17, 25, ...), from the `release` file.
    pub version: u32,
}

impl Jdk {
    /// The shared library the invocation API loads.
    pub fn libjvm(&self) -> PathBuf {
        if cfg!(target_os = "macos") {
            self.home.join("lib/server/libjvm.dylib")
        } else if cfg!(windows) {
            self.home.join("bin/server/jvm.dll")
        } else {
            self.home.join("lib/server/libjvm.so")
        }
    }

    /// The compiler that binds the probe to the class path at hand.
    pub fn javac(&self) -> PathBuf {
        self.home.join("bin/javac")
    }

    /// Checks that `home` holds a JDK (libjvm and javac), and reads its version.
    pub fn at(home: &Path) -> Result<Jdk, String> {
        let jdk = Jdk {
            home: home.to_path_buf(),
            version: 0,
        };
        if !jdk.libjvm().is_file() {
            return Err(format!("no {}", jdk.libjvm().display()));
        }
        if !jdk.javac().is_file() {
            return Err(format!("no {} (a JRE, not a JDK)", jdk.javac().display()));
        }
        let version = release_version(home)
            .ok_or_else(|| format!("no JAVA_VERSION in {}", home.join("release").display()))?;
        Ok(Jdk { version, ..jdk })
    }
}

/// Why no JDK was found: every place tried, and what was wrong there.
#[derive(Debug)]
pub struct NotFound {
    /// (place, why it was not used)
    pub tried: Vec<(String, String)>,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "no JDK found (the JVM side needs a JDK: libjvm and javac). Tried:"
        )?;
        for (place, why) in &self.tried {
            writeln!(f, "  {place}: {why}")?;
        }
        write!(
            f,
            "Set JAVA_HOME to a JDK, or install one under {JDK_DIR}. Minecraft 26.x needs Java 25 \
             (for example Eclipse Temurin 25)."
        )
    }
}

/// Finds a JDK, in order: `JAVA_HOME`, the newest under `/usr/lib/jvm`, `java` on the PATH.
pub fn find() -> Result<Jdk, NotFound> {
    let mut tried = Vec::new();
    match env::var_os("JAVA_HOME") {
        Some(home) if !home.is_empty() => match Jdk::at(Path::new(&home)) {
            Ok(jdk) => return Ok(jdk),
            Err(why) => tried.push((format!("JAVA_HOME={}", Path::new(&home).display()), why)),
        },
        _ => tried.push(("JAVA_HOME".into(), "not set".into())),
    }

    let dir = env::var_os("RIG_JDK_DIR").map_or_else(|| PathBuf::from(JDK_DIR), PathBuf::from);
    match newest_under(&dir) {
        Ok(jdk) => return Ok(jdk),
        Err(why) => tried.push((dir.display().to_string(), why)),
    }

    match java_on_path() {
        Ok(jdk) => return Ok(jdk),
        Err(why) => tried.push(("java on the PATH".into(), why)),
    }
    Err(NotFound { tried })
}

/// The JDK with the highest version under `dir`.
fn newest_under(dir: &Path) -> Result<Jdk, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list it: {e}"))?;
    let mut best: Option<Jdk> = None;
    let mut rejected = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(real) = fs::canonicalize(&path) else {
            continue;
        };
        if !real.is_dir() {
            continue;
        }
        match Jdk::at(&real) {
            Ok(jdk) => {
                if best.as_ref().is_none_or(|b| jdk.version > b.version) {
                    best = Some(jdk);
                }
            }
            Err(why) => rejected.push(format!("{}: {why}", path.display())),
        }
    }
    best.ok_or_else(|| {
        if rejected.is_empty() {
            "no JDK in it".into()
        } else {
            format!("no JDK in it ({})", rejected.join("; "))
        }
    })
}

/// The JDK that owns the `java` found on the PATH (following symlinks such as Debian's
/// alternatives).
fn java_on_path() -> Result<Jdk, String> {
    let path = env::var_os("PATH").ok_or("PATH is not set")?;
    for dir in env::split_paths(&path) {
        let java = dir.join("java");
        if !java.is_file() {
            continue;
        }
        let real = fs::canonicalize(&java).map_err(|e| format!("{}: {e}", java.display()))?;
        let home = real
            .parent()
            .and_then(Path::parent)
            .ok_or_else(|| format!("{} is not in a JDK's bin/", real.display()))?;
        return Jdk::at(home)
            .map_err(|why| format!("{} -> {}: {why}", java.display(), home.display()));
    }
    Err("no java on it".into())
}

/// The feature release from a JDK's `release` file: `JAVA_VERSION="25.0.1"` gives 25,
/// `"1.8.0_392"` gives 8.
fn release_version(home: &Path) -> Option<u32> {
    let text = fs::read_to_string(home.join("release")).ok()?;
    let line = text.lines().find_map(|l| l.strip_prefix("JAVA_VERSION="))?;
    let version = line.trim().trim_matches('"');
    let mut parts = version.split(['.', '_', '-', '+']);
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 {
        parts.next()?.parse().ok()
    } else {
        Some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_versions() {
        let dir = std::env::temp_dir().join(format!("rig-jdk-release-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for (text, want) in [
            ("JAVA_VERSION=\"25.0.1\"\n", Some(25)),
            ("IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"1.8.0_392\"\n", Some(8)),
            ("JAVA_VERSION=\"17\"\n", Some(17)),
            ("nothing\n", None),
        ] {
            fs::write(dir.join("release"), text).unwrap();
            assert_eq!(release_version(&dir), want, "{text}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    fn fake_jdk(home: &Path, version: &str, javac: bool) {
        fs::create_dir_all(home.join("lib/server")).unwrap();
        fs::create_dir_all(home.join("bin")).unwrap();
        fs::write(home.join("lib/server/libjvm.so"), b"").unwrap();
        if javac {
            fs::write(home.join("bin/javac"), b"").unwrap();
        }
        fs::write(
            home.join("release"),
            format!("JAVA_VERSION=\"{version}\"\n"),
        )
        .unwrap();
    }

    #[test]
    fn the_newest_jdk_wins_and_jres_are_named() {
        let dir = std::env::temp_dir().join(format!("rig-jdk-dir-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fake_jdk(&dir.join("java-17"), "17.0.15", true);
        fake_jdk(&dir.join("temurin-25"), "25.0.1", true);
        fake_jdk(&dir.join("jre-26"), "26", false);
        let jdk = newest_under(&dir).unwrap();
        assert_eq!(jdk.version, 25);
        assert!(jdk.home.ends_with("temurin-25"));
        fs::remove_dir_all(dir.join("temurin-25")).unwrap();
        fs::remove_dir_all(dir.join("java-17")).unwrap();
        let why = newest_under(&dir).unwrap_err();
        assert!(
            why.contains("jre-26") && why.contains("a JRE, not a JDK"),
            "{why}"
        );
        fs::remove_dir_all(&dir).unwrap();
        assert!(newest_under(&dir).unwrap_err().contains("cannot list it"));
    }
}
