//! What one pane's text reads as, through the input layer, in a form that can cross to
//! and from the parse worker (serde), so small pastes are read on the main thread and
//! large ones in the worker with the same result.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use taintlab_core::{KubeVersion, Pod, QosClass, Taint, Toleration};
use taintlab_input::{
    ContainerResources, Diagnostic, Form, Limits, Location, Options, Parsed, Prefer,
    SchedulingEvent, Severity, TaintCommandLine, Workload,
};

/// Which pane a text belongs to; it decides how an ambiguous `{key, value, effect}`
/// object is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PaneKind {
    /// The Nodes pane: bare objects are taints.
    Nodes,
    /// The Pods pane: bare objects are tolerations.
    Pods,
}

/// Pastes above this size are read in the worker so typing never waits for them.
pub const WORKER_THRESHOLD_BYTES: usize = 256 * 1024;

/// The largest paste read at all: above the input layer's 64 MiB default, so a
/// 5,000-node `kubectl get nodes -o json` (about 78 MB) still fits.
pub const MAX_INPUT_BYTES: usize = 160 * 1024 * 1024;

/// A diagnostic, flattened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diag {
    /// True for errors, false for warnings.
    pub error: bool,
    /// 1-based line; 0 when the problem concerns the whole paste.
    pub line: usize,
    /// 1-based column; 0 when unknown.
    pub column: usize,
    /// Field path, when known.
    pub path: String,
    /// The input layer's message.
    pub message: String,
}

impl From<&Diagnostic> for Diag {
    fn from(d: &Diagnostic) -> Self {
        Self {
            error: d.severity == Severity::Error,
            line: d.location.line,
            column: d.location.column,
            path: d.location.path.clone(),
            message: d.message.clone(),
        }
    }
}

/// A node read from the paste.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PNode {
    /// The node.
    pub node: taintlab_core::Node,
    /// Where it starts.
    pub line: usize,
    /// Where each taint is (line per taint).
    pub taint_lines: Vec<usize>,
    /// `status.nodeInfo.kubeletVersion`.
    pub kubelet_version: Option<String>,
}

/// One container's resources.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PContainer {
    /// Name.
    pub name: String,
    /// Image.
    pub image: String,
    /// `resources.requests`.
    pub requests: BTreeMap<String, String>,
    /// `resources.limits`.
    pub limits: BTreeMap<String, String>,
}

/// A pod or workload read from the paste, mirroring the input layer's [`Workload`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PWorkload {
    /// `kind`.
    pub kind: String,
    /// `apiVersion`.
    pub api_version: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// The pod (template).
    pub pod: Pod,
    /// `spec.priority`.
    pub priority: Option<i32>,
    /// `spec.priorityClassName`.
    pub priority_class_name: String,
    /// `spec.hostNetwork`.
    pub host_network: bool,
    /// `spec.runtimeClassName`.
    pub runtime_class_name: String,
    /// Containers.
    pub containers: Vec<PContainer>,
    /// Init containers.
    pub init_containers: Vec<PContainer>,
    /// The QoS class the input states, as its API string.
    pub stated_qos_class: Option<String>,
    /// Where it starts.
    pub line: usize,
    /// Where each toleration is.
    pub toleration_lines: Vec<usize>,
}

fn container_from(c: &ContainerResources) -> PContainer {
    PContainer {
        name: c.name.clone(),
        image: c.image.clone(),
        requests: c.requests.clone(),
        limits: c.limits.clone(),
    }
}

fn container_to(c: &PContainer) -> ContainerResources {
    ContainerResources {
        name: c.name.clone(),
        image: c.image.clone(),
        requests: c.requests.clone(),
        limits: c.limits.clone(),
    }
}

fn qos_from_str(s: &str) -> Option<QosClass> {
    match s {
        "BestEffort" => Some(QosClass::BestEffort),
        "Burstable" => Some(QosClass::Burstable),
        "Guaranteed" => Some(QosClass::Guaranteed),
        _ => None,
    }
}

