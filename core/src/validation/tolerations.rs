//! `ValidateTolerations` and the pod-update rule for tolerations
//! (`pkg/apis/core/validation/validation.go`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::field::{BadValue, FieldError};
use super::names::{label_value_errors, qualified_name_errors};
use super::parse_int::go_parse_int64;
use crate::matching::{is_decimal_integer, match_toleration};
use crate::model::{Operator, TaintEffect, Toleration};
use crate::version::KubeVersion;

/// Release that added the `Lt`/`Gt` branch to `ValidateTolerations`.
const COMPARISON_OPERATORS_MINOR: u16 = 35;
/// Release whose `ValidateTolerations` reports the value of an `Exists` toleration as
/// the bad value instead of the whole toleration (kubernetes PR #128119).
const EXISTS_VALUE_AS_STRING_MINOR: u16 = 32;

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
pub(super) const SUPPORTED_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// `ValidateTolerations(tolerations, path, opts)`: the errors in upstream order.
///
/// `path` is usually [`POD_TOLERATIONS_PATH`](super::POD_TOLERATIONS_PATH); `allow_comparison_operators` is
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
                    // kubernetes PR #128119 (1.32) made the bad value the value; before,
                    // it was the whole toleration.
                    let bad_value = if version.at_least(EXISTS_VALUE_AS_STRING_MINOR) {
                        BadValue::String(t.value.clone())
                    } else {
                        BadValue::Toleration(t.clone())
                    };
                    errs.push(FieldError::invalid(
                        at("operator"),
                        bad_value,
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
    errs.into_iter().map(|e| e.at(version)).collect()
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
        return alloc::vec![
            FieldError::forbidden(
                String::from(path),
                "existing toleration can not be modified except its tolerationSeconds",
            )
            .at(version)
        ];
    }
    validate_tolerations(new, path, allow_comparison_operators, version)
}

#[cfg(test)]
mod tests {
    use super::super::{FieldErrorType, POD_TOLERATIONS_PATH};
    use super::*;
    use alloc::vec;

    const V35: KubeVersion = KubeVersion::new(35, 0);
    const V34: KubeVersion = KubeVersion::new(34, 0);

    fn tol(k: &str, op: &str, v: &str, e: &str) -> Toleration {
        Toleration::new(k, Operator::parse(op), v, TaintEffect::parse(e))
    }
    fn messages(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
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
    fn exists_with_value_by_release() {
        let t = tol("pool", "Exists", "build", "NoSchedule");
        let new = validate_tolerations(
            core::slice::from_ref(&t),
            "spec.tolerations",
            false,
            KubeVersion::new(32, 0),
        );
        assert_eq!(
            messages(&new),
            vec![String::from(
                "spec.tolerations[0].operator: Invalid value: \"build\": value must be empty when `operator` is 'Exists'"
            )]
        );
        let old = validate_tolerations(
            core::slice::from_ref(&t),
            "spec.tolerations",
            false,
            KubeVersion::new(31, 0),
        );
        assert_eq!(
            messages(&old),
            vec![String::from(
                "spec.tolerations[0].operator: Invalid value: core.Toleration{Key:\"pool\", Operator:\"Exists\", Value:\"build\", Effect:\"NoSchedule\", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'"
            )]
        );
        // Named values (operator, effect) are %#v-quoted before 1.34, JSON after.
        let bad = [tol("k", "In<", "", "")];
        assert_eq!(
            validate_tolerations(&bad, "p", false, KubeVersion::new(33, 0))[0].message(),
            "p[0].operator: Unsupported value: \"In<\": supported values: \"Equal\", \"Exists\""
        );
        assert_eq!(
            validate_tolerations(&bad, "p", false, V34)[0].message(),
            "p[0].operator: Unsupported value: \"In\\u003c\": supported values: \"Equal\", \"Exists\""
        );
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
}
