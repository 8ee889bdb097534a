//! Reading the arguments: plain JavaScript objects (checked field by field, with the
//! path of every wrong value), Kubernetes objects (`metadata`/`spec` present: read by the
//! input layer exactly like pasted JSON), and text in any form the input layer accepts
//! (YAML, JSON, `kubectl taint` lines, taint specs, `kubectl describe` output).
//!
//! Text problems that make the API server refuse an object (syntax, wrong types) are
//! thrown; problems the API server only reports at validation (an unknown effect, a
//! missing key) keep the object, as the input layer does, so that `validate` and the
//! semantics can show what upstream does with it.

use taintlab_core::resource::ResourceList;
use taintlab_core::validation::go_quote;
use taintlab_core::{
    ConditionStatus, KubeVersion, Node, NodeCondition, Operator, Pod, PreemptionPolicy, QosClass,
    Semantics, Taint, TaintEffect, Toleration,
};
use taintlab_input::{Code, Diagnostic, Location, Options, Parsed, Prefer, Severity, Workload};
use taintlab_scenario::{
    NodeOrigin, Objects, Options as ScenarioOptions, PaneKind, ParsedPane, PodOrigin,
};

use crate::error::{ApiError, ApiResult};
use crate::value::V;
use crate::write::{self, J};

// ---------------------------------------------------------------------------------------
// Plain values
// ---------------------------------------------------------------------------------------

/// `"a string"`, `"a number"`, ... for messages.
pub fn type_name(v: &V) -> &'static str {
    v.type_name()
}

/// The value shortened for a message: strings quoted, containers by type.
fn shown(v: &V) -> String {
    match v {
        V::Str(s) if s.chars().count() <= 40 => format!("the string {}", go_quote(s)),
        V::Bool(b) => format!("the boolean {b}"),
        V::Num(_) | V::Int(_) => format!("the number {}", v.to_json()),
        other => type_name(other).to_string(),
    }
}

/// The `wrong-type` error "must be `want`, got ..." at `path` (one copy for every
/// reader: each `format!` written out costs the engine module code of its own).
pub fn wrong_type(arg: &str, path: &str, want: &str, got: &V) -> ApiError {
    ApiError::value(
        "wrong-type",
        arg,
        path,
        format!("must be {want}, got {}", shown(got)),
    )
}

/// Absent and `null` (and `undefined`, which arrives as `null`) mean "not given".
pub fn given(v: Option<&V>) -> Option<&V> {
    v.filter(|v| !v.is_null())
}

/// A whole number: JavaScript integers and BigInts within 64 bits.
pub fn as_int(v: &V) -> Option<i64> {
    v.as_int()
}

/// The closest known name, for "did you mean" hints on option and field names (core's
/// suggestions, shared with the input layer and the policy).
pub fn suggest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    taintlab_core::suggest::suggest(name, known)
}

/// A plain object being read: known fields only, typed accessors that report the full
/// path of a wrong value.
pub struct Obj<'a> {
    map: Option<&'a [(String, V)]>,
    /// Path of the object from the argument (`pods[1]`).
    pub path: String,
    /// The argument name (`pods`).
    pub arg: String,
}

impl<'a> Obj<'a> {
    /// Reads `v` as an object whose fields are `known` (plus `ignored`, accepted and not
    /// read); `null` is an empty object when `optional`.
    pub fn new(
        v: &'a V,
        arg: &str,
        path: &str,
        what: &str,
        known: &[&str],
        ignored: &[&str],
        optional: bool,
    ) -> ApiResult<Self> {
        let map = match v {
            V::Obj(m) => Some(m.as_slice()),
            V::Null if optional => None,
            other => {
                return Err(wrong_type(arg, path, what, other));
            }
        };
        if let Some(m) = map {
            for (key, _) in m {
                if known.contains(&key.as_str()) || ignored.contains(&key.as_str()) {
                    continue;
                }
                let mut msg = format!("unknown field {} of {what}", go_quote(key));
                if let Some(k) = suggest(key, known) {
                    msg.push_str(&format!("; did you mean {}?", go_quote(k)));
                } else {
                    msg.push_str(&format!("; known fields: {}", known.join(", ")));
                }
                return Err(ApiError::value("unknown-field", arg, &join(path, key), msg));
            }
        }
        Ok(Self {
            map,
            path: path.to_string(),
            arg: arg.to_string(),
        })
    }

    /// The options object of a function (`undefined`/`null` is empty).
    pub fn options(v: &'a V, known: &[&str]) -> ApiResult<Self> {
        Self::new(
            v,
            "options",
            "options",
            "an object of options",
            known,
            &[],
            true,
        )
    }

