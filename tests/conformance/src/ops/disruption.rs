//! PodDisruptionBudgets (the disruption controller's status, the Eviction API check,
//! `GetScaledValueFromIntOrPercent`) and the workload controllers' pod accounting.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use taintlab_core::KubeVersion;
use taintlab_core::disruption::controllers::{self, JobRules, RestartPolicy, StatefulSetAction};
use taintlab_core::disruption::{
    self as dis, EvictionOutcome, IntOrPercent, OwnerRef, PdbSpec, PdbStatus, PodDisruptionBudget,
    PodPhase, PodRecord, UnhealthyPodEvictionPolicy, Workload, Workloads,
};
use taintlab_core::labels::{LabelSelector, LabelSelectorRequirement};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, _expected: &Value) -> OpResult {
    let result = match op {
        "scaledValue" => scaled_value(input),
        "pdbStatus" => pdb_status(input),
        "evict" => evict(input),
        "controllerScale" => controller_scale(input),
        "isPodActive" => pod(field_or_err(input, "pod"))
            .map(|p| json!({"active": controllers::is_pod_active(&p)})),
        "replicaSetDiff" => replica_set_diff(input),
        "slowStartBatches" => i64_field(input, "count")
            .map(|n| json!({"batches": controllers::slow_start_batches(n as i32)})),
        "statefulSetAction" => stateful_set_action(input),
        "jobPodFailed" => job_pod_failed(input),
        "jobBackoff" => job_backoff(input),
        _ => return None,
    };
    Some(result)
}

fn field_or_err<'a>(v: &'a Value, key: &str) -> &'a Value {
    v.get(key).unwrap_or(&Value::Null)
}

pub(super) fn version(input: &Value) -> R<KubeVersion> {
    match input.get("version") {
        None | Some(Value::Null) => Ok(KubeVersion::NEWEST),
        Some(Value::String(s)) => KubeVersion::parse(s).ok_or_else(|| format!("bad version {s:?}")),
        Some(other) => Err(format!("\"version\" is not a string: {other}")),
    }
}

fn string_map(v: &Value, what: &str) -> R<BTreeMap<String, String>> {
    match v {
        Value::Null => Ok(BTreeMap::new()),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| {
                v.as_str()
                    .map(|s| (k.clone(), s.to_string()))
                    .ok_or_else(|| format!("{what}.{k} is not a string"))
            })
            .collect(),
        other => Err(format!("{what} is not an object: {other}")),
    }
}

fn opt_str(v: &Value, key: &str) -> R<String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("{key:?} is not a string: {other}")),
    }
}

fn owner(v: &Value) -> R<Option<OwnerRef>> {
    if v.is_null() {
        return Ok(None);
    }
    Ok(Some(OwnerRef {
        api_version: opt_str(v, "apiVersion")?,
        kind: opt_str(v, "kind")?,
        name: opt_str(v, "name")?,
        uid: opt_str(v, "uid")?,
    }))
}

/// A pod: `{namespace?, name, uid?, labels?, nodeName?, phase?, ready?,
/// deletionTimestamp?, controller?, mirror?, emptyDir?, terminationGracePeriodSeconds?}`.
pub(super) fn pod(v: &Value) -> R<PodRecord> {
    if !v.is_object() {
        return Err(format!("a pod is not an object: {v}"));
    }
    let ns = opt_str(v, "namespace")?;
    Ok(PodRecord {
        namespace: if ns.is_empty() { "default".into() } else { ns },
        name: str_field(v, "name")?.to_string(),
        uid: opt_str(v, "uid")?,
        labels: string_map(field_or_err(v, "labels"), "labels")?,
        node_name: opt_str(v, "nodeName")?,
        phase: PodPhase::parse(&opt_str(v, "phase")?),
        ready: v.get("ready").and_then(Value::as_bool).unwrap_or(true),
        deletion_timestamp: v.get("deletionTimestamp").and_then(Value::as_i64),
        controller: owner(field_or_err(v, "controller"))?,
        mirror: bool_field(v, "mirror")?,
        has_empty_dir: bool_field(v, "emptyDir")?,
        termination_grace_period_seconds: v
            .get("terminationGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(30),
    })
}

pub(super) fn pods(v: &Value) -> R<Vec<PodRecord>> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(a) => a.iter().map(pod).collect(),
        other => Err(format!("pods is not an array: {other}")),
    }
}

