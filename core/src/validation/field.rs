//! apimachinery's `field.Error` (`k8s.io/apimachinery/pkg/util/validation/field/errors.go`):
//! error types, bad values, `Error()` and the aggregate the apiserver puts in its Status.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::go_value::render_internal_taint;
use super::quote::{go_quote, json_quote, push_go_quoted};
use crate::model::Taint;
use crate::version::KubeVersion;

/// Release from which the apiserver renders a Duplicate taint as JSON of the internal
/// struct (before: Go `%#v`).
const DUPLICATE_AS_JSON_MINOR: u16 = 34;

/// apimachinery `field.ErrorType` (the ones taint and toleration validation produce).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldErrorType {
    /// `FieldValueInvalid`: "Invalid value".
    Invalid,
    /// `FieldValueNotSupported`: "Unsupported value".
    NotSupported,
    /// `FieldValueRequired`: "Required value" (no bad value printed).
    Required,
    /// `FieldValueDuplicate`: "Duplicate value".
    Duplicate,
    /// `FieldValueForbidden`: "Forbidden" (no bad value printed).
    Forbidden,
}

impl FieldErrorType {
    /// Short name: `Invalid`, `NotSupported`, `Required`, `Duplicate`, `Forbidden`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid",
            Self::NotSupported => "NotSupported",
            Self::Required => "Required",
            Self::Duplicate => "Duplicate",
            Self::Forbidden => "Forbidden",
        }
    }

    /// The text Go's `ErrorType.String()` prints in messages.
    pub fn text(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::Required => "Required value",
            Self::Duplicate => "Duplicate value",
            Self::Forbidden => "Forbidden",
        }
    }

    /// The machine-readable reason (`FieldValueInvalid`, ...), as in `Status.details.causes`.
    pub fn reason(self) -> &'static str {
        match self {
            Self::Invalid => "FieldValueInvalid",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Required => "FieldValueRequired",
            Self::Duplicate => "FieldValueDuplicate",
            Self::Forbidden => "FieldValueForbidden",
        }
    }
}

impl fmt::Display for FieldErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// How a taint given as a bad value is printed (it changed in 1.34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaintRendering {
    /// Since 1.34: JSON of the internal struct,
    /// `{"Key":"foo","Value":"baz","Effect":"NoSchedule","TimeAdded":null}`.
    Json,
    /// Before 1.34: Go `%#v`,
    /// `core.Taint{Key:"foo", Value:"baz", Effect:"NoSchedule", TimeAdded:<nil>}`.
    GoSyntax,
}

impl TaintRendering {
    /// The rendering the apiserver of `version` uses.
    pub fn for_version(version: KubeVersion) -> Self {
        if version.at_least(DUPLICATE_AS_JSON_MINOR) {
            Self::Json
        } else {
            Self::GoSyntax
        }
    }
}

/// The bad value of a [`FieldError`], with the Go type that decides how it is printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue {
    /// Not printed (Required, Forbidden).
    Omitted,
    /// A Go `string`: printed with `%q` ([`go_quote`]).
    String(String),
    /// A named string type (operator, effect): printed as JSON ([`json_quote`]); the
    /// same as `%q` for printable ASCII except `<`, `>`, `&`.
    Named(String),
    /// A whole taint (the Duplicate error of node taints).
    Taint {
        /// The duplicated taint.
        taint: Taint,
        /// Version-dependent rendering.
        rendering: TaintRendering,
    },
}

impl BadValue {
    /// The text the message shows for this value, `None` when it is omitted.
    pub fn render(&self) -> Option<String> {
        match self {
            Self::Omitted => None,
            Self::String(s) => Some(go_quote(s)),
            Self::Named(s) => Some(json_quote(s)),
            Self::Taint { taint, rendering } => Some(render_internal_taint(taint, *rendering)),
        }
    }

    /// The plain string, for string-like values.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) | Self::Named(s) => Some(s),
            _ => None,
        }
    }
}

/// An apimachinery `field.Error`: one validation failure at one field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The kind of failure.
    pub error_type: FieldErrorType,
    /// Field path, e.g. `spec.tolerations[0].operator`.
    pub field: String,
    /// The offending value.
    pub bad_value: BadValue,
    /// Free text after the value (may be empty).
    pub detail: String,
}

impl FieldError {
    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(field: String, bad_value: BadValue, detail: impl Into<String>) -> Self {
        Self {
            error_type: FieldErrorType::Invalid,
            field,
            bad_value,
            detail: detail.into(),
        }
    }

