//! From the value tree to nodes, workloads, taints and tolerations, with the checks the
//! API server would make while decoding (types, unknown fields) explained in plain
//! words.
//!
//! Decoding errors (a boolean where a string belongs, a list where an object belongs)
//! drop the object, as the API server rejects it. Values the API server would reject
//! only at validation (an unknown effect) are reported as errors but the object is kept,
//! so the semantics can show what upstream does with it.

use std::collections::BTreeMap;

use taintlab_core::{
    ConditionStatus, Node, NodeCondition, Operator, PreemptionPolicy, QosClass, Taint, TaintEffect,
    Toleration,
};

use crate::diag::{Code, Diagnostic, Location, suggest};
use crate::event;
use crate::model::{
    ContainerResources, Form, InputNode, Parsed, TaintList, TolerationList, Workload,
};
use crate::quantity::{QUANTITY_FORMAT, Quantity};
use crate::tree::{Kind, Pos, Shape, Value};

/// Kinds whose pod template is read.
pub(crate) const WORKLOAD_KINDS: [&str; 9] = [
    "Pod",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "ReplicationController",
    "Job",
    "CronJob",
    "PodTemplate",
];

const TOLERATION_FIELDS: [&str; 5] = ["key", "operator", "value", "effect", "tolerationSeconds"];
const TAINT_FIELDS: [&str; 4] = ["key", "value", "effect", "timeAdded"];
const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
const OPERATORS: [&str; 4] = ["Equal", "Exists", "Lt", "Gt"];
const OBJECT_FIELDS: [&str; 5] = ["apiVersion", "kind", "metadata", "spec", "status"];
const META_FIELDS: [&str; 16] = [
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
    "clusterName",
];
const NODE_SPEC_FIELDS: [&str; 7] = [
    "podCIDR",
    "podCIDRs",
    "providerID",
    "unschedulable",
    "taints",
    "configSource",
    "externalID",
];
const POD_SPEC_FIELDS: [&str; 42] = [
    "volumes",
    "initContainers",
    "containers",
    "ephemeralContainers",
    "restartPolicy",
    "terminationGracePeriodSeconds",
    "activeDeadlineSeconds",
    "dnsPolicy",
    "nodeSelector",
    "serviceAccountName",
    "serviceAccount",
    "automountServiceAccountToken",
    "nodeName",
    "hostNetwork",
    "hostPID",
    "hostIPC",
    "shareProcessNamespace",
    "securityContext",
    "imagePullSecrets",
    "hostname",
    "subdomain",
    "affinity",
    "schedulerName",
    "tolerations",
    "hostAliases",
    "priorityClassName",
    "priority",
    "dnsConfig",
    "readinessGates",
    "runtimeClassName",
    "enableServiceLinks",
    "preemptionPolicy",
    "overhead",
    "topologySpreadConstraints",
    "setHostnameAsFQDN",
    "os",
    "hostUsers",
    "schedulingGates",
    "resourceClaims",
    "resources",
    "hostnameOverride",
    "workloadRef",
];

/// Fields of the workload specs (the part around the pod template), for unknown-field
/// checks; a union over the workload kinds.
const WORKLOAD_SPEC_FIELDS: [&str; 36] = [
    "replicas",
    "selector",
    "template",
    "strategy",
    "minReadySeconds",
    "revisionHistoryLimit",
    "paused",
    "progressDeadlineSeconds",
    "volumeClaimTemplates",
    "serviceName",
    "podManagementPolicy",
    "updateStrategy",
    "persistentVolumeClaimRetentionPolicy",
    "ordinals",
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "podFailurePolicy",
    "successPolicy",
    "backoffLimit",
    "backoffLimitPerIndex",
    "maxFailedIndexes",
    "manualSelector",
    "ttlSecondsAfterFinished",
    "completionMode",
    "suspend",
    "podReplacementPolicy",
    "managedBy",
    "schedule",
    "timeZone",
    "startingDeadlineSeconds",
    "concurrencyPolicy",
    "jobTemplate",
    "successfulJobsHistoryLimit",
    "failedJobsHistoryLimit",
    "selector",
];

/// How a bare `{key, value, effect}` object is read when nothing tells a taint from a
/// toleration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prefer {
    /// As a taint (the default: taints always carry an effect).
    #[default]
    Taints,
    /// As a toleration.
    Tolerations,
}

/// The Go type a value must decode into, for type errors.
#[derive(Clone, Copy)]
enum Want {
    Str,
    Int64,
    Int32,
    Bool,
    Object(&'static str),
    Array(&'static str),
    StrMap,
    Quantity,
}

impl Want {
    fn go(self) -> &'static str {
        match self {
            Want::Str => "string",
            Want::Int64 => "int64",
            Want::Int32 => "int32",
            Want::Bool => "bool",
            Want::Object(t) | Want::Array(t) => t,
            Want::StrMap => "map[string]string",
            Want::Quantity => "resource.Quantity",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Want::Str => "a string",
            Want::Int64 | Want::Int32 => "a whole number",
            Want::Bool => "true or false",
            Want::Object(_) => "an object",
            Want::Array(_) => "a list",
            Want::StrMap => "a map of strings",
            Want::Quantity => "a quantity such as 500m or 1Gi",
        }
    }
}

/// The object being decoded, for kubectl-style messages.
struct Obj {
    /// `Pod`, `Node`, ...; empty for bare lists.
    kind: String,
    /// Version part of `apiVersion`.
    version: String,
    /// Path prefix of the object in the document (`items[2]`).
    base: String,
    /// Set when a decoding error means the API server rejects the object.
    failed: bool,
}

impl Obj {
    fn bare() -> Self {
        Obj {
            kind: String::new(),
            version: String::new(),
            base: String::new(),
            failed: false,
        }
    }
}

pub(crate) struct Reducer<'a> {
    pub out: &'a mut Parsed,
    pub form: Form,
    pub doc: usize,
    pub prefer: Prefer,
    pub version: taintlab_core::KubeVersion,
}

fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        format!("{base}.{key}")
    }
}

fn index(base: &str, i: usize) -> String {
    format!("{base}[{i}]")
}

fn last_segment(path: &str) -> &str {
    let p = path.rsplit('.').next().unwrap_or(path);
    p.split('[').next().unwrap_or(p)
}

/// `spec.tolerations[0].value` relative to `base`, without indices, as Go's decoder
/// names fields.
fn go_path(path: &str, base: &str) -> String {
    let rel = path
        .strip_prefix(base)
        .map(|r| r.trim_start_matches('.'))
        .unwrap_or(path);
    let mut out = String::new();
    let mut skip = false;
    for c in rel.chars() {
        match c {
            '[' => skip = true,
            ']' => skip = false,
            _ if !skip => out.push(c),
            _ => {}
        }
    }
    out
}

impl Reducer<'_> {
    fn loc(&self, p: Pos, path: &str) -> Location {
        Location::at(self.doc, p.line as usize, p.col as usize).with_path(path)
    }

    fn push(&mut self, d: Diagnostic) {
        self.out.diagnostics.push(d);
    }

    /// Reads one document.
    pub fn document(&mut self, root: &Value) {
        match &root.kind {
            Kind::Null(_) => {}
            Kind::Map(_) if root.get("kind").is_some() => self.object(root, ""),
            Kind::Map(_) => self.bare_map(root, ""),
            Kind::Seq(items) => self.bare_seq(root, items, ""),
            Kind::Str(s) => self.spec_text(s, root.pos, ""),
            _ => {
                let loc = self.loc(root.pos, "");
                self.push(Diagnostic::warning(
                    Code::Unrecognized,
                    loc,
                    format!(
                        "this document is a single {} value; expected a Kubernetes object, a list of taints or tolerations, or taint specs",
                        root.json_type()
                    ),
                ));
            }
        }
    }

    /// Taint specs in a plain string document (`dedicated=gpu:NoSchedule`).
    fn spec_text(&mut self, s: &str, pos: Pos, path: &str) {
        let loc = self.loc(pos, path);
        let specs: Vec<(String, Location)> = s
            .split_whitespace()
            .map(|t| (t.to_string(), loc.clone()))
            .collect();
        crate::kubectl::bare_specs(self.out, &specs, loc, self.form, self.version);
    }

    fn object(&mut self, v: &Value, path: &str) {
        let mut obj = Obj::bare();
        obj.base = path.to_string();
        let kind = self
            .opt_str(v, "kind", path, "TypeMeta", &mut obj)
            .unwrap_or_default();
        let api = self
            .opt_str(v, "apiVersion", path, "TypeMeta", &mut obj)
            .unwrap_or_default();
        obj.version = api.rsplit('/').next().unwrap_or("").to_string();
        obj.kind = kind.clone();
        if obj.failed {
            return;
        }
        if kind == "List" || (kind.ends_with("List") && v.get("items").is_some()) {
            let Some(items) = v.get("items") else { return };
            match &items.value.kind {
                Kind::Seq(list) => {
                    for (i, item) in list.iter().enumerate() {
                        let p = index(&join(path, "items"), i);
                        match item.kind {
                            Kind::Map(_) => self.object(item, &p),
                            Kind::Null(_) => {}
                            _ => {
                                let loc = self.loc(item.pos, &p);
                                self.push(Diagnostic::error(
                                    Code::WrongType,
                                    loc,
                                    format!(
                                        "a list item must be an object, found {}",
                                        describe(item)
                                    ),
                                ));
                            }
                        }
                    }
                }
                Kind::Null(_) => {}
                _ => {
                    let loc = self.loc(items.value.pos, &join(path, "items"));
                    self.push(Diagnostic::error(
                        Code::WrongType,
                        loc,
                        format!("items must be a list, found {}", describe(&items.value)),
                    ));
                }
            }
            return;
        }
        match kind.as_str() {
            "Node" => self.node(v, path, obj),
            k if WORKLOAD_KINDS.contains(&k) => self.workload(v, path, obj),
            "Event" => self.event_object(v, path),
            "" => self.bare_map(v, path),
            other => {
                let loc = self.loc(v.pos, path);
                self.push(Diagnostic::warning(
                    Code::IgnoredKind,
                    loc,
                    format!(
                        "kind {other} is not read here (it has no taints or tolerations); ignored"
                    ),
                ));
            }
        }
    }

    fn unknown_fields(&mut self, v: &Value, path: &str, known: &[&str], what: &str, obj: &Obj) {
        let Some(entries) = v.entries() else { return };
        for e in entries {
            if known.contains(&e.key.as_str()) {
                continue;
            }
            let field = join(path, &e.key);
            let mut msg = format!("unknown field \"{}\" in {what}", e.key);
            match suggest(&e.key, known) {
                Some(s) => msg.push_str(&format!("; did you mean \"{s}\"?")),
                None => msg.push('.'),
            }
            msg.push_str(" The API server ignores it");
            if let Some(c) = consequence(what, suggest(&e.key, known)) {
                msg.push_str(&format!(": {c}"));
            }
            msg.push('.');
            if !obj.kind.is_empty() {
                let rel = field
                    .strip_prefix(&obj.base)
                    .map(|r| r.trim_start_matches('.'))
                    .unwrap_or(&field);
                msg.push_str(&format!(
                    " kubectl apply (--validate=strict, the default) rejects it: strict decoding error: unknown field \"{rel}\""
                ));
            }
            let loc = self.loc(e.key_pos, &field);
            self.push(Diagnostic::warning(Code::UnknownField, loc, msg));
        }
    }

    fn type_error(&mut self, v: &Value, path: &str, go_type: &str, want: Want, obj: &mut Obj) {
        obj.failed = true;
        let key = last_segment(path);
        let mut msg = format!("{path} must be {}, but {}", want.words(), describe(v));
        let json = self.form == Form::Json;
        match (&v.kind, want) {
            (Kind::Bool(..) | Kind::Num(_), Want::Str) => {
                let src = source_text(v);
                if json {
                    msg.push_str(&format!("; write \"{key}\": \"{src}\""));
                } else {
                    msg.push_str(&format!("; quote it: {key}: \"{src}\""));
                }
            }
            (Kind::Str(s), Want::Int64 | Want::Int32) if s.trim().parse::<i64>().is_ok() => {
                if json {
                    msg.push_str(&format!("; remove the quotes: \"{key}\": {}", s.trim()));
                } else {
                    msg.push_str(&format!("; remove the quotes: {key}: {}", s.trim()));
                }
            }
            (Kind::Str(s), Want::Bool) if s == "true" || s == "false" => {
                msg.push_str(&format!("; remove the quotes: {key}: {s}"));
            }
            _ => {}
        }
        if !obj.kind.is_empty() {
            let jt = match (&v.kind, want) {
                (Kind::Num(n), Want::Int64 | Want::Int32) => format!("number {}", n.json),
                _ => v.json_type().to_string(),
            };
            let field = go_path(path, &obj.base);
            msg.push_str(&format!(
                ". kubectl rejects the object: {k} in version \"{ver}\" cannot be handled as a {k}: json: cannot unmarshal {jt} into Go struct field {go_type}.{field} of type {gt}",
                k = obj.kind,
                ver = obj.version,
                gt = want.go()
            ));
        }
        let loc = self.loc(v.pos, path);
        self.push(Diagnostic::error(Code::WrongType, loc, msg));
    }

    fn get_str(&mut self, v: &Value, path: &str, go_type: &str, obj: &mut Obj) -> Option<String> {
        match &v.kind {
            Kind::Str(s) => Some(s.clone()),
            Kind::Null(_) => Some(String::new()),
            Kind::Num(n) if n.json.is_empty() => {
                self.non_finite(v, path, obj);
                None
            }
            _ => {
                self.type_error(v, path, go_type, Want::Str, obj);
                None
            }
        }
    }

    fn non_finite(&mut self, v: &Value, path: &str, obj: &mut Obj) {
        obj.failed = true;
        let loc = self.loc(v.pos, path);
        self.push(Diagnostic::error(
            Code::WrongType,
            loc,
            format!(
                "`{}` is read as an infinite or not-a-number float, which JSON cannot carry; kubectl fails with: json: unsupported value",
                source_text(v)
            ),
        ));
    }

    fn opt_str(
        &mut self,
        v: &Value,
        key: &str,
        base: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> Option<String> {
        let e = v.get(key)?;
        let path = join(base, key);
        self.get_str(&e.value, &path, go_type, obj)
    }

    fn get_int(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        want: Want,
        obj: &mut Obj,
    ) -> Option<i64> {
        match &v.kind {
            Kind::Null(_) => None,
            Kind::Num(n) => {
                let parsed = n.json.parse::<i64>().ok().filter(|x| match want {
                    Want::Int32 => i32::try_from(*x).is_ok(),
                    _ => true,
                });
                if parsed.is_none() {
                    self.type_error(v, path, go_type, want, obj);
                }
                parsed
            }
            _ => {
                self.type_error(v, path, go_type, want, obj);
                None
            }
        }
    }

    fn get_bool(&mut self, v: &Value, path: &str, go_type: &str, obj: &mut Obj) -> Option<bool> {
        match &v.kind {
            Kind::Bool(b, _) => Some(*b),
            Kind::Null(_) => None,
            _ => {
                self.type_error(v, path, go_type, Want::Bool, obj);
                None
            }
        }
    }

    /// A map of strings (labels); `quantity` accepts numbers (requests, limits).
    fn str_map(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        quantity: bool,
        obj: &mut Obj,
    ) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        match &v.kind {
            Kind::Map(entries) => {
                for e in entries {
                    let p = join(path, &e.key);
                    if quantity {
                        let text = match &e.value.kind {
                            Kind::Str(s) => Some(s.clone()),
                            Kind::Num(n) if !n.json.is_empty() => Some(n.json.clone()),
                            Kind::Null(_) => None,
                            _ => {
                                self.type_error(&e.value, &p, go_type, Want::Quantity, obj);
                                None
                            }
                        };
                        if let Some(t) = text {
                            if Quantity::parse(&t).is_none() {
                                obj.failed = true;
                                let loc = self.loc(e.value.pos, &p);
                                self.push(Diagnostic::error(
                                    Code::InvalidValue,
                                    loc,
                                    format!("\"{t}\" is not a resource quantity (such as 500m, 2, 1.5Gi): {QUANTITY_FORMAT}"),
                                ));
                            } else {
                                out.insert(e.key.clone(), t);
                            }
                        }
                    } else {
                        match &e.value.kind {
                            Kind::Str(s) => {
                                out.insert(e.key.clone(), s.clone());
                            }
                            Kind::Null(_) => {
                                out.insert(e.key.clone(), String::new());
                            }
                            _ => {
                                // Go names the map field itself for a bad value.
                                let mut tmp = Obj {
                                    failed: false,
                                    ..Obj::bare()
                                };
                                std::mem::swap(&mut tmp.kind, &mut obj.kind);
                                std::mem::swap(&mut tmp.version, &mut obj.version);
                                std::mem::swap(&mut tmp.base, &mut obj.base);
                                self.type_error(&e.value, &p, go_type, Want::Str, &mut tmp);
                                if let Some(d) = self.out.diagnostics.last_mut() {
                                    // Point Go's message at the map, as Go does.
                                    let field = go_path(path, &tmp.base);
                                    let with_key = go_path(&p, &tmp.base);
                                    d.message = d.message.replace(
                                        &format!("{go_type}.{with_key} "),
                                        &format!("{go_type}.{field} "),
                                    );
                                }
                                std::mem::swap(&mut tmp.kind, &mut obj.kind);
                                std::mem::swap(&mut tmp.version, &mut obj.version);
                                std::mem::swap(&mut tmp.base, &mut obj.base);
                                obj.failed = true;
                            }
                        }
                    }
                }
            }
            Kind::Null(_) => {}
            _ => self.type_error(
                v,
                path,
                go_type,
                if quantity {
                    Want::Object("v1.ResourceList")
                } else {
                    Want::StrMap
                },
                obj,
            ),
        }
        out
    }

    fn list<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        go_type: &str,
        elem: &'static str,
        obj: &mut Obj,
    ) -> &'v [Value] {
        match &v.kind {
            Kind::Seq(items) => items,
            Kind::Null(_) => &[],
            _ => {
                self.type_error(v, path, go_type, Want::Array(elem), obj);
                &[]
            }
        }
    }

    fn toleration(
        &mut self,
        v: &Value,
        path: &str,
        obj: &mut Obj,
    ) -> Option<(Toleration, Location)> {
        let Kind::Map(entries) = &v.kind else {
            self.type_error(v, path, "PodSpec", Want::Object("v1.Toleration"), obj);
            return None;
        };
        let mut t = Toleration::default();
        let failed_before = obj.failed;
        obj.failed = false;
        for e in entries {
            let p = join(path, &e.key);
            match e.key.as_str() {
                "key" => {
                    t.key = self
                        .get_str(&e.value, &p, "Toleration", obj)
                        .unwrap_or_default()
                }
                "operator" => {
                    let s = self
                        .get_str(&e.value, &p, "Toleration", obj)
                        .unwrap_or_default();
                    t.operator = Operator::parse(&s);
                    if matches!(t.operator, Operator::Other(_)) {
                        let mut msg = format!(
                            "operator \"{s}\" is not one of Equal, Exists (or Lt, Gt with the TaintTolerationComparisonOperators gate)"
                        );
                        if let Some(k) = suggest(&s, &OPERATORS) {
                            msg.push_str(&format!("; did you mean \"{k}\"?"));
                        }
                        msg.push_str(" The API server rejects it: Unsupported value");
                        let loc = self.loc(e.value.pos, &p);
                        self.push(Diagnostic::error(Code::InvalidValue, loc, msg));
                    }
                }
                "value" => {
                    t.value = self
                        .get_str(&e.value, &p, "Toleration", obj)
                        .unwrap_or_default()
                }
                "effect" => {
                    let s = self
                        .get_str(&e.value, &p, "Toleration", obj)
                        .unwrap_or_default();
                    t.effect = TaintEffect::parse(&s);
                    if matches!(t.effect, TaintEffect::Other(_)) {
                        self.bad_effect(&s, e.value.pos, &p, true);
                    }
                }
                "tolerationSeconds" => {
                    t.toleration_seconds =
                        self.get_int(&e.value, &p, "Toleration", Want::Int64, obj)
                }
                _ => {}
            }
        }
        let this_failed = obj.failed;
        obj.failed |= failed_before;
        self.unknown_fields(v, path, &TOLERATION_FIELDS, "a toleration", obj);
        if this_failed {
            return None;
        }
        Some((t, self.loc(v.pos, path)))
    }

    fn bad_effect(&mut self, s: &str, pos: Pos, path: &str, toleration: bool) {
        let mut msg =
            format!("effect \"{s}\" is not one of NoSchedule, PreferNoSchedule, NoExecute");
        if toleration {
            msg.push_str(" (or empty, for every effect)");
        }
        if let Some(k) = suggest(s, &EFFECTS) {
            msg.push_str(&format!("; did you mean \"{k}\"?"));
        }
        msg.push_str(" The API server rejects it: Unsupported value");
        let loc = self.loc(pos, path);
        self.push(Diagnostic::error(Code::InvalidValue, loc, msg));
    }

    fn taint(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Option<(Taint, Location)> {
        let Kind::Map(entries) = &v.kind else {
            self.type_error(v, path, "NodeSpec", Want::Object("v1.Taint"), obj);
            return None;
        };
        let mut t = Taint::default();
        let failed_before = obj.failed;
        obj.failed = false;
        let mut has_effect = false;
        for e in entries {
            let p = join(path, &e.key);
            match e.key.as_str() {
                "key" => t.key = self.get_str(&e.value, &p, "Taint", obj).unwrap_or_default(),
                "value" => t.value = self.get_str(&e.value, &p, "Taint", obj).unwrap_or_default(),
                "effect" => {
                    let s = self.get_str(&e.value, &p, "Taint", obj).unwrap_or_default();
                    has_effect = !s.is_empty();
                    t.effect = TaintEffect::parse(&s);
                    if matches!(t.effect, TaintEffect::Other(_)) {
                        self.bad_effect(&s, e.value.pos, &p, false);
                    }
                }
                "timeAdded" => {
                    t.time_added = self
                        .get_str(&e.value, &p, "Taint", obj)
                        .filter(|s| !s.is_empty())
                }
                _ => {}
            }
        }
        let this_failed = obj.failed;
        obj.failed |= failed_before;
        self.unknown_fields(v, path, &TAINT_FIELDS, "a taint", obj);
        if this_failed {
            return None;
        }
        let loc = self.loc(v.pos, path);
        if t.key.is_empty() {
            self.push(Diagnostic::error(
                Code::MissingField,
                loc.clone(),
                "a taint needs a key; the API server rejects it: Required value",
            ));
        }
        if !has_effect {
            self.push(Diagnostic::error(
                Code::MissingField,
                loc.clone(),
                "a taint needs an effect: one of NoSchedule, PreferNoSchedule, NoExecute; the API server rejects it: Required value",
            ));
        }
        Some((t, loc))
    }

    fn tolerations_of(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> (Vec<Toleration>, Vec<Location>) {
        let mut tols = Vec::new();
        let mut locs = Vec::new();
        let items = self.list(v, path, go_type, "[]v1.Toleration", obj);
        for (i, item) in items.iter().enumerate() {
            if let Some((t, l)) = self.toleration(item, &index(path, i), obj) {
                tols.push(t);
                locs.push(l);
            }
        }
        (tols, locs)
    }

    fn taints_of(
        &mut self,
        v: &Value,
        path: &str,
        go_type: &str,
        obj: &mut Obj,
    ) -> (Vec<Taint>, Vec<Location>) {
        let mut taints = Vec::new();
        let mut locs = Vec::new();
        let items = self.list(v, path, go_type, "[]v1.Taint", obj);
        for (i, item) in items.iter().enumerate() {
            if let Some((t, l)) = self.taint(item, &index(path, i), obj) {
                taints.push(t);
                locs.push(l);
            }
        }
        (taints, locs)
    }

    fn metadata(
        &mut self,
        v: &Value,
        path: &str,
        obj: &mut Obj,
    ) -> (String, String, BTreeMap<String, String>) {
        let Some(m) = v.get("metadata") else {
            return Default::default();
        };
        let mpath = join(path, "metadata");
        if !matches!(m.value.kind, Kind::Map(_)) {
            if !matches!(m.value.kind, Kind::Null(_)) {
                self.type_error(
                    &m.value,
                    &mpath,
                    "ObjectMeta",
                    Want::Object("v1.ObjectMeta"),
                    obj,
                );
            }
            return Default::default();
        }
        let name = self
            .opt_str(&m.value, "name", &mpath, "ObjectMeta", obj)
            .unwrap_or_default();
        let name = if name.is_empty() {
            self.opt_str(&m.value, "generateName", &mpath, "ObjectMeta", obj)
                .unwrap_or_default()
        } else {
            name
        };
        let ns = self
            .opt_str(&m.value, "namespace", &mpath, "ObjectMeta", obj)
            .unwrap_or_default();
        let labels = match m.value.get("labels") {
            Some(l) => self.str_map(&l.value, &join(&mpath, "labels"), "ObjectMeta", false, obj),
            None => BTreeMap::new(),
        };
        self.unknown_fields(&m.value, &mpath, &META_FIELDS, "metadata", obj);
        (name, ns, labels)
    }

    fn node(&mut self, v: &Value, path: &str, mut obj: Obj) {
        let (name, _, labels) = self.metadata(v, path, &mut obj);
        let mut node = Node {
            name,
            labels,
            ..Node::default()
        };
        let mut taint_locations = Vec::new();
        let mut unschedulable_location = None;
        if let Some(spec) = v.get("spec") {
            let sp = join(path, "spec");
            match &spec.value.kind {
                Kind::Map(_) => {
                    if let Some(t) = spec.value.get("taints") {
                        let (taints, locs) =
                            self.taints_of(&t.value, &join(&sp, "taints"), "NodeSpec", &mut obj);
                        node.taints = taints;
                        taint_locations = locs;
                    }
                    if let Some(u) = spec.value.get("unschedulable") {
                        let up = join(&sp, "unschedulable");
                        node.unschedulable = self
                            .get_bool(&u.value, &up, "NodeSpec", &mut obj)
                            .unwrap_or(false);
                        unschedulable_location = Some(self.loc(u.value.pos, &up));
                    }
                    self.unknown_fields(&spec.value, &sp, &NODE_SPEC_FIELDS, "a node spec", &obj);
                }
                Kind::Null(_) => {}
                _ => self.type_error(
                    &spec.value,
                    &sp,
                    "Node",
                    Want::Object("v1.NodeSpec"),
                    &mut obj,
                ),
            }
        }
        let mut kubelet_version = None;
        if let Some(status) = v.get("status") {
            let st = join(path, "status");
            if let Some(c) = status.value.get("conditions") {
                let cp = join(&st, "conditions");
                let items = self.list(&c.value, &cp, "NodeStatus", "[]v1.NodeCondition", &mut obj);
                for (i, item) in items.iter().enumerate() {
                    let ip = index(&cp, i);
                    if !matches!(item.kind, Kind::Map(_)) {
                        self.type_error(
                            item,
                            &ip,
                            "NodeStatus",
                            Want::Object("v1.NodeCondition"),
                            &mut obj,
                        );
                        continue;
                    }
                    let type_ = self
                        .opt_str(item, "type", &ip, "NodeCondition", &mut obj)
                        .unwrap_or_default();
                    let status = self
                        .opt_str(item, "status", &ip, "NodeCondition", &mut obj)
                        .unwrap_or_default();
                    node.conditions.push(NodeCondition {
                        type_,
                        status: if status.is_empty() {
                            ConditionStatus::Unknown
                        } else {
                            ConditionStatus::parse(&status)
                        },
                    });
                }
            }
            if let Some(info) = status.value.get("nodeInfo") {
                kubelet_version = self
                    .opt_str(
                        &info.value,
                        "kubeletVersion",
                        &join(&st, "nodeInfo"),
                        "NodeSystemInfo",
                        &mut obj,
                    )
                    .filter(|s| !s.is_empty());
            }
        }
        self.unknown_fields(v, path, &OBJECT_FIELDS, "a Node", &obj);
        if obj.failed {
            return;
        }
        self.out.nodes.push(InputNode {
            node,
            location: self.loc(v.pos, path),
            taint_locations,
            unschedulable_location,
            kubelet_version,
            form: self.form,
        });
    }

    fn containers(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Vec<ContainerResources> {
        let mut out = Vec::new();
        let items = self.list(v, path, "PodSpec", "[]v1.Container", obj);
        for (i, item) in items.iter().enumerate() {
            let ip = index(path, i);
            if !matches!(item.kind, Kind::Map(_)) {
                self.type_error(item, &ip, "PodSpec", Want::Object("v1.Container"), obj);
                continue;
            }
            let mut c = ContainerResources {
                name: self
                    .opt_str(item, "name", &ip, "Container", obj)
                    .unwrap_or_default(),
                image: self
                    .opt_str(item, "image", &ip, "Container", obj)
                    .unwrap_or_default(),
                ..Default::default()
            };
            if let Some(r) = item.get("resources") {
                let rp = join(&ip, "resources");
                if let Some(q) = r.value.get("requests") {
                    c.requests = self.str_map(
                        &q.value,
                        &join(&rp, "requests"),
                        "ResourceRequirements",
                        true,
                        obj,
                    );
                }
                if let Some(q) = r.value.get("limits") {
                    c.limits = self.str_map(
                        &q.value,
                        &join(&rp, "limits"),
                        "ResourceRequirements",
                        true,
                        obj,
                    );
                }
            }
            out.push(c);
        }
        out
    }

    fn workload(&mut self, v: &Value, path: &str, mut obj: Obj) {
        let kind = obj.kind.clone();
        let (name, namespace, _) = self.metadata(v, path, &mut obj);
        let mut w = Workload {
            kind: kind.clone(),
            api_version: self
                .opt_str(v, "apiVersion", path, "TypeMeta", &mut obj)
                .unwrap_or_default(),
            name: name.clone(),
            namespace: namespace.clone(),
            form: self.form,
            location: self.loc(v.pos, path),
            ..Workload::default()
        };
        w.pod.name = name;
        w.pod.namespace = namespace;
        // Where the pod template is.
        let template_path: Vec<&str> = match kind.as_str() {
            "Pod" => vec![],
            "PodTemplate" => vec!["template"],
            "CronJob" => vec!["spec", "jobTemplate", "spec", "template"],
            _ => vec!["spec", "template"],
        };
        let mut cur = v;
        let mut cur_path = path.to_string();
        for (depth, seg) in template_path.iter().enumerate() {
            // Unknown-field checks on the workload and job specs around the template.
            if *seg == "template" && depth > 0 {
                self.workload_spec_fields(cur, &cur_path, &obj);
            }
            match cur.get(seg) {
                Some(e) if matches!(e.value.kind, Kind::Map(_)) => {
                    cur = &e.value;
                    cur_path = join(&cur_path, seg);
                }
                Some(e) if !matches!(e.value.kind, Kind::Null(_)) => {
                    let p = join(&cur_path, seg);
                    self.type_error(
                        &e.value,
                        &p,
                        "PodTemplateSpec",
                        Want::Object("v1.PodTemplateSpec"),
                        &mut obj,
                    );
                    return;
                }
                _ => {
                    let loc = self.loc(cur.pos, &cur_path);
                    self.push(Diagnostic::warning(
                        Code::MissingField,
                        loc,
                        format!(
                            "this {kind} has no {} (the pod template), so it has no tolerations to read",
                            join(&cur_path, seg)
                        ),
                    ));
                    break;
                }
            }
        }
        if !template_path.is_empty() {
            let (tname, tns, _) = self.metadata(cur, &cur_path, &mut obj);
            if !tname.is_empty() {
                w.pod.name = tname;
            }
            if !tns.is_empty() {
                w.pod.namespace = tns;
            }
        }
        if let Some(spec) = cur.get("spec") {
            let sp = join(&cur_path, "spec");
            match &spec.value.kind {
                Kind::Map(_) => self.pod_spec(&spec.value, &sp, &mut w, &mut obj),
                Kind::Null(_) => {}
                _ => self.type_error(
                    &spec.value,
                    &sp,
                    "PodTemplateSpec",
                    Want::Object("v1.PodSpec"),
                    &mut obj,
                ),
            }
        }
        if kind == "Pod" {
            self.pod_status(v, path, &mut w, &mut obj);
        }
        self.unknown_fields(
            v,
            path,
            if kind == "PodTemplate" {
                &["apiVersion", "kind", "metadata", "template"]
            } else {
                &OBJECT_FIELDS
            },
            &format!("a {kind}"),
            &obj,
        );
        if obj.failed {
            return;
        }
        self.out.workloads.push(w);
    }

    fn workload_spec_fields(&mut self, spec: &Value, path: &str, obj: &Obj) {
        let Some(entries) = spec.entries() else {
            return;
        };
        for e in entries {
            if WORKLOAD_SPEC_FIELDS.contains(&e.key.as_str()) {
                continue;
            }
            let field = join(path, &e.key);
            let msg = if POD_SPEC_FIELDS.contains(&e.key.as_str()) {
                format!(
                    "{} belongs in the pod template ({}.template.spec.{}), not in {path}; here the API server ignores it, so the pods do not get it (kubectl --validate=strict rejects it as an unknown field)",
                    e.key, path, e.key
                )
            } else {
                let mut m = format!("unknown field \"{}\" in {} spec", e.key, obj.kind);
                match suggest(&e.key, &WORKLOAD_SPEC_FIELDS) {
                    Some(s) => m.push_str(&format!("; did you mean \"{s}\"?")),
                    None => m.push('.'),
                }
                m.push_str(" The API server ignores it");
                m
            };
            let loc = self.loc(e.key_pos, &field);
            self.push(Diagnostic::warning(Code::UnknownField, loc, msg));
        }
    }

    fn pod_spec(&mut self, spec: &Value, sp: &str, w: &mut Workload, obj: &mut Obj) {
        for e in spec.entries().unwrap_or(&[]) {
            let p = join(sp, &e.key);
            match e.key.as_str() {
                "tolerations" => {
                    let (t, l) = self.tolerations_of(&e.value, &p, "PodSpec", obj);
                    w.pod.tolerations = t;
                    w.toleration_locations = l;
                }
                "nodeName" => {
                    w.pod.node_name = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default()
                }
                "priority" => {
                    w.priority = self
                        .get_int(&e.value, &p, "PodSpec", Want::Int32, obj)
                        .and_then(|x| i32::try_from(x).ok())
                }
                "priorityClassName" => {
                    w.priority_class_name = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default()
                }
                "preemptionPolicy" => {
                    let s = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default();
                    w.pod.preemption_policy = PreemptionPolicy::parse(&s);
                    if !s.is_empty() && s != "Never" && s != "PreemptLowerPriority" {
                        let loc = self.loc(e.value.pos, &p);
                        let mut msg = format!(
                            "preemptionPolicy \"{s}\" is not one of PreemptLowerPriority, Never"
                        );
                        if let Some(k) = suggest(&s, &["PreemptLowerPriority", "Never"]) {
                            msg.push_str(&format!("; did you mean \"{k}\"?"));
                        }
                        msg.push_str(" The API server rejects it: Unsupported value");
                        self.push(Diagnostic::error(Code::InvalidValue, loc, msg));
                    }
                }
                "hostNetwork" => {
                    w.host_network = self.get_bool(&e.value, &p, "PodSpec", obj).unwrap_or(false)
                }
                "runtimeClassName" => {
                    w.runtime_class_name = self
                        .get_str(&e.value, &p, "PodSpec", obj)
                        .unwrap_or_default()
                }
                "containers" => w.containers = self.containers(&e.value, &p, obj),
                "initContainers" => w.init_containers = self.containers(&e.value, &p, obj),
                _ => {}
            }
        }
        self.unknown_fields(spec, sp, &POD_SPEC_FIELDS, "a pod spec", obj);
    }

    fn pod_status(&mut self, v: &Value, path: &str, w: &mut Workload, obj: &mut Obj) {
        let Some(status) = v.get("status") else {
            return;
        };
        let st = join(path, "status");
        if let Some(q) = status.value.get("qosClass") {
            let s = self
                .get_str(&q.value, &join(&st, "qosClass"), "PodStatus", obj)
                .unwrap_or_default();
            if matches!(s.as_str(), "BestEffort" | "Burstable" | "Guaranteed") {
                w.stated_qos_class = Some(QosClass::parse(&s));
            }
        }
        if let Some(c) = status.value.get("conditions")
            && let Kind::Seq(items) = &c.value.kind
        {
            for (i, item) in items.iter().enumerate() {
                let is_sched = matches!(item.get("type").map(|e| &e.value.kind), Some(Kind::Str(t)) if t == "PodScheduled");
                if let (true, Some(m)) = (is_sched, item.get("message"))
                    && let Kind::Str(msg) = &m.value.kind
                {
                    let p = join(&index(&join(&st, "conditions"), i), "message");
                    self.event_text(msg, m.value.pos, &p);
                }
            }
        }
    }

    fn event_text(&mut self, msg: &str, pos: Pos, path: &str) {
        if !event::looks_like_failed_scheduling(msg) {
            return;
        }
        let loc = self.loc(pos, path);
        let ev = event::parse_message(msg, loc);
        self.out.events.push(ev);
    }

    fn event_object(&mut self, v: &Value, path: &str) {
        for key in ["message", "note"] {
            if let Some(e) = v.get(key)
                && let Kind::Str(s) = &e.value.kind
            {
                let p = join(path, key);
                self.event_text(s, e.value.pos, &p);
            }
        }
    }

    /// A mapping without `kind`: a bare taint or toleration, or a fragment that holds
    /// `tolerations:` / `taints:` somewhere people usually cut it from.
    fn bare_map(&mut self, v: &Value, path: &str) {
        let mut found = false;
        let spots: [&[&str]; 6] = [
            &["tolerations"],
            &["taints"],
            &["spec", "tolerations"],
            &["spec", "taints"],
            &["spec", "template", "spec", "tolerations"],
            &["template", "spec", "tolerations"],
        ];
        for spot in spots {
            let mut cur = v;
            let mut p = path.to_string();
            let mut ok = true;
            for seg in spot {
                match cur.get(seg) {
                    Some(e) => {
                        cur = &e.value;
                        p = join(&p, seg);
                    }
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            found = true;
            let mut obj = Obj::bare();
            if spot.last() == Some(&"taints") {
                let (taints, locations) = self.taints_of(cur, &p, "NodeSpec", &mut obj);
                if !obj.failed || !taints.is_empty() {
                    let location = self.loc(cur.pos, &p);
                    self.out.taint_lists.push(TaintList {
                        taints,
                        locations,
                        location,
                        form: self.form,
                    });
                }
            } else {
                let (tolerations, locations) = self.tolerations_of(cur, &p, "PodSpec", &mut obj);
                if !obj.failed || !tolerations.is_empty() {
                    let location = self.loc(cur.pos, &p);
                    self.out.toleration_lists.push(TolerationList {
                        tolerations,
                        locations,
                        location,
                        form: self.form,
                    });
                }
            }
        }
        if found {
            return;
        }
        let entries = v.entries().unwrap_or(&[]);
        let looks_like = entries.iter().any(|e| {
            TOLERATION_FIELDS.contains(&e.key.as_str()) || TAINT_FIELDS.contains(&e.key.as_str())
        });
        if looks_like {
            let as_toleration = self.is_toleration(v);
            let mut obj = Obj::bare();
            let location = self.loc(v.pos, path);
            if as_toleration {
                if let Some((t, l)) = self.toleration(v, path, &mut obj) {
                    self.out.toleration_lists.push(TolerationList {
                        tolerations: vec![t],
                        locations: vec![l],
                        location,
                        form: self.form,
                    });
                }
            } else if let Some((t, l)) = self.taint(v, path, &mut obj) {
                self.out.taint_lists.push(TaintList {
                    taints: vec![t],
                    locations: vec![l],
                    location,
                    form: self.form,
                });
            }
            return;
        }
        let keys: Vec<&str> = entries.iter().take(5).map(|e| e.key.as_str()).collect();
        let loc = self.loc(v.pos, path);
        self.push(Diagnostic::warning(
            Code::Unrecognized,
            loc,
            format!(
                "this object has no kind and no taints or tolerations (keys: {}); expected a Kubernetes object (with kind), a taints: or tolerations: list, or a single taint or toleration",
                keys.join(", ")
            ),
        ));
    }

    /// Whether a bare `{key, ...}` object is a toleration (operator or seconds, or no
    /// effect) rather than a taint (timeAdded, or an effect and nothing else to tell).
    fn is_toleration(&self, v: &Value) -> bool {
        let has = |k: &str| v.get(k).is_some();
        if has("operator") || has("tolerationSeconds") {
            return true;
        }
        if has("timeAdded") {
            return false;
        }
        let effect_set =
            matches!(v.get("effect").map(|e| &e.value.kind), Some(Kind::Str(s)) if !s.is_empty());
        if !effect_set {
            return true;
        }
        self.prefer == Prefer::Tolerations
    }

    fn bare_seq(&mut self, v: &Value, items: &[Value], path: &str) {
        // Objects with a kind are read one by one; strings are taint specs; the rest
        // is one list of taints or tolerations.
        let mut plain: Vec<(usize, &Value)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let p = index(path, i);
            match &item.kind {
                Kind::Map(_) if item.get("kind").is_some() => self.object(item, &p),
                Kind::Map(_) => plain.push((i, item)),
                Kind::Str(s) => self.spec_text(s, item.pos, &p),
                Kind::Null(_) => {}
                _ => {
                    let loc = self.loc(item.pos, &p);
                    self.push(Diagnostic::warning(
                        Code::Unrecognized,
                        loc,
                        format!("a list item here should be a taint, a toleration or an object, found {}", describe(item)),
                    ));
                }
            }
        }
        if plain.is_empty() {
            return;
        }
        let tolerations = plain.iter().any(|(_, it)| it.get("operator").is_some() || it.get("tolerationSeconds").is_some())
            || (!plain.iter().any(|(_, it)| it.get("timeAdded").is_some())
                && (self.prefer == Prefer::Tolerations
                    || plain.iter().any(|(_, it)| !matches!(it.get("effect").map(|e| &e.value.kind), Some(Kind::Str(s)) if !s.is_empty()))));
        let mut obj = Obj::bare();
        let location = self.loc(v.pos, path);
        if tolerations {
            let mut list = TolerationList {
                tolerations: vec![],
                locations: vec![],
                location,
                form: self.form,
            };
            for (i, it) in plain {
                if let Some((t, l)) = self.toleration(it, &index(path, i), &mut obj) {
                    list.tolerations.push(t);
                    list.locations.push(l);
                }
            }
            self.out.toleration_lists.push(list);
        } else {
            let mut list = TaintList {
                taints: vec![],
                locations: vec![],
                location,
                form: self.form,
            };
            for (i, it) in plain {
                if let Some((t, l)) = self.taint(it, &index(path, i), &mut obj) {
                    list.taints.push(t);
                    list.locations.push(l);
                }
            }
            self.out.taint_lists.push(list);
        }
    }
}

/// What a value is, in plain words, mentioning YAML 1.1 resolution when it explains
/// the surprise.
fn describe(v: &Value) -> String {
    match &v.kind {
        Kind::Str(s) => format!("\"{s}\" is a string"),
        Kind::Null(_) => "it is null".into(),
        Kind::Bool(b, src) if src.as_ref() != "true" && src.as_ref() != "false" => {
            format!("`{src}` is read as the boolean {b} (YAML 1.1, which kubectl uses)")
        }
        Kind::Bool(b, _) => format!("{b} is a boolean"),
        Kind::Num(n) if n.source != n.json && !n.json.is_empty() => {
            format!(
                "`{}` is read as the number {} (YAML 1.1, which kubectl uses)",
                n.source, n.json
            )
        }
        Kind::Num(n) => format!("{} is a number", n.source),
        Kind::Seq(_) | Kind::Pruned(Shape::Seq) => "it is a list".into(),
        Kind::Map(_) | Kind::Pruned(Shape::Map) => "it is an object".into(),
        Kind::Pruned(Shape::Scalar) => "it is a value of another type".into(),
    }
}

fn source_text(v: &Value) -> String {
    match &v.kind {
        Kind::Bool(_, s) | Kind::Null(s) => s.to_string(),
        Kind::Num(n) => n.source.clone(),
        Kind::Str(s) => s.clone(),
        _ => String::new(),
    }
}

/// What an ignored toleration or taint field means for the semantics.
fn consequence(what: &str, meant: Option<&str>) -> Option<&'static str> {
    Some(match (what, meant?) {
        ("a toleration", "effect") => "the toleration has no effect, so it matches every effect",
        ("a toleration", "tolerationSeconds") => {
            "the toleration has no tolerationSeconds, so on a NoExecute taint the pod stays forever"
        }
        ("a toleration", "operator") => "the operator stays empty, which means Equal",
        ("a toleration", "key") => "the key stays empty, which (with Exists) matches every taint",
        ("a toleration", "value") => "the value stays empty",
        ("a taint", "effect") => "the taint has no effect, which the API server rejects",
        ("a taint", "key") => "the taint has no key, which the API server rejects",
        ("a taint", "value") => "the value stays empty",
        ("a taint", "timeAdded") => "timeAdded stays unset",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_paths() {
        assert_eq!(
            go_path("items[3].spec.tolerations[0].value", "items[3]"),
            "spec.tolerations.value"
        );
        assert_eq!(
            go_path("spec.template.spec.tolerations[2].key", ""),
            "spec.template.spec.tolerations.key"
        );
        assert_eq!(last_segment("spec.tolerations[0].value"), "value");
        assert_eq!(last_segment("spec.tolerations[0]"), "tolerations");
    }
}
