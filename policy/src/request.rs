//! Reading a Kubernetes `AdmissionRequest` (JSON) without typed Kubernetes structs:
//! the fields the policy needs, the pod spec of every pod-bearing kind located by JSON
//! pointer, and tolerations read leniently with precise errors for wrong types.

use crate::quote;
use serde_json::Value;

use crate::jsonscan::{R, Reader, check_utf8, is_null, object_fields, type_of};
use taintlab_core::{Operator, TaintEffect, Toleration, WorkloadKind};

/// A request the policy cannot read; the answer is a rejection with code 400.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

/// The kinds the policy understands: the workload kinds of core's table (except
/// PodTemplate, which no pod is created from directly and which the policy leaves
/// alone) and Node (node guard mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An object carrying a pod spec.
    Workload(WorkloadKind),
    /// `v1/Node` (node guard mode).
    Node,
}

impl Kind {
    /// Every pod-bearing kind the policy governs, in documentation order.
    pub const POD_KINDS: [Kind; 8] = [
        Kind::Workload(WorkloadKind::Pod),
        Kind::Workload(WorkloadKind::Deployment),
        Kind::Workload(WorkloadKind::ReplicaSet),
        Kind::Workload(WorkloadKind::StatefulSet),
        Kind::Workload(WorkloadKind::DaemonSet),
        Kind::Workload(WorkloadKind::Job),
        Kind::Workload(WorkloadKind::CronJob),
        Kind::Workload(WorkloadKind::ReplicationController),
    ];

    /// Recognises `(group, kind)`; other groups with the same kind name (CRDs) are not
    /// ours.
    pub fn from_group_kind(group: &str, kind: &str) -> Option<Self> {
        if (group, kind) == ("", "Node") {
            return Some(Self::Node);
        }
        WorkloadKind::from_group_kind(group, kind)
            .filter(|w| *w != WorkloadKind::PodTemplate)
            .map(Self::Workload)
    }

    /// The workload kind, `None` for Node.
    pub fn workload(self) -> Option<WorkloadKind> {
        match self {
            Self::Workload(w) => Some(w),
            Self::Node => None,
        }
    }

    /// The kind name.
    pub fn name(self) -> &'static str {
        self.workload().map_or("Node", WorkloadKind::name)
    }

    /// The group-qualified kind as the apiserver prints it in errors (`Deployment.apps`).
    pub fn qualified_name(self) -> &'static str {
        self.workload().map_or("Node", WorkloadKind::qualified_name)
    }

    /// JSON pointer of the pod spec inside the object; `None` for Node.
    pub fn pod_spec_pointer(self) -> Option<&'static str> {
        self.workload().map(WorkloadKind::pod_spec_pointer)
    }

    /// Dotted field path of the pod spec (for messages); `None` for Node.
    pub fn pod_spec_path(self) -> Option<&'static str> {
        self.workload().map(WorkloadKind::pod_spec_path)
    }
}

/// The admission operation: core's `admission.Operation`.
pub use taintlab_core::admission::Operation;

/// The requesting user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserInfo {
    /// `userInfo.username`
    pub username: String,
    /// `userInfo.groups`
    pub groups: Vec<String>,
}

/// The parts of an `AdmissionRequest` the policy reads. The objects stay raw JSON: only
/// the parts a decision needs are ever parsed.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// `kind.group`
    pub group: String,
    /// `kind.kind`
    pub kind_name: String,
    /// The recognised kind, if any.
    pub kind: Option<Kind>,
    /// `operation`
    pub operation: Operation,
    /// `subResource` (empty for the main resource).
    pub sub_resource: String,
    /// `name` (falls back to `object.metadata.name`, then `generateName`).
    pub name: String,
    /// `namespace` (falls back to `object.metadata.namespace`).
    pub namespace: String,
    /// `userInfo`
    pub user: UserInfo,
    /// `object`, raw (absent or `null` becomes `None`).
    pub object: Option<&'a [u8]>,
    /// `oldObject`, raw (absent or `null` becomes `None`).
    pub old_object: Option<&'a [u8]>,
    /// The object's parts, when the caller read them while scanning the request.
    pub object_parts: Option<ObjectParts<'a>>,
}

