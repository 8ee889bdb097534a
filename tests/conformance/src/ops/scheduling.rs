//! kube-scheduler ops: `filter`, `score`, `normalizeReverse`, `nodeUnschedulableFilter`,
//! `fitErrorMessage`.

use serde_json::{Map, Value, json};
use taintlab_core::scheduling::filter::{
    TaintReasonText, node_unschedulable_filter, taint_toleration_filter,
};
use taintlab_core::scheduling::fit_error::FitError;
use taintlab_core::scheduling::score::{default_normalize_score, taint_toleration_score};
use taintlab_core::{KubeVersion, Semantics};

use super::OpResult;
use crate::convert::*;

/// The `legacyMessages` keys of the vectors, each with a release from its range. The
/// 1.24–1.34 range is represented by 1.34.2, the last patch before the cherry-pick.
const LEGACY_RELEASES: [(&str, KubeVersion); 3] = [
    ("<=v1.17", KubeVersion::new(17, 0)),
    ("v1.18-v1.23", KubeVersion::new(23, 0)),
    (
        "v1.24-v1.34 (before the cherry-pick of PR #135023 into a 1.34 patch release)",
        KubeVersion::new(34, 2),
    ),
];

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "filter" => filter(input),
        "score" => score(input),
        "normalizeReverse" => normalize_reverse(input),
        "nodeUnschedulableFilter" => node_unschedulable(input),
        "fitErrorMessage" => fit_error_message(input),
        _ => return None,
    };
    Some(result)
}

/// The current release with the case's gate.
fn current(input: &Value) -> R<Semantics> {
    Ok(Semantics::newest().with_comparison_operators(gate(input)?))
}

fn filter(input: &Value) -> R<Value> {
    let taints = taints_field(input, "taints")?;
    let tols = tolerations_field(input, "tolerations")?;
    let r = taint_toleration_filter(&taints, &tols, current(input)?);
    // The older texts for the same first untolerated taint, rendered by the same
    // function at a release from each range.
    let legacy = r.first_untolerated.map(|t| {
        let mut m = Map::new();
        for (key, version) in LEGACY_RELEASES {
            m.insert(
                key.into(),
                json!(TaintReasonText::for_version(version).render(t)),
            );
        }
        Value::Object(m)
    });
    Ok(json!({
        "code": r.status.code.as_str(),
        "message": r.status.message(),
        "firstUntoleratedTaint": r.first_untolerated.map(taint_json),
        "legacyMessages": legacy,
    }))
}

fn score(input: &Value) -> R<Value> {
    let tols = tolerations_field(input, "tolerations")?;
    let sem = current(input)?;
    let nodes = field(input, "nodes")?
        .as_array()
        .ok_or("\"nodes\" is not an array")?;
    let mut names = Vec::with_capacity(nodes.len());
    let mut raw = Vec::with_capacity(nodes.len());
    for n in nodes {
        names.push(str_field(n, "name")?);
        raw.push(taint_toleration_score(
            &taints_field(n, "taints")?,
            &tols,
            sem,
        ));
    }
    let mut normalized = raw.clone();
    default_normalize_score(100, true, &mut normalized);
    let to_map = |scores: &[i64]| -> Value {
        Value::Object(
            names
                .iter()
                .zip(scores)
                .map(|(n, s)| ((*n).into(), json!(s)))
                .collect(),
        )
    };
    Ok(json!({"rawScores": to_map(&raw), "normalizedScores": to_map(&normalized)}))
}

fn normalize_reverse(input: &Value) -> R<Value> {
    let mut scores = field(input, "rawScores")?
        .as_array()
        .ok_or("\"rawScores\" is not an array")?
        .iter()
        .map(|v| v.as_i64().ok_or_else(|| format!("bad score {v}")))
        .collect::<R<Vec<i64>>>()?;
    default_normalize_score(i64_field(input, "maxScore")?, true, &mut scores);
    Ok(json!({"scores": scores}))
}

fn node_unschedulable(input: &Value) -> R<Value> {
    let tols = tolerations_field(input, "tolerations")?;
    let status =
        node_unschedulable_filter(bool_field(input, "unschedulable")?, &tols, current(input)?);
    Ok(json!({"code": status.code.as_str(), "message": status.message()}))
}

fn fit_error_message(input: &Value) -> R<Value> {
    let num = usize::try_from(i64_field(input, "numAllNodes")?).map_err(|e| e.to_string())?;
    let mut fit = FitError::new(num);
    let reasons = field(input, "nodeReasons")?
        .as_object()
        .ok_or("\"nodeReasons\" is not an object")?;
    for (node, list) in reasons {
        let list: Vec<&str> = list
            .as_array()
            .ok_or_else(|| format!("reasons of {node} are not an array"))?
            .iter()
            .map(|r| r.as_str().ok_or_else(|| format!("bad reason {r}")))
            .collect::<R<_>>()?;
        fit.record_node(&list);
    }
    fit.pre_filter_msg = str_field(input, "preFilterMsg")?.into();
    fit.post_filter_msg = str_field(input, "postFilterMsg")?.into();
    Ok(json!({"message": fit.message(KubeVersion::NEWEST)}))
}