    /// The field, `None` when absent or `null`.
    pub fn get(&self, key: &str) -> Option<&'a V> {
        given(
            self.map
                .and_then(|m| m.iter().find(|(k, _)| k == key).map(|(_, v)| v)),
        )
    }

    /// Whether the field is present and not `null`.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The path of a field.
    pub fn at(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// An error about a field.
    pub fn error(&self, key: &str, code: &str, what: impl AsRef<str>) -> ApiError {
        ApiError::value(code, &self.arg, &self.at(key), what)
    }

    fn wrong(&self, key: &str, want: &str, got: &V) -> ApiError {
        wrong_type(&self.arg, &self.at(key), want, got)
    }

    /// A string field.
    pub fn str(&self, key: &str) -> ApiResult<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(V::Str(s)) => Ok(Some(s.clone())),
            Some(other) => Err(self.wrong(key, "a string", other)),
        }
    }

    /// A whole-number field.
    pub fn int(&self, key: &str) -> ApiResult<Option<i64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.as_int() {
                Some(i) => Ok(Some(i)),
                None => Err(self.wrong(key, "a whole number", v)),
            },
        }
    }

    /// A boolean field.
    pub fn bool(&self, key: &str) -> ApiResult<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(V::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.wrong(key, "a boolean", other)),
        }
    }

    /// A list of strings.
    pub fn str_list(&self, key: &str) -> ApiResult<Option<Vec<String>>> {
        match self.get(key) {
            None => Ok(None),
            Some(V::Arr(items)) => {
                // A loop rather than collecting into a `Result`: iterator chains cost
                // the npm engine module code of their own (here and below).
                let mut out = Vec::with_capacity(items.len());
                for (i, v) in items.iter().enumerate() {
                    match v {
                        V::Str(s) => out.push(s.clone()),
                        other => {
                            return Err(wrong_type(
                                &self.arg,
                                &index(&self.at(key), i),
                                "a string",
                                other,
                            ));
                        }
                    }
                }
                Ok(Some(out))
            }
            Some(other) => Err(self.wrong(key, "an array of strings", other)),
        }
    }

    /// A string field limited to `allowed`.
    pub fn choice(&self, key: &str, allowed: &[&'static str]) -> ApiResult<Option<&'static str>> {
        let Some(s) = self.str(key)? else {
            return Ok(None);
        };
        match allowed.iter().find(|a| **a == s) {
            Some(a) => Ok(Some(*a)),
            None => {
                let mut msg = format!(
                    "must be one of {}, got {}",
                    allowed.join(", "),
                    go_quote(&s)
                );
                if let Some(k) = suggest(&s, allowed) {
                    msg.push_str(&format!("; did you mean {}?", go_quote(k)));
                }
                Err(self.error(key, "invalid-value", msg))
            }
        }
    }
}

/// `a.b`, or `b` when `a` is empty.
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// `a[3]`.
pub fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

// ---------------------------------------------------------------------------------------
// Version options
// ---------------------------------------------------------------------------------------

/// The option names every version-aware function accepts.
pub const VERSION_OPTIONS: [&str; 2] = ["kubernetesVersion", "comparisonOperators"];

/// `options.kubernetesVersion` (default the newest release modelled).
pub fn kube_version(o: &Obj<'_>) -> ApiResult<KubeVersion> {
    match o.str("kubernetesVersion")? {
        None => Ok(KubeVersion::NEWEST),
        Some(s) => KubeVersion::parse(&s).ok_or_else(|| {
            o.error(
                "kubernetesVersion",
                "invalid-version",
                format!(
                    "must be a Kubernetes release such as \"1.34\" or \"v1.34.3\", got {}",
                    go_quote(&s)
                ),
            )
        }),
    }
}

/// The release and the `TaintTolerationComparisonOperators` gate.
pub fn semantics(o: &Obj<'_>) -> ApiResult<Semantics> {
    Ok(Semantics::at(kube_version(o)?)
        .with_comparison_operators(o.bool("comparisonOperators")?.unwrap_or(false)))
}

// ---------------------------------------------------------------------------------------
// Text through the input layer
// ---------------------------------------------------------------------------------------

/// Whether a diagnostic means something could not be read at all. A field the API
/// server would reject at validation (an unknown effect, a missing key) keeps its object
/// and has a field path; the same problem in a taint spec or a command loses it.
fn is_fatal(d: &Diagnostic) -> bool {
    let kept =
        matches!(d.code, Code::InvalidValue | Code::MissingField) && !d.location.path.is_empty();
    d.severity == Severity::Error && !kept
}

/// Reads text; throws the first error that lost an object. `positions` is false for
/// Kubernetes objects serialized here (their lines mean nothing to the caller).
pub fn parse_text(
    text: &str,
    arg: &str,
    prefer: Prefer,
    version: KubeVersion,
    json: bool,
) -> ApiResult<Parsed> {
    let opts = Options {
        prefer,
        kubectl_version: version,
        ..Options::default()
    };
    let parsed = if json {
        taintlab_input::parse_json(text, &opts)
    } else {
        taintlab_input::parse_with(text, &opts)
    };
    if let Some(d) = parsed.diagnostics.iter().find(|d| is_fatal(d)) {
        return Err(ApiError::diagnostic(arg, d, &parsed.diagnostics, !json));
    }
    Ok(parsed)
}

/// A Kubernetes object (it has `metadata` or `spec`), as opposed to Taintlab's plain
/// shapes.
pub fn is_kubernetes_object(v: &V) -> bool {
    v.get("metadata").is_some() || v.get("spec").is_some()
}

/// Reads a Kubernetes object with the input layer, as if it had been pasted as JSON.
fn parse_object(v: &V, arg: &str, prefer: Prefer, version: KubeVersion) -> ApiResult<Parsed> {
    let text = v.to_json();
    parse_text(&text, arg, prefer, version, true)
}

// ---------------------------------------------------------------------------------------
// Taints and tolerations
// ---------------------------------------------------------------------------------------

const TAINT_FIELDS: [&str; 4] = ["key", "value", "effect", "timeAdded"];
const TOLERATION_FIELDS: [&str; 5] = ["key", "operator", "value", "effect", "tolerationSeconds"];

/// Every taint in text: bare lists, then the nodes' taints.
fn taints_of(p: &Parsed) -> (Vec<Taint>, Vec<Location>) {
    let mut taints = Vec::new();
    let mut locs = Vec::new();
    for l in &p.taint_lists {
        taints.extend(l.taints.iter().cloned());
        locs.extend(l.locations.iter().cloned());
    }
    for n in &p.nodes {
        taints.extend(n.node.taints.iter().cloned());
        locs.extend(n.taint_locations.iter().cloned());
    }
    (taints, locs)
}

/// Every toleration in text: bare lists, then the pods' tolerations.
fn tolerations_of(p: &Parsed) -> (Vec<Toleration>, Vec<Location>) {
    let mut out = Vec::new();
    let mut locs = Vec::new();
    for l in &p.toleration_lists {
        out.extend(l.tolerations.iter().cloned());
        locs.extend(l.locations.iter().cloned());
    }
    for w in &p.workloads {
        out.extend(w.pod.tolerations.iter().cloned());
        locs.extend(w.toleration_locations.iter().cloned());
    }
    (out, locs)
}

/// A taint object (not text).
pub fn plain_taint(v: &V, arg: &str, path: &str) -> ApiResult<Taint> {
    let o = Obj::new(v, arg, path, "a taint", &TAINT_FIELDS, &[], false)?;
    Ok(Taint {
        key: o.str("key")?.unwrap_or_default(),
        value: o.str("value")?.unwrap_or_default(),
        effect: TaintEffect::parse(&o.str("effect")?.unwrap_or_default()),
        time_added: o.str("timeAdded")?.filter(|s| !s.is_empty()),
    })
}

fn plain_toleration(v: &V, arg: &str, path: &str) -> ApiResult<Toleration> {
    let o = Obj::new(v, arg, path, "a toleration", &TOLERATION_FIELDS, &[], false)?;
    Ok(Toleration {
        key: o.str("key")?.unwrap_or_default(),
        operator: Operator::parse(&o.str("operator")?.unwrap_or_default()),
        value: o.str("value")?.unwrap_or_default(),
        effect: TaintEffect::parse(&o.str("effect")?.unwrap_or_default()),
        toleration_seconds: o.int("tolerationSeconds")?,
    })
}

/// Exactly one item from text, or an error saying how many there were.
fn exactly_one<T>(items: Vec<T>, arg: &str, what: &str, p: &Parsed) -> ApiResult<T> {
    single(items, arg, what, " in the text", &p.diagnostics)
}

/// The one item of `items`; otherwise the error saying how many there were (`no
/// {what} found{place}`, `expected one {what}, found {n}`). Only taking the item is
/// generic: the error is written once for every item type.
fn single<T>(
    mut items: Vec<T>,
    arg: &str,
    what: &str,
    place: &str,
    all: &[Diagnostic],
) -> ApiResult<T> {
    let n = items.len();
    match items.pop() {
        Some(one) if n == 1 => Ok(one),
        _ => Err(count_error(n, arg, what, place, all)),
    }
}

/// The error of [`single`] for `n` items other than one.
fn count_error(n: usize, arg: &str, what: &str, place: &str, all: &[Diagnostic]) -> ApiError {
    if n == 0 {
        ApiError::text("not-found", arg, format!("no {what} found{place}"), all)
    } else {
        ApiError::text(
            "ambiguous",
            arg,
            format!("expected one {what}, found {n}"),
            all,
        )
    }
}

/// One taint: an object, or text holding exactly one taint (`dedicated=gpu:NoSchedule`).
pub fn taint(v: &V, arg: &str, version: KubeVersion) -> ApiResult<Taint> {
    match v {
        V::Str(s) => {
            let p = parse_text(s, arg, Prefer::Taints, version, false)?;
            let (taints, _) = taints_of(&p);
            exactly_one(taints, arg, "taint", &p)
        }
        other => plain_taint(other, arg, arg),
    }
}

/// One toleration: an object, or text holding exactly one toleration.
pub fn toleration(v: &V, arg: &str, version: KubeVersion) -> ApiResult<Toleration> {
    match v {
        V::Str(s) => {
            let p = parse_text(s, arg, Prefer::Tolerations, version, false)?;
            let (tolerations, _) = tolerations_of(&p);
            exactly_one(tolerations, arg, "toleration", &p)
        }
        other => plain_toleration(other, arg, arg),
    }
}

/// Taints: an array of taints (objects or text), or text with any number of them.
/// `path` is where the value sits (`node.taints`).
pub fn taints(v: &V, arg: &str, path: &str, version: KubeVersion) -> ApiResult<Vec<Taint>> {
    let Some(items) = items_or_text(v) else {
        return Err(wrong_type(arg, path, "an array of taints or text", v));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = item_path(v, path, i);
        match item {
            V::Str(s) => {
                let p = parse_text(s, &at, Prefer::Taints, version, false)?;
                out.extend(taints_of(&p).0);
            }
            other => out.push(plain_taint(other, arg, &at)?),
        }
    }
    Ok(out)
}

/// The items of an array, text as the one item, nothing for `null`; `None` for any
/// other value.
fn items_or_text(v: &V) -> Option<&[V]> {
    match v {
        V::Null => Some(&[]),
        V::Str(_) => Some(std::slice::from_ref(v)),
        V::Arr(items) => Some(items),
        _ => None,
    }
}

/// Where item `i` of [`items_or_text`] sits: `path[i]` in an array, `path` for text.
fn item_path(v: &V, path: &str, i: usize) -> String {
    match v {
        V::Arr(_) => index(path, i),
        _ => path.to_string(),
    }
}

/// Tolerations: an array (objects or text), or text with any number of them.
pub fn tolerations(
    v: &V,
    arg: &str,
    path: &str,
    version: KubeVersion,
) -> ApiResult<Vec<Toleration>> {
    Ok(tolerations_located(v, arg, path, version)?.0)
}

/// [`tolerations`] with the location of each toleration read from text.
pub fn tolerations_located(
    v: &V,
    arg: &str,
    path: &str,
    version: KubeVersion,
) -> ApiResult<(Vec<Toleration>, Vec<Option<Location>>)> {
    let Some(items) = items_or_text(v) else {
        return Err(wrong_type(arg, path, "an array of tolerations or text", v));
    };
    let mut out = Vec::with_capacity(items.len());
    let mut locs = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = item_path(v, path, i);
        match item {
            V::Str(s) => {
                let p = parse_text(s, &at, Prefer::Tolerations, version, false)?;
                let (t, l) = tolerations_of(&p);
                out.extend(t);
                locs.extend(l.into_iter().map(Some));
            }
            other => {
                out.push(plain_toleration(other, arg, &at)?);
                locs.push(None);
            }
        }
    }
    Ok((out, locs))
}