fn int_or_percent(v: &Value) -> R<Option<IntOrPercent>> {
    match v {
        Value::Null => Ok(None),
        Value::Number(n) => n
            .as_i64()
            .map(|i| Some(IntOrPercent::Int(i as i32)))
            .ok_or_else(|| format!("not an integer: {n}")),
        Value::String(s) => Ok(Some(IntOrPercent::Str(s.clone()))),
        other => Err(format!("not an int or string: {other}")),
    }
}

fn selector(v: &Value) -> R<Option<LabelSelector>> {
    if v.is_null() {
        return Ok(None);
    }
    let exprs = match v.get("matchExpressions") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|e| {
                Ok(LabelSelectorRequirement {
                    key: opt_str(e, "key")?,
                    operator: opt_str(e, "operator")?,
                    values: match e.get("values") {
                        Some(Value::Array(vs)) => vs
                            .iter()
                            .map(|x| x.as_str().map(str::to_string).ok_or("bad value"))
                            .collect::<Result<_, _>>()?,
                        _ => Vec::new(),
                    },
                })
            })
            .collect::<R<_>>()?,
        Some(other) => return Err(format!("matchExpressions is not an array: {other}")),
    };
    Ok(Some(LabelSelector {
        match_labels: string_map(field_or_err(v, "matchLabels"), "matchLabels")?,
        match_expressions: exprs,
    }))
}

/// A budget: `{namespace?, name, generation?, minAvailable?, maxUnavailable?, selector,
/// unhealthyPodEvictionPolicy?, status?: {observedGeneration?, disruptionsAllowed?,
/// currentHealthy?, desiredHealthy?, expectedPods?, disruptedPods?}}`.
pub(super) fn pdb(v: &Value) -> R<PodDisruptionBudget> {
    let ns = opt_str(v, "namespace")?;
    let st = field_or_err(v, "status");
    let n = |key: &str| st.get(key).and_then(Value::as_i64).unwrap_or(0);
    let policy = opt_str(v, "unhealthyPodEvictionPolicy")?;
    Ok(PodDisruptionBudget {
        namespace: if ns.is_empty() { "default".into() } else { ns },
        name: str_field(v, "name")?.to_string(),
        generation: v.get("generation").and_then(Value::as_i64).unwrap_or(0),
        spec: PdbSpec {
            min_available: int_or_percent(field_or_err(v, "minAvailable"))?,
            max_unavailable: int_or_percent(field_or_err(v, "maxUnavailable"))?,
            selector: selector(field_or_err(v, "selector"))?,
            unhealthy_pod_eviction_policy: if policy.is_empty() {
                None
            } else {
                Some(
                    UnhealthyPodEvictionPolicy::parse(&policy)
                        .ok_or_else(|| format!("bad unhealthyPodEvictionPolicy {policy:?}"))?,
                )
            },
        },
        status: PdbStatus {
            observed_generation: n("observedGeneration"),
            disruptions_allowed: n("disruptionsAllowed") as i32,
            current_healthy: n("currentHealthy") as i32,
            desired_healthy: n("desiredHealthy") as i32,
            expected_pods: n("expectedPods") as i32,
            disrupted_pods: match st.get("disruptedPods") {
                Some(Value::Object(m)) => m
                    .iter()
                    .map(|(k, v)| {
                        v.as_i64()
                            .map(|t| (k.clone(), t))
                            .ok_or_else(|| format!("disruptedPods.{k} is not an integer"))
                    })
                    .collect::<R<_>>()?,
                _ => BTreeMap::new(),
            },
            conditions: match st.get("conditions") {
                Some(Value::Array(cs)) => cs
                    .iter()
                    .map(|c| {
                        Ok(dis::Condition {
                            type_: opt_str(c, "type")?,
                            status: opt_str(c, "status")?,
                            reason: opt_str(c, "reason")?,
                            message: opt_str(c, "message")?,
                            observed_generation: 0,
                        })
                    })
                    .collect::<R<_>>()?,
                _ => Vec::new(),
            },
        },
    })
}

