//! `kubectl describe node` and `kubectl describe pod` output.
//!
//! Read from the node: `Name:`, `Labels:`, the `Taints:` block (continuation lines,
//! `<none>`), `Unschedulable:`, the `Conditions:` table and `Kubelet Version:`. From the
//! pod: `Name:`, `Namespace:`, `Priority:`, `Priority Class Name:`, `Node:`,
//! `QoS Class:`, the `Tolerations:` block and FailedScheduling lines of `Events:`. Any
//! leading whitespace and tabs are accepted, as are bare `Taints:` / `Tolerations:`
//! blocks without the rest.
//!
//! Describe output loses information: it prints `Equal`, `Lt` and `Gt` tolerations
//! alike (`sla=950:NoSchedule`), and never shows `timeAdded`. A warning says so when it
//! matters.

use std::collections::BTreeMap;

use taintlab_core::{
    ConditionStatus, NodeCondition, Operator, QosClass, Taint, TaintEffect, Toleration,
};

use crate::diag::{Code, Diagnostic, Location};
use crate::event;
use crate::model::{Form, InputNode, Parsed, TaintList, TolerationList, Workload};
use crate::table;
use taintlab_core::suggest::suggest;

/// A describe field label at the start of a line: `Name:`, `Priority Class Name:`,
/// `Node-Selectors:`. Returns the label, the column of the value and the value.
fn label(line: &str) -> Option<(&str, usize, &str)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let t = line.trim_start();
    let lead = line.len() - t.len();
    let colon = t.find(':')?;
    let name = &t[..colon];
    let first = name.chars().next()?;
    if !first.is_ascii_uppercase()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')'))
    {
        return None;
    }
    let after = &t[colon + 1..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let value = after.trim();
    let value_off = lead + colon + 1 + (after.len() - after.trim_start().len());
    Some((name, value_off, value))
}

/// Whether a line starts describe output (a `Taints:` or `Tolerations:` block, or a
/// `Name:` header at column 1).
pub(crate) fn is_describe_start(line: &str) -> bool {
    match label(line) {
        Some(("Taints" | "Tolerations" | "Unschedulable", _, _)) => true,
        Some(("Name", _, v)) => !line.starts_with([' ', '\t']) && !v.is_empty(),
        _ => false,
    }
}

/// Whether a line belongs to describe output (labels, indented lines, blank lines).
pub(crate) fn is_describe_line(line: &str) -> bool {
    line.trim().is_empty() || line.starts_with([' ', '\t']) || label(line).is_some()
}

struct Block<'a> {
    line: usize,
    col: usize,
    value: &'a str,
    /// Continuation lines: (line number, column of text, text).
    more: Vec<(usize, usize, &'a str)>,
}

fn col_of(line: &str, byte: usize) -> usize {
    line.get(..byte).map(|s| s.chars().count()).unwrap_or(0) + 1
}