// ---------------------------------------------------------------------------------------
// Nodes and pods
// ---------------------------------------------------------------------------------------

/// A node and where it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeIn {
    /// The node.
    pub node: Node,
    /// Where it starts in its text (`None` for plain objects).
    pub location: Option<Location>,
    /// Where each taint is, when read from text (empty otherwise, or once a `kubectl
    /// taint` line changed the taints).
    pub taint_locations: Vec<Location>,
    /// The argument it came from (`nodes[1]`).
    pub source: String,
    /// `status.allocatable` (`None` when not given: resources are not checked on the
    /// node).
    pub allocatable: Option<ResourceList>,
    /// `status.capacity`.
    pub capacity: Option<ResourceList>,
    /// What the input layer reported while reading it and did not make it throw
    /// (warnings, unread text: once per block), to be shown beside the answer.
    pub diagnostics: Vec<Diagnostic>,
}

/// A pod (or a workload's pod template) and what admission and the DaemonSet controller
/// need beyond the core `Pod`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodIn {
    /// The pod; an empty namespace becomes `default`.
    pub pod: Pod,
    /// `Pod`, `Deployment`, `DaemonSet`, ...
    pub kind: String,
    /// `spec.hostNetwork`.
    pub host_network: bool,
    /// The QoS class (stated, computed from resources, or given).
    pub qos_class: QosClass,
    /// Resource names requested by the containers.
    pub requested_resources: Vec<String>,
    /// Where it starts in its text.
    pub location: Option<Location>,
    /// Where each toleration is, when read from text.
    pub toleration_locations: Vec<Option<Location>>,
    /// The argument it came from.
    pub source: String,
    /// The object as the input layer read it (for a plain pod, its placement fields
    /// read as a Pod's `spec`; `None` when it has none).
    pub workload: Option<Workload>,
    /// What the input layer reported while reading it and did not make it throw
    /// (warnings, unread text: once per block).
    pub diagnostics: Vec<Diagnostic>,
}