pub(super) fn pdbs(v: &Value) -> R<Vec<PodDisruptionBudget>> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(a) => a.iter().map(pdb).collect(),
        other => Err(format!("pdbs is not an array: {other}")),
    }
}

/// Workloads: `[{apiVersion, kind, namespace?, name, uid?, replicas?, controller?}]`.
pub(super) fn workloads(v: &Value) -> R<Workloads> {
    let items = match v {
        Value::Null => Vec::new(),
        Value::Array(a) => a
            .iter()
            .map(|w| {
                let ns = opt_str(w, "namespace")?;
                Ok(Workload {
                    api_version: opt_str(w, "apiVersion")?,
                    kind: opt_str(w, "kind")?,
                    namespace: if ns.is_empty() { "default".into() } else { ns },
                    name: opt_str(w, "name")?,
                    uid: opt_str(w, "uid")?,
                    replicas: w.get("replicas").and_then(Value::as_i64).map(|r| r as i32),
                    controller: owner(field_or_err(w, "controller"))?,
                })
            })
            .collect::<R<_>>()?,
        other => return Err(format!("workloads is not an array: {other}")),
    };
    Ok(Workloads { items })
}

fn scaled_value(input: &Value) -> R<Value> {
    let v = int_or_percent(field(input, "value")?)?.ok_or("value is null")?;
    let total = i64_field(input, "total")? as i32;
    let round_up = bool_field(input, "roundUp")?;
    Ok(
        match dis::get_scaled_value_from_int_or_percent(&v, total, round_up) {
            Ok(n) => json!({"value": n, "isError": false, "error": null}),
            Err(e) => json!({"value": null, "isError": true, "error": e}),
        },
    )
}

fn status_json(s: &PdbStatus) -> Value {
    json!({
        "disruptionsAllowed": s.disruptions_allowed,
        "currentHealthy": s.current_healthy,
        "desiredHealthy": s.desired_healthy,
        "expectedPods": s.expected_pods,
        "observedGeneration": s.observed_generation,
        "disruptedPods": s.disrupted_pods.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<Map<_, _>>(),
        "conditions": s.conditions.iter().map(|c| json!({
            "type": c.type_, "status": c.status, "reason": c.reason, "message": c.message,
        })).collect::<Vec<_>>(),
    })
}

fn pdb_status(input: &Value) -> R<Value> {
    let budget = pdb(field(input, "pdb")?)?;
    let ps = pods(field_or_err(input, "pods"))?;
    let ws = workloads(field_or_err(input, "workloads"))?;
    let now = input.get("now").and_then(Value::as_i64).unwrap_or(0);
    let sync = dis::compute_status(&budget, &ps, &ws, now);
    let mut out = status_json(&sync.status);
    let o = out.as_object_mut().expect("object");
    o.insert("error".into(), json!(sync.error));
    o.insert(
        "events".into(),
        json!(
            sync.events
                .iter()
                .map(|e| json!({"type": e.type_, "reason": e.reason, "message": e.message}))
                .collect::<Vec<_>>()
        ),
    );
    o.insert("recheckAt".into(), json!(sync.recheck_at));
    o.insert("unmanagedPods".into(), json!(sync.unmanaged_pods));
    Ok(out)
}

fn evict(input: &Value) -> R<Value> {
    let p = pod(field(input, "pod")?)?;
    let mut budgets = pdbs(field_or_err(input, "pdbs"))?;
    let now = input.get("now").and_then(Value::as_i64).unwrap_or(0);
    let dry_run = bool_field(input, "dryRun")?;
    let out = dis::evict(&p, &mut budgets, now, dry_run, version(input)?);
    let after: Vec<Value> = budgets.iter().map(|b| status_json(&b.status)).collect();
    Ok(match out {
        EvictionOutcome::Evicted {
            decremented,
            reason,
            disruption_condition,
        } => json!({
            "evicted": true,
            "decremented": decremented,
            "path": format!("{reason:?}"),
            "disruptionTargetCondition": disruption_condition,
            "code": null, "reason": null, "message": null, "testString": "",
            "pdbsAfter": after,
        }),
        EvictionOutcome::Rejected(e) => json!({
            "evicted": false,
            "decremented": null,
            "code": e.code,
            "reason": e.reason,
            "message": e.message,
            "causes": e.causes,
            "testString": e.test_string(),
            "pdbsAfter": after,
        }),
    })
}

