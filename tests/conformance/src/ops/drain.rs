//! `kubectl drain` (the pod filters, whole runs on a small cluster) and `kubectl
//! cordon` / `uncordon`.

use serde_json::{Map, Value, json};
use taintlab_core::Node;
use taintlab_core::kubectl::drain::world::ClusterEvent;
use taintlab_core::kubectl::drain::{
    self, FilterOptions, PodDeleteStatus, StaticCluster, Stream, filters::FilterContext,
};

use super::OpResult;
use super::disruption::{pdbs, pod, pods, version, workloads};
use super::kubectl::strings_field;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "drainFilterPod" => filter_pod(input),
        "drainFilterPods" => filter_list(input),
        "kubectlDrain" => kubectl_drain(input),
        "kubectlCordon" => kubectl_cordon(input),
        _ => return None,
    };
    Some(result)
}

fn options(v: &Value) -> R<FilterOptions> {
    let o = v.get("options").unwrap_or(&Value::Null);
    Ok(FilterOptions {
        force: bool_field(o, "force")?,
        ignore_daemonsets: bool_field(o, "ignoreDaemonsets")?,
        delete_emptydir_data: bool_field(o, "deleteEmptydirData")?,
        skip_wait_for_delete_timeout_seconds: o
            .get("skipWaitForDeleteTimeout")
            .and_then(Value::as_i64)
            .unwrap_or(0),
    })
}

fn daemon_sets(input: &Value) -> R<Vec<String>> {
    match input.get("daemonSets") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(_) => strings_field(input, "daemonSets"),
    }
}

fn status_json(s: &PodDeleteStatus) -> Value {
    json!({"delete": s.delete(), "reason": s.reason(), "message": s.message()})
}

fn filter_pod(input: &Value) -> R<Value> {
    let p = pod(field(input, "pod")?)?;
    let o = options(input)?;
    let ds = daemon_sets(input)?;
    let exists = |ns: &str, name: &str| ds.contains(&format!("{ns}/{name}"));
    let ctx = FilterContext {
        now: input.get("now").and_then(Value::as_i64).unwrap_or(0),
        daemon_set_exists: &exists,
        version: version(input)?,
    };
    Ok(status_json(&drain::filter_pod(&p, &o, &ctx)))
}

fn filter_list(input: &Value) -> R<Value> {
    let ps = pods(field(input, "pods")?)?;
    let o = options(input)?;
    let ds = daemon_sets(input)?;
    let exists = |ns: &str, name: &str| ds.contains(&format!("{ns}/{name}"));
    let ctx = FilterContext {
        now: input.get("now").and_then(Value::as_i64).unwrap_or(0),
        daemon_set_exists: &exists,
        version: version(input)?,
    };
    let (list, errors) = match drain::filter_pods(&ps, &o, &ctx) {
        Ok(l) => (l, Vec::new()),
        Err((l, e)) => (l, e),
    };
    Ok(json!({
        "delete": list.pods().iter().map(|p| p.key()).collect::<Vec<_>>(),
        "warnings": list.warnings(),
        "errors": errors,
    }))
}

fn nodes(input: &Value) -> R<Vec<Node>> {
    let arr = field(input, "nodes")?
        .as_array()
        .ok_or("\"nodes\" is not an array")?;
    arr.iter()
        .map(|n| {
            Ok(Node {
                name: str_field(n, "name")?.to_string(),
                unschedulable: bool_field(n, "unschedulable")?,
                ..Node::default()
            })
        })
        .collect()
}

fn unschedulable(nodes: &[Node]) -> Value {
    Value::Object(
        nodes
            .iter()
            .map(|n| (n.name.clone(), json!(n.unschedulable)))
            .collect::<Map<_, _>>(),
    )
}

fn events(input: &Value) -> R<Vec<(i64, ClusterEvent)>> {
    let Some(arr) = input.get("events").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    arr.iter()
        .map(|e| {
            let t = i64_field(e, "t")?;
            let ev = match str_field(e, "op")? {
                "addPod" => ClusterEvent::AddPod(pod(field(e, "pod")?)?),
                "setReady" => ClusterEvent::SetReady {
                    namespace: e
                        .get("namespace")
                        .and_then(Value::as_str)
                        .unwrap_or("default")
                        .to_string(),
                    name: str_field(e, "name")?.to_string(),
                    ready: bool_field(e, "ready")?,
                },
                "removePod" => ClusterEvent::RemovePod {
                    namespace: e
                        .get("namespace")
                        .and_then(Value::as_str)
                        .unwrap_or("default")
                        .to_string(),
                    name: str_field(e, "name")?.to_string(),
                },
                other => return Err(format!("unknown event op {other:?}")),
            };
            Ok((t, ev))
        })
        .collect()
}

fn kubectl_drain(input: &Value) -> R<Value> {
    let args = strings_field(input, "args")?;
    let cluster = StaticCluster {
        nodes: nodes(input)?,
        kubelet_down: match input.get("kubeletDown") {
            Some(Value::Array(_)) => strings_field(input, "kubeletDown")?,
            _ => Vec::new(),
        },
        pods: pods(input.get("pods").unwrap_or(&Value::Null))?,
        pdbs: pdbs(input.get("pdbs").unwrap_or(&Value::Null))?,
        workloads: workloads(input.get("workloads").unwrap_or(&Value::Null))?,
        daemon_sets: daemon_sets(input)?,
        events: events(input)?,
        version: version(input)?,
        ..StaticCluster::default()
    };
    let until = input.get("until").and_then(Value::as_i64).unwrap_or(3600);
    let run = drain::run_kubectl_drain(&args, cluster, until);
    let timeline: Vec<String> = run
        .lines
        .iter()
        .map(|l| {
            let s = match l.stream {
                Stream::Stdout => "stdout",
                Stream::Stderr => "stderr",
            };
            format!("{} {s}: {}", l.t, l.text)
        })
        .collect();
    let contains = |key: &str, hay: &str| {
        input
            .get(key)
            .and_then(Value::as_str)
            .map(|needle| hay.contains(needle))
    };
    Ok(json!({
        "warningFound": contains("expectWarning", &run.stderr),
        "outputFound": contains("expectOutputToContain", &run.stdout),
        "stdout": run.stdout,
        "stderr": run.stderr,
        "exitCode": run.exit_code,
        "endedAt": run.ended_at,
        "timeline": timeline,
        "unschedulable": unschedulable(&run.cluster.nodes),
        "remainingPods": run.cluster.pods.iter().map(|p| p.key()).collect::<Vec<_>>(),
    }))
}

fn kubectl_cordon(input: &Value) -> R<Value> {
    let args = strings_field(input, "args")?;
    let cordon = bool_field(input, "cordon")?;
    let ns = nodes(input)?;
    let run = drain::run_cordon(&args, cordon, &ns, version(input)?);
    Ok(json!({
        "stdout": run.stdout,
        "stderr": run.stderr,
        "exitCode": run.exit_code,
        "unschedulable": unschedulable(&run.nodes),
    }))
}
