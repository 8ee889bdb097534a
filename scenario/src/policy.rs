//! The Kubewarden policy's view of a scenario: the AdmissionRequest the API server would
//! send for each pasted object, and the policy's decision for it
//! (`taintlab_policy::evaluate`, the function the policy module runs), with the
//! mutation as a JSON Patch.
//!
//! Computed on demand only ([`crate::Scenario::policy`]): the policy's code is large,
//! and an edge that never asks (the playground's main thread) does not carry it.

use serde_json::{Map, Value, json};
use taintlab_core::WorkloadKind;
use taintlab_core::admission::Operation;
use taintlab_policy::{Decision, Settings};

use crate::Scenario;
use crate::pods::PodEntry;

/// `userInfo` of the simulated requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserInfo {
    /// `userInfo.username`.
    pub username: String,
    /// `userInfo.groups`.
    pub groups: Vec<String>,
}

impl Default for UserInfo {
    fn default() -> Self {
        Self {
            username: "kubernetes-admin".into(),
            groups: vec!["system:authenticated".into()],
        }
    }
}

/// The policy's settings, read and validated as the policy's `validate_settings` does.
pub fn read_settings(json: &str) -> Result<Settings, String> {
    let s = Settings::from_json(json.as_bytes())?;
    s.validate()?;
    Ok(s)
}

/// The policy's answer for one pod of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyAnswer {
    /// Index of the pod in [`Scenario::pods`].
    pub pod: usize,
    /// The AdmissionRequest evaluated.
    pub request: Value,
    /// The decision.
    pub decision: Decision,
    /// The mutation as a JSON Patch (RFC 6902) of the request's object, when the
    /// policy changed it.
    pub patch: Option<Value>,
}

/// The object the API server would pass to the policy for a pod entry. Pods carry their
/// tolerations after the built-in admission plugins (which run before webhooks);
/// workloads carry their template as written.
pub fn admission_object(p: &PodEntry) -> Value {
    let mut w = p.workload.clone().unwrap_or_default();
    let kind = p.workload_kind.unwrap_or(WorkloadKind::Pod);
    if p.workload.is_none() {
        w.kind = "Pod".into();
        w.api_version = "v1".into();
        w.name = p.pod.name.clone();
        w.namespace = p.pod.namespace.clone();
    }
    w.pod = p.pod.clone();
    let is_pod = kind == WorkloadKind::Pod;
    if !is_pod {
        w.pod.tolerations = p.submitted.clone();
    }
    let pod = taintlab_input::emit::pod_json(&w);
    if is_pod {
        return pod;
    }
    let spec = pod.get("spec").cloned().unwrap_or(Value::Null);
    let mut meta = Map::new();
    meta.insert("name".into(), json!(w.name));
    if !w.namespace.is_empty() {
        meta.insert("namespace".into(), json!(w.namespace));
    }
    let mut inner = json!({"metadata": {"labels": {"app": w.name}}, "spec": spec});
    // Wrap the template in the kind's own fields (`spec.template`, `template`,
    // `spec.jobTemplate.spec.template`), innermost first.
    for field in kind.pod_template_fields().unwrap_or_default().iter().rev() {
        let mut m = Map::new();
        m.insert((*field).to_string(), inner);
        inner = Value::Object(m);
    }
    let mut object = Map::new();
    object.insert("apiVersion".into(), json!(w.api_version));
    object.insert("kind".into(), json!(w.kind));
    object.insert("metadata".into(), Value::Object(meta));
    if let Value::Object(fields) = inner {
        object.extend(fields);
    }
    // A CronJob needs a schedule to be a valid object.
    if kind == WorkloadKind::CronJob
        && let Some(Value::Object(spec)) = object.get_mut("spec")
    {
        spec.insert("schedule".into(), json!("*/5 * * * *"));
    }
    Value::Object(object)
}

fn group_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None if api_version.is_empty() => ("", "v1"),
        None => ("", api_version),
    }
}

/// How the API server would send an object to an admission webhook: everything of an
/// AdmissionRequest but the object itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope {
    /// `uid`.
    pub uid: String,
    /// `operation`.
    pub operation: Operation,
    /// `userInfo`.
    pub user: UserInfo,
    /// `namespace`; `None` takes the object's (`default` when it has none; empty for
    /// cluster-scoped Nodes).
    pub namespace: Option<String>,
    /// `oldObject` (UPDATE, DELETE).
    pub old_object: Option<Value>,
}

impl Default for Envelope {
    fn default() -> Self {
        Self {
            uid: "taintlab".into(),
            operation: Operation::Create,
            user: UserInfo::default(),
            namespace: None,
            old_object: None,
        }
    }
}

