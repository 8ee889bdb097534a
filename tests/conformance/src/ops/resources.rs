//! Resource ops: `parseQuantity` (`resource.ParseQuantity`), `podRequests`
//! (`PodRequests`), `nodeResourcesFit` (NodeResourcesFit `Filter`),
//! `resourceScores` (LeastAllocated and BalancedAllocation), `pickOneNodeForPreemption`
//! and `resourceCycle` (one scheduling cycle with resources, preemption included).

use serde_json::{Map, Value, json};
use taintlab_core::model::{Node, SchedulingPod};
use taintlab_core::quantity::Quantity;
use taintlab_core::resource::{RequestRules, ResourceList, pod_requests};
use taintlab_core::scheduling::placement::{
    NodeOutcome, NodeState, PlacementOptions, PodOutcome, node_states_with_allocatable,
    schedule_one,
};
use taintlab_core::scheduling::placement_cluster::{GroupingKeys, PlacementIndex};
use taintlab_core::scheduling::preemption::{VictimKey, pick_one_node};
use taintlab_core::scheduling::resources::{fits_request, node_resources_fit_filter};
use taintlab_core::{KubeVersion, Semantics};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "parseQuantity" => parse_quantity(input),
        "podRequests" => requests(input),
        "nodeResourcesFit" => fit(input),
        "resourceScores" => scores(input),
        "pickOneNodeForPreemption" => pick(input),
        "resourceCycle" => cycle(input),
        _ => return None,
    };
    Some(result)
}

/// Decodes `v[key]` into `T` through the core model's serde shape.
macro_rules! decode {
    ($v:expr, $key:expr) => {
        serde_json::from_value(field($v, $key)?.clone()).map_err(|e| format!("{}: {e}", $key))
    };
}

fn version(input: &Value) -> R<KubeVersion> {
    KubeVersion::parse(str_field(input, "release")?).ok_or_else(|| "bad release".into())
}

fn parse_quantity(input: &Value) -> R<Value> {
    let s = str_field(input, "value")?;
    Ok(match Quantity::parse_exact(s) {
        Ok(q) => json!({"ok": true, "milliValue": q.milli_value(), "value": q.value()}),
        Err(e) => json!({"ok": false, "error": e.as_str()}),
    })
}

fn list_json(l: &ResourceList) -> Value {
    let m: Map<String, Value> = l
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.to_string())))
        .collect();
    Value::Object(m)
}

fn requests(input: &Value) -> R<Value> {
    let pod: SchedulingPod = decode!(input, "pod")?;
    let rules = RequestRules {
        api_defaulting: false,
        ..RequestRules::for_version(version(input)?)
    };
    let non_missing = bool_field(input, "nonMissingDefaults")?;
    Ok(
        json!({"requests": list_json(&pod_requests(pod.placement.spec_resources(), rules, non_missing))}),
    )
}

/// A node object of the vectors: the core node plus `allocatable` (absent: unknown).
fn nodes_with_allocatable(input: &Value) -> R<(Vec<Node>, Vec<Option<ResourceList>>)> {
    let raw = field(input, "nodes")?
        .as_array()
        .ok_or("nodes is not a list")?;
    let mut nodes = Vec::new();
    let mut allocs = Vec::new();
    for n in raw {
        nodes.push(serde_json::from_value(n.clone()).map_err(|e| format!("node: {e}"))?);
        allocs.push(match n.get("allocatable") {
            Some(a) => {
                Some(serde_json::from_value(a.clone()).map_err(|e| format!("allocatable: {e}"))?)
            }
            None => None,
        });
    }
    Ok((nodes, allocs))
}

fn one_node_state(input: &Value, o: PlacementOptions) -> R<NodeState> {
    let alloc: ResourceList = decode!(input, "allocatable")?;
    let bound: Vec<SchedulingPod> = match input.get("boundPods") {
        Some(_) => decode!(input, "boundPods")?,
        None => Vec::new(),
    };
    Ok(NodeState::with_allocatable(Some(&alloc), &bound, o))
}

