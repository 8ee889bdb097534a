//! `validateTolerations`, `validatePodTolerationsUpdate`, `validateNodeTaints`.
//!
//! Objects are named as the vectors' `apiStatusMessage` assumes: Pod `p`, Node `n1`.
//! `errorsBeforeV1_34` is the error list at 1.33 when it differs from the one at 1.34
//! (only the Duplicate rendering changed there), else `null`.

use serde_json::{Value, json};
use taintlab_core::KubeVersion;
use taintlab_core::validation::{
    BadValue, FieldError, api_status_message, validate_node_taints,
    validate_pod_tolerations_update, validate_tolerations,
};

use super::OpResult;
use crate::convert::*;

const NEWEST: KubeVersion = KubeVersion::NEWEST;
const V1_33: KubeVersion = KubeVersion::new(33, 0);
const V1_34: KubeVersion = KubeVersion::new(34, 0);

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "validateTolerations" => (|| {
            let tols = tolerations_field(input, "tolerations")?;
            let path = str_field(input, "fieldPath")?;
            let allow = bool_field(input, "allowComparisonOperators")?;
            Ok(report(
                "Pod",
                "p",
                &validate_tolerations(&tols, path, allow, NEWEST),
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
                &validate_pod_tolerations_update(&old, &new, path, allow, NEWEST),
            ))
        })(),
        "validateNodeTaints" => (|| {
            let taints = taints_field(input, "taints")?;
            let path = str_field(input, "fieldPath")?;
            let mut out = report("Node", "n1", &validate_node_taints(&taints, path, NEWEST));
            let before = validate_node_taints(&taints, path, V1_33);
            let at_1_34 = validate_node_taints(&taints, path, V1_34);
            out["errorsBeforeV1_34"] = if before == at_1_34 {
                Value::Null
            } else {
                errors_json(&before)
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

fn errors_json(errors: &[FieldError]) -> Value {
    Value::Array(
        errors
            .iter()
            .map(|e| {
                let bad_value = match &e.bad_value {
                    BadValue::Omitted => Value::Null,
                    BadValue::String(s) | BadValue::Named(s) => json!(s),
                    BadValue::Taint { taint, .. } => taint_json(taint),
                };
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
