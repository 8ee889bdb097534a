//! `validateTolerations`, `validatePodTolerationsUpdate`, `validateNodeTaints`.
//!
//! Objects are named as the vectors' `apiStatusMessage` assumes: Pod `p`, Node `n1`.
//! `errorsBeforeV1_34` is the error list at 1.33 when it differs from the one at 1.34
//! (only the Duplicate rendering changed there), else `null`. An optional `version`
//! input (`"1.31"`) picks the release; the newest otherwise.

use serde_json::{Value, json};
use taintlab_core::KubeVersion;
use taintlab_core::validation::{
    BadValue, FieldError, api_status_message, validate_node_taints,
    validate_pod_tolerations_update, validate_tolerations,
};

use super::OpResult;
use crate::convert::*;

const V1_33: KubeVersion = KubeVersion::new(33, 0);
const V1_34: KubeVersion = KubeVersion::new(34, 0);

/// The optional `version` input, the newest release when absent.
pub fn version_input(input: &Value) -> Result<KubeVersion, String> {
    match input.get("version") {
        None | Some(Value::Null) => Ok(KubeVersion::NEWEST),
        Some(Value::String(s)) => KubeVersion::parse(s).ok_or_else(|| format!("bad version {s:?}")),
        Some(other) => Err(format!("version must be a string, got {other}")),
    }
}

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let version = match version_input(input) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let result = match op {
        "validateTolerations" => (|| {
            let tols = tolerations_field(input, "tolerations")?;
            let path = str_field(input, "fieldPath")?;
            let allow = bool_field(input, "allowComparisonOperators")?;
            Ok(report(
                "Pod",
                "p",
                &validate_tolerations(&tols, path, allow, version),
            ))
        })(),
        "validatePodTolerationsUpdate" => (|| {
            let old = tolerations_field(input, "oldTolerations")?;
            let new = tolerations_field(input, "newTolerations")?;
            let path = str_field(input, "fieldPath")?;
            let allow = bool_field(input, "allowComparisonOperators")?;
            Ok(report(
                "Pod",
                "p",
                &validate_pod_tolerations_update(&old, &new, path, allow, version),
            ))
        })(),
        "validateNodeTaints" => (|| {
            let taints = taints_field(input, "taints")?;
            let path = str_field(input, "fieldPath")?;
            let mut out = report("Node", "n1", &validate_node_taints(&taints, path, version));
            let before = validate_node_taints(&taints, path, V1_33);
            let at_1_34 = validate_node_taints(&taints, path, V1_34);
            let (before, at_1_34) = (errors_json(&before), errors_json(&at_1_34));
            out["errorsBeforeV1_34"] = if before == at_1_34 {
                Value::Null
            } else {
                before
            };
            Ok(out)
        })(),
        _ => return None,
    };
    Some(result)
}

fn report(kind: &str, name: &str, errors: &[FieldError]) -> Value {
    json!({
        "valid": errors.is_empty(),
        "errors": errors_json(errors),
        "apiStatusMessage": api_status_message(kind, name, errors),
    })
}

/// A bad value as the apiserver's Status would carry it: strings as strings, counts as
/// numbers, structs in the vectors' shape, apimachinery's `omitValue` as `null`.
pub fn bad_value_json(v: &BadValue) -> Value {
    match v {
        BadValue::Omitted => Value::Null,
        BadValue::String(s) | BadValue::Named(s) => json!(s),
        BadValue::Int(n) => json!(n),
        BadValue::Taint { taint, .. } => taint_json(taint),
        BadValue::Toleration(t) => toleration_json(t),
    }
}

fn errors_json(errors: &[FieldError]) -> Value {
    Value::Array(
        errors
            .iter()
            .map(|e| {
                let bad_value = bad_value_json(&e.bad_value);
                json!({
                    "type": e.error_type.name(),
                    "field": e.field,
                    "badValue": bad_value,
                    "detail": e.detail,
                    "message": e.message(),
                })
            })
            .collect(),
    )
}
