//! Toleration matching: `Toleration.ToleratesTaint`, the `Lt`/`Gt` comparison,
//! `Taint.MatchTaint`, `Taint.ToString` and `Toleration.MatchToleration`
//! (k8s.io/api `core/v1/toleration.go`, `taint.go`).

use alloc::string::String;
use core::fmt::Write;

use crate::model::{Operator, Taint, TaintEffect, Toleration};

/// Why a toleration does or does not tolerate a taint: the outcome of
/// [`check_toleration`], one step of upstream's decision each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum MatchOutcome {
    /// The toleration tolerates the taint.
    Tolerated,
    /// The toleration names another effect (checked first).
    EffectMismatch,
    /// The toleration names another key (checked second).
    KeyMismatch,
    /// `Equal` (or an empty operator) with another value.
    ValueMismatch,
    /// `Lt`/`Gt` while the `TaintTolerationComparisonOperators` gate is off.
    ComparisonGateOff,
    /// `Lt`/`Gt` with a value on either side that is not a canonical decimal int64.
    NotAnInteger,
    /// `Lt`/`Gt` with both values numeric, but the comparison is false.
    ComparisonFalse,
    /// An operator upstream does not know never tolerates.
    UnknownOperator,
}

impl MatchOutcome {
    /// True for [`MatchOutcome::Tolerated`].
    pub fn is_tolerated(self) -> bool {
        matches!(self, Self::Tolerated)
    }
}

/// Upstream `ToleratesTaint`, step by step: effect, then key, then operator.
pub fn check_toleration(toleration: &Toleration, taint: &Taint, gate: bool) -> MatchOutcome {
    if !toleration.effect.is_empty() && toleration.effect != taint.effect {
        return MatchOutcome::EffectMismatch;
    }
    if !toleration.key.is_empty() && toleration.key != taint.key {
        return MatchOutcome::KeyMismatch;
    }
    match &toleration.operator {
        Operator::Empty | Operator::Equal => {
            if toleration.value == taint.value {
                MatchOutcome::Tolerated
            } else {
                MatchOutcome::ValueMismatch
            }
        }
        Operator::Exists => MatchOutcome::Tolerated,
        Operator::Lt | Operator::Gt => {
            if !gate {
                return MatchOutcome::ComparisonGateOff;
            }
            match compare_numeric(&toleration.value, &taint.value, &toleration.operator) {
                Some(true) => MatchOutcome::Tolerated,
                Some(false) => MatchOutcome::ComparisonFalse,
                None => MatchOutcome::NotAnInteger,
            }
        }
        Operator::Other(_) => MatchOutcome::UnknownOperator,
    }
}

/// `Toleration.ToleratesTaint(logger, taint, enableComparisonOperators)`.
///
/// `gate` is the `TaintTolerationComparisonOperators` feature gate; see
/// [`crate::Semantics::comparison_operators_enabled`].
pub fn tolerates(toleration: &Toleration, taint: &Taint, gate: bool) -> bool {
    check_toleration(toleration, taint, gate).is_tolerated()
}

/// The `Lt`/`Gt` comparison (`compareNumericValues`). `None` when either value is not
/// a canonical decimal integer in int64 range (upstream logs that and does not
/// tolerate); `Some(false)` for operators other than `Lt`/`Gt`.
///
/// `Lt` means *taint value < toleration value*; `Gt` means *taint value > toleration value*.
pub fn compare_numeric(toleration_value: &str, taint_value: &str, op: &Operator) -> Option<bool> {
    let a = parse_decimal_int64(toleration_value)?;
    let b = parse_decimal_int64(taint_value)?;
    Some(match op {
        Operator::Lt => b < a,
        Operator::Gt => b > a,
        _ => false,
    })
}

/// Error of [`is_decimal_integer`], with apimachinery's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum DecimalIntegerError {
    /// `must be non-empty`
    Empty,
    /// `must be a valid decimal integer in canonical form`
    NotCanonical,
}

