//! `kubectl label` on nodes (`parseLabels`, `validateNoOverwrites`, `labelFunc` and the
//! command's argument errors from `Complete`/`Validate`/`RunLabel`).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use taintlab_core::kubectl::{self, LabelNodeError};
use taintlab_core::{KubeVersion, Node};

use super::OpResult;
use super::kubectl::strings_field;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "labelParseLabels" => parse_labels(input),
        "labelValidateNoOverwrites" => validate_no_overwrites(input),
        "labelFunc" => label_func(input),
        "kubectlLabelErrors" => label_errors(input),
        _ => return None,
    };
    Some(result)
}

fn string_map(input: &Value, key: &str) -> R<BTreeMap<String, String>> {
    field(input, key)?
        .as_object()
        .ok_or_else(|| format!("{key:?} is not an object"))?
        .iter()
        .map(|(k, v)| {
            v.as_str()
                .map(|s| (k.clone(), s.to_string()))
                .ok_or_else(|| format!("{key:?}.{k} is not a string"))
        })
        .collect()
}

fn map_json(m: &BTreeMap<String, String>) -> Value {
    Value::Object(
        m.iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect::<Map<_, _>>(),
    )
}

/// `parseLabels(spec)`: the labels to set and the keys to remove, or an error.
fn parse_labels(input: &Value) -> R<Value> {
    let specs = strings_field(input, "spec")?;
    Ok(
        match kubectl::label::parse_labels(&specs, KubeVersion::NEWEST) {
            Ok((labels, remove)) => json!({
                "isError": false,
                "labels": map_json(&labels),
                "remove": remove,
            }),
            Err(_) => json!({"isError": true, "labels": null, "remove": null}),
        },
    )
}

/// Builds the command `kubectl label nodes n1 <labels...> <remove-...> [--overwrite]` and
/// applies its label changes to `nodeLabels` (`labelFunc`, which starts with
/// `validateNoOverwrites` when `--overwrite` is not given).
fn apply(
    node_labels: &BTreeMap<String, String>,
    labels: &BTreeMap<String, String>,
    remove: &[String],
    overwrite: bool,
) -> R<Result<BTreeMap<String, String>, LabelNodeError>> {
    let mut args: Vec<String> = vec!["nodes".into(), "n1".into()];
    args.extend(labels.iter().map(|(k, v)| format!("{k}={v}")));
    args.extend(remove.iter().map(|k| format!("{k}-")));
    if overwrite {
        args.push("--overwrite".into());
    }
    let cmd = kubectl::parse_label_command(&args, KubeVersion::NEWEST)
        .map_err(|e| format!("command {args:?} rejected: {}", e.message()))?;
    Ok(cmd.update_node_labels(node_labels).map(|(l, _)| l))
}

/// `validateNoOverwrites(meta, labels)`: whether setting `labels` without `--overwrite`
/// on a node with `nodeLabels` is an error.
fn validate_no_overwrites(input: &Value) -> R<Value> {
    let r = apply(
        &string_map(input, "nodeLabels")?,
        &string_map(input, "labels")?,
        &[],
        false,
    )?;
    Ok(json!({"isError": matches!(r, Err(LabelNodeError::AlreadyHasValue(_)))}))
}

/// `labelFunc(obj, overwrite, "", labels, remove)` on a node: the labels afterwards (`null`
/// on error).
fn label_func(input: &Value) -> R<Value> {
    let r = apply(
        &string_map(input, "nodeLabels")?,
        &string_map(input, "labels")?,
        &strings_field(input, "remove")?,
        bool_field(input, "overwrite")?,
    )?;
    Ok(match r {
        Ok(labels) => json!({"isError": false, "labels": map_json(&labels)}),
        Err(_) => json!({"isError": true, "labels": null}),
    })
}

/// The whole command (`Complete`, `Validate`, `RunLabel`) with `args` against one node
/// `n1`: whether it fails before reaching a node, and whether its message contains
/// `errorSubstring` (upstream `TestLabelErrors` checks with `strings.Contains`).
fn label_errors(input: &Value) -> R<Value> {
    let args = strings_field(input, "args")?;
    let probe = str_field(input, "errorSubstring")?;
    let nodes = [Node {
        name: "n1".into(),
        ..Node::default()
    }];
    let run = kubectl::run_kubectl_label(&args, &nodes, KubeVersion::NEWEST);
    let message = run.command_error.as_ref().map(|e| e.message());
    Ok(json!({
        "commandError": message.is_some(),
        "errorContainsSubstring": message.is_some_and(|m| m.contains(probe)),
        "stdout": run.stdout,
        "nodeLabelsUnchanged": run.nodes.iter().all(|n| n.labels.is_empty()),
    }))
}
