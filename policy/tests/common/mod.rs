//! Builders for AdmissionRequests and settings used by the decision tests.
#![allow(dead_code)]

use serde_json::{Value, json};
use taintlab_core::WorkloadKind;
use taintlab_policy::{Decision, Kind, Settings, evaluate};

/// The names of every pod-bearing kind the policy governs ([`Kind::POD_KINDS`]).
pub fn pod_kinds() -> impl Iterator<Item = &'static str> {
    Kind::POD_KINDS.into_iter().map(Kind::name)
}

/// The workload kind of a kind name (from core's table).
fn workload(kind: &str) -> Option<WorkloadKind> {
    WorkloadKind::from_name(kind)
}

/// Dotted path of the tolerations for a kind.
pub fn tolerations_path(kind: &str) -> &'static str {
    workload(kind).map_or("spec.tolerations", WorkloadKind::tolerations_path)
}

/// Wraps a pod spec into an object of the kind.
pub fn object(kind: &str, name: &str, namespace: &str, pod_spec: Value) -> Value {
    let wk = workload(kind);
    let api_version = wk.map_or("v1", WorkloadKind::api_version);
    let meta = json!({"name": name, "namespace": namespace});
    match wk {
        None | Some(WorkloadKind::Pod) => {
            json!({"apiVersion": api_version, "kind": kind, "metadata": meta, "spec": pod_spec})
        }
        Some(WorkloadKind::CronJob) => {
            json!({"apiVersion": api_version, "kind": kind, "metadata": meta,
            "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": {"template": {"spec": pod_spec}}}}})
        }
        Some(WorkloadKind::PodTemplate) => {
            json!({"apiVersion": api_version, "kind": kind, "metadata": meta,
            "template": {"metadata": {"labels": {"app": name}}, "spec": pod_spec}})
        }
        Some(_) => json!({"apiVersion": api_version, "kind": kind, "metadata": meta,
            "spec": {"selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": {"app": name}}, "spec": pod_spec}}}),
    }
}

/// A pod spec with one container and the given tolerations (`null` leaves them out).
pub fn spec(tolerations: Value) -> Value {
    let mut s = json!({"containers": [{"name": "app", "image": "nginx"}]});
    if !tolerations.is_null() {
        s["tolerations"] = tolerations;
    }
    s
}

/// An AdmissionRequest.
pub fn request(kind: &str, operation: &str, obj: Option<Value>, old: Option<Value>) -> Value {
    let (group, version, resource) = workload(kind)
        .map(|k| (k.group(), "v1", k.resource()))
        .unwrap_or(("", "v1", "nodes"));
    let name = obj
        .as_ref()
        .or(old.as_ref())
        .and_then(|o| o.pointer("/metadata/name"))
        .cloned()
        .unwrap_or(json!(""));
    let namespace = obj
        .as_ref()
        .or(old.as_ref())
        .and_then(|o| o.pointer("/metadata/namespace"))
        .cloned()
        .unwrap_or(Value::Null);
    json!({
        "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
        "kind": {"group": group, "version": version, "kind": kind},
        "resource": {"group": group, "version": version, "resource": resource},
        "requestKind": {"group": group, "version": version, "kind": kind},
        "requestResource": {"group": group, "version": version, "resource": resource},
        "name": name,
        "namespace": namespace,
        "operation": operation,
        "userInfo": {"username": "alice", "groups": ["developers", "system:authenticated"]},
        "object": obj,
        "oldObject": old,
        "dryRun": false,
        "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"}
    })
}

/// CREATE of a kind with tolerations in namespace `team-a`.
pub fn create(kind: &str, tolerations: Value) -> Value {
    request(
        kind,
        "CREATE",
        Some(object(kind, "web", "team-a", spec(tolerations))),
        None,
    )
}

/// Settings from JSON (panics on invalid settings: tests pass valid ones).
pub fn settings(v: Value) -> Settings {
    let s = Settings::from_value(&v).unwrap_or_else(|e| panic!("{e}"));
    s.validate().unwrap_or_else(|e| panic!("{e}"));
    s
}

/// Evaluates with settings JSON.
pub fn eval(settings_json: Value, req: &Value) -> Decision {
    evaluate(req, &settings(settings_json), None)
}

/// Sets the username and groups of a request.
pub fn as_user(mut req: Value, username: &str, groups: &[&str]) -> Value {
    req["userInfo"] = json!({"username": username, "groups": groups});
    req
}

/// The tolerations array of the mutated object.
pub fn mutated_tolerations(d: &Decision, kind: &str) -> Value {
    let ptr = format!(
        "{}/tolerations",
        workload(kind).map_or("/spec", WorkloadKind::pod_spec_pointer)
    );
    d.mutated_object
        .as_ref()
        .and_then(|o| o.pointer(&ptr))
        .cloned()
        .unwrap_or(Value::Null)
}