fn scan_err(e: String) -> Malformed {
    Malformed(e)
}

/// A small raw value parsed into a `Value` (headers, metadata parts).
fn small(raw: &[u8]) -> Value {
    serde_json::from_slice(raw).unwrap_or(Value::Null)
}

fn raw_str(raw: Option<&[u8]>, field: &str) -> Result<Option<String>, Malformed> {
    match raw.map(small) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(Malformed(format!(
            "{field} must be a string, got {}",
            type_name(&other)
        ))),
    }
}

/// Reads the request from raw JSON: the AdmissionRequest object itself, or a whole
/// AdmissionReview (kwctl accepts both).
pub fn parse_raw(request: &[u8]) -> Result<Request<'_>, Malformed> {
    if type_of(request) != "an object" {
        return Err(Malformed(format!(
            "request must be a JSON object, got {}",
            type_of(request)
        )));
    }
    let fields = object_fields(request, REQUEST_KEYS, "the request").map_err(scan_err)?;
    parse_fields(fields)
}

/// The AdmissionRequest fields the policy reads, in the order [`parse_fields`] takes
/// their raw values.
pub const REQUEST_KEYS: [&str; 9] = [
    "kind",
    "operation",
    "subResource",
    "name",
    "namespace",
    "userInfo",
    "object",
    "oldObject",
    "request",
];

/// Reads the request from the raw values of [`REQUEST_KEYS`] (found by the caller's own
/// scan, so that the request bytes are not scanned twice).
pub fn parse_fields(fields: [Option<&[u8]>; 9]) -> Result<Request<'_>, Malformed> {
    let [
        kind,
        operation,
        sub_resource,
        name,
        namespace,
        user_info,
        object,
        old_object,
        inner,
    ] = fields;
    let kind = kind.map(small);
    if kind.as_ref().and_then(Value::as_str) == Some("AdmissionReview") {
        return match inner.filter(|r| !is_null(r)) {
            Some(r) => parse_raw(r),
            None => Err(Malformed(String::from(
                "request must be a JSON object, got null",
            ))),
        };
    }
    let kind = kind.ok_or_else(|| Malformed(String::from("request.kind is missing")))?;
    let group = opt_str(kind.get("group"), "request.kind.group")?
        .unwrap_or("")
        .to_string();
    let kind_name = opt_str(kind.get("kind"), "request.kind.kind")?
        .ok_or_else(|| Malformed(String::from("request.kind.kind is missing")))?
        .to_string();
    let op_text = raw_str(operation, "request.operation")?
        .ok_or_else(|| Malformed(String::from("request.operation is missing")))?;
    let operation = Operation::parse(&op_text).ok_or_else(|| {
        Malformed(format!(
            "request.operation: {} is not one of CREATE, UPDATE, DELETE, CONNECT",
            quote(&op_text)
        ))
    })?;
    let sub_resource = raw_str(sub_resource, "request.subResource")?.unwrap_or_default();
    let object = object.filter(|o| !is_null(o));
    let old_object = old_object.filter(|o| !is_null(o));
    let name = raw_str(name, "request.name")?.filter(|n| !n.is_empty());
    let namespace = raw_str(namespace, "request.namespace")?.filter(|n| !n.is_empty());
    // Fall back to the object's metadata (the request carries no name on generateName).
    let (name, namespace) = match (name, namespace) {
        (Some(n), Some(ns)) => (n, ns),
        (name, namespace) => {
            let meta =
                object.and_then(|o| metadata_fields(o, ["name", "generateName", "namespace"]));
            let text = |i: usize| {
                meta.as_ref()
                    .and_then(|m| m.get(i))
                    .and_then(|v| v.as_str())
                    .map(String::from)
            };
            (
                name.or_else(|| text(0))
                    .or_else(|| text(1))
                    .unwrap_or_default(),
                namespace.or_else(|| text(2)).unwrap_or_default(),
            )
        }
    };
    let mut user = UserInfo::default();
    if let Some(ui) = user_info.map(small).filter(|v| !v.is_null()) {
        user.username = opt_str(ui.get("username"), "request.userInfo.username")?
            .unwrap_or("")
            .into();
        match ui.get("groups") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (i, g) in items.iter().enumerate() {
                    let g = g.as_str().ok_or_else(|| {
                        Malformed(format!("request.userInfo.groups[{i}] must be a string"))
                    })?;
                    user.groups.push(String::from(g));
                }
            }
            Some(other) => {
                return Err(Malformed(format!(
                    "request.userInfo.groups must be an array, got {}",
                    type_name(other)
                )));
            }
        }
    }
    let kind = Kind::from_group_kind(&group, &kind_name);
    Ok(Request {
        group,
        kind_name,
        kind,
        operation,
        sub_resource,
        name,
        namespace,
        user,
        object,
        old_object,
        object_parts: None,
    })
}

