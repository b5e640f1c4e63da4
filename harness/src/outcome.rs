//! What one operation gave: a value, a `DataResult` error, an exception, or
//! (from an adapter only) word that it cannot run the op; or, in a recording,
//! every result an op gave when it depended on the run (see [`Outcome::AnyOf`]).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

/// The result of one operation, in the golden form:
/// `{"ok": V}`, `{"error": "..."}` or `{"throws": "Class", "message": "..." | null}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The call returned this value.
    Ok(Value),
    /// A `DataResult` error with this message (only `unpack` gives these).
    Error(String),
    /// The call threw: the exception's simple class name and its message.
    Throws {
        /// Simple class name, such as `MissingPaletteEntryException`.
        class: String,
        /// The message, `None` for a Java `null`.
        message: Option<String>,
    },
    /// An adapter cannot run this op (or the subject): `{"unsupported": "why"}`.
    /// Never in a recording; a case that meets one before any difference is
    /// counted apart, neither passed nor failed.
    Unsupported(String),
    /// A run-dependent op: Minecraft gave each of these (distinct, in the
    /// order the identity-hash regimes gave them) on the same case, so none
    /// is a fact and a side matching any one agrees. One result when every
    /// regime gave it but the Rust side's model (`hashdep`) says it can
    /// depend on the run: still not a fact, so never written as a plain one.
    /// `{"any_of": [R1, R2, ..]}` in a snapshot; a golden file keeps it in
    /// its `run_dependent` key (PROTOCOL.md, "Run-dependent results").
    /// Only a recording holds one, never an adapter's or the probe's answer.
    AnyOf(Vec<Outcome>),
}

impl Outcome {
    /// The result of an op run several times, once a regime: the one result
    /// when every run agrees, else [`Outcome::AnyOf`] of the distinct ones,
    /// first seen first (a run-dependent one among them is opened up).
    pub fn seen(runs: impl IntoIterator<Item = Outcome>) -> Outcome {
        let mut distinct: Vec<Outcome> = Vec::new();
        for run in runs {
            let alternatives = match run {
                Outcome::AnyOf(v) => v,
                one => vec![one],
            };
            for a in alternatives {
                if !distinct.contains(&a) {
                    distinct.push(a);
                }
            }
        }
        if distinct.len() == 1 {
            distinct.pop().expect("one")
        } else {
            Outcome::AnyOf(distinct)
        }
    }

    /// Every result this stands for: itself, or a run-dependent op's
    /// alternatives.
    pub fn alternatives(&self) -> &[Outcome] {
        match self {
            Outcome::AnyOf(v) => v,
            one => std::slice::from_ref(one),
        }
    }

    /// Whether this is a run-dependent op's results ([`Outcome::AnyOf`]).
    pub fn is_run_dependent(&self) -> bool {
        matches!(self, Outcome::AnyOf(_))
    }

    /// A thrown exception with a message.
    pub fn throws(class: &str, message: impl Into<String>) -> Outcome {
        Outcome::Throws {
            class: class.to_string(),
            message: Some(message.into()),
        }
    }