/// Fields of the plain node shape; `location` and friends are what `parse` returns, so a
/// parsed node can be passed back in.
const NODE_FIELDS: [&str; 7] = [
    "name",
    "taints",
    "unschedulable",
    "labels",
    "conditions",
    "allocatable",
    "capacity",
];
const NODE_IGNORED: [&str; 5] = [
    "location",
    "taintLocations",
    "unschedulableLocation",
    "kubeletVersion",
    "form",
];
const POD_FIELDS: [&str; 19] = [
    "name",
    "namespace",
    "nodeName",
    "tolerations",
    "preemptionPolicy",
    "kind",
    "hostNetwork",
    "qosClass",
    "requestedResources",
    "nodeSelector",
    "affinity",
    "containers",
    "initContainers",
    "overhead",
    "resources",
    "schedulingGates",
    "schedulerName",
    "priority",
    "priorityClassName",
];
/// The plain pod's fields that are Kubernetes pod spec fields, read by the input layer
/// as `spec.<field>` of a Pod (placement, requests, ports, gates, priority).
const POD_SPEC_FIELDS: [&str; 11] = [
    "nodeSelector",
    "affinity",
    "containers",
    "initContainers",
    "overhead",
    "resources",
    "schedulingGates",
    "schedulerName",
    "priority",
    "priorityClassName",
    "runtimeClassName",
];
const POD_IGNORED: [&str; 6] = [
    "apiVersion",
    "runtimeClassName",
    "location",
    "tolerationLocations",
    "form",
    "statedQosClass",
];

fn plain_node(
    v: &V,
    arg: &str,
    path: &str,
    version: KubeVersion,
    default_name: &str,
) -> ApiResult<NodeIn> {
    let o = Obj::new(v, arg, path, "a node", &NODE_FIELDS, &NODE_IGNORED, false)?;
    let (allocatable, capacity, diagnostics) = node_status(&o, version)?;
    let mut node = Node {
        name: o.str("name")?.unwrap_or_else(|| default_name.to_string()),
        unschedulable: o.bool("unschedulable")?.unwrap_or(false),
        ..Node::default()
    };
    if let Some(t) = o.get("taints") {
        node.taints = taints(t, arg, &o.at("taints"), version)?;
    }
    if let Some(labels) = o.get("labels") {
        // Labels are free-form: any key, string values.
        let V::Obj(map) = labels else {
            return Err(o.wrong("labels", "an object of strings", labels));
        };
        for (k, val) in map {
            match val {
                V::Str(s) => {
                    node.labels.insert(k.clone(), s.clone());
                }
                other => {
                    return Err(wrong_type(
                        arg,
                        &join(&o.at("labels"), k),
                        "a string",
                        other,
                    ));
                }
            }
        }
    }
    if let Some(conds) = o.get("conditions") {
        let V::Arr(items) = conds else {
            return Err(o.wrong("conditions", "an array", conds));
        };
        for (i, c) in items.iter().enumerate() {
            let co = Obj::new(
                c,
                arg,
                &index(&o.at("conditions"), i),
                "a node condition",
                &["type", "status"],
                &[
                    "reason",
                    "message",
                    "lastHeartbeatTime",
                    "lastTransitionTime",
                ],
                false,
            )?;
            node.conditions.push(NodeCondition {
                type_: co.str("type")?.unwrap_or_default(),
                status: ConditionStatus::parse(&co.str("status")?.unwrap_or_default()),
            });
        }
    }
    Ok(NodeIn {
        node,
        location: None,
        taint_locations: Vec::new(),
        source: path.to_string(),
        allocatable,
        capacity,
        diagnostics,
    })
}

/// A plain node's `allocatable` and `capacity` (`{cpu: "4", memory: "16Gi", pods: 110}`),
/// read by the input layer as `status.allocatable` / `status.capacity` of a Node, so
/// quantities parse exactly as for pasted nodes.
type NodeStatus = (Option<ResourceList>, Option<ResourceList>, Vec<Diagnostic>);

