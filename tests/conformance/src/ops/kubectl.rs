//! `kubectl taint` (`parseTaints`, `reorganizeTaints`, `checkIfTaintsAlreadyExists`,
//! `deleteTaint`, `deleteTaintsByKey`, `validateFlags`, `kubectlTaint`) and the
//! `kubectl describe` blocks (`describeTaints`, `describeTolerations`). `parseTaints` and
//! `kubectlTaint` take an optional `version` input (the kubectl release).

use serde_json::{Value, json};
use taintlab_core::Node;
use taintlab_core::kubectl::{self, describe};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "parseTaints" => parse_taints(input),
        "reorganizeTaints" => (|| {
            let r = kubectl::reorganize_taints(
                &taints_field(input, "nodeTaints")?,
                bool_field(input, "overwrite")?,
                &taints_field(input, "taintsToAdd")?,
                &taints_field(input, "taintsToRemove")?,
            );
            Ok(json!({
                "operation": r.operation.as_str(),
                "taints": taints_json(&r.taints),
                "error": r.error(),
            }))
        })(),
        "checkIfTaintsAlreadyExists" => (|| {
            let keys = kubectl::check_if_taints_already_exist(
                &taints_field(input, "nodeTaints")?,
                &taints_field(input, "taintsToAdd")?,
            );
            Ok(json!({"existingKeys": keys}))
        })(),
        "deleteTaint" => (|| {
            let (rest, removed) = kubectl::delete_taint(
                &taints_field(input, "taints")?,
                &taint(field(input, "taintToDelete")?)?,
            );
            Ok(json!({"taints": taints_json(&rest), "removed": removed}))
        })(),
        "deleteTaintsByKey" => (|| {
            let (rest, removed) = kubectl::delete_taints_by_key(
                &taints_field(input, "taints")?,
                str_field(input, "key")?,
            );
            Ok(json!({"taints": taints_json(&rest), "removed": removed}))
        })(),
        "validateFlags" => (|| {
            let resources = strings_field(input, "resources")?;
            let r = kubectl::validate_flags(
                bool_field(input, "all")?,
                str_field(input, "selector")?,
                &resources,
            );
            Ok(json!({"error": r.err()}))
        })(),
        "kubectlTaint" => kubectl_taint(input),
        "describeTaints" => (|| {
            let raw = describe::describe_taints(&taints_field(input, "taints")?);
            let rendered = describe::align_tabbed(&raw, describe::DESCRIBE_NODE_VALUE_COLUMN);
            Ok(json!({"raw": raw, "renderedAtColumn20": rendered}))
        })(),
        "describeTolerations" => (|| {
            let raw = describe::describe_tolerations(&tolerations_field(input, "tolerations")?);
            Ok(json!({"raw": raw}))
        })(),
        _ => return None,
    };
    Some(result)
}

pub(super) fn strings_field(input: &Value, key: &str) -> R<Vec<String>> {
    field(input, key)?
        .as_array()
        .ok_or_else(|| format!("{key:?} is not an array"))?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{key:?} holds a non-string: {v}"))
        })
        .collect()
}

fn parse_taints(input: &Value) -> R<Value> {
    let specs = strings_field(input, "spec")?;
    let version = super::validation::version_input(input)?;
    Ok(match kubectl::parse_taints(&specs, version) {
        Ok(p) => json!({
            "error": null,
            "taintsToAdd": taints_json(&p.to_add),
            "taintsToRemove": taints_json(&p.to_remove),
        }),
        Err(e) => json!({"error": e, "taintsToAdd": null, "taintsToRemove": null}),
    })
}

/// The whole command against a one-node cluster. `dryRun` is passed the way a user
/// would: as a `--dry-run=<strategy>` argument.
fn kubectl_taint(input: &Value) -> R<Value> {
    let mut args = strings_field(input, "args")?;
    match field(input, "dryRun")? {
        Value::Null => {}
        Value::String(s) => args.push(format!("--dry-run={s}")),
        other => return Err(format!("bad dryRun {other}")),
    }
    let name = str_field(input, "nodeName")?;
    let nodes = [Node {
        name: name.to_string(),
        taints: taints_field(input, "nodeTaints")?,
        ..Node::default()
    }];
    let version = super::validation::version_input(input)?;
    let run = kubectl::run_kubectl_taint(&args, &nodes, version);
    let update = run.result_for(name).and_then(|r| r.outcome.as_ref().ok());
    Ok(json!({
        "stdout": run.stdout,
        "stderr": run.stderr,
        "exitCode": run.exit_code,
        "resultingTaints": update.map(|u| taints_json(&u.taints)),
        "operation": update.map(|u| u.operation.as_str()),
    }))
}