/// Reads one describe object (lines from one `Name:` to the next) and records it.
pub(crate) fn parse_object(lines: &[(usize, &str)], doc: usize, out: &mut Parsed) -> Form {
    let mut fields: Vec<(&str, Block)> = Vec::new();
    let mut in_events = false;
    let mut events: Vec<(usize, usize, &str)> = Vec::new();
    let mut kubelet_version = None;
    for (no, raw) in lines {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if let Some((name, off, value)) = label(line) {
            // A label that is indented deeper than a block's value column is part of a
            // table or a nested section (Lease, System Info), not a top-level field.
            let top = !indented || matches!(name, "Taints" | "Tolerations" | "Unschedulable");
            if name == "Kubelet Version" {
                kubelet_version = Some(value.to_string());
            }
            if top {
                in_events = name == "Events";
                fields.push((
                    name,
                    Block {
                        line: *no,
                        col: col_of(line, off),
                        value,
                        more: Vec::new(),
                    },
                ));
                continue;
            }
        }
        if in_events {
            events.push((*no, 1, line));
            continue;
        }
        if indented && let Some((_, b)) = fields.last_mut() {
            let t = line.trim_start();
            b.more
                .push((*no, col_of(line, line.len() - t.len()), t.trim_end()));
        }
    }
    let get = |n: &str| fields.iter().find(|(k, _)| *k == n).map(|(_, b)| b);
    let is_node =
        get("Taints").is_some() || get("Unschedulable").is_some() || get("Roles").is_some();
    let is_pod =
        get("Tolerations").is_some() || get("QoS Class").is_some() || get("Namespace").is_some();
    let name = get("Name").map(|b| b.value.to_string()).unwrap_or_default();
    let first_line = lines.first().map(|l| l.0).unwrap_or(0);
    let loc = Location::at(doc, first_line, 1);
    let obj = (!name.is_empty()).then_some(name.as_str());
    let header = events
        .iter()
        .position(|(_, _, l)| table::header(l).is_some());
    let read = match header.and_then(|k| table::header(events[k].2).map(|h| (k, h))) {
        Some((k, h)) => {
            let body: Vec<(usize, &str)> =
                events[k + 1..].iter().map(|(n, _, l)| (*n, *l)).collect();
            table::events(&table::rows(&h, &body), doc, obj)
        }
        // Rows without their header.
        None => events
            .iter()
            .filter(|(_, _, l)| event::looks_like_failed_scheduling(l))
            .map(|(no, col, text)| {
                let mut ev = event::parse_message(text, Location::at(doc, *no, *col));
                if ev.object.is_none() {
                    ev.object = obj.map(str::to_string);
                }
                ev
            })
            .collect(),
    };
    let events_read = !read.is_empty();
    out.events.extend(read);
    if is_node && !(is_pod && get("Taints").is_none()) {
        let mut node = taintlab_core::Node {
            name: name.clone(),
            ..Default::default()
        };
        let mut taint_locations = Vec::new();
        if let Some(b) = get("Taints") {
            for (no, col, text) in block_items(b) {
                if let Some(t) =
                    read_taint(text, Location::at(doc, no, col).with_path("Taints"), out)
                {
                    node.taints.push(t);
                    taint_locations.push(Location::at(doc, no, col).with_path("Taints"));
                }
            }
        }
        let mut unschedulable_location = None;
        if let Some(b) = get("Unschedulable") {
            node.unschedulable = b.value == "true";
            unschedulable_location =
                Some(Location::at(doc, b.line, b.col).with_path("Unschedulable"));
        }
        if let Some(b) = get("Labels") {
            node.labels = labels(b);
        }
        if let Some(b) = get("Conditions") {
            node.conditions = conditions(b);
        }
        if name.is_empty() && get("Unschedulable").is_none() {
            out.taint_lists.push(TaintList {
                taints: node.taints,
                locations: taint_locations,
                location: loc.clone(),
                form: Form::DescribeNode,
            });
            // A bare `Tolerations:` block pasted together with the taints.
            if get("Tolerations").is_none() {
                return Form::DescribeNode;
            }
        } else {
            if unschedulable_location.is_none() && !node.unschedulable {
                out.diagnostics.push(Diagnostic::warning(
                    Code::Lossy,
                    loc.clone(),
                    format!(
                        "the describe output of node \"{name}\" has no Unschedulable: line (kubectl before 1.10 does not print it): whether it is cordoned is unknown"
                    ),
                ));
            }
            out.nodes.push(InputNode {
                node,
                location: loc.clone(),
                taint_locations,
                unschedulable_location,
                kubelet_version,
                allocatable: None,
                capacity: None,
                form: Form::DescribeNode,
            });
            return Form::DescribeNode;
        }
    }
    let mut tolerations = Vec::new();
    let mut locations = Vec::new();
    if let Some(b) = get("Tolerations") {
        let items = block_items(b);
        // kubectl 1.7 to 1.18 printed neither the operator nor `op=Exists`: `key:Effect`
        // is then Exists, or Equal with an empty value. kubectl 1.6 printed the operator
        // (`key=:Exists:Effect`); 1.19 and later add `op=Exists`.
        let operator_shown = items.iter().any(|(_, _, t)| {
            t.contains("op=Exists") || t.contains(":Exists:") || t.contains(":Equal:")
        });
        for (no, col, text) in items {
            let l = Location::at(doc, no, col).with_path("Tolerations");
            if let Some(t) = read_toleration(text, l.clone(), out) {
                if !operator_shown && t.value.is_empty() && t.operator == Operator::Equal {
                    out.diagnostics.push(Diagnostic::warning(
                        Code::Lossy,
                        l.clone(),
                        format!(
                            "\"{text}\" does not show its operator (kubectl 1.7 to 1.18 printed Exists and Equal with an empty value alike): it may be Exists (any value) or Equal to \"\"; read as Equal, check the pod's YAML"
                        ),
                    ));
                }
                tolerations.push(t);
                locations.push(l);
            }
        }
    }
    if name.is_empty() {
        if get("Tolerations").is_some() {
            out.toleration_lists.push(TolerationList {
                tolerations,
                locations,
                location: loc,
                form: Form::DescribePod,
            });
        } else if !events_read {
            out.diagnostics.push(Diagnostic::warning(
                Code::Describe,
                loc,
                "this looks like kubectl describe output but has no Name:, Taints: or Tolerations: to read",
            ));
        }
        return Form::DescribePod;
    }
    let mut w = Workload {
        kind: "Pod".into(),
        api_version: "v1".into(),
        name: name.clone(),
        namespace: get("Namespace")
            .map(|b| b.value.to_string())
            .unwrap_or_default(),
        location: loc,
        toleration_locations: locations,
        form: Form::DescribePod,
        ..Workload::default()
    };
    w.pod.name = name;
    w.pod.namespace = w.namespace.clone();
    w.pod.tolerations = tolerations;
    if let Some(b) = get("Priority") {
        w.priority = b.value.parse().ok();
    }
    if let Some(b) = get("Priority Class Name")
        && b.value != "<none>"
    {
        w.priority_class_name = b.value.to_string();
    }
    if let Some(b) = get("Node")
        && b.value != "<none>"
    {
        w.pod.node_name = b.value.split('/').next().unwrap_or("").to_string();
    }
    if let Some(b) = get("QoS Class")
        && matches!(b.value, "BestEffort" | "Burstable" | "Guaranteed")
    {
        w.stated_qos_class = Some(QosClass::parse(b.value));
    }
    out.workloads.push(w);
    Form::DescribePod
}

