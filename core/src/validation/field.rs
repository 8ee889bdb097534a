//! apimachinery's `field.Error` (`k8s.io/apimachinery/pkg/util/validation/field/errors.go`):
//! error types, bad values, `Error()` and the aggregate the apiserver puts in its Status.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::go_value::{render_internal_taint, render_internal_toleration};
use super::quote::{GoUnicode, go_quote_with, json_quote, push_go_quoted};
use crate::model::{Taint, Toleration};
use crate::version::KubeVersion;

/// Release whose `ErrorBody()` renders non-string bad values with `json.Marshal`
/// (before: `%#v`), and says `1 byte` / `1 item` in the singular.
const JSON_RENDERING_MINOR: u16 = 34;
/// Release whose `field.TooLong` omits the value and says `may not be more than`.
const TOO_LONG_OMITS_VALUE_MINOR: u16 = 32;
/// Release whose `TooLong` and `TooMany` details use the singular for 1.
const SINGULAR_UNITS_MINOR: u16 = 34;

/// apimachinery `field.ErrorType`: the types Taintlab produces (`NotFound`, `Internal` and
/// the 1.36 `TooShort`/`TooFew` are not modelled).
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
    /// `FieldValueTooLong`: "Too long" (no bad value printed).
    TooLong,
    /// `FieldValueTooMany`: "Too many".
    TooMany,
    /// `FieldValueTypeInvalid`: "Invalid value", like `Invalid`.
    TypeInvalid,
}

impl FieldErrorType {
    /// Short name: `Invalid`, `NotSupported`, `Required`, `Duplicate`, `Forbidden`,
    /// `TooLong`, `TooMany`, `TypeInvalid`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid",
            Self::NotSupported => "NotSupported",
            Self::Required => "Required",
            Self::Duplicate => "Duplicate",
            Self::Forbidden => "Forbidden",
            Self::TooLong => "TooLong",
            Self::TooMany => "TooMany",
            Self::TypeInvalid => "TypeInvalid",
        }
    }

    /// The text Go's `ErrorType.String()` prints in messages.
    pub fn text(self) -> &'static str {
        match self {
            Self::Invalid | Self::TypeInvalid => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::Required => "Required value",
            Self::Duplicate => "Duplicate value",
            Self::Forbidden => "Forbidden",
            Self::TooLong => "Too long",
            Self::TooMany => "Too many",
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
            Self::TooLong => "FieldValueTooLong",
            Self::TooMany => "FieldValueTooMany",
            Self::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// Whether `ErrorBody()` prints the bad value: never for Required, Forbidden and
    /// TooLong (every release modelled).
    pub fn shows_value(self) -> bool {
        !matches!(self, Self::Required | Self::Forbidden | Self::TooLong)
    }
}

impl fmt::Display for FieldErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// How `ErrorBody()` prints a bad value that is neither a plain Go `string` nor a number
/// (a named string type such as `core.TaintEffect`, or a whole struct). It changed in
/// 1.34 (apimachinery `field/errors.go`, `ErrorBody`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaintRendering {
    /// Since 1.34: `json.Marshal` of the value. Structs of the internal API have no JSON
    /// tags: `{"Key":"foo","Value":"baz","Effect":"NoSchedule","TimeAdded":null}`; named
    /// strings are JSON strings (`"\u003c"` for `<`).
    Json,
    /// Before 1.34: Go `%#v`:
    /// `core.Taint{Key:"foo", Value:"baz", Effect:"NoSchedule", TimeAdded:<nil>}`;
    /// named strings are quoted like `%q`.
    GoSyntax,
}

/// The same enum under the name that says what it decides.
pub type ValueRendering = TaintRendering;

impl TaintRendering {
    /// The rendering the apiserver of `version` uses.
    pub fn for_version(version: KubeVersion) -> Self {
        if version.at_least(JSON_RENDERING_MINOR) {
            Self::Json
        } else {
            Self::GoSyntax
        }
    }
}

/// The bad value of a [`FieldError`], with the Go type that decides how it is printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue {
    /// apimachinery's `omitValue` marker (`TooMany` with an unknown quantity): never
    /// printed. Required and Forbidden errors carry `String("")` instead, as upstream.
    Omitted,
    /// A Go `string`: printed with `%q` ([`go_quote_with`] for the release's Unicode).
    String(String),
    /// A named string type (operator, effect): printed as JSON ([`json_quote`]) since
    /// 1.34, with `%#v` (the same as `%q`) before.
    Named(String),
    /// A Go integer (`TooMany`'s actual count): printed with `%v`.
    Int(i64),
    /// A whole taint (the Duplicate error of node taints).
    Taint {
        /// The duplicated taint.
        taint: Taint,
        /// Version-dependent rendering.
        rendering: TaintRendering,
    },
    /// A whole internal `core.Toleration` (the `operator: Exists` value error before
    /// 1.32, kubernetes PR #128119).
    Toleration(Toleration),
}

impl BadValue {
    /// The text the message of the newest release shows for this value, `None` for
    /// [`BadValue::Omitted`]. See [`BadValue::render_at`].
    pub fn render(&self) -> Option<String> {
        self.render_at(KubeVersion::NEWEST)
    }

