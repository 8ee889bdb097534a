//! `toleratesTaint`, `compareNumericValues`, `isDecimalInteger`, `taintToString`,
//! `matchTaint`, `matchToleration`, `findMatchingUntoleratedTaint`.

use serde_json::{Value, json};
use taintlab_core::helpers::{TaintFilter, find_matching_untolerated_taint, find_untolerated_by};
use taintlab_core::{Operator, TaintEffect, matching};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "toleratesTaint" => tolerates_taint(input),
        "compareNumericValues" => compare_numeric_values(input),
        "isDecimalInteger" => is_decimal_integer(input),
        "taintToString" => taint(field(input, "taint").ok()?)
            .map(|t| json!({"string": matching::taint_to_string(&t)})),
        "matchTaint" => (|| {
            let a = taint(field(input, "taint")?)?;
            let b = taint(field(input, "taintToMatch")?)?;
            Ok(json!({"match": matching::match_taint(&a, &b)}))
        })(),
        "matchToleration" => (|| {
            let a = toleration(field(input, "toleration")?)?;
            let b = toleration(field(input, "tolerationToMatch")?)?;
            Ok(json!({"match": matching::match_toleration(&a, &b)}))
        })(),
        "findMatchingUntoleratedTaint" => find_untolerated(input),
        _ => return None,
    };
    Some(result)
}

fn tolerates_taint(input: &Value) -> R<Value> {
    let tol = toleration(field(input, "toleration")?)?;
    let t = taint(field(input, "taint")?)?;
    Ok(json!({"tolerated": matching::tolerates(&tol, &t, gate(input)?)}))
}

fn compare_numeric_values(input: &Value) -> R<Value> {
    let op = Operator::parse(str_field(input, "operator")?);
    let r = matching::compare_numeric(
        str_field(input, "tolerationValue")?,
        str_field(input, "taintValue")?,
        &op,
    );
    Ok(json!({"result": r.unwrap_or(false)}))
}

fn is_decimal_integer(input: &Value) -> R<Value> {
    let errors: Vec<&str> = match matching::is_decimal_integer(str_field(input, "value")?) {
        Ok(()) => vec![],
        Err(e) => vec![e.message()],
    };
    Ok(json!({"valid": errors.is_empty(), "errors": errors}))
}

fn find_untolerated(input: &Value) -> R<Value> {
    let taints = taints_field(input, "taints")?;
    let tols = tolerations_field(input, "tolerations")?;
    let g = gate(input)?;
    let found = match field(input, "filter")? {
        Value::Null => find_matching_untolerated_taint(&taints, &tols, TaintFilter::All, g),
        Value::String(s) if s == "all" => {
            find_matching_untolerated_taint(&taints, &tols, TaintFilter::All, g)
        }
        Value::String(s) if s == "none" => {
            find_matching_untolerated_taint(&taints, &tols, TaintFilter::None, g)
        }
        Value::Array(effects) => {
            let effects: Vec<TaintEffect> = effects
                .iter()
                .map(|e| {
                    e.as_str()
                        .map(TaintEffect::parse)
                        .ok_or_else(|| format!("bad effect {e}"))
                })
                .collect::<R<_>>()?;
            find_untolerated_by(&taints, &tols, |t| effects.contains(&t.effect), g)
        }
        other => return Err(format!("unknown filter {other}")),
    };
    Ok(json!({
        "untolerated": found.is_some(),
        "firstUntoleratedTaint": found.map(taint_json),
    }))
}