    /// The golden JSON form.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        match self {
            Outcome::Ok(v) => {
                m.insert("ok".into(), v.clone());
            }
            Outcome::Error(e) => {
                m.insert("error".into(), Value::String(e.clone()));
            }
            Outcome::Throws { class, message } => {
                m.insert("throws".into(), Value::String(class.clone()));
                m.insert(
                    "message".into(),
                    message.clone().map_or(Value::Null, Value::String),
                );
            }
            Outcome::Unsupported(why) => {
                m.insert("unsupported".into(), Value::String(why.clone()));
            }
            Outcome::AnyOf(v) => {
                m.insert(
                    "any_of".into(),
                    Value::Array(v.iter().map(Outcome::to_json).collect()),
                );
            }
        }
        Value::Object(m)
    }

    /// Reads a recorded result: the golden JSON form, or a run-dependent
    /// op's `{"any_of": [..]}` of one or more distinct golden results;
    /// refuses anything else (`unsupported` too: recorded results never hold
    /// it). Takes the value, so a result is moved out, not copied.
    pub fn from_json(v: Value) -> Result<Outcome, String> {
        let v = match v {
            Value::Object(mut m) if m.len() == 1 && m.contains_key("any_of") => {
                let Some(Value::Array(items)) = m.remove("any_of") else {
                    return Err("`any_of` is a list of results".to_string());
                };
                return Outcome::any_of(items);
            }
            v => v,
        };
        Outcome::from_golden_json(v)
    }

    /// A run-dependent op's results from their JSON list: one or more
    /// distinct golden results.
    pub fn any_of(items: Vec<Value>) -> Result<Outcome, String> {
        let mut alternatives = Vec::with_capacity(items.len());
        for item in items {
            let o = Outcome::from_golden_json(item).map_err(|e| format!("`any_of`: {e}"))?;
            if alternatives.contains(&o) {
                return Err(format!("`any_of` lists {o} twice"));
            }
            alternatives.push(o);
        }
        if alternatives.is_empty() {
            return Err("`any_of` lists one or more results".to_string());
        }
        Ok(Outcome::AnyOf(alternatives))
    }

    /// The golden form alone: what the probe answers and a golden file's
    /// `results` hold.
    pub fn from_golden_json(v: Value) -> Result<Outcome, String> {
        match Outcome::from_adapter_json(v)? {
            Outcome::Unsupported(_) => {
                Err("`unsupported` is an adapter's answer, never a recorded result".to_string())
            }
            o => Ok(o),
        }
    }

    /// Reads what an adapter answers for one op: the golden form or
    /// `{"unsupported": "why"}`.
    pub fn from_adapter_json(v: Value) -> Result<Outcome, String> {
        let mut m = match v {
            Value::Object(m) => m,
            v => return Err(format!("a result is an object, got {v}")),
        };
        let known = match m.len() {
            1 => ["ok", "error", "throws", "unsupported"]
                .iter()
                .any(|k| m.contains_key(*k)),
            2 => m.contains_key("throws") && m.contains_key("message"),
            _ => false,
        };
        if !known {
            let keys: Vec<&str> = m.keys().map(String::as_str).collect();
            return Err(format!(
                "a result is {{\"ok\": ..}}, {{\"error\": ..}}, {{\"throws\": .., \"message\": ..}} or {{\"unsupported\": ..}}; got keys {keys:?}"
            ));
        }
        if let Some(v) = m.remove("ok") {
            return Ok(Outcome::Ok(v));
        }
        let text = |v: Value, what: &str| match v {
            Value::String(s) => Ok(s),
            other => Err(format!("`{what}` is a string, got {other}")),
        };
        if let Some(e) = m.remove("error") {
            return text(e, "error").map(Outcome::Error);
        }
        if let Some(why) = m.remove("unsupported") {
            return text(why, "unsupported").map(Outcome::Unsupported);
        }
        let class = match m.remove("throws") {
            Some(Value::String(s)) if !s.is_empty() => s,
            other => {
                let other = other.unwrap_or(Value::Null);
                return Err(format!("`throws` is a class name, got {other}"));
            }
        };
        let message = match m.remove("message") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => return Err(format!("`message` is a string or null, got {other}")),
        };
        Ok(Outcome::Throws { class, message })
    }
}

/// Reads a JSON list of results in the golden form straight from its text,
/// with no JSON tree for the result objects themselves (a live run reads one
/// list a case, and the objects were most of the cost). `None` for anything
/// [`Outcome::from_json`] might read otherwise or refuse: the caller then
/// takes that slow path, which says what is wrong and where.
pub fn golden_list(bytes: &[u8]) -> Option<Vec<Outcome>> {
    serde_json::from_slice::<Vec<Golden>>(bytes)
        .ok()
        .map(|list| list.into_iter().map(|g| g.0).collect())
}

/// One result, read by [`golden_list`]'s visitor.
struct Golden(Outcome);

impl<'de> Deserialize<'de> for Golden {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Golden, D::Error> {
        d.deserialize_map(GoldenVisitor)
    }
}

