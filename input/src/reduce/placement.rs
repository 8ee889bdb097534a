//! The pod spec fields the scheduler's filters read beyond tolerations, into
//! [`taintlab_core::model::PodPlacement`]: `nodeSelector`, `affinity.nodeAffinity`,
//! container ports with host ports, `schedulingGates`, `schedulerName`, container and
//! init-container resources, `overhead`, pod-level `resources`, and the status fields of
//! bound pods (`phase`, `startTime`).
//!
//! Fields that change where a pod lands but are not modelled (inter-pod affinity,
//! topology spread, resource claims, volumes bound through PersistentVolumeClaims, a
//! scheduler other than the default one) each get one [`Code::NotModelled`] warning
//! naming the field.
//!
//! Upstream: `k8s.io/api/core/v1/types.go` (the field names and types),
//! `pkg/apis/core/validation/validation.go` (`ValidateNodeSelectorRequirement`,
//! `validateNodeFieldSelectorRequirement`, `validatePreferredSchedulingTerms`), and
//! `pkg/apis/core/v1/defaults.go` (`SetDefaults_PodSpec`: with `hostNetwork` a port's
//! missing `hostPort` takes its `containerPort`; from 1.28 only in Pods, not in pod
//! templates (gate `DefaultHostNetworkHostPortsInPodTemplates`), but the pods a
//! template creates get it, and those are what the scheduler sees).

use taintlab_core::model::{
    Affinity, HostPort, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
    PreferredSchedulingTerm,
};
use taintlab_core::resource::{self as res, ResourceList, ResourceRequirements};

use super::*;

/// The operators of `NodeSelectorRequirement`.
const SELECTOR_OPERATORS: [&str; 6] = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];
const AFFINITY_FIELDS: [&str; 3] = ["nodeAffinity", "podAffinity", "podAntiAffinity"];
const NODE_AFFINITY_FIELDS: [&str; 2] = [
    "requiredDuringSchedulingIgnoredDuringExecution",
    "preferredDuringSchedulingIgnoredDuringExecution",
];
const TERM_FIELDS: [&str; 2] = ["matchExpressions", "matchFields"];
const REQUIREMENT_FIELDS: [&str; 3] = ["key", "operator", "values"];
const PORT_FIELDS: [&str; 5] = ["name", "hostPort", "containerPort", "protocol", "hostIP"];
const PROTOCOLS: [&str; 3] = ["TCP", "UDP", "SCTP"];

/// A container port as written, before `hostNetwork` defaulting.
pub(super) struct RawPort {
    container_port: i32,
    host_port: i32,
    protocol: String,
    host_ip: String,
    sidecar: bool,
}

/// Parses quantity strings already checked (by `str_map`, or by the describe reader).
pub(super) fn to_list(m: &BTreeMap<String, String>) -> ResourceList {
    let mut list = ResourceList::new();
    for (k, v) in m {
        if let Some(q) = Quantity::parse(v) {
            list.insert(k.clone(), q);
        }
    }
    list
}

/// The host ports the scheduler sees once the API server has defaulted the pod: with
/// `hostNetwork`, a port without `hostPort` gets its `containerPort`. Ports that hold
/// no host port (0) are left out.
pub(super) fn host_ports(ports: &[RawPort], host_network: bool) -> Vec<HostPort> {
    let mut out = Vec::new();
    for p in ports {
        let host_port = if host_network && p.host_port == 0 {
            p.container_port
        } else {
            p.host_port
        };
        if host_port != 0 {
            out.push(HostPort {
                host_port,
                protocol: p.protocol.clone(),
                host_ip: p.host_ip.clone(),
                sidecar: p.sidecar,
            });
        }
    }
    out
}

