//! The `serde` feature: [`Packed`] in the disk form's own keys, so that a
//! server's NBT library can write it into a section's `block_states` or
//! `biomes` compound, and [`Strategy`] as its kind and registry size (and
//! its rules, when they are not 26.3's, named by a release of theirs).
//!
//! Registry ids stay ids: mapping them to block-state names is the
//! server's job. The saved form has no key for the declared width, so a
//! deserialized [`Packed`] declares none (`bits` is -1) and `unpack` takes
//! the width from the palette's size.

use serde::de::{Deserializer, Error as _};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::pack::Packed;
use crate::strategy::{Kind, Strategy};
use crate::version::{Rules, Version};

impl Serialize for Packed {
    /// `palette`, then `data` when there is any (a one-entry palette saves none).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Packed", 1 + usize::from(self.data.is_some()))?;
        st.serialize_field("palette", &self.palette)?;
        match &self.data {
            Some(data) => st.serialize_field("data", data)?,
            None => st.skip_field("data")?,
        }
        st.end()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PackedKeys {
    palette: Vec<u32>,
    #[serde(default)]
    data: Option<Vec<i64>>,
}

impl<'de> Deserialize<'de> for Packed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Packed, D::Error> {
        let PackedKeys { palette, data } = PackedKeys::deserialize(d)?;
        Ok(Packed::new(palette, data))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum KindName {
    BlockStates,
    Biomes,
}

/// The name written for each [`Rules`]: a release of that run, the one
/// the rules are named after. Names written before (`1.18.2`, `1.20.2`) are
/// still the ones written, so that output stays as it was; 26.3's, the
/// default, is left out.
fn rules_name(rules: Rules) -> Option<&'static str> {
    match rules {
        Rules::V1_18_2 => Some("1.18.2"),
        Rules::V1_20_2 => Some("1.20.2"),
        Rules::V1_21_5 => Some("1.21.5"),
        Rules::V1_21_9 => Some("1.21.9"),
        Rules::V26_1 => Some("26.1"),
        Rules::V26_3 => None,
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StrategyKeys {
    kind: KindName,
    registry: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules: Option<String>,
}

impl Serialize for Strategy {
    /// `{"kind": "block_states" | "biomes", "registry": N}`, with
    /// `"rules": "1.18.2" | "1.20.2" | "1.21.5" | "1.21.9" | "26.1"` for an
    /// older version's. Read back, `rules` may name any release.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let kind = match self.kind() {
            Kind::BlockStates => KindName::BlockStates,
            Kind::Biomes => KindName::Biomes,
        };
        let rules = rules_name(self.rules()).map(str::to_owned);
        StrategyKeys {
            kind,
            registry: self.registry_size(),
            rules,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Strategy {
    /// Refuses a registry of 0 (no strategy has one) with an error, not the
    /// panic of [`Strategy::with`].
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strategy, D::Error> {
        let StrategyKeys {
            kind,
            registry,
            rules,
        } = StrategyKeys::deserialize(d)?;
        if registry == 0 {
            return Err(D::Error::custom("a registry needs at least one value"));
        }
        let kind = match kind {
            KindName::BlockStates => Kind::BlockStates,
            KindName::Biomes => Kind::Biomes,
        };
        // Any release's name gives its rules: the names written here, and
        // every other in the table.
        let rules = match rules {
            None => Rules::default(),
            Some(name) => name.parse::<Version>().map_err(D::Error::custom)?.rules(),
        };
        Ok(Strategy::with(kind, registry).with_rules(rules))
    }
}