fn node_status(o: &Obj<'_>, version: KubeVersion) -> ApiResult<NodeStatus> {
    let status = given_fields(o, &["allocatable", "capacity"]);
    if status.is_empty() {
        return Ok((None, None, Vec::new()));
    }
    // The Node's JSON is written directly rather than built as a `V` tree first.
    let mut j = J::new();
    j.open()
        .s("apiVersion", "v1")
        .s("kind", "Node")
        .key("metadata")
        .open()
        .s("name", "node")
        .close()
        .key("status")
        .open();
    for (k, v) in status {
        j.key(k);
        v.write_json(&mut j);
    }
    j.close().close();
    let (p, diagnostics) = object_fields(&j.finish(), o, "status.", version, Prefer::Taints)?;
    let (a, c) = p
        .nodes
        .into_iter()
        .next()
        .map_or((None, None), |n| (n.allocatable, n.capacity));
    Ok((a, c, diagnostics))
}

/// The fields of `o` among `keys` that are given, in the order of `keys`.
fn given_fields<'a, 'k>(o: &Obj<'a>, keys: &[&'k str]) -> Vec<(&'k str, &'a V)> {
    let mut out = Vec::new();
    for &k in keys {
        if let Some(v) = o.get(k) {
            out.push((k, v));
        }
    }
    out
}

/// Reads a Kubernetes object built from a plain object's fields with the input layer
/// (the one reader of pasted objects). An error is reported at the plain field's path:
/// `prefix` (`spec.`, `status.`) is replaced by the plain object's own path.
fn object_fields(
    json: &str,
    o: &Obj<'_>,
    prefix: &str,
    version: KubeVersion,
    prefer: Prefer,
) -> ApiResult<(Parsed, Vec<Diagnostic>)> {
    let opts = Options {
        prefer,
        kubectl_version: version,
        ..Options::default()
    };
    let mut parsed = taintlab_input::parse_json(json, &opts);
    let at = |d: &Diagnostic| {
        let inner = d.location.path.strip_prefix(prefix).unwrap_or("");
        if inner.is_empty() {
            o.path.clone()
        } else {
            join(&o.path, inner)
        }
    };
    // A value given in code that the input layer finds wrong is thrown, even one a
    // pasted object would keep for validation to report.
    if let Some(d) = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
    {
        return Err(ApiError::value(
            &write::code_name(d.code),
            &o.arg,
            &at(d),
            &d.message,
        ));
    }
    let mut warnings = std::mem::take(&mut parsed.diagnostics);
    for d in &mut warnings {
        d.location = Location::default().with_path(at(d));
    }
    Ok((parsed, warnings))
}

/// The placement fields of a plain pod (`nodeSelector`, `affinity`, `containers` with
/// their requests and host ports, `initContainers`, `overhead`, pod-level `resources`,
/// `schedulingGates`, `schedulerName`, `priority`, `priorityClassName`), read by the
/// input layer as the `spec` of a Pod. `None` when the pod has none of them.
fn pod_spec(
    o: &Obj<'_>,
    pod: &Pod,
    version: KubeVersion,
) -> ApiResult<Option<(Workload, Vec<Diagnostic>)>> {
    let given = given_fields(o, &POD_SPEC_FIELDS);
    if given.is_empty() {
        return Ok(None);
    }
    // The Pod's JSON is written directly rather than built as a `V` tree first.
    let mut j = J::new();
    j.open()
        .s("apiVersion", "v1")
        .s("kind", "Pod")
        .key("metadata")
        .open()
        .s("name", &pod.name)
        .s("namespace", &pod.namespace)
        .close()
        .key("spec")
        .open();
    for (k, v) in given {
        j.key(k);
        match (k, v) {
            // `parse` returns containers as `{name, image, requests, limits}`: a parsed
            // pod passed back reads as the Kubernetes container it came from.
            ("containers" | "initContainers", V::Arr(items)) => {
                j.arr();
                for c in items {
                    kubernetes_container(c).write_json(&mut j);
                }
                j.end();
            }
            _ => v.write_json(&mut j),
        }
    }
    if !pod.node_name.is_empty() {
        j.s("nodeName", &pod.node_name);
    }
    j.close().close();
    let (p, warnings) = object_fields(&j.finish(), o, "spec.", version, Prefer::Tolerations)?;
    Ok(p.workloads.into_iter().next().map(|w| (w, warnings)))
}

/// A container of `parse`'s shape (`requests` and `limits` beside `name`) as a
/// Kubernetes container (`resources: {requests, limits}`); others unchanged.
fn kubernetes_container(c: &V) -> V {
    let V::Obj(fields) = c else {
        return c.clone();
    };
    if c.get("resources").is_some() || (c.get("requests").is_none() && c.get("limits").is_none()) {
        return c.clone();
    }
    let mut out = Vec::new();
    let mut resources = Vec::new();
    for (k, v) in fields {
        match k.as_str() {
            "requests" | "limits" => resources.push((k.clone(), v.clone())),
            _ => out.push((k.clone(), v.clone())),
        }
    }
    out.push(("resources".into(), V::Obj(resources)));
    V::Obj(out)
}

