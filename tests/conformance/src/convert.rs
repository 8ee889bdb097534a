//! Conversions between the vectors' JSON shapes and core types.
//!
//! Vectors always write every field (`value: ""`, `tolerationSeconds: null`), so the
//! output helpers do the same rather than using the core types' `omitempty` serde shape.

use serde_json::{Map, Value, json};
use taintlab_core::{Taint, Toleration};

/// Result of reading part of a case.
pub type R<T> = Result<T, String>;

/// `input[key]`, or an error naming the key.
pub fn field<'a>(v: &'a Value, key: &str) -> R<&'a Value> {
    v.get(key).ok_or_else(|| format!("input lacks {key:?}"))
}

/// A string field.
pub fn str_field<'a>(v: &'a Value, key: &str) -> R<&'a str> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| format!("{key:?} is not a string"))
}

/// A boolean field; absent or null is false.
pub fn bool_field(v: &Value, key: &str) -> R<bool> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("{key:?} is not a boolean: {other}")),
    }
}

/// An integer field.
pub fn i64_field(v: &Value, key: &str) -> R<i64> {
    field(v, key)?
        .as_i64()
        .ok_or_else(|| format!("{key:?} is not an integer"))
}

/// The `comparisonOperatorsEnabled` / `allowComparisonOperators` flag, whichever is present.
pub fn gate(v: &Value) -> R<bool> {
    Ok(bool_field(v, "comparisonOperatorsEnabled")? || bool_field(v, "allowComparisonOperators")?)
}

/// One taint.
pub fn taint(v: &Value) -> R<Taint> {
    serde_json::from_value(v.clone()).map_err(|e| format!("bad taint {v}: {e}"))
}

/// One toleration.
pub fn toleration(v: &Value) -> R<Toleration> {
    serde_json::from_value(v.clone()).map_err(|e| format!("bad toleration {v}: {e}"))
}

/// A list of taints; `null` is empty.
pub fn taints(v: &Value) -> R<Vec<Taint>> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(a) => a.iter().map(taint).collect(),
        other => Err(format!("not a taint list: {other}")),
    }
}

/// A list of tolerations; `null` is empty.
pub fn tolerations(v: &Value) -> R<Vec<Toleration>> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(a) => a.iter().map(toleration).collect(),
        other => Err(format!("not a toleration list: {other}")),
    }
}

/// `input[key]` as taints.
pub fn taints_field(v: &Value, key: &str) -> R<Vec<Taint>> {
    taints(field(v, key)?)
}

/// `input[key]` as tolerations.
pub fn tolerations_field(v: &Value, key: &str) -> R<Vec<Toleration>> {
    tolerations(field(v, key)?)
}

/// A taint in the vectors' shape: `{key, value, effect[, timeAdded]}`.
pub fn taint_json(t: &Taint) -> Value {
    let mut m = Map::new();
    m.insert("key".into(), json!(t.key));
    m.insert("value".into(), json!(t.value));
    m.insert("effect".into(), json!(t.effect.as_str()));
    if let Some(ta) = &t.time_added {
        m.insert("timeAdded".into(), json!(ta));
    }
    Value::Object(m)
}

/// A toleration in the vectors' shape: all five fields.
pub fn toleration_json(t: &Toleration) -> Value {
    json!({
        "key": t.key,
        "operator": t.operator.as_str(),
        "value": t.value,
        "effect": t.effect.as_str(),
        "tolerationSeconds": t.toleration_seconds,
    })
}

/// A list of taints.
pub fn taints_json<'a>(ts: impl IntoIterator<Item = &'a Taint>) -> Value {
    Value::Array(ts.into_iter().map(taint_json).collect())
}

/// A list of tolerations.
pub fn tolerations_json<'a>(ts: impl IntoIterator<Item = &'a Toleration>) -> Value {
    Value::Array(ts.into_iter().map(toleration_json).collect())
}
