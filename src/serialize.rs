//! The `serde` feature: [`Packed`] in the disk form's own keys, so that a
//! server's NBT library can write it into a section's `block_states` or
//! `biomes` compound, and [`Strategy`] as its kind and registry size (and
//! its rules, when they are not 26.x's).
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
use crate::version::Rules;

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

/// [`Rules`] by the first version each covers.
#[derive(Serialize, Deserialize, Default, PartialEq)]
enum RulesName {
    #[serde(rename = "1.18.2")]
    V1_18_2,
    #[serde(rename = "1.20.2")]
    V1_20_2,
    #[default]
    #[serde(rename = "26.1")]
    V26_1,
}

impl RulesName {
    fn is_default(&self) -> bool {
        *self == RulesName::V26_1
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StrategyKeys {
    kind: KindName,
    registry: u32,
    #[serde(default, skip_serializing_if = "RulesName::is_default")]
    rules: RulesName,
}

impl Serialize for Strategy {
    /// `{"kind": "block_states" | "biomes", "registry": N}`, with
    /// `"rules": "1.18.2" | "1.20.2"` for an older version's.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let kind = match self.kind() {
            Kind::BlockStates => KindName::BlockStates,
            Kind::Biomes => KindName::Biomes,
        };
        let rules = match self.rules() {
            Rules::V1_18_2 => RulesName::V1_18_2,
            Rules::V1_20_2 => RulesName::V1_20_2,
            Rules::V26_1 => RulesName::V26_1,
        };
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
        let rules = match rules {
            RulesName::V1_18_2 => Rules::V1_18_2,
            RulesName::V1_20_2 => Rules::V1_20_2,
            RulesName::V26_1 => Rules::V26_1,
        };
        Ok(Strategy::with(kind, registry).with_rules(rules))
    }
}
