//! Which of Minecraft's API shapes the classes on the class path have, and so which of the
//! probe's `Minecraft.java` files is compiled against them (PROTOCOL.md, "The probe (JVM
//! side)"). The containers' calls moved three times between 1.18.2 and 26.3: `PalettedContainerRO`
//! came in 1.19, 1.21.9 made `Strategy` a top-level class holding the registry, and 26.3 added
//! `BitStorage.fill` (with `forEachInPalette`, which came in 26.2).

use std::fs::File;
use std::path::{Path, PathBuf};

/// One API shape, each with its own `rig/probe/shapes/<folder>/paletted/probe/Minecraft.java`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// 26.3 on: a top-level `Strategy` holding the registry, `Configuration` records, a
    /// declared bit count on disk, public `unpack`, `bitsPerEntry`, `forEachInPalette`, `fill`.
    V26,
    /// 1.21.9 to 26.2: as 26.3 but with no `BitStorage.fill` and (before 26.2) no
    /// `forEachInPalette`, so 26.3's probe does not compile against them.
    V1_21_9,
    /// 1.19 to 1.21.8: `PalettedContainer.Strategy` nested, the registry given to the
    /// constructor, `PalettedContainerRO.PackedData` with no bits, `unpack` private.
    V1_19,
    /// 1.18.2: as 1.19 but with no `PalettedContainerRO`; the disk form is private.
    V1_18,
}

/// The class whose presence says the classes are Mojang-named (remapped, or 26.1 on).
const CONTAINER_CLASS: &str = "net/minecraft/world/level/chunk/PalettedContainer";
/// Top-level only from 1.21.9.
const STRATEGY_CLASS: &str = "net/minecraft/world/level/chunk/Strategy";
/// The interface that declares `fill` from 26.3 on.
const BIT_STORAGE_CLASS: &str = "net/minecraft/util/BitStorage";
/// The method of [`BIT_STORAGE_CLASS`] that only 26.3 on has.
const FILL: &str = "fill";
/// Absent in 1.18.2.
const RO_CLASS: &str = "net/minecraft/world/level/chunk/PalettedContainerRO";