/// Parses the given fields of `object.metadata` (each `Value::Null` when absent).
fn metadata_fields<const N: usize>(object: &[u8], keys: [&str; N]) -> Option<Vec<Value>> {
    let [meta] = object_fields(object, ["metadata"], "the object").ok()?;
    let meta = meta.filter(|m| type_of(m) == "an object")?;
    let fields = object_fields(meta, keys, "the object").ok()?;
    Some(
        fields
            .iter()
            .map(|f| f.map(small).unwrap_or(Value::Null))
            .collect(),
    )
}

/// Follows `pointer` through raw objects. `Ok(None)` when a step is absent or `null`;
/// an error names the first step that is not an object.
pub fn object_at_raw<'a>(
    root: &'a [u8],
    pointer: &str,
    path: &str,
) -> Result<Option<&'a [u8]>, Malformed> {
    let mut cur = root;
    let mut walked = String::new();
    for step in pointer.split('/').skip(1) {
        if type_of(cur) != "an object" {
            return Err(Malformed(format!(
                "{} must be an object, got {}",
                if walked.is_empty() { "object" } else { &walked },
                type_of(cur)
            )));
        }
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(step);
        let [next] = object_fields(cur, [step], "the object").map_err(scan_err)?;
        match next.filter(|n| !is_null(n)) {
            None => return Ok(None),
            Some(n) => cur = n,
        }
    }
    if type_of(cur) != "an object" {
        return Err(Malformed(format!(
            "{path} must be an object, got {}",
            type_of(cur)
        )));
    }
    Ok(Some(cur))
}

/// What a decision may need from the pod spec.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecNeeds {
    /// `containers` and `initContainers` (extended resources).
    pub containers: bool,
    /// `affinity` and `nodeSelector` (dedicated nodes, the placement check).
    pub affinity: bool,
}

/// Pod spec fields the policy reads, in the order of [`ObjectParts::spec_fields`].
const SPEC_KEYS: [&str; 8] = [
    "tolerations",
    "nodeName",
    "hostNetwork",
    "preemptionPolicy",
    "containers",
    "initContainers",
    "affinity",
    "nodeSelector",
];

/// The parts of an object the policy reads, found in one pass over its bytes.
#[derive(Clone, Debug, Default)]
pub struct ObjectParts<'a> {
    /// The kind whose pod spec pointer was followed.
    kind: Option<Kind>,
    /// The pod spec was found (an object at the kind's pointer).
    pub has_spec: bool,
    /// Raw values of [`SPEC_KEYS`] inside the pod spec.
    spec_fields: [Option<&'a [u8]>; 8],
    /// `metadata.ownerReferences`, raw.
    owner_references: Option<&'a [u8]>,
    /// A step of the pod spec path that is not an object.
    error: Option<String>,
}

impl Reader<'_> {
    /// Captures the raw bytes of the next value.
    fn capture(&mut self) -> R<(usize, usize)> {
        self.ws();
        let start = self.i;
        self.skip(1)?;
        Ok((start, self.i))
    }
}

