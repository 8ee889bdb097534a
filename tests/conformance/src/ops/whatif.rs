//! `whatIf`: the cluster-wide what-if simulation (`simulation::simulate`).
//!
//! Input: `version` (optional, e.g. `"1.35"`), `cluster` (the simulation's `Cluster` in
//! its JSON form), `actions` (`Action`s), `until`. Output: `events` (Kubernetes Events,
//! `"<t> <Reason> <Kind>/<ns>/<name>: <message>"`), `drain` (`"<t> stdout|stderr:
//! <line>"`), `pods` (`"<ns>/<name> <created>-<gone|end> <node>…"` per pod record),
//! `pending` (`"<ns>/<name>: <message>"`) and `summary`. Names a controller generates
//! with a random suffix show the suffix as `?????`.

use serde_json::{Value, json};
use taintlab_core::simulation::{self, Action, Cluster, Source, Timeline, WhatIf};
use taintlab_core::{KubeVersion, Semantics};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    match op {
        "whatIf" => Some(what_if(input)),
        _ => None,
    }
}

fn what_if(input: &Value) -> R<Value> {
    let semantics = match input.get("version").and_then(Value::as_str) {
        Some(v) => {
            Semantics::at(KubeVersion::parse(v).ok_or_else(|| format!("bad version {v:?}"))?)
        }
        None => Semantics::newest(),
    };
    let cluster: Cluster = serde_json::from_value(field(input, "cluster")?.clone())
        .map_err(|e| format!("cluster: {e}"))?;
    let actions: Vec<Action> = match input.get("actions") {
        Some(a) => serde_json::from_value(a.clone()).map_err(|e| format!("actions: {e}"))?,
        None => Vec::new(),
    };
    let until = i64_field(input, "until")?;
    let t = simulation::simulate(&WhatIf::new(cluster.clone(), semantics, actions, until))
        .map_err(|e| e.to_string())?;
    Ok(render(&t, &cluster))
}

/// The name with a generated suffix masked.
fn shown(t: &Timeline, cluster: &Cluster, pod: usize) -> String {
    let Some(p) = t.pods.get(pod) else {
        return String::new();
    };
    let given = cluster
        .pods
        .iter()
        .any(|c| c.pod.pod.namespace == p.namespace && c.pod.pod.name == p.name);
    let stateful = p
        .owner
        .as_ref()
        .is_some_and(|o| o.kind == simulation::ControllerKind::StatefulSet);
    let name = match p.name.rsplit_once('-') {
        Some((prefix, suffix)) if !given && !stateful && suffix.len() == 5 => {
            format!("{prefix}-?????")
        }
        _ => p.name.clone(),
    };
    format!("{}/{}", p.namespace, name)
}

fn mask(t: &Timeline, cluster: &Cluster, text: &str) -> String {
    let mut out = text.to_string();
    for (i, p) in t.pods.iter().enumerate() {
        let s = shown(t, cluster, i);
        let masked = s.rsplit('/').next().unwrap_or_default();
        if masked != p.name {
            out = out.replace(&p.name, masked);
        }
    }
    out
}

fn render(t: &Timeline, cluster: &Cluster) -> Value {
    let events: Vec<String> = t
        .events
        .iter()
        .filter(|e| e.source == Source::Event)
        .map(|e| {
            let object = if e.object.namespace.is_empty() {
                format!("{}/{}", e.object.kind.as_str(), e.object.name)
            } else {
                format!(
                    "{}/{}/{}",
                    e.object.kind.as_str(),
                    e.object.namespace,
                    e.object.name
                )
            };
            mask(
                t,
                cluster,
                &format!("{} {} {}: {}", e.at, e.reason, object, e.message),
            )
        })
        .collect();
    let drain: Vec<String> = t
        .events
        .iter()
        .filter(|e| e.source != Source::Event)
        .map(|e| {
            let stream = if e.source == Source::DrainStderr {
                "stderr"
            } else {
                "stdout"
            };
            mask(t, cluster, &format!("{} {}: {}", e.at, stream, e.message))
        })
        .collect();
    let pods: Vec<String> = (0..t.pods.len())
        .map(|i| {
            let p = &t.pods[i];
            let mut nodes: Vec<&str> = Vec::new();
            for s in t.spans_of(i) {
                if let Some(n) = s.node.and_then(|n| t.nodes.get(n))
                    && nodes.last() != Some(&n.as_str())
                {
                    nodes.push(n);
                }
            }
            let gone = p.gone.map_or_else(|| "end".to_string(), |g| g.to_string());
            let mut line = format!("{} {}-{}", shown(t, cluster, i), p.created, gone);
            for n in nodes {
                line.push(' ');
                line.push_str(n);
            }
            line
        })
        .collect();
    let pending: Vec<String> = t
        .summary
        .still_pending
        .iter()
        .map(|p| format!("{}: {}", shown(t, cluster, p.pod), p.message))
        .collect();
    json!({
        "events": events,
        "drain": drain,
        "pods": pods,
        "pending": pending,
        "summary": {
            "evicted": t.summary.evicted,
            "replaced": t.summary.replaced,
            "rescheduled": t.summary.rescheduled,
            "drainsUnfinished": t.summary.drains_unfinished,
        },
    })
}
