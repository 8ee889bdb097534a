//! Normalized objects back to Kubernetes YAML and JSON (`apiVersion`, `kind`,
//! `metadata`, `spec`), in a shape kubectl accepts, so that reading the output again
//! gives the same objects.
//!
//! Workloads are written as the Pod their template describes. A pod read without
//! containers (from describe output) gets one placeholder container
//! ([`PLACEHOLDER_IMAGE`]), since the API requires one.

use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use taintlab_core::{Node, PreemptionPolicy, Taint, Toleration};

use crate::model::{Parsed, Workload};

/// Image of the placeholder container of pods that had none in the input.
pub const PLACEHOLDER_IMAGE: &str = "registry.k8s.io/pause:3.10";

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// A `taints:` list as a bare object.
pub fn taints_json(taints: &[Taint]) -> Value {
    json!({ "taints": to_value(&taints) })
}

/// A `tolerations:` list as a bare object.
pub fn tolerations_json(tolerations: &[Toleration]) -> Value {
    json!({ "tolerations": to_value(&tolerations) })
}

/// A Node object.
pub fn node_json(node: &Node) -> Value {
    let mut meta = Map::new();
    meta.insert("name".into(), json!(node.name));
    if !node.labels.is_empty() {
        meta.insert("labels".into(), to_value(&node.labels));
    }
    let mut spec = Map::new();
    if !node.taints.is_empty() {
        spec.insert("taints".into(), to_value(&node.taints));
    }
    if node.unschedulable {
        spec.insert("unschedulable".into(), json!(true));
    }
    let mut obj = Map::new();
    obj.insert("apiVersion".into(), json!("v1"));
    obj.insert("kind".into(), json!("Node"));
    obj.insert("metadata".into(), Value::Object(meta));
    obj.insert("spec".into(), Value::Object(spec));
    if !node.conditions.is_empty() {
        let conds: Vec<Value> = node
            .conditions
            .iter()
            .map(|c| json!({"type": c.type_, "status": c.status.as_str()}))
            .collect();
        obj.insert("status".into(), json!({ "conditions": conds }));
    }
    Value::Object(obj)
}

/// A Pod object for a pod or the pod template of a workload.
pub fn pod_json(w: &Workload) -> Value {
    let mut meta = Map::new();
    meta.insert("name".into(), json!(w.pod.name));
    if !w.pod.namespace.is_empty() {
        meta.insert("namespace".into(), json!(w.pod.namespace));
    }
    let mut spec = Map::new();
    let containers = |list: &[crate::model::ContainerResources]| -> Vec<Value> {
        list.iter()
            .map(|c| {
                let mut m = Map::new();
                m.insert("name".into(), json!(c.name));
                let image = if c.image.is_empty() {
                    PLACEHOLDER_IMAGE
                } else {
                    &c.image
                };
                m.insert("image".into(), json!(image));
                let mut r = Map::new();
                if !c.requests.is_empty() {
                    r.insert("requests".into(), to_value(&c.requests));
                }
                if !c.limits.is_empty() {
                    r.insert("limits".into(), to_value(&c.limits));
                }
                if !r.is_empty() {
                    m.insert("resources".into(), Value::Object(r));
                }
                Value::Object(m)
            })
            .collect()
    };
    let mut main = containers(&w.containers);
    if main.is_empty() {
        main.push(json!({"name": "main", "image": PLACEHOLDER_IMAGE}));
    }
    spec.insert("containers".into(), Value::Array(main));
    if !w.init_containers.is_empty() {
        spec.insert(
            "initContainers".into(),
            Value::Array(containers(&w.init_containers)),
        );
    }
    if !w.pod.tolerations.is_empty() {
        spec.insert("tolerations".into(), to_value(&w.pod.tolerations));
    }
    if !w.pod.node_name.is_empty() {
        spec.insert("nodeName".into(), json!(w.pod.node_name));
    }
    if let Some(p) = w.priority {
        spec.insert("priority".into(), json!(p));
    }
    if !w.priority_class_name.is_empty() {
        spec.insert("priorityClassName".into(), json!(w.priority_class_name));
    }
    if w.pod.preemption_policy == PreemptionPolicy::Never {
        spec.insert("preemptionPolicy".into(), json!("Never"));
    }
    if w.host_network {
        spec.insert("hostNetwork".into(), json!(true));
    }
    if !w.runtime_class_name.is_empty() {
        spec.insert("runtimeClassName".into(), json!(w.runtime_class_name));
    }
    let mut obj = Map::new();
    obj.insert("apiVersion".into(), json!("v1"));
    obj.insert("kind".into(), json!("Pod"));
    obj.insert("metadata".into(), Value::Object(meta));
    obj.insert("spec".into(), Value::Object(spec));
    if let Some(q) = w.stated_qos_class {
        obj.insert("status".into(), json!({"qosClass": q.as_str()}));
    }
    Value::Object(obj)
}