impl PWorkload {
    fn from_input(w: &Workload) -> Self {
        Self {
            kind: w.kind.clone(),
            api_version: w.api_version.clone(),
            name: w.name.clone(),
            namespace: w.namespace.clone(),
            pod: w.pod.clone(),
            priority: w.priority,
            priority_class_name: w.priority_class_name.clone(),
            host_network: w.host_network,
            runtime_class_name: w.runtime_class_name.clone(),
            containers: w.containers.iter().map(container_from).collect(),
            init_containers: w.init_containers.iter().map(container_from).collect(),
            stated_qos_class: w.stated_qos_class.map(|q| q.as_str().to_string()),
            line: w.location.line,
            toleration_lines: w.toleration_locations.iter().map(|l| l.line).collect(),
        }
    }

    /// Back to the input layer's type (for QoS, requested resources and emitting JSON).
    pub fn to_input(&self) -> Workload {
        Workload {
            kind: self.kind.clone(),
            api_version: self.api_version.clone(),
            name: self.name.clone(),
            namespace: self.namespace.clone(),
            pod: self.pod.clone(),
            priority: self.priority,
            priority_class_name: self.priority_class_name.clone(),
            host_network: self.host_network,
            runtime_class_name: self.runtime_class_name.clone(),
            containers: self.containers.iter().map(container_to).collect(),
            init_containers: self.init_containers.iter().map(container_to).collect(),
            stated_qos_class: self.stated_qos_class.as_deref().and_then(qos_from_str),
            location: Location::at(0, self.line, 1),
            toleration_locations: self
                .toleration_lines
                .iter()
                .map(|&l| Location::at(0, l, 1))
                .collect(),
            form: Form::Yaml,
        }
    }
}

/// A bare taint list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PTaints {
    /// The taints.
    pub taints: Vec<Taint>,
    /// Where the list starts.
    pub line: usize,
}

/// A bare toleration list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PTolerations {
    /// The tolerations.
    pub tolerations: Vec<Toleration>,
    /// Where the list starts.
    pub line: usize,
    /// Where each toleration is.
    pub lines: Vec<usize>,
}

/// A `kubectl taint` command line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PCommand {
    /// As written.
    pub text: String,
    /// Where it starts.
    pub line: usize,
    /// Arguments after `kubectl taint`.
    pub args: Vec<String>,
    /// kubectl's error for the command itself.
    pub error: Option<String>,
}

/// A FailedScheduling message found in the paste (re-read on demand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PEvent {
    /// The message text.
    pub message: String,
    /// Where it is.
    pub line: usize,
    /// Column.
    pub column: usize,
}

impl PEvent {
    /// The event, read by the input layer.
    pub fn read(&self) -> SchedulingEvent {
        taintlab_input::event::parse_message(&self.message, Location::at(1, self.line, self.column))
    }
}

/// Everything the app uses from one pane's text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneParse {
    /// Nodes.
    pub nodes: Vec<PNode>,
    /// Pods and workloads.
    pub workloads: Vec<PWorkload>,
    /// Bare taint lists.
    pub taint_lists: Vec<PTaints>,
    /// Bare toleration lists.
    pub toleration_lists: Vec<PTolerations>,
    /// `kubectl taint` commands.
    pub commands: Vec<PCommand>,
    /// FailedScheduling events.
    pub events: Vec<PEvent>,
    /// Errors and warnings, in input order.
    pub diagnostics: Vec<Diag>,
    /// Number of lines of the text.
    pub lines: usize,
    /// Size of the text in bytes.
    pub bytes: usize,
}