impl Reducer<'_> {
    /// A warning that a field is not modelled and the real answer may differ.
    pub(super) fn not_modelled(&mut self, pos: Pos, path: &str, msg: String) {
        self.warn(Code::NotModelled, pos, path, msg);
    }

    /// `resources.requests` / `limits` of a container or the pod (quantities).
    pub(super) fn requirements(
        &mut self,
        r: &Value,
        rp: &str,
        obj: &mut Obj,
    ) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
        let mut requests = BTreeMap::new();
        let mut limits = BTreeMap::new();
        match &r.kind {
            Kind::Map(_) => {
                if let Some(q) = r.get("requests") {
                    requests = self.str_map(
                        &q.value,
                        &join(rp, "requests"),
                        "ResourceRequirements",
                        true,
                        obj,
                    );
                }
                if let Some(q) = r.get("limits") {
                    limits = self.str_map(
                        &q.value,
                        &join(rp, "limits"),
                        "ResourceRequirements",
                        true,
                        obj,
                    );
                }
            }
            Kind::Null(_) => {}
            _ => self.type_error(
                r,
                rp,
                "Container",
                Want::Object("v1.ResourceRequirements"),
                obj,
            ),
        }
        (requests, limits)
    }

    /// `ports` of a container: type-checked, collected for host ports.
    pub(super) fn container_ports(
        &mut self,
        v: &Value,
        path: &str,
        sidecar: bool,
        out: &mut Vec<RawPort>,
        obj: &mut Obj,
    ) {
        let items = self.list(v, path, "Container", "[]v1.ContainerPort", obj);
        for (i, item) in items.iter().enumerate() {
            let ip = index(path, i);
            if !matches!(item.kind, Kind::Map(_)) {
                if !matches!(item.kind, Kind::Null(_)) {
                    self.type_error(
                        item,
                        &ip,
                        "Container",
                        Want::Object("v1.ContainerPort"),
                        obj,
                    );
                }
                continue;
            }
            let int = |r: &mut Self, key: &str, obj: &mut Obj| -> i32 {
                item.get(key)
                    .and_then(|e| {
                        r.get_int(&e.value, &join(&ip, key), "ContainerPort", Want::Int32, obj)
                    })
                    .and_then(|x| i32::try_from(x).ok())
                    .unwrap_or(0)
            };
            let container_port = int(self, "containerPort", obj);
            let host_port = int(self, "hostPort", obj);
            let protocol = self.opt_str(item, "protocol", &ip, "ContainerPort", obj);
            let host_ip = self.opt_str(item, "hostIP", &ip, "ContainerPort", obj);
            if !protocol.is_empty()
                && !PROTOCOLS.contains(&protocol.as_str())
                && let Some(e) = item.get("protocol")
            {
                let mut msg = format!("protocol \"{protocol}\" is not one of TCP, UDP, SCTP");
                crate::did_you_mean(&mut msg, &protocol, &PROTOCOLS);
                msg.push_str(" The API server rejects it: Unsupported value");
                self.error(Code::InvalidValue, e.value.pos, &join(&ip, "protocol"), msg);
            }
            self.unknown_fields(item, &ip, &PORT_FIELDS, "a container port", obj);
            out.push(RawPort {
                container_port,
                host_port,
                protocol,
                host_ip,
                sidecar,
            });
        }
    }

    /// `spec.affinity`: node affinity read, pod (anti-)affinity reported.
    pub(super) fn affinity(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Option<Affinity> {
        match &v.kind {
            Kind::Map(entries) => {
                let mut a = Affinity::default();
                for e in entries {
                    let p = join(path, &e.key);
                    match e.key.as_str() {
                        "nodeAffinity" => a.node_affinity = self.node_affinity(&e.value, &p, obj),
                        "podAffinity" | "podAntiAffinity" if !value_is_empty(&e.value) => {
                            let what = if e.key == "podAffinity" {
                                "inter-pod affinity (InterPodAffinity): the pod needs nodes that already run the pods its terms select"
                            } else {
                                "inter-pod anti-affinity (InterPodAffinity): the pod avoids nodes that run the pods its terms select"
                            };
                            self.not_modelled(
                                e.key_pos,
                                &p,
                                format!(
                                    "{p} is not modelled: Taintlab does not check {what}, so the real scheduler may reject or prefer nodes differently from what is shown here"
                                ),
                            );
                        }
                        _ => {}
                    }
                }
                self.unknown_fields(v, path, &AFFINITY_FIELDS, "an affinity", obj);
                Some(a)
            }
            Kind::Null(_) => None,
            _ => {
                self.type_error(v, path, "PodSpec", Want::Object("v1.Affinity"), obj);
                None
            }
        }
    }

    fn node_affinity(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Option<NodeAffinity> {
        match &v.kind {
            Kind::Map(_) => {}
            Kind::Null(_) => return None,
            _ => {
                self.type_error(v, path, "Affinity", Want::Object("v1.NodeAffinity"), obj);
                return None;
            }
        }
        let mut na = NodeAffinity::default();
        if let Some(e) = v.get("requiredDuringSchedulingIgnoredDuringExecution") {
            let p = join(path, &e.key);
            match &e.value.kind {
                Kind::Map(_) => {
                    let mut sel = NodeSelector::default();
                    match e.value.get("nodeSelectorTerms") {
                        Some(t) => {
                            let tp = join(&p, "nodeSelectorTerms");
                            let items = self.list(
                                &t.value,
                                &tp,
                                "NodeSelector",
                                "[]v1.NodeSelectorTerm",
                                obj,
                            );
                            for (i, item) in items.iter().enumerate() {
                                let ip = index(&tp, i);
                                if let Some(term) = self.selector_term(item, &ip, obj) {
                                    sel.node_selector_terms.push(term);
                                }
                            }
                            if items.is_empty() {
                                self.error(
                                    Code::MissingField,
                                    t.value.pos,
                                    &tp,
                                    format!("{tp} is empty: the API server rejects it (Required value: must have at least one node selector term); a required node affinity without terms matches no node"),
                                );
                            }
                        }
                        None => {
                            self.error(
                                Code::MissingField,
                                e.value.pos,
                                &p,
                                format!("{p} has no nodeSelectorTerms: the API server rejects it (Required value: must have at least one node selector term)"),
                            );
                        }
                    }
                    self.unknown_fields(
                        &e.value,
                        &p,
                        &["nodeSelectorTerms"],
                        "a node selector",
                        obj,
                    );
                    na.required_during_scheduling_ignored_during_execution = Some(sel);
                }
                Kind::Null(_) => {}
                _ => self.type_error(
                    &e.value,
                    &p,
                    "NodeAffinity",
                    Want::Object("v1.NodeSelector"),
                    obj,
                ),
            }
        }
        if let Some(e) = v.get("preferredDuringSchedulingIgnoredDuringExecution") {
            let p = join(path, &e.key);
            let items = self.list(
                &e.value,
                &p,
                "NodeAffinity",
                "[]v1.PreferredSchedulingTerm",
                obj,
            );
            for (i, item) in items.iter().enumerate() {
                let ip = index(&p, i);
                if !matches!(item.kind, Kind::Map(_)) {
                    self.type_error(
                        item,
                        &ip,
                        "NodeAffinity",
                        Want::Object("v1.PreferredSchedulingTerm"),
                        obj,
                    );
                    continue;
                }
                let weight = match item.get("weight") {
                    Some(w) => {
                        let wp = join(&ip, "weight");
                        let x = self
                            .get_int(&w.value, &wp, "PreferredSchedulingTerm", Want::Int32, obj)
                            .and_then(|x| i32::try_from(x).ok())
                            .unwrap_or(0);
                        if !(1..=100).contains(&x) && !obj.failed {
                            self.error(
                                Code::InvalidValue,
                                w.value.pos,
                                &wp,
                                format!("weight {x} is outside 1..100: the API server rejects it (Invalid value: must be in the range 1-100)"),
                            );
                        }
                        x
                    }
                    None => {
                        self.error(
                            Code::MissingField,
                            item.pos,
                            &ip,
                            format!("{ip} has no weight: the API server rejects it (Invalid value: 0: must be in the range 1-100)"),
                        );
                        0
                    }
                };
                let preference = match item.get("preference") {
                    Some(t) => self
                        .selector_term(&t.value, &join(&ip, "preference"), obj)
                        .unwrap_or_default(),
                    None => NodeSelectorTerm::default(),
                };
                self.unknown_fields(
                    item,
                    &ip,
                    &["weight", "preference"],
                    "a preferred scheduling term",
                    obj,
                );
                na.preferred_during_scheduling_ignored_during_execution
                    .push(PreferredSchedulingTerm { weight, preference });
            }
        }
        self.unknown_fields(v, path, &NODE_AFFINITY_FIELDS, "a node affinity", obj);
        Some(na)
    }

    fn selector_term(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Option<NodeSelectorTerm> {
        match &v.kind {
            Kind::Map(_) => {}
            Kind::Null(_) => return Some(NodeSelectorTerm::default()),
            _ => {
                self.type_error(
                    v,
                    path,
                    "NodeSelector",
                    Want::Object("v1.NodeSelectorTerm"),
                    obj,
                );
                return None;
            }
        }
        let mut term = NodeSelectorTerm::default();
        for (field, fields) in [("matchExpressions", false), ("matchFields", true)] {
            let Some(e) = v.get(field) else { continue };
            let p = join(path, field);
            let items = self.list(
                &e.value,
                &p,
                "NodeSelectorTerm",
                "[]v1.NodeSelectorRequirement",
                obj,
            );
            for (i, item) in items.iter().enumerate() {
                if let Some(r) = self.requirement(item, &index(&p, i), fields, obj) {
                    if fields {
                        term.match_fields.push(r);
                    } else {
                        term.match_expressions.push(r);
                    }
                }
            }
        }
        self.unknown_fields(v, path, &TERM_FIELDS, "a node selector term", obj);
        Some(term)
    }

    /// One `NodeSelectorRequirement`, with the API server's validation: a known
    /// operator; values for `In`/`NotIn`, none for `Exists`/`DoesNotExist`, one integer
    /// for `Gt`/`Lt`; `matchFields` only on `metadata.name` with `In`/`NotIn` and one
    /// value. Invalid requirements are kept (the scheduler never sees them, the
    /// semantics can show what they would do).
    fn requirement(
        &mut self,
        v: &Value,
        path: &str,
        field: bool,
        obj: &mut Obj,
    ) -> Option<NodeSelectorRequirement> {
        if !matches!(v.kind, Kind::Map(_)) {
            self.type_error(
                v,
                path,
                "NodeSelectorTerm",
                Want::Object("v1.NodeSelectorRequirement"),
                obj,
            );
            return None;
        }
        let key = self.opt_str(v, "key", path, "NodeSelectorRequirement", obj);
        let operator = self.opt_str(v, "operator", path, "NodeSelectorRequirement", obj);
        let values = self.requirement_values(v, path, "NodeSelectorRequirement", obj);
        self.unknown_fields(
            v,
            path,
            &REQUIREMENT_FIELDS,
            "a node selector requirement",
            obj,
        );
        if obj.failed {
            return None;
        }
        let at = |r: &Self, key: &str| {
            let (pos, p) = match v.get(key) {
                Some(e) => (e.value.pos, join(path, key)),
                None => (v.pos, path.to_string()),
            };
            r.loc(pos, &p)
        };
        let mut problem: Option<(Location, String)> = None;
        if key.is_empty() {
            problem = Some((
                at(self, "key"),
                format!("{path} has no key: the API server rejects it (Required value)"),
            ));
        } else if field && key != "metadata.name" {
            problem = Some((
                at(self, "key"),
                format!(
                    "matchFields key \"{key}\" is not supported: only metadata.name is; the API server rejects it (Invalid value: not a valid field selector key)"
                ),
            ));
        }
        let allowed: &[&str] = if field {
            &["In", "NotIn"]
        } else {
            &SELECTOR_OPERATORS
        };
        if problem.is_none() && !allowed.contains(&operator.as_str()) {
            let mut msg = if operator.is_empty() {
                format!("{path} has no operator")
            } else {
                format!(
                    "operator \"{operator}\" is not one of {}",
                    allowed.join(", ")
                )
            };
            if !operator.is_empty() {
                crate::did_you_mean(&mut msg, &operator, allowed);
            }
            msg.push_str(" The API server rejects it (Unsupported value); the scheduler cannot parse such a term, so it matches no node");
            problem = Some((at(self, "operator"), msg));
        }
        if problem.is_none() {
            let count_ok = match operator.as_str() {
                _ if field => values.len() == 1,
                "In" | "NotIn" => !values.is_empty(),
                "Exists" | "DoesNotExist" => values.is_empty(),
                _ => values.len() == 1,
            };
            let want = match operator.as_str() {
                _ if field => "exactly one value",
                "In" | "NotIn" => "at least one value",
                "Exists" | "DoesNotExist" => "no values",
                _ => "exactly one value, a whole number",
            };
            if !count_ok {
                problem = Some((
                    at(self, "values"),
                    format!(
                        "operator {operator} takes {want}, found {}; the API server rejects it",
                        values.len()
                    ),
                ));
            } else if matches!(operator.as_str(), "Gt" | "Lt")
                && !field
                && values[0].parse::<i64>().is_err()
            {
                problem = Some((
                    at(self, "values"),
                    format!(
                        "operator {operator} takes a whole number, found \"{}\"; the API server rejects it (Invalid value: must be an integer)",
                        values[0]
                    ),
                ));
            }
        }
        if let Some((loc, msg)) = problem {
            self.push(Diagnostic::error(Code::InvalidValue, loc, msg));
        }
        Some(NodeSelectorRequirement {
            key,
            operator,
            values,
        })
    }

    /// `spec.schedulingGates[].name`.
    pub(super) fn scheduling_gates(&mut self, v: &Value, path: &str, obj: &mut Obj) -> Vec<String> {
        let mut out = Vec::new();
        let items = self.list(v, path, "PodSpec", "[]v1.PodSchedulingGate", obj);
        for (i, item) in items.iter().enumerate() {
            let ip = index(path, i);
            if !matches!(item.kind, Kind::Map(_)) {
                self.type_error(
                    item,
                    &ip,
                    "PodSpec",
                    Want::Object("v1.PodSchedulingGate"),
                    obj,
                );
                continue;
            }
            let name = self.opt_str(item, "name", &ip, "PodSchedulingGate", obj);
            self.unknown_fields(item, &ip, &["name"], "a scheduling gate", obj);
            out.push(name);
        }
        out
    }

    /// Pod-level `spec.resources`.
    pub(super) fn pod_resources(
        &mut self,
        v: &Value,
        path: &str,
        obj: &mut Obj,
    ) -> Option<ResourceRequirements> {
        if matches!(v.kind, Kind::Null(_)) {
            return None;
        }
        let (requests, limits) = self.requirements(v, path, obj);
        Some(ResourceRequirements {
            requests: to_list(&requests),
            limits: to_list(&limits),
        })
    }

    /// Volumes that claim a PersistentVolumeClaim (directly or as an ephemeral
    /// volume): one warning, the PersistentVolume's node affinity is not modelled.
    pub(super) fn volumes(&mut self, v: &Value, path: &str) {
        let Kind::Seq(items) = &v.kind else { return };
        let mut claims = Vec::new();
        let mut first = None;
        for (i, item) in items.iter().enumerate() {
            for key in ["persistentVolumeClaim", "ephemeral"] {
                let Some(e) = item.get(key) else { continue };
                if matches!(e.value.kind, Kind::Null(_)) {
                    continue;
                }
                let name = match (key, e.value.get("claimName").map(|c| &c.value.kind)) {
                    (_, Some(Kind::Str(c))) => format!("claim {c}"),
                    ("ephemeral", _) => {
                        let vol = match item.get("name").map(|n| &n.value.kind) {
                            Some(Kind::Str(n)) => n.clone(),
                            _ => format!("#{i}"),
                        };
                        format!("ephemeral volume {vol}")
                    }
                    _ => "a claim".to_string(),
                };
                claims.push(name);
                first.get_or_insert((e.key_pos, join(&index(path, i), key)));
            }
        }
        if let Some((pos, p)) = first {
            self.not_modelled(
                pos,
                &p,
                format!(
                    "{path} uses PersistentVolumeClaims ({}): the volumes' node affinity and binding (VolumeBinding, VolumeZone, volume limits) are not modelled, so the real scheduler may reject nodes shown here as fitting",
                    claims.join(", ")
                ),
            );
        }
    }

    /// Resource lists of `status.allocatable` / `capacity`: bad quantities are
    /// reported and left out, the rest kept.
    pub(super) fn node_resources(&mut self, v: &Value, path: &str) -> Option<ResourceList> {
        let mut out = ResourceList::new();
        match &v.kind {
            Kind::Map(entries) => {
                for e in entries {
                    let p = join(path, &e.key);
                    let text = match &e.value.kind {
                        Kind::Str(s) => s.clone(),
                        Kind::Num(n) if !n.json.is_empty() => n.json.clone(),
                        _ => {
                            self.error(
                                Code::WrongType,
                                e.value.pos,
                                &p,
                                format!(
                                    "{p} must be a quantity such as 500m or 1Gi, but {}; left out",
                                    describe(&e.value)
                                ),
                            );
                            continue;
                        }
                    };
                    match Quantity::parse(&text) {
                        Some(q) => {
                            out.insert(e.key.clone(), q);
                        }
                        None => {
                            self.error(
                                Code::InvalidValue,
                                e.value.pos,
                                &p,
                                format!("\"{text}\" is not a resource quantity (such as 500m, 2, 1.5Gi): {QUANTITY_FORMAT}; left out"),
                            );
                        }
                    }
                }
                Some(out)
            }
            Kind::Null(_) => None,
            _ => {
                self.error(
                    Code::WrongType,
                    v.pos,
                    path,
                    format!(
                        "{path} must be an object of resource quantities, but {}; not read",
                        describe(v)
                    ),
                );
                None
            }
        }
    }
}

/// Null, an empty object or an empty list.
pub(super) fn value_is_empty(v: &Value) -> bool {
    match &v.kind {
        Kind::Null(_) => true,
        Kind::Map(e) => e.is_empty(),
        Kind::Seq(s) => s.is_empty(),
        _ => false,
    }
}

/// A core container from the strings the input model keeps.
pub(crate) fn core_container(
    c: &ContainerResources,
    restart_policy: String,
) -> res::ContainerResources {
    res::ContainerResources {
        name: c.name.clone(),
        resources: ResourceRequirements {
            requests: to_list(&c.requests),
            limits: to_list(&c.limits),
        },
        restart_policy,
    }
}

#[cfg(test)]
mod tests {
    use crate::{Code, Severity, parse};
    use taintlab_core::Quantity;

    const POD_YAML: &str = r#"apiVersion: v1
kind: Pod
metadata: {name: api, namespace: pay}
spec:
  schedulerName: default-scheduler
  priority: 1000
  nodeSelector: {dedicated: payments, disk: ssd}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: zone, operator: In, values: [a, b]}
          - {key: gen, operator: Gt, values: ["3"]}
        - matchFields:
          - {key: metadata.name, operator: In, values: [n1]}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 20
        preference:
          matchExpressions:
          - {key: spot, operator: DoesNotExist}
  schedulingGates: [{name: wait}]
  overhead: {cpu: 250m}
  resources: {requests: {memory: 1Gi}}
  initContainers:
  - name: proxy
    restartPolicy: Always
    ports: [{containerPort: 15001, hostPort: 15001}]
    resources: {requests: {cpu: 100m}}
  - name: migrate
    ports: [{containerPort: 1, hostPort: 1}]
  containers:
  - name: app
    image: app:1
    ports:
    - {containerPort: 8080, hostPort: 80, protocol: UDP, hostIP: 10.0.0.1}
    - {containerPort: 9090}
    resources:
      requests: {cpu: "1", memory: 2Gi}
      limits: {cpu: 2}
status:
  phase: Running
  startTime: "2024-05-01T10:00:00Z"
"#;

    const POD_JSON: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"api","namespace":"pay"},
"spec":{"schedulerName":"default-scheduler","priority":1000,"nodeSelector":{"dedicated":"payments","disk":"ssd"},
"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
 {"matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]},{"key":"gen","operator":"Gt","values":["3"]}]},
 {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]},
 "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":20,"preference":{"matchExpressions":[{"key":"spot","operator":"DoesNotExist"}]}}]}},
