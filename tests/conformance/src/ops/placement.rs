//! Placement ops: `nodePortsFilter` (NodePorts `Filter`) and `placementCycle` (one
//! scheduling cycle of the default profile with every modelled placement plugin).

use serde_json::{Value, json};
use taintlab_core::model::{HostPort, Node, SchedulingPod};
use taintlab_core::scheduling::placement::{
    PlacementOptions, PodOutcome, UsedPorts, node_ports_filter, schedule_naive,
};
use taintlab_core::scheduling::placement_cluster::schedule_placement;
use taintlab_core::{KubeVersion, Semantics};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "nodePortsFilter" => node_ports(input),
        "placementCycle" => cycle(input),
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

fn node_ports(input: &Value) -> R<Value> {
    let wanted: Vec<HostPort> = decode!(input, "wanted")?;
    let used_list: Vec<HostPort> = decode!(input, "used")?;
    let mut used = UsedPorts::default();
    for p in &used_list {
        used.add(p);
    }
    let s = node_ports_filter(&wanted, &used);
    Ok(json!({"code": s.code.as_str(), "message": s.message()}))
}

fn cycle(input: &Value) -> R<Value> {
    let release = str_field(input, "release")?;
    let version = KubeVersion::parse(release).ok_or("bad release")?;
    let nodes: Vec<Node> = decode!(input, "nodes")?;
    let bound: Vec<SchedulingPod> = match input.get("boundPods") {
        Some(_) => decode!(input, "boundPods")?,
        None => Vec::new(),
    };
    let pod: SchedulingPod = decode!(input, "pod")?;
    let mut options = PlacementOptions::new(Semantics::at(version));
    options.dynamic_resource_allocation = input
        .get("dynamicResourceAllocation")
        .and_then(Value::as_bool);
    let naive = schedule_naive(std::slice::from_ref(&pod), &nodes, &bound, options);
    let grouped = schedule_placement(std::slice::from_ref(&pod), &nodes, &bound, options);
    let result = naive.first().ok_or("no result")?;
    if grouped.outcome(0) != Some(&result.outcome) {
        return Err("grouped and per-node evaluation differ".into());
    }
    let outcome = match &result.outcome {
        PodOutcome::Gated => "Gated",
        PodOutcome::Bypassed => "Bypassed",
        PodOutcome::OtherScheduler => "OtherScheduler",
        PodOutcome::Feasible { .. } => "Feasible",
        PodOutcome::Unschedulable { .. } => "Unschedulable",
        PodOutcome::SchedulerError { .. } => "SchedulerError",
        PodOutcome::PreScoreError => "PreScoreError",
        PodOutcome::SchedulerPanic { .. } => "SchedulerPanic",
    };
    let feasible: Vec<&str> = nodes
        .iter()
        .zip(&result.nodes)
        .filter(|(_, o)| o.is_feasible())
        .map(|(n, _)| n.name.as_str())
        .collect();
    Ok(json!({
        "outcome": outcome,
        "message": result.outcome.message(),
        "feasibleNodes": feasible,
    }))
}
