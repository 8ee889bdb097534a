//! API validation of tolerations (pods) and taints (nodes) with the apiserver's exact
//! messages (`pkg/apis/core/validation/validation.go` and the apimachinery message
//! helpers).
//!
//! * [`FieldError`] mirrors apimachinery's `field.Error`; [`FieldError::message`] is Go's
//!   `Error()` and [`api_status_message`] the `<Kind> "<name>" is invalid: ...` text.
//! * The label checks ([`qualified_name_errors`], [`label_value_errors`]) are public so
//!   `kubectl taint` and other front ends reuse the same messages.
//! * Messages changed between releases (`bytes` versus `characters`, the Duplicate
//!   rendering), so every function takes a [`KubeVersion`].

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::matching::{is_decimal_integer, match_toleration};
use crate::model::{Operator, Taint, TaintEffect, Toleration};
use crate::version::KubeVersion;

/// Default path of pod tolerations (`spec.template.spec.tolerations` in workloads).
pub const POD_TOLERATIONS_PATH: &str = "spec.tolerations";
/// Path upstream reports node taint errors under. Upstream quirk: it is
/// `metadata.taints`, not `spec.taints`.
pub const NODE_TAINTS_PATH: &str = "metadata.taints";
/// Maximum length of a label value and of the name part of a label key.
pub const LABEL_MAX_LENGTH: usize = 63;
/// Maximum length of a DNS-1123 subdomain (the prefix of a label key).
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;

/// Release whose apimachinery moved the label checks to the `content` package: length
/// messages say `bytes` and the too-many-slashes message says `a valid label key`.
const CONTENT_PACKAGE_MINOR: u16 = 35;
/// Release from which the apiserver renders a Duplicate taint as JSON of the internal
/// struct (before: Go `%#v`).
const DUPLICATE_AS_JSON_MINOR: u16 = 34;
/// Release that added the `Lt`/`Gt` branch to `ValidateTolerations`.
const COMPARISON_OPERATORS_MINOR: u16 = 35;

// ---------------------------------------------------------------------------------------
// Go string rendering
// ---------------------------------------------------------------------------------------

/// Go's `strconv.Quote` (and therefore `%q`): escapes quotes, backslashes and every rune
/// Go does not consider printable.
///
/// Printability is exact for Latin-1. Above U+00FF this crate has no Unicode tables, so it
/// treats as non-printable the spaces and separators, format characters (`Cf`), private-use
/// code points and noncharacters; unassigned code points are printed as is (Go escapes
/// them).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_go_quoted(&mut out, s);
    out
}

fn push_go_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_go_printable(c) => out.push(c),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x1_0000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
}

/// Go's `strconv.IsPrint`, exact up to U+00FF and approximated above (see [`go_quote`]).
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    if u <= 0xFF {
        return (0x20..=0x7E).contains(&u) || ((0xA1..=0xFF).contains(&u) && u != 0xAD);
    }
    if c.is_whitespace() || c.is_control() {
        return false;
    }
    let format_or_private = matches!(u,
        0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xD800..=0xF8FF | 0xFDD0..=0xFDEF | 0xFEFF | 0xFFF9..=0xFFFB
        | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0001 | 0xE0020..=0xE007F | 0xF0000..=0x10FFFF);
    // U+xxFFFE and U+xxFFFF are noncharacters in every plane.
    !format_or_private && (u & 0xFFFE) != 0xFFFE
}

/// Go's `encoding/json` encoding of a string (as `json.Marshal` does it: with HTML
/// escaping of `<`, `>`, `&`, and `\b`/`\f` short escapes as in Go 1.22+). The apiserver
/// renders bad values of named string types (operator, effect) this way.
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_json_quoted(&mut out, s);
    out
}

fn push_json_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

// ---------------------------------------------------------------------------------------
// apimachinery message helpers and label checks
// ---------------------------------------------------------------------------------------

/// `must be non-empty` (apimachinery `EmptyError`).
pub const EMPTY_ERROR: &str = "must be non-empty";

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/// apimachinery `MaxLenError`: `must be no more than <n> bytes` since 1.35,
/// `... characters` before.
pub fn max_len_error(length: usize, version: KubeVersion) -> String {
    let unit = if version.at_least(CONTENT_PACKAGE_MINOR) {
        "bytes"
    } else {
        "characters"
    };
    format!("must be no more than {length} {unit}")
}