/// The AdmissionRequest built around a Kubernetes object: kind and resource from its
/// `apiVersion` and `kind` (resources of workload kinds from core's table, others by the
/// API's plural rule), name and namespace from its metadata, and the operation's options
/// object as the API server attaches it.
pub fn admission_request_around(object: Value, envelope: &Envelope) -> Value {
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("Pod")
        .to_string();
    let api_version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("v1")
        .to_string();
    let (group, version) = group_version(&api_version);
    let resource = WorkloadKind::from_group_kind(group, &kind).map_or_else(
        || format!("{}s", kind.to_ascii_lowercase()),
        |k| k.resource().to_string(),
    );
    let meta = object.get("metadata");
    let field = |f: &str| meta.and_then(|m| m.get(f)).and_then(Value::as_str);
    let name = field("name").unwrap_or("").to_string();
    let namespace = match &envelope.namespace {
        Some(ns) => ns.clone(),
        None if kind == "Node" && group.is_empty() => String::new(),
        None => field("namespace")
            .filter(|ns| !ns.is_empty())
            .unwrap_or("default")
            .to_string(),
    };
    let options = match envelope.operation {
        Operation::Create => json!({"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"}),
        Operation::Update => json!({"apiVersion": "meta.k8s.io/v1", "kind": "UpdateOptions"}),
        Operation::Delete => json!({"apiVersion": "meta.k8s.io/v1", "kind": "DeleteOptions"}),
        Operation::Connect => Value::Null,
    };
    let gvk = json!({"group": group, "version": version, "kind": kind});
    let gvr = json!({"group": group, "version": version, "resource": resource});
    json!({
        "uid": envelope.uid,
        "kind": gvk,
        "resource": gvr,
        "requestKind": gvk,
        "requestResource": gvr,
        "name": name,
        "namespace": namespace,
        "operation": envelope.operation.as_str(),
        "userInfo": {"username": envelope.user.username, "groups": envelope.user.groups},
        "object": object,
        "oldObject": envelope.old_object.clone().unwrap_or(Value::Null),
        "dryRun": false,
        "options": options,
    })
}

/// A CREATE AdmissionRequest for pod entry `i` (uid `taintlab-<i>`).
pub fn admission_request(i: usize, p: &PodEntry, user: &UserInfo) -> Value {
    let envelope = Envelope {
        uid: format!("taintlab-{i}"),
        user: user.clone(),
        namespace: Some(p.pod.namespace.clone()),
        ..Envelope::default()
    };
    admission_request_around(admission_object(p), &envelope)
}

/// RFC 6901 escaping of one path segment.
fn seg(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<Value>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            // Sorted keys: the patch must not depend on whether serde_json preserves
            // insertion order (a feature another crate may turn on).
            let mut xs: Vec<(&String, &Value)> = x.iter().collect();
            taintlab_core::sort::sort_by_key(&mut xs, |(k, _)| *k);
            let mut ys: Vec<(&String, &Value)> = y.iter().collect();
            taintlab_core::sort::sort_by_key(&mut ys, |(k, _)| *k);
            for (k, va) in xs {
                let p = format!("{path}/{}", seg(k));
                match y.get(k) {
                    None => out.push(json!({"op": "remove", "path": p})),
                    Some(vb) if va != vb => diff(va, vb, &p, out),
                    Some(_) => {}
                }
            }
            for (k, vb) in ys {
                if !x.contains_key(k) {
                    out.push(
                        json!({"op": "add", "path": format!("{path}/{}", seg(k)), "value": vb}),
                    );
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            let n = x.len().min(y.len());
            for i in 0..n {
                if x[i] != y[i] {
                    diff(&x[i], &y[i], &format!("{path}/{i}"), out);
                }
            }
            for (i, v) in y.iter().enumerate().skip(n) {
                out.push(json!({"op": "add", "path": format!("{path}/{i}"), "value": v}));
            }
            for i in (n..x.len()).rev() {
                out.push(json!({"op": "remove", "path": format!("{path}/{i}")}));
            }
        }
        _ if a != b => out.push(json!({"op": "replace", "path": path, "value": b})),
        _ => {}
    }
}

/// The JSON Patch (RFC 6902) that turns `from` into `to`.
pub fn json_patch(from: &Value, to: &Value) -> Value {
    let mut out = Vec::new();
    diff(from, to, "", &mut out);
    Value::Array(out)
}

impl Scenario {
    /// The AdmissionRequest built around pod `p`'s object.
    pub fn admission_request(&self, p: usize, user: &UserInfo) -> Option<Value> {
        Some(admission_request(p, self.pods.get(p)?, user))
    }

    /// The policy's decision for every pod, with the scenario's nodes as the cluster's
    /// node list.
    pub fn policy(&self, settings: &Settings, user: &UserInfo) -> Vec<PolicyAnswer> {
        let nodes: Vec<taintlab_core::Node> = self.nodes.iter().map(|n| n.node.clone()).collect();
        self.pods
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let request = admission_request(i, p, user);
                let decision = taintlab_policy::evaluate(&request, settings, Some(&nodes));
                let patch = decision
                    .mutated_object
                    .as_ref()
                    .map(|m| json_patch(request.get("object").unwrap_or(&Value::Null), m));
                PolicyAnswer {
                    pod: i,
                    request,
                    decision,
                    patch,
                }
            })
            .collect()
    }
}