/// The value of a block and its continuation lines, without `<none>`.
fn block_items<'a>(b: &'a Block<'a>) -> Vec<(usize, usize, &'a str)> {
    std::iter::once((b.line, b.col, b.value))
        .chain(b.more.iter().copied())
        .filter(|(_, _, t)| !t.is_empty() && *t != "<none>")
        .collect()
}

fn labels(b: &Block) -> BTreeMap<String, String> {
    block_items(b)
        .into_iter()
        .filter_map(|(_, _, t)| {
            let (k, v) = t.split_once('=').unwrap_or((t, ""));
            (!k.is_empty()).then(|| (k.to_string(), v.to_string()))
        })
        .collect()
}

fn conditions(b: &Block) -> Vec<NodeCondition> {
    b.more
        .iter()
        .filter_map(|(_, _, t)| {
            let mut cols = t.split_whitespace();
            let type_ = cols.next()?;
            let status = cols.next()?;
            if type_ == "Type" || type_.starts_with('-') {
                return None;
            }
            Some(NodeCondition {
                type_: type_.to_string(),
                status: ConditionStatus::parse(status),
            })
        })
        .collect()
}

const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

fn read_effect(s: &str, loc: &Location, out: &mut Parsed) -> TaintEffect {
    let e = TaintEffect::parse(s);
    if matches!(e, TaintEffect::Other(_)) {
        let mut msg =
            format!("effect \"{s}\" is not one of NoSchedule, PreferNoSchedule, NoExecute");
        if let Some(k) = suggest(s, &EFFECTS) {
            msg.push_str(&format!("; did you mean \"{k}\"?"));
        }
        out.diagnostics
            .push(Diagnostic::error(Code::InvalidValue, loc.clone(), msg));
    }
    e
}