fn plain_pod(
    v: &V,
    arg: &str,
    path: &str,
    version: KubeVersion,
    default_name: &str,
) -> ApiResult<PodIn> {
    let o = Obj::new(v, arg, path, "a pod", &POD_FIELDS, &POD_IGNORED, false)?;
    let namespace = o.str("namespace")?.filter(|s| !s.is_empty());
    let (tolerations, toleration_locations) = match o.get("tolerations") {
        Some(t) => tolerations_located(t, arg, &o.at("tolerations"), version)?,
        None => (Vec::new(), Vec::new()),
    };
    let preemption = o.choice("preemptionPolicy", &["PreemptLowerPriority", "Never"])?;
    let qos = o.choice("qosClass", &["BestEffort", "Burstable", "Guaranteed"])?;
    let pod = Pod {
        namespace: namespace.unwrap_or_else(|| "default".into()),
        name: o.str("name")?.unwrap_or_else(|| default_name.to_string()),
        node_name: o.str("nodeName")?.unwrap_or_default(),
        tolerations,
        preemption_policy: PreemptionPolicy::parse(preemption.unwrap_or("")),
    };
    let kind = o.str("kind")?.unwrap_or_else(|| "Pod".into());
    let host_network = o.bool("hostNetwork")?.unwrap_or(false);
    let mut requested_resources = o.str_list("requestedResources")?.unwrap_or_default();
    let mut diagnostics = Vec::new();
    let workload = pod_spec(&o, &pod, version)?.map(|(mut w, warnings)| {
        diagnostics = warnings;
        for r in w.requested_resources() {
            if !requested_resources.contains(&r) {
                requested_resources.push(r);
            }
        }
        let k = taintlab_core::WorkloadKind::from_name(&kind);
        w.api_version = k
            .map_or("v1", taintlab_core::WorkloadKind::api_version)
            .into();
        w.kind.clone_from(&kind);
        w.host_network = host_network;
        w.stated_qos_class = qos.map(QosClass::parse);
        w.form = taintlab_input::Form::Json;
        w
    });
    let qos_class = match (qos, &workload) {
        (Some(q), _) => QosClass::parse(q),
        (None, Some(w)) => w.qos_class(),
        (None, None) => QosClass::BestEffort,
    };
    Ok(PodIn {
        pod,
        kind,
        host_network,
        qos_class,
        requested_resources,
        location: None,
        toleration_locations,
        source: path.to_string(),
        workload,
        diagnostics,
    })
}

/// How text that holds nodes is turned into nodes.
#[derive(Clone, Copy, Debug)]
pub struct NodeText<'a> {
    /// Name of the node made from bare taints (`dedicated=gpu:NoSchedule`).
    pub default_name: &'a str,
    /// The kubectl release for `kubectl taint` lines.
    pub version: KubeVersion,
}

/// The objects of one text read on its own: the input layer's reading as the pane
/// `kind`, with `kubectl taint` commands applied by the scenario pipeline (the one the
/// playground and `analyze` use), without admission, the DaemonSet controller or
/// scheduling (so the tools module does not link the scheduler).
///
/// The reading is lent to the pane and given back, not copied (a copy of every object
/// read cost the npm engine about 2.3 KB gzipped).
pub fn text_objects(p: &mut Parsed, kind: PaneKind, version: KubeVersion) -> Objects {
    let pane = ParsedPane {
        kind,
        parsed: std::mem::take(p),
        lines: 0,
        bytes: 0,
    };
    let options = ScenarioOptions {
        semantics: Semantics::at(version),
        admission: None,
        daemon_set: Some(false),
    };
    let objects = Objects::read(&[&pane], &options);
    *p = pane.parsed;
    objects
}

/// The nodes of text, as the scenario builds them: nodes, one node per bare taint list,
/// then every `kubectl taint` command applied in order (a node a command names that is
/// not in the text is created empty first, so a docs page can start from `kubectl
/// taint`). A command kubectl refuses, or that fails on a node, is thrown. A single
/// anonymous node is named `t.default_name`.
pub fn nodes_from_text(p: &mut Parsed, source: &str, t: NodeText<'_>) -> ApiResult<Vec<NodeIn>> {
    let s = text_objects(p, PaneKind::Nodes, t.version);
    if let Some(c) = s.commands.iter().find(|c| c.exit_code != 0) {
        let d = Diagnostic::error(
            Code::KubectlCommand,
            c.source.location.clone(),
            c.stderr.trim_end().trim_start_matches("error: "),
        );
        return Err(ApiError::diagnostic(source, &d, &p.diagnostics, true));
    }
    let anonymous = s
        .nodes
        .iter()
        .filter(|n| n.origin == NodeOrigin::TaintList)
        .count();
    // Loops rather than `map(..).collect()` here and in [`pods_from_text`]: the
    // in-place collects cost the engine module code of their own.
    let mut out = Vec::with_capacity(s.nodes.len());
    for n in s.nodes {
        let mut node = n.node;
        if n.origin == NodeOrigin::TaintList && anonymous == 1 {
            node.name = t.default_name.to_string();
        }
        let written: Vec<&Taint> = n.written_taints.iter().map(|(t, _)| t).collect();
        let unchanged = node.taints.iter().eq(written.iter().copied());
        out.push(NodeIn {
            node,
            location: Some(n.source.location),
            taint_locations: if unchanged {
                n.written_taints.into_iter().map(|(_, l)| l).collect()
            } else {
                Vec::new()
            },
            source: source.to_string(),
            allocatable: n.allocatable,
            capacity: n.capacity,
            diagnostics: Vec::new(),
        });
    }
    Ok(out)
}

/// The pods of text, as the scenario reads them: pods and workloads, one pod per bare
/// toleration list. A single anonymous pod is named `default_name`.
pub fn pods_from_text(p: &mut Parsed, source: &str, default_name: &str) -> Vec<PodIn> {
    let s = text_objects(p, PaneKind::Pods, KubeVersion::NEWEST);
    let anonymous = s
        .pods
        .iter()
        .filter(|e| e.origin == PodOrigin::TolerationList)
        .count();
    let mut out = Vec::with_capacity(s.pods.len());
    for e in s.pods {
        let mut pod = e.pod;
        if e.origin == PodOrigin::TolerationList && anonymous == 1 {
            pod.name = default_name.to_string();
        }
        let w = e.workload.as_ref();
        out.push(PodIn {
            pod,
            kind: e.kind,
            host_network: w.is_some_and(|w| w.host_network),
            qos_class: w.map_or(QosClass::BestEffort, Workload::qos_class),
            requested_resources: w.map(Workload::requested_resources).unwrap_or_default(),
            location: Some(e.source.location),
            toleration_locations: e.submitted_locations.into_iter().map(Some).collect(),
            source: source.to_string(),
            workload: e.workload,
            diagnostics: Vec::new(),
        });
    }
    out
}