    /// The text `ErrorBody()` of release `version` shows for this value (whether the
    /// error type prints it at all is [`FieldErrorType::shows_value`]).
    pub fn render_at(&self, version: KubeVersion) -> Option<String> {
        let unicode = GoUnicode::for_release(version);
        match self {
            Self::Omitted => None,
            Self::String(s) => Some(go_quote_with(s, unicode)),
            Self::Named(s) => Some(match TaintRendering::for_version(version) {
                TaintRendering::Json => json_quote(s),
                TaintRendering::GoSyntax => go_quote_with(s, unicode),
            }),
            Self::Int(n) => Some(format!("{n}")),
            Self::Taint { taint, rendering } => {
                Some(render_internal_taint(taint, *rendering, unicode))
            }
            Self::Toleration(t) => Some(render_internal_toleration(
                t,
                TaintRendering::for_version(version),
                unicode,
            )),
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
    /// The offending value (`String("")` for Required and Forbidden, as upstream).
    pub bad_value: BadValue,
    /// Free text after the value (may be empty).
    pub detail: String,
    /// The release whose apiserver (or kubectl) renders the error: it decides how the
    /// bad value is printed. The constructors set the newest release; see
    /// [`FieldError::at`].
    pub version: KubeVersion,
}

impl FieldError {
    fn new(error_type: FieldErrorType, field: String, bad_value: BadValue, detail: String) -> Self {
        Self {
            error_type,
            field,
            bad_value,
            detail,
            version: KubeVersion::NEWEST,
        }
    }

    /// The same error as rendered by release `version`.
    pub fn at(mut self, version: KubeVersion) -> Self {
        self.version = version;
        self
    }

    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(field: String, bad_value: BadValue, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorType::Invalid, field, bad_value, detail.into())
    }

    /// `field.TypeInvalid(path, value, detail)`: printed like `Invalid`.
    pub fn type_invalid(field: String, bad_value: BadValue, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorType::TypeInvalid, field, bad_value, detail.into())
    }