impl Shape {
    /// The versions of the shape, for messages.
    pub const fn span(self) -> &'static str {
        match self {
            Shape::V26 => "26.3",
            Shape::V1_21_9 => "1.21.9 to 26.2",
            Shape::V1_19 => "1.19 to 1.21.8",
            Shape::V1_18 => "1.18",
        }
    }

    /// The shape's folder under `rig/probe/shapes/`.
    pub const fn folder(self) -> &'static str {
        match self {
            Shape::V26 => "26.x",
            Shape::V1_21_9 => "1.21.9-26.2",
            Shape::V1_19 => "1.19-1.21",
            Shape::V1_18 => "1.18",
        }
    }

    /// The shape of a version named `name` (a jar's `version.json` id, --classes-version):
    /// `1.18.x`; `1.19` to `1.21.8`; `1.21.9` to `26.2` (`26.1.x` too); `26.3` and everything
    /// newer. Pre-releases and release candidates (`1.21.4-pre1`, `26.3-rc1`) are their
    /// release's. `None` for a snapshot (`24w33a`, `26.1-snapshot-5`): the API moved within
    /// snapshots, so its shape is read from the classes. An error for a version before 1.18.
    pub fn of_version(name: &str) -> Result<Option<Shape>, String> {
        if name.contains("snapshot") {
            return Ok(None);
        }
        let release = name.split(['-', ' ']).next().unwrap_or(name);
        let mut parts = release.split('.').map(|p| p.parse::<u32>().ok());
        let (Some(major), minor, patch) = (parts.next(), parts.next(), parts.next()) else {
            return Ok(Some(Shape::V26));
        };
        let Some(major) = major else {
            // Not a number: a weekly snapshot (`24w33a`) or a name the rig cannot place.
            let weekly = release.len() > 2 && release.as_bytes()[2] == b'w';
            return Ok(if weekly { None } else { Some(Shape::V26) });
        };
        let minor = minor.flatten().unwrap_or(0);
        let patch = patch.flatten().unwrap_or(0);
        Ok(Some(match (major, minor) {
            (1, 18) => Shape::V1_18,
            (1, 19 | 20) => Shape::V1_19,
            (1, 21) if patch < 9 => Shape::V1_19,
            (1, 21) => Shape::V1_21_9,
            (1, m) if m < 18 => {
                return Err(format!(
                    "Minecraft {name} is older than 1.18, the oldest API shape the probe knows \
                     (its chunk containers are not PalettedContainer's of 1.18 on)"
                ))
            }
            (26, ..=2) => Shape::V1_21_9,
            _ => Shape::V26,
        }))
    }

    /// Whether Mojang ships the jar of version `name` obfuscated: every release before 26.1
    /// (their names start with `1.`), snapshots of them included.
    pub fn obfuscated(name: &str) -> bool {
        let weekly_year = name
            .split_once('w')
            .filter(|(y, _)| y.len() == 2)
            .and_then(|(y, _)| y.parse::<u32>().ok());
        name.starts_with("1.") || weekly_year.is_some_and(|y| y < 26)
    }

    /// The shape of the classes on `classpath` (jars and class folders; a source folder's
    /// `.java` files count too): a top-level `Strategy` is 26.3's if `BitStorage` declares
    /// `fill`, else 1.21.9 to 26.2's; `PalettedContainerRO` without it 1.19 to 1.21.8's; a
    /// `PalettedContainer` with neither 1.18's. With no `PalettedContainer` at all, 26.3's, so
    /// that the compile says what is missing.
    pub fn of_classes(classpath: &[PathBuf]) -> Shape {
        if !has_class(classpath, CONTAINER_CLASS) {
            Shape::V26
        } else if has_class(classpath, STRATEGY_CLASS) {
            if declares(classpath, BIT_STORAGE_CLASS, FILL) {
                Shape::V26
            } else {
                Shape::V1_21_9
            }
        } else if has_class(classpath, RO_CLASS) {
            Shape::V1_19
        } else {
            Shape::V1_18
        }
    }

    /// The shape for these classes: from the jar's version when it names one (refused when
    /// the jar is an obfuscated one of before 26.1, which needs remapping first), else from the
    /// classes, which must then agree with a version named by --classes-version.
    pub fn pick(
        jar_version: Option<&str>,
        told: Option<&str>,
        classpath: &[PathBuf],
    ) -> Result<Shape, String> {
        if let Some(v) = jar_version {
            if let Some(shape) = Shape::of_version(v)? {
                if Shape::obfuscated(v) && !has_class(classpath, CONTAINER_CLASS) {
                    return Err(format!(
                        "the jar is Minecraft {v}, whose classes Mojang ships obfuscated (before \
                         26.1): there is no {CONTAINER_CLASS}.class. Remap the jar with Mojang's \
                         mappings for {v} first (`rig minecraft fetch {v}` saves them beside the \
                         jar as server_mappings.txt; the rig does not remap yet) and give the \
                         remapped jar with its libraries"
                    ));
                }
                return Ok(shape);
            }
        }
        let found = Shape::of_classes(classpath);
        if let Some(v) = told {
            if let Some(shape) = Shape::of_version(v)? {
                if shape != found && has_class(classpath, CONTAINER_CLASS) {
                    return Err(format!(
                        "--classes-version {v} is of the {} API shape, but the classes on the \
                         class path are of the {} shape",
                        shape.span(),
                        found.span()
                    ));
                }
            }
        }
        Ok(found)
    }
}

/// Whether `class` (a slash-separated name without `.class`) is on the class path.
fn has_class(classpath: &[PathBuf], class: &str) -> bool {
    classpath.iter().any(|entry| in_entry(entry, class))
}

/// Whether `class` on the class path declares a method named `method` (its first class file,
/// or the text of its `.java` source in a folder).
fn declares(classpath: &[PathBuf], class: &str, method: &str) -> bool {
    for entry in classpath {
        if entry.is_dir() {
            if let Ok(bytes) = std::fs::read(entry.join(format!("{class}.class"))) {
                return method_names(&bytes).is_some_and(|m| m.iter().any(|n| n == method));
            }
            if let Ok(text) = std::fs::read_to_string(entry.join(format!("{class}.java"))) {
                return text.contains(&format!(" {method}("));
            }
            continue;
        }
        let Ok(file) = File::open(entry) else {
            continue;
        };
        let Ok(mut zip) = zip::ZipArchive::new(file) else {
            continue;
        };
        let Ok(mut found) = zip.by_name(&format!("{class}.class")) else {
            continue;
        };
        let mut bytes = Vec::new();
        return std::io::Read::read_to_end(&mut found, &mut bytes).is_ok()
            && method_names(&bytes).is_some_and(|m| m.iter().any(|n| n == method));
    }
    false
}

