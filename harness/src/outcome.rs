//! What one operation gave: a value, a `DataResult` error, an exception, or
//! (from an adapter only) word that it cannot run the op.

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
}

impl Outcome {
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
        }
        Value::Object(m)
    }

    /// Reads the golden JSON form, refusing anything else (`unsupported`
    /// too: recorded results never hold it).
    pub fn from_json(v: &Value) -> Result<Outcome, String> {
        match Outcome::from_adapter_json(v)? {
            Outcome::Unsupported(_) => {
                Err("`unsupported` is an adapter's answer, never a recorded result".to_string())
            }
            o => Ok(o),
        }
    }

    /// Reads what an adapter answers for one op: the golden form or
    /// `{"unsupported": "why"}`.
    pub fn from_adapter_json(v: &Value) -> Result<Outcome, String> {
        let m = v
            .as_object()
            .ok_or_else(|| format!("a result is an object, got {v}"))?;
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        match keys.as_slice() {
            ["ok"] => Ok(Outcome::Ok(m["ok"].clone())),
            ["error"] => match &m["error"] {
                Value::String(s) => Ok(Outcome::Error(s.clone())),
                other => Err(format!("`error` is a string, got {other}")),
            },
            ["throws", "message"] | ["message", "throws"] | ["throws"] => {
                let class = match &m["throws"] {
                    Value::String(s) if !s.is_empty() => s.clone(),
                    other => return Err(format!("`throws` is a class name, got {other}")),
                };
                let message = match m.get("message") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(other) => return Err(format!("`message` is a string or null, got {other}")),
                };
                Ok(Outcome::Throws { class, message })
            }
            ["unsupported"] => match &m["unsupported"] {
                Value::String(s) => Ok(Outcome::Unsupported(s.clone())),
                other => Err(format!("`unsupported` is a string, got {other}")),
            },
            _ => Err(format!(
                "a result is {{\"ok\": ..}}, {{\"error\": ..}}, {{\"throws\": .., \"message\": ..}} or {{\"unsupported\": ..}}; got keys {keys:?}"
            )),
        }
    }
}

impl fmt::Display for Outcome {
    /// Compact golden JSON, one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Value::Object(m) = self.to_json() else {
            unreachable!("to_json gives an object")
        };
        let mut map = s.serialize_map(Some(m.len()))?;
        for (k, v) in &m {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let v = Value::deserialize(d)?;
        Outcome::from_json(&v).map_err(de::Error::custom)
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
    fn unsupported_is_an_adapter_answer_only() {
        let v: Value = serde_json::from_str(r#"{"unsupported":"no read"}"#).unwrap();
        let o = Outcome::from_adapter_json(&v).unwrap();
        assert_eq!(o, Outcome::Unsupported("no read".into()));
        assert_eq!(o.to_json(), v);
        assert!(Outcome::from_json(&v).is_err());
        assert!(serde_json::from_str::<Outcome>(r#"{"unsupported":"x"}"#).is_err());
    }
}
