//! `getMinTolerationTime`, `getMatchingTolerations` and `evictionTimeline` (the
//! taint-eviction controller simulator).

use serde_json::{Map, Value, json};
use taintlab_core::eviction::{self, PodKey, SimEvent, SimulationResult, TimedEvent};
use taintlab_core::{Pod, Semantics};

use super::OpResult;
use crate::convert::*;

/// The vectors' world: one namespace.
const NAMESPACE: &str = "default";

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "getMinTolerationTime" => (|| {
            let tols = tolerations_field(input, "tolerations")?;
            Ok(json!({"seconds": eviction::get_min_toleration_time(&tols)}))
        })(),
        "getMatchingTolerations" => get_matching_tolerations(input),
        "evictionTimeline" => eviction_timeline(input),
        _ => return None,
    };
    Some(result)
}

fn get_matching_tolerations(input: &Value) -> R<Value> {
    let taints = taints_field(input, "taints")?;
    let tols = tolerations_field(input, "tolerations")?;
    Ok(
        match eviction::get_matching_tolerations(&taints, &tols, gate(input)?) {
            Some(used) => json!({
                "allTolerated": true,
                "usedTolerations": tolerations_json(used.iter().copied()),
                "minTolerationSeconds": eviction::get_min_toleration_time(used.iter().copied()),
            }),
            None => json!({
                "allTolerated": false,
                "usedTolerations": [],
                "minTolerationSeconds": null,
            }),
        },
    )
}

fn eviction_timeline(input: &Value) -> R<Value> {
    let semantics = Semantics::newest().with_comparison_operators(gate(input)?);
    let until = i64_field(input, "until")?;
    let events = field(input, "events")?
        .as_array()
        .ok_or("\"events\" is not an array")?
        .iter()
        .map(timed_event)
        .collect::<R<Vec<_>>>()?;
    Ok(timeline_json(&eviction::simulate(events, until, semantics)))
}

/// One vector event; the vectors' node is always `node1`.
fn timed_event(v: &Value) -> R<TimedEvent> {
    let at = i64_field(v, "t")?;
    let node = || String::from("node1");
    let event = match str_field(v, "op")? {
        "createNode" => SimEvent::CreateNode {
            name: node(),
            taints: taints_field(v, "taints")?,
        },
        "setNodeTaints" => SimEvent::UpdateNode {
            name: node(),
            taints: taints_field(v, "taints")?,
        },
        "deleteNode" => SimEvent::DeleteNode { name: node() },
        "createPod" => SimEvent::CreatePod(pod(field(v, "pod")?)?),
        "updatePod" => SimEvent::UpdatePod(pod(field(v, "pod")?)?),
        "deletePod" => SimEvent::DeletePod(PodKey::new(NAMESPACE, str_field(v, "name")?)),
        other => return Err(format!("unknown timeline op {other:?}")),
    };
    Ok(TimedEvent::new(at, event))
}

fn pod(v: &Value) -> R<Pod> {
    Ok(Pod {
        namespace: NAMESPACE.into(),
        name: str_field(v, "name")?.into(),
        node_name: str_field(v, "nodeName")?.into(),
        tolerations: tolerations_field(v, "tolerations")?,
        ..Pod::default()
    })
}

fn timeline_json(r: &SimulationResult) -> Value {
    let name = |id| r.pod_key(id).map_or("", |k| k.name.as_str());
    let actions: Vec<Value> = r
        .actions
        .iter()
        .map(|a| {
            let mut m = Map::new();
            m.insert("t".into(), json!(a.at));
            m.insert("pod".into(), json!(name(a.pod)));
            m.insert("action".into(), json!(a.kind.as_str()));
            if let Some(fire_at) = a.kind.fire_at() {
                m.insert("fireAt".into(), json!(fire_at));
            }
            Value::Object(m)
        })
        .collect();
    let events: Vec<Value> = r
        .events
        .iter()
        .map(|e| {
            json!({
                "t": e.at,
                "reason": e.kind.reason(),
                "message": r.event_message(e),
            })
        })
        .collect();
    let remaining: Vec<&str> = r.remaining_pods.iter().map(|&id| name(id)).collect();
    let pending: Map<String, Value> = r
        .pending_evictions
        .iter()
        .map(|p| (name(p.pod).to_string(), json!(p.fire_at)))
        .collect();
    json!({
        "actions": actions,
        "events": events,
        "remainingPods": remaining,
        "pendingEvictions": pending,
    })
}