fn descend<'a>(
    r: &mut Reader<'a>,
    rest: &[&str],
    walked: &str,
    parts: &mut ObjectParts<'a>,
) -> R<()> {
    // The last occurrence of a key decides (as in serde_json): start over.
    parts.has_spec = false;
    parts.spec_fields = [None; 8];
    parts.error = None;
    r.ws();
    if r.null()? {
        return Ok(());
    }
    if r.peek() != Some(b'{') {
        let (start, end) = r.capture()?;
        let kind = type_of(r.b.get(start..end).unwrap_or(&[]));
        parts.error = Some(format!("{walked} must be an object, got {kind}"));
        return Ok(());
    }
    match rest.split_first() {
        None => {
            parts.has_spec = true;
            let mut fields = [None; 8];
            r.object(|r, k| {
                let (start, end) = r.capture()?;
                if let Some(slot) = SPEC_KEYS
                    .iter()
                    .position(|w| *w == k)
                    .and_then(|p| fields.get_mut(p))
                {
                    *slot = r.b.get(start..end);
                }
                Ok(())
            })?;
            parts.spec_fields = fields;
            Ok(())
        }
        Some((next, deeper)) => r.object(|r, k| {
            if k == *next {
                descend(r, deeper, &format!("{walked}.{k}"), parts)
            } else {
                r.skip(1)
            }
        }),
    }
}

/// Reads an object of `kind` in one pass: the pod spec fields at the kind's pointer and
/// `metadata.ownerReferences`.
pub fn object_parts(object: &[u8], kind: Kind) -> Result<ObjectParts<'_>, Malformed> {
    if type_of(object) != "an object" {
        return Err(Malformed(format!(
            "object must be an object, got {}",
            type_of(object)
        )));
    }
    check_utf8(object, "the object").map_err(scan_err)?;
    let mut r = Reader {
        b: object,
        i: 0,
        what: "the object",
    };
    let mut parts = ObjectParts::default();
    scan_object_parts(&mut r, kind, &mut parts).map_err(scan_err)?;
    parts.into_result()
}

/// [`object_parts`] at the reader's position (an object), so that a caller already
/// scanning the enclosing request reads the object in the same pass.
pub(crate) fn scan_object_parts<'a>(
    r: &mut Reader<'a>,
    kind: Kind,
    parts: &mut ObjectParts<'a>,
) -> R<()> {
    *parts = ObjectParts {
        kind: Some(kind),
        ..ObjectParts::default()
    };
    let pointer = kind.pod_spec_pointer().unwrap_or("");
    let mut path = pointer.split('/').skip(1);
    let first = path.next();
    let rest: Vec<&str> = path.collect();
    r.object(|r, k| {
        if k == "metadata" {
            r.ws();
            if r.peek() == Some(b'{') {
                return r.object(|r, k| {
                    let (start, end) = r.capture()?;
                    if k == "ownerReferences" {
                        parts.owner_references = r.b.get(start..end);
                    }
                    Ok(())
                });
            }
            return r.skip(1);
        }
        if first == Some(k) {
            descend(r, &rest, k, parts)
        } else {
            r.skip(1)
        }
    })
}

impl ObjectParts<'_> {
    /// The parts, or the type error found on the pod spec path.
    pub fn into_result(mut self) -> Result<Self, Malformed> {
        match self.error.take() {
            Some(e) => Err(Malformed(e)),
            None => Ok(self),
        }
    }

    /// The kind the parts were read for.
    pub fn kind(&self) -> Option<Kind> {
        self.kind
    }

    /// The pod spec as a `Value` holding only the fields the policy reads
    /// (`tolerations`, `nodeName`, `hostNetwork`, `preemptionPolicy`, and on request
    /// `containers`, `initContainers`, `affinity`, `nodeSelector`); `None` when there is
    /// no pod spec.
    pub fn spec(&self, needs: SpecNeeds, path: &str) -> Result<Option<Value>, Malformed> {
        if !self.has_spec {
            return Ok(None);
        }
        let mut map = serde_json::Map::new();
        for (i, (key, value)) in SPEC_KEYS.iter().zip(self.spec_fields).enumerate() {
            let wanted = match i {
                4 | 5 => needs.containers,
                6 | 7 => needs.affinity,
                _ => true,
            };
            if let (true, Some(v)) = (wanted, value) {
                let parsed: Value = serde_json::from_slice(v)
                    .map_err(|e| Malformed(format!("{path}.{key}: {e}")))?;
                map.insert(String::from(*key), parsed);
            }
        }
        Ok(Some(Value::Object(map)))
    }

    /// The kind of the controller owner (`ownerReferences[]` with `controller: true`).
    pub fn controller_kind(&self) -> Option<String> {
        let refs: Value = serde_json::from_slice(self.owner_references?).ok()?;
        refs.as_array()?
            .iter()
            .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
            .and_then(|r| r.get("kind"))
            .and_then(Value::as_str)
            .map(String::from)
    }
}