/// The names of the methods a class file declares (JVMS 4.1), or `None` if it is not one.
fn method_names(class: &[u8]) -> Option<Vec<String>> {
    let mut r = ClassReader {
        bytes: class,
        at: 0,
    };
    if r.u32()? != 0xCAFE_BABE {
        return None;
    }
    r.skip(4)?;
    let count = r.u16()?;
    let mut utf8: Vec<Option<String>> = vec![None; usize::from(count)];
    let mut i = 1;
    while i < count {
        let tag = r.u8()?;
        match tag {
            1 => {
                let len = usize::from(r.u16()?);
                let text = r.take(len)?;
                utf8[usize::from(i)] = Some(String::from_utf8_lossy(text).into_owned());
            }
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => r.skip(4)?,
            5 | 6 => {
                r.skip(8)?;
                i += 1;
            }
            7 | 8 | 16 | 19 | 20 => r.skip(2)?,
            15 => r.skip(3)?,
            _ => return None,
        }
        i += 1;
    }
    r.skip(6)?;
    let interfaces = usize::from(r.u16()?);
    r.skip(2 * interfaces)?;
    let mut members = |names: Option<&mut Vec<String>>| -> Option<()> {
        let mut names = names;
        for _ in 0..r.u16()? {
            r.skip(2)?;
            let name = usize::from(r.u16()?);
            r.skip(2)?;
            if let Some(out) = names.as_deref_mut() {
                out.push(utf8.get(name)?.clone()?);
            }
            for _ in 0..r.u16()? {
                r.skip(2)?;
                let len = usize::try_from(r.u32()?).ok()?;
                r.skip(len)?;
            }
        }
        Some(())
    };
    members(None)?;
    let mut methods = Vec::new();
    members(Some(&mut methods))?;
    Some(methods)
}

/// A big-endian reader over a class file.
struct ClassReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ClassReader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        self.take(n).map(|_| ())
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_be_bytes(self.take(2)?.try_into().ok()?))
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?))
    }
}

fn in_entry(entry: &Path, class: &str) -> bool {
    if entry.is_dir() {
        return entry.join(format!("{class}.class")).is_file()
            || entry.join(format!("{class}.java")).is_file();
    }
    let Ok(file) = File::open(entry) else {
        return false;
    };
    zip::ZipArchive::new(file).is_ok_and(|mut z| z.by_name(&format!("{class}.class")).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_names_its_shape() {
        for (v, shape) in [
            ("1.18.2", Some(Shape::V1_18)),
            ("1.18", Some(Shape::V1_18)),
            ("1.19", Some(Shape::V1_19)),
            ("1.20.1", Some(Shape::V1_19)),
            ("1.21.4-pre1", Some(Shape::V1_19)),
            ("1.21.8", Some(Shape::V1_19)),
            ("1.21.9", Some(Shape::V1_21_9)),
            ("1.21.10", Some(Shape::V1_21_9)),
            ("1.21.11", Some(Shape::V1_21_9)),
            ("1.21.11-rc1", Some(Shape::V1_21_9)),
            ("26.1", Some(Shape::V1_21_9)),
            ("26.1.1", Some(Shape::V1_21_9)),
            ("26.1.2", Some(Shape::V1_21_9)),
            ("26.2", Some(Shape::V1_21_9)),
            ("26.2-pre1", Some(Shape::V1_21_9)),
            ("26.3", Some(Shape::V26)),
            ("26.3-pre1", Some(Shape::V26)),
            ("26.4", Some(Shape::V26)),
            ("27.1", Some(Shape::V26)),
            ("24w33a", None),
            ("26.1-snapshot-5", None),
        ] {
            assert_eq!(Shape::of_version(v).unwrap(), shape, "{v}");
        }
        assert!(Shape::of_version("1.17.1").is_err());
    }

    #[test]
    fn only_releases_before_26_1_are_obfuscated() {
        for v in ["1.18.2", "1.21.11", "25w36b"] {
            assert!(Shape::obfuscated(v), "{v}");
        }
        for v in ["26.1", "26.1-snapshot-5", "26.3", "26w05a"] {
            assert!(!Shape::obfuscated(v), "{v}");
        }
    }

    #[test]
    fn a_class_file_names_its_methods() {
        // A hand-built class file: `interface BitStorage { void fill(int); }`, with a Long
        // constant (two slots) before the names to check the constant pool's indexing.
        let mut c = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 8];
        c.extend([5, 0, 0, 0, 0, 0, 0, 0, 1]); // #1-#2 Long
        for text in ["BitStorage", "fill", "(I)V"] {
            c.extend([1, 0, text.len() as u8]); // #3, #4, #5 Utf8
            c.extend(text.as_bytes());
        }
        c.extend([7, 0, 3]); // #6 Class BitStorage
        c.extend([7, 0, 3]); // #7 (super, unused)
        c.extend([6, 1, 0, 6, 0, 7, 0, 0]); // flags, this, super, no interfaces
        c.extend([0, 0]); // no fields
        c.extend([0, 1, 4, 1, 0, 4, 0, 5, 0, 0]); // one method: fill (I)V, no attributes
        assert_eq!(method_names(&c), Some(vec!["fill".to_string()]));
        assert_eq!(method_names(&c[..c.len() - 3]), None);
        assert_eq!(method_names(b"not a class"), None);
    }
}