    /// `field.NotSupported(path, value, supported)`: the detail is
    /// `supported values: "A", "B"` (each quoted with `strconv.Quote`), empty when the
    /// list is.
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
        Self::new(FieldErrorType::NotSupported, field, bad_value, detail)
    }

    /// `field.Required(path, detail)`: the bad value is the empty string.
    pub fn required(field: String, detail: impl Into<String>) -> Self {
        Self::new(
            FieldErrorType::Required,
            field,
            BadValue::String(String::new()),
            detail.into(),
        )
    }

    /// `field.Forbidden(path, detail)`: the bad value is the empty string.
    pub fn forbidden(field: String, detail: impl Into<String>) -> Self {
        Self::new(
            FieldErrorType::Forbidden,
            field,
            BadValue::String(String::new()),
            detail.into(),
        )
    }

    /// `field.Duplicate(path, value)`, with the detail callers set afterwards (upstream's
    /// constructor leaves it empty).
    pub fn duplicate(field: String, bad_value: BadValue, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorType::Duplicate, field, bad_value, detail.into())
    }

    /// `field.TooLong(path, value, maxLength)` of release `version`:
    ///
    /// * up to 1.31 the bad value is `value` and the detail `must have at most <n> bytes`;
    /// * from 1.32 the bad value is `"<value omitted>"` and the detail
    ///   `may not be more than <n> bytes` (`value is too long` when `max_length` is
    ///   negative), with `1 byte` in the singular from 1.34.
    ///
    /// `ErrorBody()` never prints the value.
    pub fn too_long(field: String, value: &str, max_length: i64, version: KubeVersion) -> Self {
        let (bad_value, detail) = if version.at_least(TOO_LONG_OMITS_VALUE_MINOR) {
            let detail = if max_length < 0 {
                String::from("value is too long")
            } else {
                let unit = if max_length == 1 && version.at_least(SINGULAR_UNITS_MINOR) {
                    "byte"
                } else {
                    "bytes"
                };
                format!("may not be more than {max_length} {unit}")
            };
            (BadValue::String(String::from("<value omitted>")), detail)
        } else {
            (
                BadValue::String(String::from(value)),
                format!("must have at most {max_length} bytes"),
            )
        };
        Self::new(FieldErrorType::TooLong, field, bad_value, detail).at(version)
    }

    /// `field.TooMany(path, actualQuantity, maxQuantity)` of release `version`: the bad
    /// value is the actual count, or apimachinery's `omitValue` when it is negative; the
    /// detail `must have at most <n> items` (`1 item` in the singular from 1.34), or
    /// `has too many items` when `max_quantity` is negative.
    pub fn too_many(
        field: String,
        actual_quantity: i64,
        max_quantity: i64,
        version: KubeVersion,
    ) -> Self {
        let detail = if max_quantity < 0 {
            String::from("has too many items")
        } else {
            let unit = if max_quantity == 1 && version.at_least(SINGULAR_UNITS_MINOR) {
                "item"
            } else {
                "items"
            };
            format!("must have at most {max_quantity} {unit}")
        };
        let bad_value = if actual_quantity >= 0 {
            BadValue::Int(actual_quantity)
        } else {
            BadValue::Omitted
        };
        Self::new(FieldErrorType::TooMany, field, bad_value, detail).at(version)
    }

    /// The bad value as `ErrorBody()` prints it, `None` when it prints none.
    pub fn rendered_value(&self) -> Option<String> {
        if self.error_type.shows_value() {
            self.bad_value.render_at(self.version)
        } else {
            None
        }
    }

    /// Go's `ErrorBody()`: `<Type>[: <badValue>][: <detail>]`.
    pub fn body(&self) -> String {
        let mut s = String::from(self.error_type.text());
        if let Some(v) = self.rendered_value() {
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
    // Seen messages in a sorted list (`sort::insert_name`), not a `BTreeSet<String>`.
    let mut seen = Vec::new();
    let mut unique = Vec::new();
    for e in errors {
        let m = e.message();
        if crate::sort::insert_name(&mut seen, m.clone()) {
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
    let unicode = GoUnicode::for_release(errors.first().map_or(KubeVersion::NEWEST, |e| e.version));
    aggregate_message(errors)
        .map(|agg| format!("{kind} {} is invalid: {agg}", go_quote_with(name, unicode)))
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

    const V31: KubeVersion = KubeVersion::new(31, 0);
    const V32: KubeVersion = KubeVersion::new(32, 0);
    const V33: KubeVersion = KubeVersion::new(33, 0);
    const V34: KubeVersion = KubeVersion::new(34, 0);

    #[test]
    fn required_and_forbidden_carry_an_empty_string() {
        let r = FieldError::required(String::from("f"), "");
        assert_eq!(r.bad_value, BadValue::String(String::new()));
        assert_eq!(r.bad_value.render().as_deref(), Some("\"\""));
        assert_eq!(r.rendered_value(), None);
        let f = FieldError::forbidden(String::from("f"), "no");
        assert_eq!(f.bad_value, BadValue::String(String::new()));
        assert_eq!(f.message(), "f: Forbidden: no");
    }

    #[test]
    fn too_long_by_release() {
        let old = FieldError::too_long(String::from("f"), "abc", 2, V31);
        assert_eq!(old.bad_value, BadValue::String(String::from("abc")));
        assert_eq!(old.message(), "f: Too long: must have at most 2 bytes");
        let new = FieldError::too_long(String::from("f"), "abc", 2, V32);
        assert_eq!(
            new.bad_value,
            BadValue::String(String::from("<value omitted>"))
        );
        assert_eq!(new.message(), "f: Too long: may not be more than 2 bytes");
        assert_eq!(
            FieldError::too_long(String::from("f"), "ab", 1, V33).detail,
            "may not be more than 1 bytes"
        );
        assert_eq!(
            FieldError::too_long(String::from("f"), "ab", 1, V34).detail,
            "may not be more than 1 byte"
        );
        assert_eq!(
            FieldError::too_long(String::from("f"), "ab", -1, V34).message(),
            "f: Too long: value is too long"
        );
    }

    #[test]
    fn too_many_by_release() {
        let e = FieldError::too_many(String::from("f"), 3, 2, V34);
        assert_eq!(e.bad_value, BadValue::Int(3));
        assert_eq!(e.message(), "f: Too many: 3: must have at most 2 items");
        assert_eq!(
            FieldError::too_many(String::from("f"), 3, 1, V33).message(),
            "f: Too many: 3: must have at most 1 items"
        );
        assert_eq!(
            FieldError::too_many(String::from("f"), 3, 1, V34).message(),
            "f: Too many: 3: must have at most 1 item"
        );
        let omitted = FieldError::too_many(String::from("f"), -1, -1, V34);
        assert_eq!(omitted.bad_value, BadValue::Omitted);
        assert_eq!(omitted.message(), "f: Too many: has too many items");
    }

    #[test]
    fn type_invalid_prints_like_invalid() {
        let e = FieldError::type_invalid(String::from("f"), BadValue::Int(5), "must be a string");
        assert_eq!(e.error_type.reason(), "FieldValueTypeInvalid");
        assert_eq!(e.message(), "f: Invalid value: 5: must be a string");
    }

    #[test]
    fn named_values_are_quoted_before_1_34() {
        let e = FieldError::invalid(String::from("f"), BadValue::Named(String::from("<")), "");
        assert_eq!(e.clone().at(V34).message(), "f: Invalid value: \"\\u003c\"");
        assert_eq!(e.at(V33).message(), "f: Invalid value: \"<\"");
    }

    #[test]
    fn strings_use_the_release_s_unicode_tables() {
        let e = FieldError::invalid(
            String::from("f"),
            BadValue::String(String::from("\u{1f6dc}")),
            "",
        );
        assert_eq!(
            e.clone().at(KubeVersion::new(28, 0)).message(),
            "f: Invalid value: \"\\U0001f6dc\""
        );
        assert_eq!(
            e.at(KubeVersion::new(29, 0)).message(),
            "f: Invalid value: \"\u{1f6dc}\""
        );
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