impl DecimalIntegerError {
    /// The message apimachinery's `content.IsDecimalInteger` returns.
    pub fn message(self) -> &'static str {
        match self {
            Self::Empty => "must be non-empty",
            Self::NotCanonical => "must be a valid decimal integer in canonical form",
        }
    }
}

/// apimachinery `content.IsDecimalInteger`: a syntax check only (`-?(0|[1-9][0-9]*)`,
/// no `-0`, no range check).
pub fn is_decimal_integer(value: &str) -> Result<(), DecimalIntegerError> {
    if value.is_empty() {
        return Err(DecimalIntegerError::Empty);
    }
    let digits = value.strip_prefix('-').unwrap_or(value).as_bytes();
    let canonical = match digits {
        [b'0'] => value.len() == 1, // "0" is fine, "-0" is not
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if canonical {
        Ok(())
    } else {
        Err(DecimalIntegerError::NotCanonical)
    }
}

/// A canonical decimal integer that fits in an i64, or `None`.
pub fn parse_decimal_int64(value: &str) -> Option<i64> {
    is_decimal_integer(value).ok()?;
    // In canonical form, Go's ParseInt reads what Rust's `parse` would (one parser in
    // the modules instead of two).
    crate::scheduling::selector::parse_int64(value)
}

/// `Taint.MatchTaint`: same key and effect (value and timeAdded ignored).
pub fn match_taint(a: &Taint, b: &Taint) -> bool {
    a.key == b.key && a.effect == b.effect
}

/// `Toleration.MatchToleration`: key, effect, operator and value all exactly equal
/// (`""` differs from `Equal`); `tolerationSeconds` is ignored.
pub fn match_toleration(a: &Toleration, b: &Toleration) -> bool {
    a.key == b.key && a.effect == b.effect && a.operator == b.operator && a.value == b.value
}

/// `Taint.ToString`: `key`, `key=value:`, `key:Effect` or `key=value:Effect`.
pub fn taint_to_string(taint: &Taint) -> String {
    let mut s = String::with_capacity(taint.key.len() + taint.value.len() + 18);
    write_taint(&mut s, taint);
    s
}

/// Appends [`taint_to_string`] to `out`.
pub fn write_taint(out: &mut String, taint: &Taint) {
    out.push_str(&taint.key);
    if !taint.value.is_empty() {
        out.push('=');
        out.push_str(&taint.value);
        out.push(':');
        out.push_str(taint.effect.as_str());
    } else if !taint.effect.is_empty() {
        out.push(':');
        out.push_str(taint.effect.as_str());
    }
}

/// A short, human-readable rendering of a toleration for explanations and messages,
/// e.g. `{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}` with
/// `<any>` for an empty key or effect and `for 300s` when seconds are set.
pub fn describe_toleration(t: &Toleration) -> String {
    let mut s = String::new();
    let key = if t.key.is_empty() { "<any>" } else { &t.key };
    let op = if t.operator.is_empty() {
        "\"\" (Equal)"
    } else {
        t.operator.as_str()
    };
    let _ = write!(s, "{{key: {key}, operator: {op}");
    if !matches!(t.operator, Operator::Exists) || !t.value.is_empty() {
        let _ = write!(s, ", value: {}", crate::validation::go_quote(&t.value));
    }
    let effect = match &t.effect {
        TaintEffect::Empty => "<any>",
        e => e.as_str(),
    };
    let _ = write!(s, ", effect: {effect}}}");
    if let Some(secs) = t.toleration_seconds {
        let _ = write!(s, " for {secs}s");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(k: &str, v: &str, e: &str) -> Taint {
        Taint::new(k, v, TaintEffect::parse(e))
    }
    fn tol(k: &str, op: &str, v: &str, e: &str) -> Toleration {
        Toleration::new(k, Operator::parse(op), v, TaintEffect::parse(e))
    }

    #[test]
    fn empty_operator_is_equal_for_matching() {
        assert!(tolerates(
            &tol("k", "", "v", "NoSchedule"),
            &taint("k", "v", "NoSchedule"),
            false
        ));
        assert!(!tolerates(
            &tol("k", "", "", "NoSchedule"),
            &taint("k", "v", "NoSchedule"),
            false
        ));
    }

    #[test]
    fn order_of_checks_is_effect_key_operator() {
        let t = taint("k", "v", "NoSchedule");
        assert_eq!(
            check_toleration(&tol("x", "Bogus", "", "NoExecute"), &t, true),
            MatchOutcome::EffectMismatch
        );
        assert_eq!(
            check_toleration(&tol("x", "Bogus", "", ""), &t, true),
            MatchOutcome::KeyMismatch
        );
        assert_eq!(
            check_toleration(&tol("k", "Bogus", "", ""), &t, true),
            MatchOutcome::UnknownOperator
        );
    }

    #[test]
    fn lt_gt_direction_and_gate() {
        let t = taint("sla", "900", "NoSchedule");
        assert!(tolerates(&tol("sla", "Lt", "950", ""), &t, true));
        assert!(!tolerates(&tol("sla", "Gt", "950", ""), &t, true));
        assert!(!tolerates(&tol("sla", "Gt", "900", ""), &t, true));
        assert_eq!(
            check_toleration(&tol("sla", "Lt", "950", ""), &t, false),
            MatchOutcome::ComparisonGateOff
        );
        assert_eq!(
            check_toleration(&tol("sla", "Lt", "0950", ""), &t, true),
            MatchOutcome::NotAnInteger
        );
    }

    #[test]
    fn decimal_integer_rules() {
        for ok in ["0", "-1", "9", "12345678901234567890"] {
            assert_eq!(is_decimal_integer(ok), Ok(()), "{ok}");
        }
        for bad in [
            "-0", "00", "0123", "+5", " 1", "1_000", "1e5", "0x10", "-", "٣",
        ] {
            assert_eq!(
                is_decimal_integer(bad),
                Err(DecimalIntegerError::NotCanonical),
                "{bad}"
            );
        }
        assert_eq!(is_decimal_integer(""), Err(DecimalIntegerError::Empty));
        assert_eq!(parse_decimal_int64("12345678901234567890"), None);
        assert_eq!(parse_decimal_int64("-9223372036854775808"), Some(i64::MIN));
    }

    #[test]
    fn to_string_forms() {
        assert_eq!(taint_to_string(&taint("k", "", "")), "k");
        assert_eq!(taint_to_string(&taint("k", "v", "")), "k=v:");
        assert_eq!(
            taint_to_string(&taint("k", "", "NoSchedule")),
            "k:NoSchedule"
        );
        assert_eq!(
            taint_to_string(&taint("k", "v", "NoExecute")),
            "k=v:NoExecute"
        );
    }

    #[test]
    fn match_toleration_is_literal() {
        assert!(!match_toleration(
            &tol("k", "", "v", ""),
            &tol("k", "Equal", "v", "")
        ));
        let a = tol("k", "Exists", "", "NoExecute").with_seconds(Some(1));
        assert!(match_toleration(&a, &tol("k", "Exists", "", "NoExecute")));
        assert!(match_taint(
            &taint("k", "a", "NoSchedule"),
            &taint("k", "b", "NoSchedule")
        ));
    }

    #[test]
    fn describe_is_readable() {
        assert_eq!(
            describe_toleration(&tol("", "Exists", "", "")),
            "{key: <any>, operator: Exists, effect: <any>}"
        );
        assert_eq!(
            describe_toleration(&tol("k", "", "v", "NoExecute").with_seconds(Some(30))),
            "{key: k, operator: \"\" (Equal), value: \"v\", effect: NoExecute} for 30s"
        );
    }
}