/// One describe taint: `key`, `key:Effect`, `key=value:Effect`, `key=value:`.
fn read_taint(text: &str, loc: Location, out: &mut Parsed) -> Option<Taint> {
    if text.contains(char::is_whitespace) {
        out.diagnostics.push(Diagnostic::error(
            Code::Describe,
            loc,
            format!("\"{text}\" is not a taint as kubectl describe prints it (key=value:Effect)"),
        ));
        return None;
    }
    let (kv, effect) = match text.rsplit_once(':') {
        Some((kv, e)) => (kv, read_effect(e, &loc, out)),
        None => (text, TaintEffect::Empty),
    };
    let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
    if effect.is_empty() {
        out.diagnostics.push(Diagnostic::warning(
            Code::Describe,
            loc.clone(),
            format!(
                "the taint \"{text}\" has no effect; the API server does not accept such a taint"
            ),
        ));
    }
    Some(Taint::new(key, value, effect))
}

/// One describe toleration: `<key>[=<value>][:<effect>][ op=Exists][ for <N>s]`.
fn read_toleration(text: &str, loc: Location, out: &mut Parsed) -> Option<Toleration> {
    let mut rest = text.trim();
    let mut seconds = None;
    if let Some(i) = rest.rfind(" for ") {
        let tail = &rest[i + 5..];
        if let Some(n) = tail.strip_suffix('s').and_then(|n| n.parse::<i64>().ok()) {
            seconds = Some(n);
            rest = rest[..i].trim_end();
        }
    }
    let mut exists = false;
    if rest == "op=Exists" {
        exists = true;
        rest = "";
    } else if let Some(r) = rest.strip_suffix(" op=Exists") {
        exists = true;
        rest = r.trim_end();
    }
    if rest.contains(char::is_whitespace) {
        out.diagnostics.push(Diagnostic::error(
            Code::Describe,
            loc,
            format!("\"{text}\" is not a toleration as kubectl describe prints it (key=value:Effect op=Exists for 300s)"),
        ));
        return None;
    }
    let (kv, effect) = match rest.rsplit_once(':') {
        Some((kv, e)) => (kv, read_effect(e, &loc, out)),
        None => (rest, TaintEffect::Empty),
    };
    // kubectl 1.6 printed `key=value:Operator:Effect`.
    let (kv, old_op) = match kv.rsplit_once(':') {
        Some((k, op @ ("Exists" | "Equal" | "Lt" | "Gt"))) => (k, Some(op)),
        _ => (kv, None),
    };
    let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
    let operator = match old_op {
        Some(op) => Operator::parse(op),
        None if exists => Operator::Exists,
        None => Operator::Equal,
    };
    let exists = exists || old_op == Some("Exists");
    if old_op.is_none()
        && !exists
        && !value.is_empty()
        && value
            .trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit())
    {
        out.diagnostics.push(Diagnostic::warning(
            Code::Lossy,
            loc.clone(),
            format!(
                "kubectl describe prints Equal, Lt and Gt tolerations alike, so \"{rest}\" is read as operator Equal; it may have been Lt or Gt (check the pod's YAML)"
            ),
        ));
    }
    Some(Toleration::new(key, operator, value, effect).with_seconds(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<(usize, &str)> {
        s.split('\n').enumerate().map(|(i, l)| (i + 1, l)).collect()
    }

    #[test]
    fn node_taints_block() {
        let text = "Name:               worker-1\nRoles:              <none>\nLabels:             kubernetes.io/hostname=worker-1\n                    zone=a\nTaints:             node.kubernetes.io/unreachable:NoExecute\n                    dedicated=gpu:NoSchedule\nUnschedulable:      true\nConditions:\n  Type    Status\n  ----    ------\n  Ready   Unknown\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let n = &out.nodes[0];
        assert_eq!(n.node.name, "worker-1");
        assert_eq!(
            n.node.taints,
            vec![
                Taint::new("node.kubernetes.io/unreachable", "", TaintEffect::NoExecute),
                Taint::new("dedicated", "gpu", TaintEffect::NoSchedule),
            ]
        );
        assert!(n.node.unschedulable);
        assert_eq!(n.node.labels.get("zone").map(String::as_str), Some("a"));
        assert_eq!(n.node.conditions[0].status, ConditionStatus::Unknown);
        assert_eq!(
            n.taint_locations[1],
            Location::at(1, 6, 21).with_path("Taints")
        );
    }

    #[test]
    fn pod_tolerations_block() {
        let text = "\tTolerations:\tnode.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n\t\top=Exists\n\t\t:NoExecute op=Exists\n\t\tsla=950:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let l = &out.toleration_lists[0];
        assert_eq!(
            l.tolerations,
            vec![
                Toleration::new(
                    "node.kubernetes.io/not-ready",
                    Operator::Exists,
                    "",
                    TaintEffect::NoExecute
                )
                .with_seconds(Some(300)),
                Toleration::new("", Operator::Exists, "", TaintEffect::Empty),
                Toleration::new("", Operator::Exists, "", TaintEffect::NoExecute),
                Toleration::new("sla", Operator::Equal, "950", TaintEffect::NoSchedule),
            ]
        );
        assert_eq!(out.diagnostics.len(), 1);
        assert_eq!(out.diagnostics[0].code, Code::Lossy);
    }

    #[test]
    fn old_toleration_layouts() {
        // kubectl 1.6: `key=value:Operator:Effect`.
        let text = "Name:           web-0\nNamespace:      default\nTolerations:    node.alpha.kubernetes.io/notReady=:Exists:NoExecute for 300s\n                dedicated=gpu:Equal:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let t = &out.workloads[0].pod.tolerations;
        assert_eq!(
            t[0],
            Toleration::new(
                "node.alpha.kubernetes.io/notReady",
                Operator::Exists,
                "",
                TaintEffect::NoExecute
            )
            .with_seconds(Some(300))
        );
        assert_eq!(
            t[1],
            Toleration::new("dedicated", Operator::Equal, "gpu", TaintEffect::NoSchedule)
        );
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);

        // kubectl 1.7 to 1.18: no operator shown; an empty value cannot tell Exists
        // from Equal.
        let text = "Name:           web-0\nNamespace:      default\nTolerations:    node.kubernetes.io/not-ready:NoExecute for 300s\n                dedicated=gpu:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        let lossy: Vec<usize> = out
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::Lossy)
            .map(|d| d.location.line)
            .collect();
        assert_eq!(lossy, vec![3]);
        // 1.19 and later print `op=Exists`: then no doubt.
        let text = "Name:           web-0\nNamespace:      default\nTolerations:    node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                team:NoSchedule\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert!(out.diagnostics.is_empty());
    }

    #[test]
    fn unschedulable_unknown_without_its_line() {
        let text = "Name:\t\t\tworker-7\nRole:\nLabels:\t\t\tzone=a\nTaints:\t\t\t<none>\nCreationTimestamp:\tWed, 30 Aug 2017 11:11:59 -0400\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert_eq!(out.nodes[0].unschedulable_state(), None);
        assert_eq!(out.diagnostics[0].code, Code::Lossy);
        let text = "Name:  worker-7\nTaints:  <none>\nUnschedulable:  false\n";
        let mut out = Parsed::default();
        parse_object(&lines(text), 1, &mut out);
        assert_eq!(out.nodes[0].unschedulable_state(), Some(false));
    }
}
