//! The `serde` feature: the disk form's keys, and what a deserializer refuses.

use paletted::{Packed, PalettedContainer, Strategy};
use serde_json::json;

#[test]
fn packed_uses_the_disk_forms_keys_and_omits_data_for_one_entry() {
    let blocks = Strategy::block_states(35723);
    let mut c = PalettedContainer::new(0, blocks);
    c.set(1, 2, 3, 88);
    let packed = c.pack();
    let value = serde_json::to_value(&packed).unwrap();
    assert_eq!(value["palette"], json!([0, 88]));
    assert_eq!(value["data"].as_array().map(Vec::len), Some(256));
    assert_eq!(value.as_object().unwrap().len(), 2, "{value}");

    let one = PalettedContainer::new(9, blocks).pack();
    assert_eq!(serde_json::to_value(&one).unwrap(), json!({"palette": [9]}));
}

#[test]
fn packed_round_trips_to_the_same_container_without_a_declared_width() {
    let biomes = Strategy::biomes(65);
    let values: Vec<u32> = (0..64).map(|i| i % 5).collect();
    let c = PalettedContainer::from_values(biomes, &values);
    let text = serde_json::to_string(&c.pack()).unwrap();
    let back: Packed = serde_json::from_str(&text).unwrap();
    assert_eq!(back.bits, -1);
    assert_eq!(back.palette, c.pack().palette);
    assert_eq!(back.data, c.pack().data);
    let loaded = PalettedContainer::unpack(biomes, back).unwrap();
    assert!((0..64).all(|i| loaded.get_at(i) == values[i]));
}

#[test]
fn packed_refuses_what_the_disk_form_cannot_hold() {
    for bad in [
        json!({"data": [1]}),
        json!({"palette": [-1]}),
        json!({"palette": [1], "data": [1.5]}),
        json!({"palette": [1], "extra": 1}),
    ] {
        assert!(
            serde_json::from_value::<Packed>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn strategy_is_its_kind_and_registry_size() {
    let s = Strategy::block_states(35723);
    let value = serde_json::to_value(s).unwrap();
    assert_eq!(value, json!({"kind": "block_states", "registry": 35723}));
    assert_eq!(serde_json::from_value::<Strategy>(value).unwrap(), s);
    let b: Strategy = serde_json::from_value(json!({"kind": "biomes", "registry": 65})).unwrap();
    assert_eq!(b, Strategy::biomes(65));
    assert_eq!(b.global_bits(), 7);

    let err = serde_json::from_value::<Strategy>(json!({"kind": "biomes", "registry": 0}));
    assert!(err.unwrap_err().to_string().contains("at least one value"));
    assert!(serde_json::from_value::<Strategy>(json!({"kind": "fluids", "registry": 2})).is_err());
}

#[test]
fn an_older_strategy_names_its_rules() {
    let s = paletted::Version::V1_20_1.block_strategy();
    let value = serde_json::to_value(s).unwrap();
    assert_eq!(
        value,
        json!({"kind": "block_states", "registry": 24135, "rules": "1.18.2"})
    );
    assert_eq!(serde_json::from_value::<Strategy>(value).unwrap(), s);
    let s = paletted::Version::V1_21_4.biome_strategy();
    let back: Strategy = serde_json::from_value(serde_json::to_value(s).unwrap()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn rules_may_name_any_release_and_each_run_writes_one_name() {
    // Every release's name reads as its rules, 1.20.1's included.
    for v in paletted::Version::ALL {
        let value = json!({"kind": "biomes", "registry": 64, "rules": v.name()});
        let s: Strategy = serde_json::from_value(value).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(s.rules(), v.rules(), "{v}");
        // Written back, one stable name a run of rules, read as the same.
        let written = serde_json::to_value(s).unwrap();
        assert_eq!(serde_json::from_value::<Strategy>(written).unwrap(), s);
    }
    let names: Vec<serde_json::Value> = paletted::Rules::ALL
        .iter()
        .map(|&r| {
            serde_json::to_value(Strategy::biomes(64).with_rules(r)).unwrap()["rules"].clone()
        })
        .collect();
    assert_eq!(
        names,
        [
            json!("1.18.2"),
            json!("1.20.2"),
            json!("1.21.5"),
            json!("1.21.9"),
            json!("26.1"),
            serde_json::Value::Null
        ]
    );
    // What was written before reads as it did: no `rules` is 26.3's, with `fill`.
    let old: Strategy = serde_json::from_value(json!({"kind": "biomes", "registry": 65})).unwrap();
    assert!(old.rules().has_fill());
    let err = serde_json::from_value::<Strategy>(
        json!({"kind": "biomes", "registry": 65, "rules": "1.17"}),
    );
    let err = err.unwrap_err().to_string();
    assert!(
        err.starts_with("unknown version `1.17` (known: 1.18, "),
        "{err}"
    );
}
