//! A tiny reader for JSON objects with path-aware errors, used for the settings.
//!
//! Serde's derived deserializers (plus a path-tracking wrapper for readable errors) cost
//! more than 100 KB of WebAssembly for the settings alone; this reader gives the same
//! guarantees (unknown fields rejected, every error names its JSON path) in a few KB.
//! `null` counts as "absent" everywhere, so `"maxTolerationSeconds": null` means the
//! default.

use serde_json::{Map, Value};

use crate::request::type_name;
use taintlab_core::suggest::did_you_mean;

/// Result of reading settings: the error text names the field.
pub type Read<T> = Result<T, String>;

/// `message`, followed by `; did you mean "<known name>"?` when `name` looks like a typo
/// of one of `known` ([`taintlab_core::suggest`]).
pub fn with_suggestion(mut message: String, name: &str, known: &[&str]) -> String {
    if let Some(hint) = did_you_mean(name, known) {
        message.push_str("; ");
        message.push_str(&hint);
    }
    message
}

/// A JSON object being read, with its path for messages.
pub struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        String::from(field)
    } else {
        format!("{path}.{field}")
    }
}

impl<'a> Obj<'a> {
    /// Opens `value` as an object, rejecting fields not in `known`.
    pub fn open(value: &'a Value, path: &str, known: &[&str]) -> Read<Self> {
        let Some(map) = value.as_object() else {
            if path.is_empty() {
                return Err(format!("expected a JSON object, got {}", type_name(value)));
            }
            return Err(format!(
                "{path}: expected an object, got {}",
                type_name(value)
            ));
        };
        if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(with_suggestion(
                format!(
                    "{}: unknown field, expected one of {}",
                    join(path, unknown),
                    known.join(", ")
                ),
                unknown,
                known,
            ));
        }
        Ok(Self {
            map,
            path: String::from(path),
        })
    }

    /// The path of a field of this object.
    pub fn at(&self, field: &str) -> String {
        join(&self.path, field)
    }

    /// The field's value, `None` when absent or `null`.
    pub fn get(&self, field: &str) -> Option<&'a Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    fn wrong(&self, field: &str, expected: &str, got: &Value) -> String {
        format!(
            "{}: expected {expected}, got {}",
            self.at(field),
            type_name(got)
        )
    }

    /// A boolean with a default.
    pub fn bool(&self, field: &str, default: bool) -> Read<bool> {
        match self.get(field) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(self.wrong(field, "true or false", v)),
        }
    }

    /// An optional 64-bit integer.
    pub fn opt_i64(&self, field: &str) -> Read<Option<i64>> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Some)
                .ok_or_else(|| format!("{}: expected a 64-bit integer", self.at(field))),
            Some(v) => Err(self.wrong(field, "an integer", v)),
        }
    }

    /// An optional string.
    pub fn opt_string(&self, field: &str) -> Read<Option<String>> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.wrong(field, "a string", v)),
        }
    }

    /// An optional string where `""` also means "not set" (forms send empty strings for
    /// untouched fields).
    pub fn opt_nonempty(&self, field: &str) -> Read<Option<String>> {
        Ok(self.opt_string(field)?.filter(|s| !s.is_empty()))
    }

    /// An optional list where `[]` also means "not set".
    pub fn opt_nonempty_strings(&self, field: &str) -> Read<Option<Vec<String>>> {
        Ok(self.opt_strings(field)?.filter(|v| !v.is_empty()))
    }

    /// A string, empty when absent.
    pub fn string(&self, field: &str) -> Read<String> {
        Ok(self.opt_string(field)?.unwrap_or_default())
    }

    /// An optional list of strings.
    pub fn opt_strings(&self, field: &str) -> Read<Option<Vec<String>>> {
        self.opt_list(field, |v, at| match v {
            Value::String(s) => Ok(s.clone()),
            other => Err(format!("{at}: expected a string, got {}", type_name(other))),
        })
    }

    /// A list of strings, empty when absent.
    pub fn strings(&self, field: &str) -> Read<Vec<String>> {
        Ok(self.opt_strings(field)?.unwrap_or_default())
    }

    /// An optional list whose items are read by `item(value, path)`.
    pub fn opt_list<T>(
        &self,
        field: &str,
        item: impl Fn(&Value, &str) -> Read<T>,
    ) -> Read<Option<Vec<T>>> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Array(items)) => {
                let base = self.at(field);
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| item(v, &format!("{base}[{i}]")))
                    .collect::<Read<Vec<T>>>()
                    .map(Some)
            }
            Some(v) => Err(self.wrong(field, "a list", v)),
        }
    }

    /// A list, empty when absent.
    pub fn list<T>(&self, field: &str, item: impl Fn(&Value, &str) -> Read<T>) -> Read<Vec<T>> {
        Ok(self.opt_list(field, item)?.unwrap_or_default())
    }

    /// A string that must be one of `choices` (returns its index).
    pub fn choice(&self, field: &str, choices: &[&str], default: usize) -> Read<usize> {
        match self.get(field) {
            None => Ok(default),
            Some(Value::String(s)) => choices.iter().position(|c| c == s).ok_or_else(|| {
                format!(
                    "{}: {} is not one of {}",
                    self.at(field),
                    crate::quote(s),
                    choices.join(", ")
                )
            }),
            Some(v) => Err(self.wrong(field, &format!("one of {}", choices.join(", ")), v)),
        }
    }

    /// An optional nested object read by `read(value, path)`.
    pub fn opt_obj<T>(
        &self,
        field: &str,
        read: impl Fn(&Value, &str) -> Read<T>,
    ) -> Read<Option<T>> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => read(v, &self.at(field)).map(Some),
        }
    }
}