/// The pod spec of an object of a pod-bearing kind (see [`ObjectParts::spec`]).
pub fn pod_spec_raw(
    object: &[u8],
    kind: Kind,
    needs: SpecNeeds,
) -> Result<Option<Value>, Malformed> {
    let path = kind.pod_spec_path().unwrap_or("spec");
    object_parts(object, kind)?.spec(needs, path)
}

/// The kind of the object's controller owner, read from raw JSON.
pub fn controller_kind_raw(object: &[u8]) -> Option<String> {
    object_parts(object, Kind::Node).ok()?.controller_kind()
}

/// Parses a raw object into a `Value` (for mutation, which needs the whole object).
pub fn full_object(raw: &[u8]) -> Result<Value, Malformed> {
    serde_json::from_slice(raw).map_err(|e| Malformed(format!("object: {e}")))
}

fn opt_str<'a>(v: Option<&'a Value>, field: &str) -> Result<Option<&'a str>, Malformed> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(Malformed(format!(
            "{field} must be a string, got {}",
            type_name(other)
        ))),
    }
}

/// `"a string"`, `"an array"`, ... for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads `tolerations` of a pod spec. Missing or `null` is an empty list. Wrong types are
/// errors with the field path (`spec.tolerations[1].tolerationSeconds must be an
/// integer, got a string`): the apiserver would refuse to decode such an object.
pub fn tolerations(spec: Option<&Value>, spec_path: &str) -> Result<Vec<Toleration>, Malformed> {
    let Some(list) = spec.and_then(|s| s.get("tolerations")) else {
        return Ok(Vec::new());
    };
    let items = match list {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        other => {
            return Err(Malformed(format!(
                "{spec_path}.tolerations must be an array, got {}",
                type_name(other)
            )));
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        // The path is only formatted for an error message.
        let at = || format!("{spec_path}.tolerations[{i}]");
        let Some(map) = item.as_object() else {
            return Err(Malformed(format!(
                "{} must be an object, got {}",
                at(),
                type_name(item)
            )));
        };
        let s = |field: &str| -> Result<&str, Malformed> {
            match map.get(field) {
                None | Some(Value::Null) => Ok(""),
                Some(Value::String(v)) => Ok(v),
                Some(other) => Err(Malformed(format!(
                    "{}.{field} must be a string, got {}",
                    at(),
                    type_name(other)
                ))),
            }
        };
        let seconds = match map.get("tolerationSeconds") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => Some(n.as_i64().ok_or_else(|| {
                Malformed(format!(
                    "{}.tolerationSeconds must be a 64-bit integer, got {n}",
                    at()
                ))
            })?),
            Some(other) => {
                return Err(Malformed(format!(
                    "{}.tolerationSeconds must be an integer, got {}",
                    at(),
                    type_name(other)
                )));
            }
        };
        out.push(
            Toleration::new(
                s("key")?,
                Operator::parse(s("operator")?),
                s("value")?,
                TaintEffect::parse(s("effect")?),
            )
            .with_seconds(seconds),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_header_and_falls_back_to_metadata() {
        let r = json!({
            "uid": "1", "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
            "operation": "CREATE", "userInfo": {"username": "alice", "groups": ["dev"]},
            "object": {"metadata": {"name": "web", "namespace": "team-a"}}
        });
        let raw = serde_json::to_vec(&r).unwrap();
        let p = parse_raw(&raw).unwrap();
        assert_eq!(p.kind, Some(Kind::Workload(WorkloadKind::Deployment)));
        assert_eq!(p.name, "web");
        assert_eq!(p.namespace, "team-a");
        assert_eq!(p.user.groups, vec!["dev"]);
        assert!(p.old_object.is_none());
    }

    #[test]
    fn admission_review_and_controller() {
        let r = br#"{"kind": "AdmissionReview", "request": {"kind": {"kind": "Pod"}, "operation": "CREATE",
            "object": {"metadata": {"ownerReferences": [{"kind": "ReplicaSet", "controller": true}]}}}}"#;
        let p = parse_raw(r).unwrap();
        assert_eq!(p.kind, Some(Kind::Workload(WorkloadKind::Pod)));
        assert_eq!(
            controller_kind_raw(p.object.unwrap()).as_deref(),
            Some("ReplicaSet")
        );
        assert_eq!(
            parse_raw(b"[1]").unwrap_err().0,
            "request must be a JSON object, got an array"
        );
    }

    #[test]
    fn crd_with_same_kind_is_not_ours() {
        assert_eq!(Kind::from_group_kind("example.com", "Deployment"), None);
        assert_eq!(Kind::from_group_kind("", "Deployment"), None);
    }

    #[test]
    fn kinds_come_from_the_core_table() {
        // Every workload kind but PodTemplate, in the table's order, plus Node.
        let governed: Vec<Kind> = WorkloadKind::ALL
            .into_iter()
            .filter(|w| *w != WorkloadKind::PodTemplate)
            .map(Kind::Workload)
            .collect();
        assert_eq!(governed, Kind::POD_KINDS);
        for k in Kind::POD_KINDS {
            let w = k.workload().unwrap_or(WorkloadKind::PodTemplate);
            assert_eq!(Kind::from_group_kind(w.group(), w.name()), Some(k));
            assert_eq!(k.pod_spec_pointer(), Some(w.pod_spec_pointer()));
            assert_eq!(k.qualified_name(), w.qualified_name());
        }
        assert_eq!(Kind::from_group_kind("", "PodTemplate"), None);
        assert_eq!(Kind::from_group_kind("", "Node"), Some(Kind::Node));
        assert_eq!(Kind::Node.pod_spec_path(), None);
        assert_eq!(Kind::Node.qualified_name(), "Node");
    }

    #[test]
    fn type_errors_name_the_field() {
        let r = json!({"kind": {"kind": "Pod"}, "operation": 3});
        assert_eq!(
            parse_raw(&serde_json::to_vec(&r).unwrap()).unwrap_err().0,
            "request.operation must be a string, got a number"
        );
        let spec = json!({"tolerations": [{"key": "a"}, {"tolerationSeconds": "5"}]});
        let e = tolerations(Some(&spec), "spec").unwrap_err();
        assert_eq!(
            e.0,
            "spec.tolerations[1].tolerationSeconds must be an integer, got a string"
        );
        let spec = json!({"tolerations": [{"tolerationSeconds": 1.5}]});
        assert!(
            tolerations(Some(&spec), "spec")
                .unwrap_err()
                .0
                .contains("64-bit integer")
        );
        let obj = br#"{"spec": {"template": 5}}"#;
        assert_eq!(
            pod_spec_raw(
                obj,
                Kind::Workload(WorkloadKind::Deployment),
                SpecNeeds::default()
            )
            .unwrap_err()
            .0,
            "spec.template must be an object, got a number"
        );
    }

    #[test]
    fn pointers_per_kind() {
        let obj = br#"{"spec": {"jobTemplate": {"spec": {"template": {"spec": {"tolerations": [{"operator": "Exists"}],
            "containers": [{"name": "c"}], "nodeName": "n1"}}}}}}"#;
        let spec = pod_spec_raw(
            obj,
            Kind::Workload(WorkloadKind::CronJob),
            SpecNeeds::default(),
        )
        .unwrap();
        let t = tolerations(spec.as_ref(), "spec.jobTemplate.spec.template.spec").unwrap();
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].operator, Operator::Exists);
        // Only the fields the policy reads are parsed.
        let spec = spec.unwrap();
        assert_eq!(spec.get("nodeName"), Some(&json!("n1")));
        assert_eq!(spec.get("containers"), None);
        let with = pod_spec_raw(
            obj,
            Kind::Workload(WorkloadKind::CronJob),
            SpecNeeds {
                containers: true,
                affinity: false,
            },
        )
        .unwrap();
        assert!(with.unwrap().get("containers").is_some());
        assert_eq!(
            pod_spec_raw(
                obj,
                Kind::Workload(WorkloadKind::Deployment),
                SpecNeeds::default()
            )
            .unwrap(),
            None
        );
    }
}
