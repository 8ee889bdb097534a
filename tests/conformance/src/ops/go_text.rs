//! Go's text rendering as Kubernetes messages use it: apimachinery's `field.Error`
//! constructors with their `Error()` strings (`fieldError`) and `strconv.Quote` / `%q`
//! with the Unicode tables of the Go release that built a Kubernetes release
//! (`goQuote`). Both take an optional `version` input (`"1.31"`), the newest otherwise.

use serde_json::{Value, json};
use taintlab_core::validation::{BadValue, FieldError, GoUnicode, go_quote_with};

use super::OpResult;
use super::kubectl::strings_field;
use super::validation::{bad_value_json, version_input};
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "fieldError" => field_error(input),
        "goQuote" => (|| {
            let version = version_input(input)?;
            let value = str_field(input, "value")?;
            let unicode = GoUnicode::for_release(version);
            Ok(json!({
                "quoted": go_quote_with(value, unicode),
                "unicode": match unicode {
                    GoUnicode::V13_0 => "13.0.0",
                    GoUnicode::V15_0 => "15.0.0",
                },
            }))
        })(),
        _ => return None,
    };
    Some(result)
}

/// `value` as a Go value: `{"string": s}`, `{"named": s}` (a named string type such as
/// `core.TaintEffect`) or `{"int": n}`.
fn bad_value(v: &Value) -> Result<BadValue, String> {
    if let Some(s) = v.get("string").and_then(Value::as_str) {
        Ok(BadValue::String(s.into()))
    } else if let Some(s) = v.get("named").and_then(Value::as_str) {
        Ok(BadValue::Named(s.into()))
    } else if let Some(n) = v.get("int").and_then(Value::as_i64) {
        Ok(BadValue::Int(n))
    } else {
        Err(format!("value must be {{string|named|int: ...}}, got {v}"))
    }
}

fn field_error(input: &Value) -> Result<Value, String> {
    let version = version_input(input)?;
    let path = String::from(str_field(input, "field")?);
    let detail = || input.get("detail").and_then(Value::as_str).unwrap_or("");
    let e = match str_field(input, "constructor")? {
        "Required" => FieldError::required(path, detail()),
        "Forbidden" => FieldError::forbidden(path, detail()),
        "Invalid" => FieldError::invalid(path, bad_value(field(input, "value")?)?, detail()),
        "TypeInvalid" => {
            FieldError::type_invalid(path, bad_value(field(input, "value")?)?, detail())
        }
        "Duplicate" => FieldError::duplicate(path, bad_value(field(input, "value")?)?, detail()),
        "NotSupported" => {
            let supported = strings_field(input, "supported")?;
            let supported: Vec<&str> = supported.iter().map(String::as_str).collect();
            FieldError::not_supported(path, bad_value(field(input, "value")?)?, &supported)
        }
        "TooLong" => FieldError::too_long(
            path,
            str_field(input, "value")?,
            i64_field(input, "maxLength")?,
            version,
        ),
        "TooMany" => FieldError::too_many(
            path,
            i64_field(input, "actualQuantity")?,
            i64_field(input, "maxQuantity")?,
            version,
        ),
        other => return Err(format!("unknown constructor {other}")),
    }
    .at(version);
    Ok(json!({
        "type": e.error_type.name(),
        "reason": e.error_type.reason(),
        "badValue": bad_value_json(&e.bad_value),
        "detail": e.detail,
        "message": e.message(),
    }))
}