"schedulingGates":[{"name":"wait"}],"overhead":{"cpu":"250m"},"resources":{"requests":{"memory":"1Gi"}},
"initContainers":[{"name":"proxy","restartPolicy":"Always","ports":[{"containerPort":15001,"hostPort":15001}],"resources":{"requests":{"cpu":"100m"}}},
 {"name":"migrate","ports":[{"containerPort":1,"hostPort":1}]}],
"containers":[{"name":"app","image":"app:1","ports":[{"containerPort":8080,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"},{"containerPort":9090}],
 "resources":{"requests":{"cpu":"1","memory":"2Gi"},"limits":{"cpu":2}}}]},
"status":{"phase":"Running","startTime":"2024-05-01T10:00:00Z"}}"#;

    #[test]
    fn yaml_and_json_give_the_same_placement() {
        let y = parse(POD_YAML);
        let j = parse(POD_JSON);
        assert_eq!(y.diagnostics, vec![], "{:?}", y.diagnostics);
        assert_eq!(j.diagnostics, vec![], "{:?}", j.diagnostics);
        let p = &y.workloads[0].placement;
        assert_eq!(p, &j.workloads[0].placement);
        assert_eq!(p.node_selector["dedicated"], "payments");
        let req = p.required_node_affinity().unwrap();
        assert_eq!(req.node_selector_terms.len(), 2);
        assert_eq!(
            req.node_selector_terms[0].match_expressions[1].operator,
            "Gt"
        );
        assert_eq!(req.node_selector_terms[1].match_fields[0].values, ["n1"]);
        assert_eq!(p.preferred_node_affinity()[0].weight, 20);
        assert_eq!(p.scheduling_gates, ["wait"]);
        assert_eq!(p.scheduler_name, "default-scheduler");
        assert_eq!(p.priority, 1000);
        assert_eq!(y.workloads[0].priority, Some(1000));
        // The sidecar's port counts (as a sidecar), the classic init container's not.
        assert_eq!(p.host_ports.len(), 2, "{:?}", p.host_ports);
        assert!(p.host_ports[0].sidecar && p.host_ports[0].host_port == 15001);
        assert_eq!(p.host_ports[1].host_port, 80);
        assert_eq!(p.host_ports[1].protocol, "UDP");
        assert_eq!(p.host_ports[1].host_ip, "10.0.0.1");
        assert_eq!(
            p.containers[0].resources.requests["cpu"],
            Quantity::parse("1").unwrap()
        );
        assert_eq!(
            p.containers[0].resources.limits["cpu"],
            Quantity::parse("2").unwrap()
        );
        assert_eq!(p.init_containers[0].restart_policy, "Always");
        assert!(p.init_containers[0].is_restartable());
        assert!(!p.init_containers[1].is_restartable());
        assert_eq!(p.overhead["cpu"], Quantity::parse("250m").unwrap());
        assert_eq!(
            p.resources.as_ref().unwrap().requests["memory"],
            Quantity::parse("1Gi").unwrap()
        );
        assert_eq!(p.phase, "Running");
        assert_eq!(p.start_time, "2024-05-01T10:00:00Z");
        // The string form is still there for the QoS and admission code.
        assert_eq!(y.workloads[0].containers[0].requests["memory"], "2Gi");
        assert_eq!(y.workloads[0].init_containers.len(), 2);
    }

    #[test]
    fn every_pod_template_kind_carries_placement() {
        for (kind, api, wrap) in [
            ("Deployment", "apps/v1", "spec:\n  template:\n"),
            ("StatefulSet", "apps/v1", "spec:\n  template:\n"),
            ("DaemonSet", "apps/v1", "spec:\n  template:\n"),
            ("ReplicaSet", "apps/v1", "spec:\n  template:\n"),
            ("ReplicationController", "v1", "spec:\n  template:\n"),
            ("Job", "batch/v1", "spec:\n  template:\n"),
            ("PodTemplate", "v1", "template:\n"),
        ] {
            let indent = if kind == "PodTemplate" { "  " } else { "    " };
            let body = format!(
                "{indent}spec:\n{indent}  nodeSelector: {{pool: gpu}}\n{indent}  containers:\n{indent}  - name: c\n{indent}    ports: [{{containerPort: 53, hostPort: 53, protocol: UDP}}]\n"
            );
            let text =
                format!("apiVersion: {api}\nkind: {kind}\nmetadata: {{name: x}}\n{wrap}{body}");
            let p = parse(&text);
            assert_eq!(p.errors().count(), 0, "{kind}: {:?}", p.diagnostics);
            let w = &p.workloads[0];
            assert_eq!(w.placement.node_selector["pool"], "gpu", "{kind}");
            assert_eq!(w.placement.host_ports[0].host_port, 53, "{kind}");
        }
        let cron = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          affinity:\n            nodeAffinity:\n              requiredDuringSchedulingIgnoredDuringExecution:\n                nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists}]}]\n          containers: [{name: c}]\n";
        let p = parse(cron);
        assert_eq!(p.errors().count(), 0, "{:?}", p.diagnostics);
        assert!(p.workloads[0].placement.required_node_affinity().is_some());
    }

    #[test]
    fn host_network_defaults_host_ports_to_container_ports() {
        let p = parse(
            "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    ports: [{containerPort: 9100}]\n  hostNetwork: true\n",
        );
        assert_eq!(p.workloads[0].placement.host_ports[0].host_port, 9100);
        let p = parse(
            "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    ports: [{containerPort: 9100}]\n",
        );
        assert!(p.workloads[0].placement.host_ports.is_empty());
    }

    #[test]
    fn bad_operators_weights_and_quantities_are_located() {
        let text = r#"apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: zone, operator: Inn, values: [a]}
          - {key: gen, operator: Gt, values: [x]}
          - {key: a, operator: Exists, values: [x]}
        - matchFields:
          - {key: metadata.labels, operator: In, values: [node1]}
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 0, preference: {}}
  containers:
  - name: c
    ports: [{containerPort: 1, hostPort: 1, protocol: tcp}]