fn fit(input: &Value) -> R<Value> {
    let v = version(input)?;
    let o = PlacementOptions::new(Semantics::at(v));
    let state = one_node_state(input, o)?;
    let usage = state.usage.as_ref().ok_or("no usage")?;
    let pod: SchedulingPod = decode!(input, "pod")?;
    let req = taintlab_core::resource::summarize(pod.placement.spec_resources(), v).request;
    let status = node_resources_fit_filter(&req, usage, v);
    let insufficient: Vec<Value> = fits_request(&req, usage, v)
        .iter()
        .map(|i| {
            json!({"resourceName": i.resource, "reason": i.reason, "requested": i.requested,
                   "used": i.used, "capacity": i.capacity})
        })
        .collect();
    Ok(json!({
        "code": status.code.as_str(),
        "reasons": status.reasons,
        "insufficientResources": insufficient,
    }))
}

fn scores(input: &Value) -> R<Value> {
    let v = version(input)?;
    let o = PlacementOptions::new(Semantics::at(v));
    let state = one_node_state(input, o)?;
    let pod: SchedulingPod = decode!(input, "pod")?;
    let prep = taintlab_core::scheduling::placement::PreparedPod::new(&pod, o);
    let (fit, balanced) = prep.resource_scores(state.usage.as_ref());
    let score = match str_field(input, "plugin")? {
        "NodeResourcesFit" => fit,
        "NodeResourcesBalancedAllocation" => balanced,
        other => return Err(format!("unknown plugin {other}")),
    };
    Ok(json!({"score": score}))
}

fn pick(input: &Value) -> R<Value> {
    let priorities: Vec<Vec<i32>> = decode!(input, "victimPriorities")?;
    let starts: Vec<Vec<String>> = match input.get("victimStartTimes") {
        Some(_) => decode!(input, "victimStartTimes")?,
        None => Vec::new(),
    };
    let candidates: Vec<Vec<VictimKey<'_>>> = priorities
        .iter()
        .enumerate()
        .map(|(i, ps)| {
            ps.iter()
                .enumerate()
                .map(|(j, &priority)| VictimKey {
                    priority,
                    start_time: starts
                        .get(i)
                        .and_then(|s| s.get(j))
                        .map_or("", String::as_str),
                })
                .collect()
        })
        .collect();
    Ok(json!({"chosen": pick_one_node(&candidates)}))
}

fn cycle(input: &Value) -> R<Value> {
    let v = version(input)?;
    let o = PlacementOptions::new(Semantics::at(v));
    let (nodes, allocs) = nodes_with_allocatable(input)?;
    let bound: Vec<SchedulingPod> = match input.get("boundPods") {
        Some(_) => decode!(input, "boundPods")?,
        None => Vec::new(),
    };
    let pod: SchedulingPod = decode!(input, "pod")?;
    let states = node_states_with_allocatable(&nodes, &allocs, &bound, o);
    let naive = schedule_one(&pod, &nodes, &states, o);
    let grouped = PlacementIndex::with_states(
        &nodes,
        states.clone(),
        GroupingKeys::of(std::slice::from_ref(&pod), o),
        o,
    )
    .schedule(std::slice::from_ref(&pod));
    if grouped.outcome(0) != Some(&naive.outcome) {
        return Err("grouped and per-node evaluation differ".into());
    }
    let (outcome, nomination) = match &naive.outcome {
        PodOutcome::Feasible { .. } => ("Feasible", None),
        PodOutcome::Unschedulable { nomination, .. } => ("Unschedulable", nomination.as_ref()),
        PodOutcome::Gated => ("Gated", None),
        PodOutcome::Bypassed => ("Bypassed", None),
        PodOutcome::OtherScheduler => ("OtherScheduler", None),
        PodOutcome::SchedulerError { .. } => ("SchedulerError", None),
        PodOutcome::PreScoreError => ("PreScoreError", None),
        PodOutcome::SchedulerPanic { .. } => ("SchedulerPanic", None),
    };
    let mut feasible = Map::new();
    for (n, c) in nodes.iter().zip(&naive.nodes) {
        if let NodeOutcome::Feasible {
            node_resources_fit,
            balanced_allocation,
            ..
        } = c
        {
            feasible.insert(
                n.name.clone(),
                json!({"nodeResourcesFit": node_resources_fit, "balancedAllocation": balanced_allocation}),
            );
        }
    }
    Ok(json!({
        "outcome": outcome,
        "message": naive.outcome.message(),
        "feasibleNodes": feasible,
        "nominatedNodeName": nomination.map(|n| n.node.clone()),
        "victims": nomination.map(|n| n.victims.iter().map(|v| format!("{}/{}", v.namespace, v.name)).collect::<Vec<_>>()),
    }))
}