    /// `field.NotSupported(path, value, supported)`: the detail is
    /// `supported values: "A", "B"`.
    pub fn not_supported(field: String, bad_value: BadValue, supported: &[&str]) -> Self {
        let mut detail = String::new();
        if !supported.is_empty() {
            detail.push_str("supported values: ");
            for (i, v) in supported.iter().enumerate() {
                if i > 0 {
                    detail.push_str(", ");
                }
                push_go_quoted(&mut detail, v);
            }
        }
        Self {
            error_type: FieldErrorType::NotSupported,
            field,
            bad_value,
            detail,
        }
    }

    /// `field.Required(path, detail)`.
    pub fn required(field: String, detail: impl Into<String>) -> Self {
        Self {
            error_type: FieldErrorType::Required,
            field,
            bad_value: BadValue::Omitted,
            detail: detail.into(),
        }
    }

    /// `field.Forbidden(path, detail)`.
    pub fn forbidden(field: String, detail: impl Into<String>) -> Self {
        Self {
            error_type: FieldErrorType::Forbidden,
            field,
            bad_value: BadValue::Omitted,
            detail: detail.into(),
        }
    }

    /// `field.Duplicate(path, value)` with a detail.
    pub fn duplicate(field: String, bad_value: BadValue, detail: impl Into<String>) -> Self {
        Self {
            error_type: FieldErrorType::Duplicate,
            field,
            bad_value,
            detail: detail.into(),
        }
    }

    /// Go's `ErrorBody()`: `<Type>[: <badValue>][: <detail>]`.
    pub fn body(&self) -> String {
        let mut s = String::from(self.error_type.text());
        let shows_value = !matches!(
            self.error_type,
            FieldErrorType::Required | FieldErrorType::Forbidden
        );
        if let (true, Some(v)) = (shows_value, self.bad_value.render()) {
            s.push_str(": ");
            s.push_str(&v);
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// Go's `Error()`: `<field>: <body>`.
    pub fn message(&self) -> String {
        format!("{}: {}", self.field, self.body())
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

/// `ErrorList.ToAggregate().Error()`: duplicates removed, one message as is, several as
/// `[e1, e2]`. `None` for an empty list.
pub fn aggregate_message(errors: &[FieldError]) -> Option<String> {
    let mut seen = BTreeSet::new();
    let mut unique = Vec::new();
    for e in errors {
        let m = e.message();
        if seen.insert(m.clone()) {
            unique.push(m);
        }
    }
    match unique.len() {
        0 => None,
        1 => unique.pop(),
        _ => Some(format!("[{}]", unique.join(", "))),
    }
}

/// The apiserver's `Status.message` for an invalid object:
/// `<Kind> "<name>" is invalid: <aggregate>` (`Pod "p" is invalid: ...`). `kind` is the
/// group-qualified kind (`Pod`, `Deployment.apps`). `None` when there are no errors.
pub fn api_status_message(kind: &str, name: &str, errors: &[FieldError]) -> Option<String> {
    aggregate_message(errors).map(|agg| format!("{kind} {} is invalid: {agg}", go_quote(name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    #[test]
    fn field_error_rendering() {
        let e = FieldError::not_supported(
            String::from("spec.tolerations[0].operator"),
            BadValue::Named(String::from("In")),
            &["Equal", "Exists"],
        );
        assert_eq!(
            e.message(),
            "spec.tolerations[0].operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\""
        );
        let r = FieldError::required(String::from("metadata.taints[0].effect"), "");
        assert_eq!(r.message(), "metadata.taints[0].effect: Required value");
        let f = FieldError::forbidden(String::from("spec.tolerations"), "nope");
        assert_eq!(f.to_string(), "spec.tolerations: Forbidden: nope");
        // Named values use JSON, strings use %q.
        let named = FieldError::invalid(String::from("f"), BadValue::Named(String::from("<")), "");
        assert_eq!(named.message(), "f: Invalid value: \"\\u003c\"");
        let plain = FieldError::invalid(String::from("f"), BadValue::String(String::from("<")), "");
        assert_eq!(plain.message(), "f: Invalid value: \"<\"");
    }

    #[test]
    fn aggregate_dedups_and_brackets() {
        let e1 = FieldError::forbidden(String::from("a"), "x");
        let e2 = FieldError::forbidden(String::from("b"), "y");
        assert_eq!(api_status_message("Pod", "p", &[]), None);
        assert_eq!(
            api_status_message("Pod", "p", &[e1.clone(), e1.clone()]).as_deref(),
            Some("Pod \"p\" is invalid: a: Forbidden: x")
        );
        assert_eq!(
            api_status_message("Node", "n1", &[e1.clone(), e2, e1]).as_deref(),
            Some("Node \"n1\" is invalid: [a: Forbidden: x, b: Forbidden: y]")
        );
    }
}
