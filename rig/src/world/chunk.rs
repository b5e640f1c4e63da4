//! What the check adds to the library's chunk reading (`paletted::anvil`):
//! the marks of a chunk a world upgrader rewrote, and one string a block
//! state, for the run's numbering and the exported cases' names.

use std::collections::BTreeMap;

use paletted::anvil::nbt::{Mutf8, Tag};
use paletted::anvil::{self, SavedSection};

pub use paletted::anvil::FIRST_DATA_VERSION;

/// Whether the chunk still holds pre-1.18 keys (a root `Level`,
/// `below_zero_retrogen`, a section's `Palette` or `BlockStates`): one a
/// world upgrader rewrote, whose sections the game's normal save path did
/// not write. `keys` are the root's.
pub fn upgrader_marks(keys: &[Mutf8], sections: &[Result<SavedSection, anvil::Error>]) -> bool {
    let is = |k: &Mutf8, names: &[&str]| names.iter().any(|n| k.as_bytes() == n.as_bytes());
    keys.iter()
        .any(|k| is(k, &["Level", "below_zero_retrogen"]))
        || sections
            .iter()
            .flatten()
            .any(|s| s.keys.iter().any(|k| is(k, &["Palette", "BlockStates"])))
}

/// A block-state palette entry as one string, `name[key=value,...]` with
/// keys sorted (so that one state has one key), into `out`. `None` for an
/// entry that is not a compound with a string `Name` and string properties.
pub fn state_key(entry: &Tag, out: &mut String) -> Option<()> {
    out.clear();
    let Tag::Compound(c) = entry else { return None };
    let Some(Tag::String(name)) = c.get("Name") else {
        return None;
    };
    out.push_str(&name.to_string());
    let props = match c.get("Properties") {
        None => return Some(()),
        Some(Tag::Compound(p)) => p,
        Some(_) => return None,
    };
    let mut sorted = BTreeMap::new();
    for (k, v) in props.iter() {
        let Tag::String(v) = v else { return None };
        sorted.insert(k.to_string(), v.to_string());
    }
    if !sorted.is_empty() {
        out.push('[');
        for (i, (k, v)) in sorted.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(k);
            out.push('=');
            out.push_str(v);
        }
        out.push(']');
    }
    Some(())
}

/// A biome palette entry's name; `None` if it is not a string.
pub fn biome_name(entry: &Tag) -> Option<String> {
    match entry {
        Tag::String(s) => Some(s.to_string()),
        _ => None,
    }
}