/// The diagnostics of text that did not make it throw (warnings, unread blocks, values
/// validation reports), carried with the first node or pod read from it; lines and
/// columns only when the caller wrote the text.
fn carried(p: &Parsed, positions: bool) -> Vec<Diagnostic> {
    let mut out = p.diagnostics.clone();
    if !positions {
        for d in &mut out {
            d.location.document = 0;
            d.location.line = 0;
            d.location.column = 0;
        }
    }
    out
}

/// Nodes from one value: a plain node, a Kubernetes Node, or text (any number).
fn nodes_of(v: &V, arg: &str, path: &str, t: NodeText<'_>) -> ApiResult<Vec<NodeIn>> {
    let Some((mut p, positions)) = read_value(v, path, Prefer::Taints, t.version)? else {
        return match v {
            V::Obj(_) => Ok(vec![plain_node(v, arg, path, t.version, t.default_name)?]),
            other => Err(wrong_type(arg, path, "a node (an object) or text", other)),
        };
    };
    let mut nodes = nodes_from_text(&mut p, path, t)?;
    if let Some(n) = nodes.first_mut() {
        n.diagnostics = carried(&p, positions);
    }
    Ok(nodes)
}

/// Text, or a Kubernetes object, read by the input layer, and whether its lines and
/// columns are the caller's (text) or not (an object serialized here); `None` for any
/// other value.
fn read_value(
    v: &V,
    path: &str,
    prefer: Prefer,
    version: KubeVersion,
) -> ApiResult<Option<(Parsed, bool)>> {
    Ok(match v {
        V::Str(s) => Some((parse_text(s, path, prefer, version, false)?, true)),
        V::Obj(_) if is_kubernetes_object(v) => {
            Some((parse_object(v, path, prefer, version)?, false))
        }
        _ => None,
    })
}

/// Pods from one value: a plain pod, a Kubernetes object (Pod or any workload), or text.
fn pods_of(
    v: &V,
    arg: &str,
    path: &str,
    version: KubeVersion,
    default_name: &str,
) -> ApiResult<Vec<PodIn>> {
    let Some((mut p, positions)) = read_value(v, path, Prefer::Tolerations, version)? else {
        return match v {
            V::Obj(_) => Ok(vec![plain_pod(v, arg, path, version, default_name)?]),
            other => Err(wrong_type(arg, path, "a pod (an object) or text", other)),
        };
    };
    let mut pods = pods_from_text(&mut p, path, default_name);
    if let Some(first) = pods.first_mut() {
        first.diagnostics = carried(&p, positions);
    }
    Ok(pods)
}

/// Exactly one node.
pub fn node(v: &V, arg: &str, version: KubeVersion) -> ApiResult<NodeIn> {
    let t = NodeText {
        default_name: "node",
        version,
    };
    let nodes = nodes_of(v, arg, arg, t)?;
    one_of(nodes, arg, "node")
}

/// Exactly one pod.
pub fn pod(v: &V, arg: &str, version: KubeVersion) -> ApiResult<PodIn> {
    let pods = pods_of(v, arg, arg, version, "pod")?;
    one_of(pods, arg, "pod")
}

/// Exactly one node, as the core model has it (the reader's extras dropped). One
/// function for the engine's callers that want only the node: each caller that took
/// `.node` itself carried its own copy of the drop of the other fields. The tools
/// module's readers of one field (`validate`, `describe`) keep `.node.taints` and
/// `.pod.tolerations`: with no other caller there, the helper made that module larger.
pub fn core_node(v: &V, arg: &str, version: KubeVersion) -> ApiResult<Node> {
    node(v, arg, version).map(|n| n.node)
}

/// Exactly one pod, as the core model has it (see [`core_node`]).
pub fn core_pod(v: &V, arg: &str, version: KubeVersion) -> ApiResult<Pod> {
    pod(v, arg, version).map(|p| p.pod)
}

fn one_of<T>(items: Vec<T>, arg: &str, what: &str) -> ApiResult<T> {
    single(items, arg, what, "", &[])
}

/// Any number of nodes: an array of node values, or one value (text may hold many).
pub fn nodes(v: &V, arg: &str, version: KubeVersion) -> ApiResult<Vec<NodeIn>> {
    match v {
        V::Null => Ok(Vec::new()),
        V::Arr(items) => {
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let name = format!("node-{}", i + 1);
                let t = NodeText {
                    default_name: &name,
                    version,
                };
                out.extend(nodes_of(item, arg, &index(arg, i), t)?);
            }
            Ok(out)
        }
        other => nodes_of(
            other,
            arg,
            arg,
            NodeText {
                default_name: "node",
                version,
            },
        ),
    }
}

/// Any number of pods: an array of pod values, or one value (text may hold many).
pub fn pods(v: &V, arg: &str, version: KubeVersion) -> ApiResult<Vec<PodIn>> {
    match v {
        V::Null => Ok(Vec::new()),
        V::Arr(items) => {
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let name = format!("pod-{}", i + 1);
                out.extend(pods_of(item, arg, &index(arg, i), version, &name)?);
            }
            Ok(out)
        }
        other => pods_of(other, arg, arg, version, "pod"),
    }
}

/// The core pods of a list.
pub fn core_pods(pods: &[PodIn]) -> Vec<Pod> {
    let mut out = Vec::with_capacity(pods.len());
    for p in pods {
        out.push(p.pod.clone());
    }
    out
}