"#;
        let p = parse(text);
        let errs: Vec<_> = p.errors().collect();
        let at = |path: &str| {
            errs.iter()
                .find(|d| d.location.path == path)
                .unwrap_or_else(|| panic!("no error at {path}: {errs:?}"))
        };
        let d = at(
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator",
        );
        assert_eq!(d.code, Code::InvalidValue);
        assert!(d.message.contains("did you mean \"In\""), "{}", d.message);
        assert_eq!((d.location.line, d.location.column), (10, 35));
        assert!(at("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values").message.contains("whole number"));
        assert!(at("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values").message.contains("no values"));
        assert!(at("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[0].key").message.contains("metadata.name"));
        assert!(at("spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight").message.contains("1..100"));
        assert!(
            at("spec.containers[0].ports[0].protocol")
                .message
                .contains("did you mean \"TCP\"")
        );
        // Validation errors keep the pod, as with effects and operators of tolerations.
        assert_eq!(p.workloads.len(), 1);
        assert_eq!(
            p.workloads[0]
                .placement
                .required_node_affinity()
                .unwrap()
                .node_selector_terms[0]
                .match_expressions[0]
                .operator,
            "Inn"
        );

        let p = parse(
            "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  overhead: {cpu: lots}\n  containers: []\n",
        );
        let d = p.errors().next().unwrap();
        assert_eq!(d.location.path, "spec.overhead.cpu");
        assert_eq!(d.code, Code::InvalidValue);
    }

    #[test]
    fn wrong_shapes_are_type_errors_not_panics() {
        for spec in [
            "nodeSelector: [a]",
            "affinity: [a]",
            "affinity: {nodeAffinity: 3}",
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: 1}}}",
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [1]}}}",
            "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: In, values: a}]}]}}}",
            "affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: {weight: 1}}}",
            "affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: \"1\"}]}}",
            "schedulingGates: [wait]",
            "schedulerName: 3",
            "resources: [1]",
            "containers: [{name: c, ports: {containerPort: 1}}]",
            "containers: [{name: c, ports: [{hostPort: \"80\"}]}]",
            "containers: [{name: c, resources: [1]}]",
        ] {
            let text =
                format!("kind: Pod\napiVersion: v1\nmetadata: {{name: p}}\nspec:\n  {spec}\n");
            let p = parse(&text);
            let d = p
                .errors()
                .next()
                .unwrap_or_else(|| panic!("no error for {spec}: {:?}", p.diagnostics));
            assert_eq!(d.code, Code::WrongType, "{spec}: {d}");
            assert!(d.location.path.starts_with("spec."), "{spec}: {d}");
            assert!(d.location.line >= 5, "{spec}: {d}");
            assert!(p.workloads.is_empty(), "{spec}");
        }
    }

    #[test]
    fn unmodelled_fields_get_one_warning_each() {
        let text = r#"apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      schedulerName: my-scheduler
      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, labelSelector: {}}]
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, podAffinityTerm: {topologyKey: h}}]
      topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]
      resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
      volumes:
      - {name: data, persistentVolumeClaim: {claimName: pg}}
      - {name: cfg, configMap: {name: c}}
      - {name: scratch, ephemeral: {volumeClaimTemplate: {spec: {}}}}
      containers: [{name: c}]