impl PaneParse {
    /// Flattens the input layer's result.
    pub fn from_parsed(p: &Parsed, text: &str) -> Self {
        Self {
            nodes: p
                .nodes
                .iter()
                .map(|n| PNode {
                    node: n.node.clone(),
                    line: n.location.line,
                    taint_lines: n.taint_locations.iter().map(|l| l.line).collect(),
                    kubelet_version: n.kubelet_version.clone(),
                })
                .collect(),
            workloads: p.workloads.iter().map(PWorkload::from_input).collect(),
            taint_lists: p
                .taint_lists
                .iter()
                .map(|l| PTaints {
                    taints: l.taints.clone(),
                    line: l.location.line,
                })
                .collect(),
            toleration_lists: p
                .toleration_lists
                .iter()
                .map(|l| PTolerations {
                    tolerations: l.tolerations.clone(),
                    line: l.location.line,
                    lines: l.locations.iter().map(|x| x.line).collect(),
                })
                .collect(),
            commands: p.taint_commands.iter().map(command_from).collect(),
            events: p
                .events
                .iter()
                .map(|e| PEvent {
                    message: e.message.clone(),
                    line: e.location.line,
                    column: e.location.column,
                })
                .collect(),
            diagnostics: p.diagnostics.iter().map(Diag::from).collect(),
            lines: text.lines().count(),
            bytes: text.len(),
        }
    }

    /// Errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diag> {
        self.diagnostics.iter().filter(|d| d.error)
    }

    /// True when nothing was read.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
            && self.workloads.is_empty()
            && self.taint_lists.is_empty()
            && self.toleration_lists.is_empty()
            && self.commands.is_empty()
            && self.events.is_empty()
    }
}

fn command_from(c: &TaintCommandLine) -> PCommand {
    PCommand {
        text: c.text.clone(),
        line: c.location.line,
        args: c.args.clone(),
        error: c.error.clone(),
    }
}

/// The options every pane uses: a larger size limit, and the pane's reading of bare
/// objects. kubectl messages use `version`.
pub fn options(kind: PaneKind, version: KubeVersion) -> Options {
    Options {
        limits: Limits {
            max_input_bytes: MAX_INPUT_BYTES,
            ..Limits::default()
        },
        prefer: match kind {
            PaneKind::Nodes => Prefer::Taints,
            PaneKind::Pods => Prefer::Tolerations,
        },
        kubectl_version: version,
        syntax: None,
    }
}

/// Reads one pane's text.
pub fn parse_pane(text: &str, kind: PaneKind) -> PaneParse {
    let parsed = taintlab_input::parse_with(text, &options(kind, KubeVersion::NEWEST));
    PaneParse::from_parsed(&parsed, text)
}

/// The worker's answer for a pane: the parse as JSON.
pub fn to_worker_json(p: &PaneParse) -> String {
    serde_json::to_string(p).unwrap_or_default()
}

/// Reads the worker's JSON back; `None` if it is not what [`parse_pane_json`] writes.
pub fn from_worker_json(json: &str) -> Option<PaneParse> {
    serde_json::from_str(json).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_pane_form() {
        let p = parse_pane(
            "kubectl taint nodes n1 dedicated=gpu:NoSchedule\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\nspec:\n  taints:\n  - {key: a, value: b, effect: NoExecute}\n",
            PaneKind::Nodes,
        );
        assert_eq!(p.commands.len(), 1);
        assert_eq!(p.commands[0].line, 1);
        assert_eq!(p.nodes.len(), 1);
        assert_eq!(p.nodes[0].node.name, "n2");
        assert_eq!(p.nodes[0].taint_lines, vec![8]);
    }

    #[test]
    fn worker_json_round_trips() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        resources: {requests: {cpu: 100m}}\n      tolerations:\n      - {key: k, operator: Exists}\n";
        let p = parse_pane(text, PaneKind::Pods);
        let back = from_worker_json(&to_worker_json(&p)).expect("valid JSON");
        assert_eq!(p, back);
        assert_eq!(back.workloads[0].toleration_lines, vec![12]);
        let w = back.workloads[0].to_input();
        assert_eq!(w.qos_class(), QosClass::Burstable);
    }

    #[test]
    fn errors_keep_their_line() {
        let p = parse_pane(
            "tolerations:\n- key: a\n  operator: Equal\n  effect: NoSchedul\n",
            PaneKind::Pods,
        );
        let e = p.errors().next().expect("an error");
        assert_eq!(e.line, 4);
    }
}