fn replica_set_diff(input: &Value) -> R<Value> {
    let ps = pods(field(input, "pods")?)?;
    let replicas = i64_field(input, "replicas")? as i32;
    Ok(json!({"diff": controllers::replica_set_diff(&ps, replicas)}))
}

fn stateful_set_action(input: &Value) -> R<Value> {
    let existing = match input.get("existing") {
        None | Some(Value::Null) => None,
        Some(v) => Some(pod(v)?),
    };
    let action = match controllers::stateful_set_action(existing.as_ref()) {
        StatefulSetAction::Create => "Create",
        StatefulSetAction::WaitForDeletion => "WaitForDeletion",
        StatefulSetAction::DeleteAndRecreate => "DeleteAndRecreate",
        StatefulSetAction::Keep => "Keep",
    };
    let set = opt_str(input, "set")?;
    let ordinal = input.get("ordinal").and_then(Value::as_i64).unwrap_or(0) as i32;
    Ok(json!({"action": action, "podName": controllers::stateful_set_pod_name(&set, ordinal)}))
}

fn job_rules(input: &Value) -> R<JobRules> {
    Ok(JobRules {
        backoff_limit: input
            .get("backoffLimit")
            .and_then(Value::as_i64)
            .unwrap_or(6) as i32,
        pod_failure_policy: bool_field(input, "podFailurePolicy")?,
        replace_only_failed: opt_str(input, "podReplacementPolicy")? == "Failed",
        restart_policy: if opt_str(input, "restartPolicy")? == "OnFailure" {
            RestartPolicy::OnFailure
        } else {
            RestartPolicy::Never
        },
    })
}

fn job_pod_failed(input: &Value) -> R<Value> {
    let rules = job_rules(input)?;
    let ps = pods(field(input, "pods")?)?;
    Ok(json!({
        "failed": ps.iter().map(|p| rules.is_pod_failed(p)).collect::<Vec<_>>(),
        "holdingSlots": rules.pods_holding_slots(&ps),
        "onlyReplaceFailedPods": rules.only_replace_failed_pods(),
        "backoffLimitExceeded": input.get("failedCount").and_then(Value::as_i64).map(|n| rules.backoff_limit_exceeded(n as i32)),
    }))
}

fn job_backoff(input: &Value) -> R<Value> {
    let failures = i64_field(input, "failures")? as i32;
    let max = input
        .get("maxSeconds")
        .and_then(Value::as_i64)
        .unwrap_or(controllers::JOB_BACKOFF_MAX_SECONDS);
    Ok(json!({"seconds": controllers::job_backoff_seconds(failures, max)}))
}

fn controller_scale(input: &Value) -> R<Value> {
    use dis::ControllerFinder as F;
    let finder = match str_field(input, "finder")? {
        "replicationController" => F::ReplicationController,
        "deployment" => F::Deployment,
        "replicaSet" => F::ReplicaSet,
        "statefulSet" => F::StatefulSet,
        "scale" => F::Scale,
        other => return Err(format!("unknown finder {other:?}")),
    };
    let r = owner(field(input, "controllerRef")?)?.ok_or("controllerRef is null")?;
    let ws = workloads(field_or_err(input, "workloads"))?;
    Ok(
        match dis::find_controller_scale(finder, &ws, &r, "default") {
            Ok(Some(n)) => json!({"found": true, "scale": n, "error": null}),
            Ok(None) => json!({"found": false, "scale": null, "error": null}),
            Err(e) => json!({"found": false, "scale": null, "error": e}),
        },
    )
}