"#;
        let p = parse(text);
        let w: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::NotModelled)
            .collect();
        assert!(w.iter().all(|d| d.severity == Severity::Warning));
        let paths: Vec<&str> = w.iter().map(|d| d.location.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "spec.template.spec.schedulerName",
                "spec.template.spec.affinity.podAffinity",
                "spec.template.spec.affinity.podAntiAffinity",
                "spec.template.spec.topologySpreadConstraints",
                "spec.template.spec.resourceClaims",
                "spec.template.spec.volumes[0].persistentVolumeClaim",
            ]
        );
        assert!(
            w.iter()
                .all(|d| d.message.contains("may differ") || d.message.contains("may reject"))
        );
        assert!(w[0].message.contains("my-scheduler"));
        assert!(
            w[5].message.contains("claim pg") && w[5].message.contains("ephemeral volume scratch")
        );
        assert_eq!(w[1].location.line, 9);
        assert_eq!(p.workloads[0].placement.scheduler_name, "my-scheduler");
        // Empty lists and the default scheduler say nothing.
        let p = parse(
            "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec:\n  schedulerName: default-scheduler\n  topologySpreadConstraints: []\n  affinity: {podAffinity: {}}\n  containers: []\n",
        );
        assert_eq!(p.diagnostics, vec![]);
    }

    #[test]
    fn node_allocatable_and_capacity() {
        let text = r#"apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  capacity: {cpu: "4", memory: 16Gi, pods: "110", nvidia.com/gpu: 2}
  allocatable: {cpu: 3500m, memory: 15Gi, pods: "110", bad: 12zz, worse: [1]}
"#;
        let p = parse(text);
        let n = &p.nodes[0];
        let cap = n.capacity.as_ref().unwrap();
        assert_eq!(cap["cpu"], Quantity::parse("4").unwrap());
        assert_eq!(cap["nvidia.com/gpu"], Quantity::parse("2").unwrap());
        let alloc = n.allocatable.as_ref().unwrap();
        assert_eq!(alloc["cpu"].milli_value(), 3500);
        assert_eq!(alloc.len(), 3);
        let errs: Vec<_> = p.errors().collect();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert_eq!(errs[0].location.path, "status.allocatable.bad");
        assert_eq!(errs[0].location.line, 6);
        assert_eq!(errs[1].location.path, "status.allocatable.worse");
        let j = parse(
            r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2"}}}"#,
        );
        assert_eq!(
            j.nodes[0].allocatable.as_ref().unwrap()["cpu"].milli_value(),
            2000
        );
        assert_eq!(j.nodes[0].capacity, None);
    }

    #[test]
    fn get_pods_list_brings_bound_pods_with_phase_and_start_time() {
        let json = r#"{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"x","labels":{"app":"a"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a-1","uid":"u","controller":true}]},
 "spec":{"nodeName":"n1","containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"250m"}},"ports":[{"containerPort":80,"hostPort":8080}]}],"tolerations":[{"key":"k","operator":"Exists"}]},
 "status":{"phase":"Running","startTime":"2024-05-01T10:00:00Z","qosClass":"Burstable"}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"x"},"spec":{"nodeName":"n2","containers":[{"name":"c"}]},"status":{"phase":"Succeeded"}}]}"#;
        let yaml = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a, namespace: x}\n  spec:\n    nodeName: n1\n    containers:\n    - name: c\n      image: i\n      resources: {requests: {cpu: 250m}}\n      ports: [{containerPort: 80, hostPort: 8080}]\n    tolerations: [{key: k, operator: Exists}]\n  status: {phase: Running, startTime: \"2024-05-01T10:00:00Z\", qosClass: Burstable}\n";
        let p = parse(json);
        assert_eq!(p.diagnostics, vec![]);
        let a = &p.workloads[0];
        assert_eq!(a.pod.node_name, "n1");
        assert_eq!(a.placement.phase, "Running");
        assert_eq!(a.placement.start_time, "2024-05-01T10:00:00Z");
        assert_eq!(a.placement.host_ports[0].host_port, 8080);
        assert_eq!(
            a.placement.containers[0].resources.requests["cpu"].milli_value(),
            250
        );
        assert!(p.workloads[1].placement.is_terminal());
        assert_eq!(a.location.path, "items[0]");
        let y = parse(yaml);
        assert_eq!(y.workloads[0].placement, a.placement);
        assert_eq!(y.workloads[0].pod, a.pod);
    }
}