/// The core nodes of a list.
pub fn core_nodes(nodes: &[NodeIn]) -> Vec<Node> {
    nodes.iter().map(|n| n.node.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    fn val(v: serde_json::Value) -> V {
        V::from(v)
    }

    const NEWEST: KubeVersion = KubeVersion::NEWEST;

    #[test]
    fn plain_toleration_checks_types_with_paths() {
        let v = val(json!({"key": "a", "tolerationSeconds": "300"}));
        let e = toleration(&v, "toleration", NEWEST).unwrap_err();
        assert_eq!(e.code, "wrong-type");
        assert_eq!(e.location.path, "toleration.tolerationSeconds");
        assert_eq!(
            e.message,
            "toleration.tolerationSeconds: must be a whole number, got the string \"300\""
        );
        let e = toleration(&val(json!({"efect": "NoSchedule"})), "t", NEWEST).unwrap_err();
        assert_eq!(e.code, "unknown-field");
        assert!(
            e.message.contains("did you mean \"effect\""),
            "{}",
            e.message
        );
        let t = toleration(
            &val(json!({"key": "a", "tolerationSeconds": 1_152_921_504_606_846_976.0_f64})),
            "t",
            NEWEST,
        )
        .unwrap();
        assert_eq!(t.toleration_seconds, Some(1 << 60));
        assert!(toleration(&val(json!({"tolerationSeconds": 1e20})), "t", NEWEST).is_err());
        assert!(toleration(&val(json!({"tolerationSeconds": 1.5})), "t", NEWEST).is_err());
    }

    #[test]
    fn text_errors_carry_line_column_and_path() {
        let text = "spec:\n  tolerations:\n  - key: a\n    value: yes\n";
        let e = pod(&val(json!(text)), "pod", NEWEST).unwrap_err();
        assert_eq!(e.code, "wrong-type");
        assert_eq!((e.location.line, e.location.column), (4, 12));
        assert_eq!(e.location.path, "spec.tolerations[0].value");
        assert_eq!(e.argument, "pod");
        assert!(
            e.message
                .starts_with("pod: document 1, line 4, column 12, at spec.tolerations[0].value: "),
            "{}",
            e.message
        );
    }

    #[test]
    fn kubernetes_objects_go_through_the_input_layer_without_positions() {
        let obj = val(
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
            "spec": {"tolerations": [{"key": "a", "value": true}]}}),
        );
        let e = pods(&V::Arr(vec![obj]), "pods", NEWEST).unwrap_err();
        assert_eq!(e.argument, "pods[0]");
        assert_eq!(e.location.path, "spec.tolerations[0].value");
        assert_eq!((e.location.line, e.location.column), (0, 0));
        let ok = val(
            json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent"},
            "spec": {"template": {"spec": {"hostNetwork": true, "tolerations": [{"operator": "Exists"}]}}}}),
        );
        let p = pod(&ok, "pod", NEWEST).unwrap();
        assert_eq!(p.kind, "DaemonSet");
        assert!(p.host_network);
        assert_eq!(p.pod.namespace, "default");
        assert_eq!(p.pod.tolerations.len(), 1);
    }

    #[test]
    fn text_nodes_apply_kubectl_taint_and_bare_specs() {
        let text = "kubectl taint nodes n1 dedicated=gpu:NoSchedule\n";
        let ns = nodes(&val(json!(text)), "nodes", NEWEST).unwrap();
        assert_eq!(ns.len(), 1);
        assert_eq!(ns[0].node.name, "n1");
        assert_eq!(ns[0].node.taints[0].key, "dedicated");
        let n = node(
            &val(json!({"name": "gpu", "taints": "a=b:NoSchedule c:NoExecute"})),
            "node",
            NEWEST,
        )
        .unwrap();
        assert_eq!(n.node.taints.len(), 2);
        let n = node(&val(json!("a=b:NoSchedule")), "node", NEWEST).unwrap();
        assert_eq!(n.node.name, "node");
        let e = node(
            &val(json!({"name": "n", "taints": [{"key": "a", "effect": 3}]})),
            "node",
            NEWEST,
        )
        .unwrap_err();
        assert_eq!(e.location.path, "node.taints[0].effect");
        let e = node(
            &val(json!("kubectl taint nodes n1 a=b:Bogus")),
            "node",
            NEWEST,
        )
        .unwrap_err();
        assert_eq!(e.code, "kubectl-command");
        assert_eq!(e.location.line, 1);
    }

    #[test]
    fn counts_are_checked() {
        let two = "{key: a, operator: Exists}\n---\n{key: b, operator: Exists}";
        assert_eq!(
            toleration(&val(json!(two)), "t", NEWEST).unwrap_err().code,
            "ambiguous"
        );
        assert_eq!(
            taint(&val(json!("")), "t", NEWEST).unwrap_err().code,
            "not-found"
        );
        assert_eq!(
            pod(&val(json!([])), "pod", NEWEST).unwrap_err().code,
            "wrong-type"
        );
    }

    #[test]
    fn versions_are_checked() {
        let o = val(json!({"kubernetesVersion": "1.30"}));
        let opts = Obj::options(&o, &VERSION_OPTIONS).unwrap();
        assert_eq!(kube_version(&opts).unwrap(), KubeVersion::new(30, 0));
        let bad = val(json!({"kubernetesVersion": "2.0"}));
        let e = kube_version(&Obj::options(&bad, &VERSION_OPTIONS).unwrap()).unwrap_err();
        assert_eq!(e.code, "invalid-version");
        assert_eq!(e.location.path, "options.kubernetesVersion");
        let e = Obj::options(&val(json!({"kubernetesVerison": "1.30"})), &VERSION_OPTIONS)
            .map(|_| ())
            .unwrap_err();
        assert!(
            e.message.contains("did you mean \"kubernetesVersion\""),
            "{}",
            e.message
        );
    }
}