/// A result object's key.
enum Key {
    Ok,
    Error,
    Throws,
    Message,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl de::Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("ok, error, throws or message")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                match key {
                    "ok" => Ok(Key::Ok),
                    "error" => Ok(Key::Error),
                    "throws" => Ok(Key::Throws),
                    "message" => Ok(Key::Message),
                    other => Err(E::custom(format!("unknown key {other}"))),
                }
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

struct GoldenVisitor;

impl<'de> de::Visitor<'de> for GoldenVisitor {
    type Value = Golden;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a result in the golden form")
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Golden, A::Error> {
        let mut ok = None;
        let mut error = None;
        let mut throws: Option<String> = None;
        let mut message: Option<Option<String>> = None;
        let mut keys = 0;
        while let Some(key) = map.next_key::<Key>()? {
            keys += 1;
            match key {
                Key::Ok => ok = Some(map.next_value::<Value>()?),
                Key::Error => error = Some(map.next_value::<String>()?),
                Key::Throws => throws = Some(map.next_value::<String>()?),
                Key::Message => message = Some(map.next_value::<Option<String>>()?),
            }
        }
        // Exactly the shapes `from_json` takes, each key once.
        let outcome = match (ok, error, throws, message, keys) {
            (Some(v), None, None, None, 1) => Outcome::Ok(v),
            (None, Some(e), None, None, 1) => Outcome::Error(e),
            (None, None, Some(class), message, n)
                if !class.is_empty() && n == 1 + usize::from(message.is_some()) =>
            {
                Outcome::Throws {
                    class,
                    message: message.flatten(),
                }
            }
            _ => return Err(de::Error::custom("not a golden result")),
        };
        Ok(Golden(outcome))
    }
}

impl fmt::Display for Outcome {
    /// Compact golden JSON, one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

impl Serialize for Outcome {
    /// The golden form, keys in [`Outcome::to_json`]'s order, with nothing copied.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let len = if matches!(self, Outcome::Throws { .. }) {
            2
        } else {
            1
        };
        let mut map = s.serialize_map(Some(len))?;
        match self {
            Outcome::Ok(v) => map.serialize_entry("ok", v)?,
            Outcome::Error(e) => map.serialize_entry("error", e)?,
            Outcome::Throws { class, message } => {
                map.serialize_entry("throws", class)?;
                map.serialize_entry("message", message)?;
            }
            Outcome::Unsupported(why) => map.serialize_entry("unsupported", why)?,
            Outcome::AnyOf(v) => map.serialize_entry("any_of", v)?,
        }
        map.end()
    }
}