/// Every node, pod and bare list of a parse as separate values, in that order.
pub fn objects(parsed: &Parsed) -> Vec<Value> {
    let mut out: Vec<Value> = parsed.nodes.iter().map(|n| node_json(&n.node)).collect();
    out.extend(parsed.workloads.iter().map(pod_json));
    out.extend(parsed.taint_lists.iter().map(|l| taints_json(&l.taints)));
    out.extend(
        parsed
            .toleration_lists
            .iter()
            .map(|l| tolerations_json(&l.tolerations)),
    );
    out
}

/// A value as pretty JSON (two-space indentation, like `kubectl get -o json` but with
/// two spaces).
pub fn to_json(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// A value as block-style YAML. Strings are always double-quoted, so nothing is
/// re-read as a YAML 1.1 boolean or number.
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    write_yaml(v, 0, &mut out, false);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Several values as a YAML stream (`---` between documents).
pub fn to_yaml_stream(values: &[Value]) -> String {
    values.iter().map(to_yaml).collect::<Vec<_>>().join("---\n")
}

/// A JSON string literal that is also a YAML double-quoted scalar the YAML reader accepts:
/// serde_json leaves DEL, the C1 controls and U+FFFE/U+FFFF raw, which YAML refuses, so
/// they are written as `\uXXXX` escapes (valid in both).
pub fn quoted(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    if !json
        .chars()
        .any(|c| matches!(c, '\u{7f}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}'))
    {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if matches!(c, '\u{7f}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}') {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => quoted(s),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

fn key(k: &str) -> String {
    let plain = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | '_'))
        && k.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && matches!(crate::yaml11::resolve_plain(k), crate::tree::Kind::Str(_));
    if plain { k.to_string() } else { quoted(k) }
}

fn write_yaml(v: &Value, indent: usize, out: &mut String, in_seq: bool) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (i, (k, val)) in m.iter().enumerate() {
                if !(in_seq && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str(&key(k));
                out.push(':');
                match val {
                    Value::Object(c) if !c.is_empty() => {
                        out.push('\n');
                        write_yaml(val, indent + 2, out, false);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        write_yaml(val, indent, out, false);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&flow(val));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for item in a {
                out.push_str(&pad);
                out.push_str("- ");
                match item {
                    Value::Object(c) if !c.is_empty() => write_yaml(item, indent + 2, out, true),
                    Value::Array(x) if !x.is_empty() => {
                        out.push('\n');
                        write_yaml(item, indent + 2, out, false);
                    }
                    _ => {
                        out.push_str(&flow(item));
                        out.push('\n');
                    }
                }
            }
        }
        other => {
            out.push_str(&pad);
            out.push_str(&flow(other));
            out.push('\n');
        }
    }
}

fn flow(v: &Value) -> String {
    match v {
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Array(a) if a.is_empty() => "[]".into(),
        other => scalar(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintlab_core::{Operator, TaintEffect};

    #[test]
    fn yaml_quotes_strings() {
        // Keys in sorted order, so the test holds with and without serde_json's
        // preserve_order feature.
        let v = json!({"metadata": {"labels": {"a.b/c": "1.0", "on": "yes"}}, "spec": {"taints": [{"effect": "NoSchedule", "key": "k"}], "unschedulable": true}});
        let y = to_yaml(&v);
        assert_eq!(
            y,
            "metadata:\n  labels:\n    a.b/c: \"1.0\"\n    \"on\": \"yes\"\nspec:\n  taints:\n  - effect: \"NoSchedule\"\n    key: \"k\"\n  unschedulable: true\n"
        );
    }

    #[test]
    fn characters_yaml_refuses_are_escaped() {
        let v = json!({"kind": "Node", "metadata": {"name": "n", "labels": {"a\u{7f}": "x\u{85}\u{9f}\u{fffe}\u{1}"}}});
        let y = to_yaml(&v);
        assert!(
            y.contains("\"a\\u007f\": \"x\\u0085\\u009f\\ufffe\\u0001\""),
            "{y}"
        );
        assert!(y.is_ascii());
        // What is written reads back without errors.
        let back = crate::parse_yaml(&y, &crate::Options::default());
        assert!(
            back.diagnostics
                .iter()
                .all(|d| d.code != crate::Code::YamlSyntax),
            "{:?}",
            back.diagnostics
        );
    }

    #[test]
    fn tolerations_shape() {
        let t = Toleration::new("k", Operator::Exists, "", TaintEffect::NoExecute)
            .with_seconds(Some(30));
        assert_eq!(
            tolerations_json(&[t]),
            json!({"tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}]})
        );
    }
}
