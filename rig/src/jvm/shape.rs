//! Which of Minecraft's API shapes the classes on the class path have, and so which of the
//! probe's `Minecraft.java` files is compiled against them (PROTOCOL.md, "The probe (JVM
//! side)"). The containers' calls moved twice between 1.18.2 and 26.x: `PalettedContainerRO`
//! came in 1.19, and 26.x made `Strategy` a top-level class holding the registry.

use std::fs::File;
use std::path::{Path, PathBuf};

/// One API shape, each with its own `rig/probe/shapes/<folder>/paletted/probe/Minecraft.java`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// 26.x: a top-level `Strategy` holding the registry, `Configuration` records, a declared
    /// bit count on disk, public `unpack`, `bitsPerEntry`, `forEachInPalette`, `fill`.
    V26,
    /// 1.19 to 1.21.x: `PalettedContainer.Strategy` nested, the registry given to the
    /// constructor, `PalettedContainerRO.PackedData` with no bits, `unpack` private.
    V1_19,
    /// 1.18.2: as 1.19 but with no `PalettedContainerRO`; the disk form is private.
    V1_18,
}

/// The class whose presence says the classes are Mojang-named (remapped, or 26.1 on).
const CONTAINER_CLASS: &str = "net/minecraft/world/level/chunk/PalettedContainer";
/// Top-level only from 26.x.
const STRATEGY_CLASS: &str = "net/minecraft/world/level/chunk/Strategy";
/// Absent in 1.18.2.
const RO_CLASS: &str = "net/minecraft/world/level/chunk/PalettedContainerRO";

impl Shape {
    /// The versions of the shape, for messages.
    pub const fn span(self) -> &'static str {
        match self {
            Shape::V26 => "26.x",
            Shape::V1_19 => "1.19 to 1.21.x",
            Shape::V1_18 => "1.18",
        }
    }

    /// The shape's folder under `rig/probe/shapes/`.
    pub const fn folder(self) -> &'static str {
        match self {
            Shape::V26 => "26.x",
            Shape::V1_19 => "1.19-1.21",
            Shape::V1_18 => "1.18",
        }
    }

    /// The shape of a version named `name` (a jar's `version.json` id, --classes-version):
    /// `1.18.x`, `1.19` to `1.21.x` (pre-releases and release candidates too), and everything
    /// else that is not older (26.x, 26.x snapshots) 26.x's. `None` for a weekly snapshot
    /// (`24w33a`): its shape is read from the classes. An error for a version before 1.18.
    pub fn of_version(name: &str) -> Result<Option<Shape>, String> {
        let release = name.split(['-', ' ']).next().unwrap_or(name);
        let mut parts = release.split('.');
        let (Some(major), minor) = (parts.next(), parts.next()) else {
            return Ok(Some(Shape::V26));
        };
        if major != "1" {
            let weekly = major.len() > 2 && major.as_bytes()[2] == b'w';
            return Ok(if weekly { None } else { Some(Shape::V26) });
        }
        match minor.and_then(|m| m.parse::<u32>().ok()) {
            Some(18) => Ok(Some(Shape::V1_18)),
            Some(19..=21) => Ok(Some(Shape::V1_19)),
            Some(m) if m < 18 => Err(format!(
                "Minecraft {name} is older than 1.18, the oldest API shape the probe knows \
                 (its chunk containers are not PalettedContainer's of 1.18 on)"
            )),
            _ => Ok(Some(Shape::V26)),
        }
    }

    /// The shape of the classes on `classpath` (jars and class folders; a source folder's
    /// `.java` files count too): a top-level `Strategy` is 26.x's, `PalettedContainerRO`
    /// without it 1.19 to 1.21.x's, a `PalettedContainer` with neither 1.18's. With no
    /// `PalettedContainer` at all, 26.x, so that the compile says what is missing.
    pub fn of_classes(classpath: &[PathBuf]) -> Shape {
        if !has_class(classpath, CONTAINER_CLASS) || has_class(classpath, STRATEGY_CLASS) {
            Shape::V26
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
                if shape != Shape::V26 && !has_class(classpath, CONTAINER_CLASS) {
                    return Err(format!(
                        "the jar is Minecraft {v}, whose classes Mojang ships obfuscated (before \
                         26.1): there is no {CONTAINER_CLASS}.class. Remap the jar with Mojang's \
                         mappings for {v} first (the rig ships no remapping tool) and give the \
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
            ("1.21.11", Some(Shape::V1_19)),
            ("26.1", Some(Shape::V26)),
            ("26.3-pre1", Some(Shape::V26)),
            ("24w33a", None),
        ] {
            assert_eq!(Shape::of_version(v).unwrap(), shape, "{v}");
        }
        assert!(Shape::of_version("1.17.1").is_err());
    }
}