/// A list of results as compact JSON, the form the probe answers in for the same results:
/// an answer equal to it byte for byte needs no reading.
pub fn golden_text(results: &[Outcome]) -> Vec<u8> {
    serde_json::to_vec(results).expect("results serialize: keys are strings")
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let v = Value::deserialize(d)?;
        Outcome::from_json(v).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_forms_round_trip() {
        for text in [
            r#"{"ok":null}"#,
            r#"{"ok":{"palette":[5],"data":null,"bits":0}}"#,
            r#"{"error":"Missing values for non-zero storage"}"#,
            r#"{"throws":"IllegalStateException","message":"Use of an uninitialized palette"}"#,
            r#"{"throws":"X","message":null}"#,
        ] {
            let o: Outcome = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&o).unwrap(), text);
        }
        assert!(serde_json::from_str::<Outcome>(r#"{"ok":1,"error":"x"}"#).is_err());
    }

    #[test]
    fn golden_lists_read_as_each_result_does() {
        let list = r#"[{"ok":null},{"ok":{"palette":[5],"data":[-1],"bits":4}},{"error":"e"},
            {"throws":"X","message":null},{"message":"m","throws":"Y"},{"throws":"Z"},{"ok":"00ff"}]"#;
        let slow: Vec<Outcome> = serde_json::from_str::<Vec<Value>>(list)
            .unwrap()
            .into_iter()
            .map(|v| Outcome::from_json(v).unwrap())
            .collect();
        assert_eq!(golden_list(list.as_bytes()), Some(slow));
        // Whatever the slow path refuses, or might read otherwise, the fast one leaves to it.
        for refused in [
            r#"[{"ok":1,"error":"x"}]"#,
            r#"[{"ok":1,"ok":2}]"#,
            r#"[{"throws":""}]"#,
            r#"[{"throws":"X","message":1}]"#,
            r#"[{"message":"m"}]"#,
            r#"[{"unsupported":"x"}]"#,
            r#"[{"error":1}]"#,
            r#"[{}]"#,
            r#"[1]"#,
            r#"{"fatal":"x"}"#,
        ] {
            assert_eq!(golden_list(refused.as_bytes()), None, "{refused}");
        }
    }

    #[test]
    fn a_compact_golden_list_is_its_own_text() {
        // The probe's form: no spaces, `throws` before `message`.
        let list = r#"[{"ok":null},{"ok":{"palette":[5],"data":[-1],"bits":4}},{"error":"e \"q\""},{"throws":"X","message":null},{"throws":"Y","message":"m\n"},{"ok":"00ff"},{"ok":[[3,4096]]}]"#;
        let results = golden_list(list.as_bytes()).unwrap();
        assert_eq!(String::from_utf8(golden_text(&results)).unwrap(), list);
        for o in &results {
            assert_eq!(serde_json::to_value(o).unwrap(), o.to_json());
        }
        let why = Outcome::Unsupported("no read".into());
        assert_eq!(serde_json::to_value(&why).unwrap(), why.to_json());
    }

    #[test]
    fn a_run_dependent_result_is_any_of_its_distinct_alternatives() {
        let a = Outcome::Ok(serde_json::json!([[186, 2]]));
        let b = Outcome::Ok(serde_json::json!([[186, 1], [186, 1]]));
        assert_eq!(Outcome::seen([a.clone(), a.clone()]), a);
        let both = Outcome::seen([a.clone(), b.clone(), a.clone()]);
        assert_eq!(both, Outcome::AnyOf(vec![a.clone(), b.clone()]));
        assert_eq!(both.alternatives(), &[a.clone(), b.clone()]);
        let text = r#"{"any_of":[{"ok":[[186,2]]},{"ok":[[186,1],[186,1]]}]}"#;
        assert_eq!(both.to_string(), text);
        assert_eq!(serde_json::to_string(&both).unwrap(), text);
        assert_eq!(serde_json::from_str::<Outcome>(text).unwrap(), both);
        // One result seen, of an op that can depend on the run: kept as such.
        let one = r#"{"any_of":[{"ok":1}]}"#;
        let marked = serde_json::from_str::<Outcome>(one).unwrap();
        assert_eq!(marked, Outcome::AnyOf(vec![Outcome::Ok(1.into())]));
        assert_eq!(marked.to_string(), one);
        for bad in [
            r#"{"any_of":[]}"#,
            r#"{"any_of":[{"ok":1},{"ok":1}]}"#,
            r#"{"any_of":[{"ok":1},{"any_of":[{"ok":2},{"ok":3}]}]}"#,
            r#"{"any_of":[{"ok":1},{"unsupported":"x"}]}"#,
            r#"{"any_of":{"ok":1}}"#,
        ] {
            assert!(serde_json::from_str::<Outcome>(bad).is_err(), "{bad}");
        }
        // Never an adapter's answer, nor in the probe's fast path.
        let v: Value = serde_json::from_str(text).unwrap();
        assert!(Outcome::from_adapter_json(v).is_err());
        assert_eq!(golden_list(format!("[{text}]").as_bytes()), None);
    }

    #[test]
    fn unsupported_is_an_adapter_answer_only() {
        let v: Value = serde_json::from_str(r#"{"unsupported":"no read"}"#).unwrap();
        let o = Outcome::from_adapter_json(v.clone()).unwrap();
        assert_eq!(o, Outcome::Unsupported("no read".into()));
        assert_eq!(o.to_json(), v);
        assert!(Outcome::from_json(v).is_err());
        assert!(serde_json::from_str::<Outcome>(r#"{"unsupported":"x"}"#).is_err());
    }
}