/// apimachinery `RegexError`. Upstream quirk: every example is followed by `', '`, so
/// `" or "` produces the double spaces (`'MyName',  or 'my.name'`).
fn regex_error(msg: &str, regex: &str, examples: &[&str]) -> String {
    let mut s = String::from(msg);
    if examples.is_empty() {
        let _ = write!(s, " (regex used for validation is '{regex}')");
        return s;
    }
    s.push_str(" (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        let _ = write!(s, "'{example}', ");
    }
    let _ = write!(s, "regex used for validation is '{regex}')");
    s
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, anchored.
fn matches_label_key_regex(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`, anchored.
fn matches_dns1123_subdomain_regex(s: &str) -> bool {
    s.split('.').all(|label| {
        let b = label.as_bytes();
        let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        match (b.first(), b.last()) {
            (Some(first), Some(last)) => {
                alnum(first) && alnum(last) && b.iter().all(|c| alnum(c) || *c == b'-')
            }
            _ => false,
        }
    })
}

/// apimachinery `IsDNS1123Subdomain`: the messages for an invalid subdomain (empty when
/// valid).
pub fn dns1123_subdomain_errors(value: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH, version));
    }
    if !matches_dns1123_subdomain_regex(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// apimachinery `IsQualifiedName` / `content.IsLabelKey`: the messages for an invalid
/// label key (a taint or toleration key), empty when valid.
///
/// Upstream quirks kept: an empty key gives two messages (`name part must be non-empty`
/// and the regex message); more than one `/` gives a single message, which names
/// `a valid label key` since 1.35 and `a qualified name` before.
pub fn qualified_name_errors(value: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    let mut parts = value.splitn(3, '/');
    let first = parts.next().unwrap_or("");
    let name = match (parts.next(), parts.next()) {
        (None, _) => first,
        (Some(name), None) => {
            let prefix = first;
            if prefix.is_empty() {
                errs.push(format!("prefix part {EMPTY_ERROR}"));
            } else {
                for msg in dns1123_subdomain_errors(prefix, version) {
                    errs.push(format!("prefix part {msg}"));
                }
            }
            name
        }
        (Some(_), Some(_)) => {
            let what = if version.at_least(CONTENT_PACKAGE_MINOR) {
                "a valid label key"
            } else {
                "a qualified name"
            };
            errs.push(format!(
                "{what} {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    LABEL_KEY_ERR_MSG,
                    LABEL_KEY_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {EMPTY_ERROR}"));
    } else if name.len() > LABEL_MAX_LENGTH {
        errs.push(format!(
            "name part {}",
            max_len_error(LABEL_MAX_LENGTH, version)
        ));
    }
    if !matches_label_key_regex(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_ERR_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// apimachinery `IsValidLabelValue` / `content.IsLabelValue`: the messages for an invalid
/// label value (a taint or toleration value), empty when valid. The empty string is valid.
pub fn label_value_errors(value: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_MAX_LENGTH {
        errs.push(max_len_error(LABEL_MAX_LENGTH, version));
    }
    if !value.is_empty() && !matches_label_key_regex(value) {
        errs.push(regex_error(
            LABEL_VALUE_ERR_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// True when `value` is a valid label key (taint key). The verdict does not depend on
/// the release, only the messages do.
pub fn is_qualified_name(value: &str) -> bool {
    qualified_name_errors(value, KubeVersion::NEWEST).is_empty()
}

/// True when `value` is a valid label value (taint value; `""` is valid).
pub fn is_label_value(value: &str) -> bool {
    value.len() <= LABEL_MAX_LENGTH && (value.is_empty() || matches_label_key_regex(value))
}

// ---------------------------------------------------------------------------------------
// strconv.ParseInt
// ---------------------------------------------------------------------------------------

/// Go's `strconv.ParseInt(value, 10, 64)`: the number, or the text of Go's error,
/// `strconv.ParseInt: parsing "<v>": invalid syntax` or `... value out of range`.
///
/// Unlike the canonical-form check it accepts `+5`, `0100` and `-0`. Upstream quirk kept:
/// digits are read left to right and an overflow is reported as soon as it happens, so
/// `99999999999999999999x` is "out of range", not "invalid syntax".
pub fn go_parse_int64(value: &str) -> Result<i64, String> {
    let error = |why: &str| format!("strconv.ParseInt: parsing {}: {why}", go_quote(value));
    let (negative, digits) = match value.as_bytes().first() {
        None => return Err(error("invalid syntax")),
        Some(b'+') => (false, &value[1..]),
        Some(b'-') => (true, &value[1..]),
        Some(_) => (false, value),
    };
    if digits.is_empty() {
        return Err(error("invalid syntax"));
    }
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return Err(error("invalid syntax"));
        }
        match n
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(b - b'0')))
        {
            Some(v) => n = v,
            None => return Err(error("value out of range")),
        }
    }
    const CUTOFF: u64 = 1 << 63;
    if (!negative && n >= CUTOFF) || (negative && n > CUTOFF) {
        return Err(error("value out of range"));
    }
    Ok(if negative {
        // n <= 2^63 here; wrapping handles i64::MIN.
        0i64.wrapping_sub_unsigned(n)
    } else {
        // n < 2^63 here.
        i64::try_from(n).unwrap_or(i64::MAX)
    })
}

// ---------------------------------------------------------------------------------------
// Field errors
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// Rendering the internal taint struct (Duplicate bad value)
// ---------------------------------------------------------------------------------------

fn render_internal_taint(taint: &Taint, rendering: TaintRendering) -> String {
    let mut s = String::new();
    match rendering {
        TaintRendering::Json => {
            s.push_str("{\"Key\":");
            push_json_quoted(&mut s, &taint.key);
            s.push_str(",\"Value\":");
            push_json_quoted(&mut s, &taint.value);
            s.push_str(",\"Effect\":");
            push_json_quoted(&mut s, taint.effect.as_str());
            s.push_str(",\"TimeAdded\":");
            match taint.time_added.as_deref() {
                None => s.push_str("null"),
                Some(raw) => match parse_rfc3339_utc(raw) {
                    // metav1.Time.MarshalJSON: zero time is null, else RFC 3339 in UTC
                    // without fractional seconds.
                    Some(t) if t.is_zero() => s.push_str("null"),
                    Some(t) => {
                        let _ = write!(
                            s,
                            "\"{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z\"",
                            t.year, t.month, t.day, t.hour, t.minute, t.second
                        );
                    }
                    // The apiserver would have rejected it while decoding; show the text.
                    None => push_json_quoted(&mut s, raw),
                },
            }
            s.push('}');
        }
        TaintRendering::GoSyntax => {
            s.push_str("core.Taint{Key:");
            push_go_quoted(&mut s, &taint.key);
            s.push_str(", Value:");
            push_go_quoted(&mut s, &taint.value);
            s.push_str(", Effect:");
            push_go_quoted(&mut s, taint.effect.as_str());
            s.push_str(", TimeAdded:");
            match taint.time_added.as_deref() {
                // Upstream quirk: %#v calls the promoted time.Time.GoString on a nil
                // *metav1.Time, which panics; fmt recovers and prints <nil>.
                None => s.push_str("<nil>"),
                // time.Time.GoString of the decoded value. The apiserver decodes into
                // local time; this assumes it runs in UTC (as in the usual containers).
                Some(raw) => match parse_rfc3339_utc(raw) {
                    Some(t) => {
                        let _ = write!(
                            s,
                            "time.Date({}, time.{}, {}, {}, {}, {}, {}, time.Local)",
                            t.year,
                            MONTH_NAMES
                                .get(t.month.wrapping_sub(1) as usize)
                                .copied()
                                .unwrap_or("January"),
                            t.day,
                            t.hour,
                            t.minute,
                            t.second,
                            t.nanos
                        );
                    }
                    None => push_go_quoted(&mut s, raw),
                },
            }
            s.push('}');
        }
    }
    s
}

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A point in time in UTC, broken down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UtcTime {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    nanos: u32,
}

impl UtcTime {
    /// Go's zero `time.Time` (0001-01-01T00:00:00Z).
    fn is_zero(&self) -> bool {
        *self
            == (UtcTime {
                year: 1,
                month: 1,
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
                nanos: 0,
            })
    }
}

fn digits(b: &[u8], from: usize, len: usize) -> Option<u32> {
    let part = b.get(from..from + len)?;
    part.iter().try_fold(0u32, |acc, c| {
        c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
    })
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Parses RFC 3339 (`2024-05-01T10:00:00Z`, `...T12:00:00.5+02:00`) and converts it to
/// UTC, as Go's `time.Parse(time.RFC3339, ...)` accepts it.
fn parse_rfc3339_utc(s: &str) -> Option<UtcTime> {
    let b = s.as_bytes();
    let year = i64::from(digits(b, 0, 4)?);
    let month = digits(b, 5, 2)?;
    let day = digits(b, 8, 2)?;
    let hour = digits(b, 11, 2)?;
    let minute = digits(b, 14, 2)?;
    let second = digits(b, 17, 2)?;
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if seps.iter().any(|(i, c)| b.get(*i) != Some(c))
        || !(1..=12).contains(&month)
        || day == 0
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut i = 19;
    let mut nanos = 0u32;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            if i - start < 9 {
                nanos = nanos * 10 + u32::from(b[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        for _ in (i - start)..9 {
            nanos *= 10;
        }
    }
    let offset_seconds: i64 = match b.get(i) {
        Some(b'Z') if b.len() == i + 1 => 0,
        Some(sign @ (b'+' | b'-')) if b.len() == i + 6 && b.get(i + 3) == Some(&b':') => {
            let h = i64::from(digits(b, i + 1, 2)?);
            let m = i64::from(digits(b, i + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let off = h * 3600 + m * 60;
            if *sign == b'-' { -off } else { off }
        }
        _ => return None,
    };
    let local = days_from_civil(year, month, day) * 86_400
        + i64::from(hour) * 3600
        + i64::from(minute) * 60
        + i64::from(second);
    let utc = local - offset_seconds;
    let (y, mo, d) = civil_from_days(utc.div_euclid(86_400));
    let secs = utc.rem_euclid(86_400) as u32;
    Some(UtcTime {
        year: y,
        month: mo,
        day: d,
        hour: secs / 3600,
        minute: secs / 60 % 60,
        second: secs % 60,
        nanos,
    })
}

// ---------------------------------------------------------------------------------------
// Tolerations and taints
// ---------------------------------------------------------------------------------------

/// True when any toleration uses `Lt` or `Gt` (`taintTolerationComparisonOperatorsInUse`).
pub fn comparison_operators_in_use(tolerations: &[Toleration]) -> bool {
    tolerations
        .iter()
        .any(|t| matches!(t.operator, Operator::Lt | Operator::Gt))
}

/// `PodValidationOptions.AllowTaintTolerationComparisonOperators`: true when the
/// `TaintTolerationComparisonOperators` gate is enabled, **or** when the old object (on
/// update) already uses `Lt`/`Gt`, so existing pods stay updatable after the gate is
/// turned off. Pass `None` on create.
pub fn allow_comparison_operators(
    gate_enabled: bool,
    old_tolerations: Option<&[Toleration]>,
) -> bool {
    gate_enabled || old_tolerations.is_some_and(comparison_operators_in_use)
}

const KEY_EMPTY_NEEDS_EXISTS: &str =
    "operator must be Exists when `key` is empty, which means \"match all values and all keys\"";
const SECONDS_NEED_NO_EXECUTE: &str = "effect must be 'NoExecute' when `tolerationSeconds` is set";
const EXISTS_NEEDS_EMPTY_VALUE: &str = "value must be empty when `operator` is 'Exists'";
const SUPPORTED_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// `ValidateTolerations(tolerations, path, opts)`: the errors in upstream order.
///
/// `path` is usually [`POD_TOLERATIONS_PATH`]; `allow_comparison_operators` is
/// `opts.AllowTaintTolerationComparisonOperators` (see [`allow_comparison_operators`]).
/// Before 1.35 `Lt`/`Gt` are unknown operators.
///
/// Upstream quirks kept: value errors of `Equal` and `Exists` are reported at
/// `.operator`; an empty key with `Equal` and a value gives both the operator error and
/// the value error; a negative `tolerationSeconds` passes; `Lt`/`Gt` values can give two
/// errors (canonical form and `ParseInt`).
pub fn validate_tolerations(
    tolerations: &[Toleration],
    path: &str,
    allow_comparison_operators: bool,
    version: KubeVersion,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, t) in tolerations.iter().enumerate() {
        let at = |child: &str| format!("{path}[{i}].{child}");
        if !t.key.is_empty() {
            for msg in qualified_name_errors(&t.key, version) {
                errs.push(FieldError::invalid(
                    at("key"),
                    BadValue::String(t.key.clone()),
                    msg,
                ));
            }
        }
        if t.key.is_empty() && t.operator != Operator::Exists {
            errs.push(FieldError::invalid(
                at("operator"),
                BadValue::Named(String::from(t.operator.as_str())),
                KEY_EMPTY_NEEDS_EXISTS,
            ));
        }
        if t.toleration_seconds.is_some() && t.effect != TaintEffect::NoExecute {
            errs.push(FieldError::invalid(
                at("effect"),
                BadValue::Named(String::from(t.effect.as_str())),
                SECONDS_NEED_NO_EXECUTE,
            ));
        }
        match &t.operator {
            Operator::Empty | Operator::Equal => {
                let msgs = label_value_errors(&t.value, version);
                if !msgs.is_empty() {
                    // Upstream quirk: reported at `.operator`, joined with ";".
                    errs.push(FieldError::invalid(
                        at("operator"),
                        BadValue::String(t.value.clone()),
                        msgs.join(";"),
                    ));
                }
            }
            Operator::Exists => {
                if !t.value.is_empty() {
                    errs.push(FieldError::invalid(
                        at("operator"),
                        BadValue::String(t.value.clone()),
                        EXISTS_NEEDS_EMPTY_VALUE,
                    ));
                }
            }
            Operator::Lt | Operator::Gt if version.at_least(COMPARISON_OPERATORS_MINOR) => {
                if !allow_comparison_operators {
                    // Upstream quirk: the supported list names Lt and Gt although they
                    // are just being rejected.
                    errs.push(FieldError::not_supported(
                        at("operator"),
                        BadValue::Named(String::from(t.operator.as_str())),
                        &["Equal", "Exists", "Lt", "Gt"],
                    ));
                } else {
                    if let Err(e) = is_decimal_integer(&t.value) {
                        errs.push(FieldError::invalid(
                            at("value"),
                            BadValue::String(t.value.clone()),
                            e.message(),
                        ));
                    }
                    if let Err(msg) = go_parse_int64(&t.value) {
                        errs.push(FieldError::invalid(
                            at("value"),
                            BadValue::String(t.value.clone()),
                            msg,
                        ));
                    }
                }
            }
            _ => errs.push(FieldError::not_supported(
                at("operator"),
                BadValue::Named(String::from(t.operator.as_str())),
                &["Equal", "Exists"],
            )),
        }
        if !t.effect.is_empty() && !t.effect.is_known() {
            errs.push(FieldError::not_supported(
                at("effect"),
                BadValue::Named(String::from(t.effect.as_str())),
                &SUPPORTED_EFFECTS,
            ));
        }
    }
    errs
}

/// Pod update (`validateOnlyAddedTolerations`): every old toleration must still be in
/// the new list, equal in everything but `tolerationSeconds` (position does not matter;
/// `""` and `Equal` differ). Otherwise the single error is
/// `<path>: Forbidden: existing toleration can not be modified except its
/// tolerationSeconds`; else the new list is validated with [`validate_tolerations`].
pub fn validate_pod_tolerations_update(
    old: &[Toleration],
    new: &[Toleration],
    path: &str,
    allow_comparison_operators: bool,
    version: KubeVersion,
) -> Vec<FieldError> {
    let all_kept = old
        .iter()
        .all(|o| new.iter().any(|n| match_toleration(o, n)));
    if !all_kept {
        return alloc::vec![FieldError::forbidden(
            String::from(path),
            "existing toleration can not be modified except its tolerationSeconds",
        )];
    }
    validate_tolerations(new, path, allow_comparison_operators, version)
}

/// `validateNodeTaints(taints, path)`: the errors in upstream order. `path` is usually
/// [`NODE_TAINTS_PATH`].
///
/// Per taint: key checks (always, so an empty key gives two errors), value checks joined
/// with `;` into one error, the effect (`Required` when empty), then uniqueness by
/// (effect, key) against earlier taints, empty effects included. A duplicate is reported
/// at `<path>[i]` with the whole taint as bad value, rendered by version
/// ([`TaintRendering`]).
pub fn validate_node_taints(taints: &[Taint], path: &str, version: KubeVersion) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut seen: BTreeSet<(&str, &str)> = BTreeSet::new();
    for (i, t) in taints.iter().enumerate() {
        let at = |child: &str| format!("{path}[{i}].{child}");
        for msg in qualified_name_errors(&t.key, version) {
            errs.push(FieldError::invalid(
                at("key"),
                BadValue::String(t.key.clone()),
                msg,
            ));
        }
        let msgs = label_value_errors(&t.value, version);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                at("value"),
                BadValue::String(t.value.clone()),
                msgs.join(";"),
            ));
        }
        if t.effect.is_empty() {
            errs.push(FieldError::required(at("effect"), ""));
        } else if !t.effect.is_known() {
            errs.push(FieldError::not_supported(
                at("effect"),
                BadValue::Named(String::from(t.effect.as_str())),
                &SUPPORTED_EFFECTS,
            ));
        }
        if !seen.insert((t.effect.as_str(), t.key.as_str())) {
            errs.push(FieldError::duplicate(
                format!("{path}[{i}]"),
                BadValue::Taint {
                    taint: t.clone(),
                    rendering: TaintRendering::for_version(version),
                },
                "taints must be unique by key and effect pair",
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;
    use proptest::prelude::*;

    const V35: KubeVersion = KubeVersion::new(35, 0);
    const V34: KubeVersion = KubeVersion::new(34, 0);
    const V33: KubeVersion = KubeVersion::new(33, 0);

    fn tol(k: &str, op: &str, v: &str, e: &str) -> Toleration {
        Toleration::new(k, Operator::parse(op), v, TaintEffect::parse(e))
    }
    fn taint(k: &str, v: &str, e: &str) -> Taint {
        Taint::new(k, v, TaintEffect::parse(e))
    }
    fn messages(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn go_quote_escapes_like_strconv() {
        assert_eq!(go_quote("abc"), "\"abc\"");
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(
            go_quote("\n\t\r\u{7}\u{8}\u{c}\u{b}"),
            "\"\\n\\t\\r\\a\\b\\f\\v\""
        );
        assert_eq!(go_quote("\u{1}\u{7f}"), "\"\\x01\\x7f\"");
        assert_eq!(go_quote("é日本"), "\"é日本\"");
        assert_eq!(go_quote("\u{a0}\u{ad}\u{85}"), "\"\\u00a0\\u00ad\\u0085\"");
        assert_eq!(go_quote("\u{200b}\u{feff}"), "\"\\u200b\\ufeff\"");
        assert_eq!(go_quote("\u{10ffff}"), "\"\\U0010ffff\"");
        assert_eq!(go_quote("😀<&>"), "\"😀<&>\"");
    }

    #[test]
    fn json_quote_escapes_like_encoding_json() {
        assert_eq!(json_quote("a<b>&c"), "\"a\\u003cb\\u003e\\u0026c\"");
        assert_eq!(json_quote("\u{1}\n\u{8}"), "\"\\u0001\\n\\b\"");
        assert_eq!(json_quote("\u{7f}é\u{2028}"), "\"\u{7f}é\\u2028\"");
    }

    #[test]
    fn label_key_messages() {
        let regex_msg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        assert_eq!(
            qualified_name_errors("", V35),
            vec![
                String::from("name part must be non-empty"),
                String::from(regex_msg)
            ]
        );
        assert_eq!(
            qualified_name_errors("/foo", V35),
            vec![String::from("prefix part must be non-empty")]
        );
        assert_eq!(
            qualified_name_errors("Example.com/foo", V35),
            vec![String::from(
                "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            )]
        );
        let slashes = qualified_name_errors("a/b/c", V35);
        assert_eq!(slashes.len(), 1);
        assert!(slashes[0].starts_with("a valid label key must consist of"));
        assert!(slashes[0].ends_with(
            " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ));
        assert!(qualified_name_errors("a/b/c", V34)[0].starts_with("a qualified name must"));
        assert!(qualified_name_errors("example.com/My_Name-1.x", V35).is_empty());
        assert!(is_qualified_name("node.kubernetes.io/not-ready"));
        assert!(!is_qualified_name("foo-"));
        assert!(!is_qualified_name("foo=bar"));
    }

    #[test]
    fn length_messages_depend_on_version() {
        let long = "a".repeat(64);
        assert_eq!(
            qualified_name_errors(&long, V35),
            vec![String::from("name part must be no more than 63 bytes")]
        );
        assert_eq!(
            qualified_name_errors(&long, V34),
            vec![String::from("name part must be no more than 63 characters")]
        );
        assert_eq!(
            label_value_errors(&long, V35),
            vec![String::from("must be no more than 63 bytes")]
        );
        assert!(label_value_errors(&"a".repeat(63), V35).is_empty());
        assert!(label_value_errors("", V35).is_empty());
        assert!(is_label_value(""));
        assert!(!is_label_value("-a"));
        // A prefix that is only too long gives just the length message.
        let prefix = format!("{}/x", "a".repeat(254));
        assert_eq!(
            qualified_name_errors(&prefix, V35),
            vec![String::from("prefix part must be no more than 253 bytes")]
        );
    }

    #[test]
    fn parse_int_matches_go() {
        assert_eq!(go_parse_int64("0100"), Ok(100));
        assert_eq!(go_parse_int64("+5"), Ok(5));
        assert_eq!(go_parse_int64("-0"), Ok(0));
        assert_eq!(go_parse_int64("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(go_parse_int64("9223372036854775807"), Ok(i64::MAX));
        let syntax = |v: &str| format!("strconv.ParseInt: parsing {}: invalid syntax", go_quote(v));
        let range = |v: &str| {
            format!(
                "strconv.ParseInt: parsing {}: value out of range",
                go_quote(v)
            )
        };
        for bad in ["", "+", "-", "abc", "1_000", "1e5", " 1", "12a"] {
            assert_eq!(go_parse_int64(bad), Err(syntax(bad)), "{bad}");
        }
        for big in [
            "9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999",
            "99999999999999999999x",
        ] {
            assert_eq!(go_parse_int64(big), Err(range(big)), "{big}");
        }
    }

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

    #[test]
    fn toleration_value_errors_are_reported_at_operator() {
        let errs =
            validate_tolerations(&[tol("k", "", "a b", "")], POD_TOLERATIONS_PATH, false, V35);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.tolerations[0].operator");
        assert_eq!(errs[0].bad_value, BadValue::String(String::from("a b")));
    }

    #[test]
    fn toleration_quirks() {
        // Negative seconds pass.
        let neg = tol("k", "Exists", "", "NoExecute").with_seconds(Some(-5));
        assert!(validate_tolerations(&[neg], POD_TOLERATIONS_PATH, false, V35).is_empty());
        // Empty effect with seconds is rejected.
        let empty_effect = tol("k", "Exists", "", "").with_seconds(Some(5));
        assert_eq!(
            messages(&validate_tolerations(
                &[empty_effect],
                "spec.tolerations",
                false,
                V35
            )),
            vec![String::from(
                "spec.tolerations[0].effect: Invalid value: \"\": effect must be 'NoExecute' when `tolerationSeconds` is set"
            )]
        );
        // Empty key needs Exists and an empty value: two errors for Equal with a bad value.
        let errs = validate_tolerations(
            &[tol("", "Equal", "a b", "")],
            "spec.tolerations",
            false,
            V35,
        );
        assert_eq!(errs.len(), 2);
        assert!(
            errs.iter()
                .all(|e| e.field == "spec.tolerations[0].operator")
        );
        // Lt/Gt supported list differs from the unknown-operator one.
        let lt = validate_tolerations(&[tol("k", "Lt", "5", "")], "p", false, V35);
        assert!(lt[0].detail.ends_with("\"Lt\", \"Gt\""));
        let other = validate_tolerations(&[tol("k", "In", "5", "")], "p", false, V35);
        assert_eq!(other[0].detail, "supported values: \"Equal\", \"Exists\"");
        // Before 1.35 Lt is simply unknown, gate or not.
        let old = validate_tolerations(&[tol("k", "Lt", "5", "")], "p", true, V34);
        assert_eq!(old[0].detail, "supported values: \"Equal\", \"Exists\"");
        // Lt/Gt errors can be doubled.
        let abc = validate_tolerations(&[tol("k", "Gt", "abc", "")], "p", true, V35);
        assert_eq!(abc.len(), 2);
        assert!(abc.iter().all(|e| e.field == "p[0].value"));
        let plus = validate_tolerations(&[tol("k", "Gt", "+5", "")], "p", true, V35);
        assert_eq!(plus.len(), 1);
        assert_eq!(
            plus[0].detail,
            "must be a valid decimal integer in canonical form"
        );
    }

    #[test]
    fn comparison_option_follows_old_object() {
        let old = [tol("k", "Lt", "5", "")];
        assert!(allow_comparison_operators(false, Some(&old)));
        assert!(!allow_comparison_operators(
            false,
            Some(&[tol("k", "Exists", "", "")])
        ));
        assert!(!allow_comparison_operators(false, None));
        assert!(allow_comparison_operators(true, None));
        // Updating an Lt pod with the gate off stays valid.
        let allow = allow_comparison_operators(false, Some(&old));
        assert!(
            validate_pod_tolerations_update(&old, &old, "spec.tolerations", allow, V35).is_empty()
        );
    }

    #[test]
    fn pod_update_rules() {
        let a = tol("k", "", "v", "NoSchedule");
        let b = tol("k", "Equal", "v", "NoSchedule");
        let forbidden = validate_pod_tolerations_update(
            core::slice::from_ref(&a),
            core::slice::from_ref(&b),
            "spec.tolerations",
            false,
            V35,
        );
        assert_eq!(forbidden.len(), 1);
        assert_eq!(forbidden[0].error_type, FieldErrorType::Forbidden);
        // Adding before, changing seconds: fine; the new list is still validated.
        let secs = tol("n", "Exists", "", "NoExecute").with_seconds(Some(300));
        let new = [tol("", "Equal", "", ""), secs.clone().with_seconds(None)];
        let errs = validate_pod_tolerations_update(&[secs], &new, "spec.tolerations", false, V35);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.tolerations[0].operator");
    }

    #[test]
    fn node_taint_rules() {
        let errs = validate_node_taints(&[taint("", "", "")], NODE_TAINTS_PATH, V35);
        assert_eq!(
            errs.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(),
            vec![
                "metadata.taints[0].key",
                "metadata.taints[0].key",
                "metadata.taints[0].effect"
            ]
        );
        // Duplicate covers empty effects too, and skips nothing before it.
        let dup = validate_node_taints(
            &[taint("k", "", ""), taint("k", "x", "")],
            NODE_TAINTS_PATH,
            V35,
        );
        let last = dup.last().map(FieldError::message);
        assert_eq!(
            last.as_deref(),
            Some(
                "metadata.taints[1]: Duplicate value: {\"Key\":\"k\",\"Value\":\"x\",\"Effect\":\"\",\"TimeAdded\":null}: taints must be unique by key and effect pair"
            )
        );
        // Value errors joined with ";" (no space).
        let both = validate_node_taints(&[taint("k", &"-".repeat(64), "NoSchedule")], "t", V35);
        assert_eq!(both.len(), 1);
        assert!(
            both[0]
                .detail
                .starts_with("must be no more than 63 bytes;a valid label")
        );
        let unknown = validate_node_taints(&[taint("k", "", "Bogus")], "t", V35);
        assert_eq!(
            unknown[0].message(),
            "t[0].effect: Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
        );
    }

    #[test]
    fn duplicate_rendering_by_version() {
        let mut t = taint("foo", "baz", "NoSchedule");
        let pair = [t.clone(), t.clone()];
        assert!(
            validate_node_taints(&pair, NODE_TAINTS_PATH, V33)[0]
                .message()
                .contains(
                    "core.Taint{Key:\"foo\", Value:\"baz\", Effect:\"NoSchedule\", TimeAdded:<nil>}"
                )
        );
        t.time_added = Some(String::from("2024-05-01T01:30:00.25+02:00"));
        let pair = [t.clone(), t];
        assert!(
            validate_node_taints(&pair, NODE_TAINTS_PATH, V34)[0]
                .message()
                .contains("\"TimeAdded\":\"2024-04-30T23:30:00Z\"}")
        );
        assert!(
            validate_node_taints(&pair, NODE_TAINTS_PATH, V33)[0]
                .message()
                .contains(
                    "TimeAdded:time.Date(2024, time.April, 30, 23, 30, 0, 250000000, time.Local)}"
                )
        );
    }

    #[test]
    fn rfc3339_parsing() {
        assert!(parse_rfc3339_utc("2024-02-30T00:00:00Z").is_none());
        assert!(parse_rfc3339_utc("2024-02-29T00:00:00Z").is_some());
        assert!(parse_rfc3339_utc("2024-02-29 00:00:00Z").is_none());
        assert!(parse_rfc3339_utc("2024-02-29T00:00:00").is_none());
        assert!(parse_rfc3339_utc("0001-01-01T00:00:00Z").is_some_and(|t| t.is_zero()));
        let t = parse_rfc3339_utc("2023-12-31T23:00:00-01:30");
        assert_eq!(
            t.map(|t| (t.year, t.month, t.day, t.hour, t.minute)),
            Some((2024, 1, 1, 0, 30))
        );
    }

    fn any_taint() -> impl Strategy<Value = Taint> {
        (
            ".{0,70}",
            ".{0,70}",
            prop_oneof![
                Just(String::new()),
                Just(String::from("NoSchedule")),
                Just(String::from("NoExecute")),
                ".{0,12}"
            ],
            proptest::option::of(".{0,30}"),
        )
            .prop_map(|(k, v, e, ta)| {
                let mut t = Taint::new(&k, &v, TaintEffect::parse(&e));
                t.time_added = ta;
                t
            })
    }

    proptest! {
        #[test]
        fn node_taint_validation_never_panics(taints in proptest::collection::vec(any_taint(), 0..6)) {
            for v in [V33, V34, V35] {
                let errs = validate_node_taints(&taints, NODE_TAINTS_PATH, v);
                for e in &errs {
                    prop_assert!(e.message().starts_with(NODE_TAINTS_PATH));
                }
                prop_assert_eq!(errs.is_empty(), api_status_message("Node", "n", &errs).is_none());
            }
        }

        #[test]
        fn valid_keys_and_values_have_no_errors(
            key in "[a-z0-9]([-a-z0-9.]{0,20}[a-z0-9])?",
            value in "([A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?)?",
        ) {
            // Only dots next to each other would make the key's prefix invalid; keys
            // without '/' are name parts and allow them.
            prop_assert!(is_qualified_name(&key));
            prop_assert!(is_label_value(&value));
            prop_assert!(label_value_errors(&value, V35).is_empty());
        }

        #[test]
        fn parse_int_agrees_with_rust_for_plain_decimals(n in any::<i64>()) {
            prop_assert_eq!(go_parse_int64(&format!("{n}")), Ok(n));
        }

        #[test]
        fn go_quote_is_ascii_safe_for_ascii(s in "[\\x00-\\x7f]{0,20}") {
            let q = go_quote(&s);
            prop_assert!(q.bytes().all(|b| (0x20..0x7f).contains(&b)));
        }
    }
}
