//! Everything derived from the state: the cluster (nodes after `kubectl taint`
//! commands), the pods after DaemonSet defaults and admission, API validation, the
//! scheduling matrix and the pasted FailedScheduling events. Pure functions of the
//! parsed panes and the settings; the components only render the result.

use std::rc::Rc;

use taintlab_core::admission::{
    AdmissionRejection, AdmittedPod, Operation, PodAdmissionPlugins, PodAdmissionRequest,
    TolerationOrigin, admit_pod,
    default_toleration_seconds::DefaultTolerationSecondsConfig,
    pod_toleration_restriction::{
        NamespaceAnnotation, NamespaceTolerations, PodTolerationRestrictionConfig,
    },
};
use taintlab_core::daemonset::add_or_update_daemon_pod_tolerations;
use taintlab_core::eviction::{EvictionDelay, NoExecuteVerdict, no_execute_verdict};
use taintlab_core::kubectl::command::NodeTarget;
use taintlab_core::scheduling::{ClusterResult, Verdict, schedule};
use taintlab_core::validation::{FieldError, api_status_message, validate_tolerations};
use taintlab_core::{KubeVersion, Node, Pod, Semantics, Toleration};
use taintlab_input::SchedulingEvent;

use crate::parse::{PWorkload, PaneKind, PaneParse};
use crate::store::Admission;

/// A node of the modelled cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeEntry {
    /// The node, after every `kubectl taint` command.
    pub node: Node,
    /// The pane it came from.
    pub pane: PaneKind,
    /// Its line there (0 for a node created for a command).
    pub line: usize,
    /// True when no such node was pasted and a `kubectl taint` command named it.
    pub created: bool,
}

/// A `kubectl taint` command and what kubectl prints for it.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandEntry {
    /// The pane it came from.
    pub pane: PaneKind,
    /// Its line.
    pub line: usize,
    /// The command as written.
    pub text: String,
    /// kubectl's stdout.
    pub stdout: String,
    /// kubectl's stderr.
    pub stderr: String,
    /// kubectl's logged warnings.
    pub warnings: Vec<String>,
    /// Nodes created because the command named them and no such node was pasted.
    pub created: Vec<String>,
}

/// Where a pod's toleration came from, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Written in the paste.
    Pod,
    /// Added by the DaemonSet controller.
    DaemonSet,
    /// Added by an admission plugin.
    Admission(TolerationOrigin),
}

/// A pod of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct PodEntry {
    /// The pod with its final tolerations (after DaemonSet defaults and admission).
    pub pod: Pod,
    /// `kind` of the object (`Pod`, `Deployment`, ...; `Tolerations` for a bare list).
    pub kind: String,
    /// The pane it came from.
    pub pane: PaneKind,
    /// Its line there.
    pub line: usize,
    /// The tolerations as written.
    pub submitted: Vec<Toleration>,
    /// Line of each written toleration.
    pub toleration_lines: Vec<usize>,
    /// Treated as a DaemonSet pod.
    pub daemon: bool,
    /// The final tolerations with their origin.
    pub tolerations: Vec<(Toleration, Origin)>,
    /// Tolerations dropped or overwritten during admission.
    pub dropped: Vec<Toleration>,
    /// Admission's rejection, if any (the pod would not be created).
    pub rejection: Option<String>,
    /// API validation errors of the written tolerations, at their field paths.
    pub validation: Vec<FieldError>,
    /// The API server's status message for those errors.
    pub status_message: Option<String>,
    /// The object, when the pod came from an object (for the Kubewarden tab).
    pub workload: Option<PWorkload>,
}

impl PodEntry {
    /// `namespace/name`, or `name` in the default namespace.
    pub fn label(&self) -> String {
        if self.pod.namespace.is_empty() || self.pod.namespace == "default" {
            self.pod.name.clone()
        } else {
            format!("{}/{}", self.pod.namespace, self.pod.name)
        }
    }
}

/// A pasted FailedScheduling event.
#[derive(Clone, Debug, PartialEq)]
pub struct EventEntry {
    /// The pane it came from.
    pub pane: PaneKind,
    /// The event, read.
    pub event: SchedulingEvent,
}

/// The settings that shape the analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Release and gate.
    pub semantics: Semantics,
    /// Admission settings.
    pub admission: Admission,
}

/// Everything derived.
pub struct Analysis {
    /// Release and gate.
    pub semantics: Semantics,
    /// The cluster.
    pub nodes: Vec<NodeEntry>,
    /// The pods.
    pub pods: Vec<PodEntry>,
    /// `kubectl taint` commands.
    pub commands: Vec<CommandEntry>,
    /// Pasted events.
    pub events: Vec<EventEntry>,
    /// Problems in the admission configuration (e.g. an unreadable annotation).
    pub config_errors: Vec<String>,
    /// The scheduler's view of every pod on every node.
    pub result: ClusterResult<'static>,
    /// Pod objects taken from each pane in order (Nodes pane first).
    pub node_list: Rc<Vec<Node>>,
}

/// Identity: an analysis is only equal to itself, so components re-render when a new
/// one is computed and never compare thousands of nodes.
impl PartialEq for Analysis {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Analysis {}

/// What a cell of the matrix shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// Passes every filter, no penalty.
    Schedulable,
    /// Passes, with untolerated PreferNoSchedule taints.
    Penalized,
    /// Rejected by a filter.
    Blocked,
    /// The pod is bound elsewhere and bypasses the scheduler.
    Elsewhere,
    /// The pod is bound here (spec.nodeName) and bypasses the scheduler.
    BoundHere,
}

/// One matrix cell, ready to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    /// The kind.
    pub kind: CellKind,
    /// The verdict.
    pub verdict: Verdict,
    /// Normalized TaintToleration score (0..=100) on feasible nodes.
    pub score: Option<i64>,
    /// What the NoExecute taints mean for a pod running here.
    pub eviction: NoExecuteVerdict,
}

impl CellView {
    /// True when a pod running here would be evicted (now or after a delay).
    pub fn evicted(&self) -> bool {
        matches!(
            self.eviction,
            NoExecuteVerdict::Untolerated
                | NoExecuteVerdict::Tolerated(
                    EvictionDelay::Immediate | EvictionDelay::After { .. }
                )
        )
    }
}

fn qualified_kind(kind: &str, api_version: &str) -> String {
    if kind == "Tolerations" {
        return "Pod".into();
    }
    match api_version.split_once('/') {
        Some((group, _)) if !group.is_empty() => format!("{kind}.{group}"),
        _ => kind.to_string(),
    }
}

fn tolerations_path(kind: &str) -> &'static str {
    match kind {
        "Pod" | "Tolerations" => "spec.tolerations",
        "CronJob" => "spec.jobTemplate.spec.template.spec.tolerations",
        _ => "spec.template.spec.tolerations",
    }
}

/// Reads the PodTolerationRestriction cluster tolerations from any toleration form.
fn read_tolerations(text: &str) -> Result<Vec<Toleration>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let p = crate::parse::parse_pane(text, PaneKind::Pods);
    if let Some(e) = p.errors().next() {
        return Err(format!("line {}: {}", e.line, e.message));
    }
    let mut out: Vec<Toleration> = Vec::new();
    for l in &p.toleration_lists {
        out.extend(l.tolerations.iter().cloned());
    }
    for w in &p.workloads {
        out.extend(w.pod.tolerations.iter().cloned());
    }
    Ok(out)
}

/// Reads a namespace annotation value as the API server does (a JSON list).
fn read_annotation(value: Option<&str>) -> NamespaceAnnotation {
    NamespaceAnnotation::from_annotation_value(value, |json| {
        serde_json::from_str::<Vec<Toleration>>(json).map_err(|e| e.to_string())
    })
}

struct Plugins {
    plugins: PodAdmissionPlugins,
    namespace: NamespaceTolerations,
    errors: Vec<String>,
}

fn plugins(a: &Admission) -> Plugins {
    let mut errors = Vec::new();
    let pod_toleration_restriction = if a.pod_toleration_restriction {
        let default = read_tolerations(&a.cluster_default).unwrap_or_else(|e| {
            errors.push(format!("PodTolerationRestriction default: {e}"));
            Vec::new()
        });
        let whitelist = read_tolerations(&a.cluster_whitelist).unwrap_or_else(|e| {
            errors.push(format!("PodTolerationRestriction whitelist: {e}"));
            Vec::new()
        });
        Some(PodTolerationRestrictionConfig { default, whitelist })
    } else {
        None
    };
    Plugins {
        plugins: PodAdmissionPlugins {
            default_toleration_seconds: a.default_toleration_seconds.then_some(
                DefaultTolerationSecondsConfig {
                    not_ready_seconds: a.not_ready_seconds,
                    unreachable_seconds: a.unreachable_seconds,
                },
            ),
            pod_toleration_restriction,
            extended_resource_toleration: a.extended_resource_toleration,
        },
        namespace: NamespaceTolerations {
            default_tolerations: read_annotation(a.namespace_default.as_deref()),
            tolerations_whitelist: read_annotation(a.namespace_whitelist.as_deref()),
        },
        errors,
    }
}

/// Applies the `kubectl taint` commands of both panes to the pasted nodes, in order.
fn build_nodes(
    panes: &[(&PaneParse, PaneKind)],
    version: KubeVersion,
) -> (Vec<NodeEntry>, Vec<CommandEntry>) {
    let mut nodes: Vec<NodeEntry> = Vec::new();
    let mut anonymous = 0usize;
    for (p, kind) in panes {
        for n in &p.nodes {
            nodes.push(NodeEntry {
                node: n.node.clone(),
                pane: *kind,
                line: n.line,
                created: false,
            });
        }
        // Bare taint lists only make nodes in the Nodes pane.
        if *kind == PaneKind::Nodes {
            for l in &p.taint_lists {
                anonymous += 1;
                nodes.push(NodeEntry {
                    node: Node {
                        name: format!("node-{anonymous}"),
                        taints: l.taints.clone(),
                        ..Node::default()
                    },
                    pane: *kind,
                    line: l.line,
                    created: false,
                });
            }
        }
    }
    let mut commands = Vec::new();
    for (p, kind) in panes {
        for c in &p.commands {
            let mut created = Vec::new();
            // A command naming nodes that were not pasted creates them, so a paste of
            // `kubectl taint` lines alone is a cluster.
            if let Ok(cmd) = taintlab_core::kubectl::parse_taint_command(&c.args, version)
                && let NodeTarget::Names(names) = &cmd.target
            {
                for name in names {
                    if !nodes.iter().any(|n| &n.node.name == name) {
                        created.push(name.clone());
                        nodes.push(NodeEntry {
                            node: Node {
                                name: name.clone(),
                                ..Node::default()
                            },
                            pane: *kind,
                            line: c.line,
                            created: true,
                        });
                    }
                }
            }
            let current: Vec<Node> = nodes.iter().map(|n| n.node.clone()).collect();
            let run =
                taintlab_core::kubectl::command::run_kubectl_taint(&c.args, &current, version);
            for (entry, node) in nodes.iter_mut().zip(run.nodes) {
                entry.node = node;
            }
            commands.push(CommandEntry {
                pane: *kind,
                line: c.line,
                text: c.text.clone(),
                stdout: run.stdout,
                stderr: run.stderr,
                warnings: run.warnings,
                created,
            });
        }
    }
    (nodes, commands)
}

fn origin_of(o: TolerationOrigin, t: &Toleration, written: &[Toleration]) -> Origin {
    match o {
        TolerationOrigin::Pod if written.contains(t) => Origin::Pod,
        TolerationOrigin::Pod => Origin::DaemonSet,
        other => Origin::Admission(other),
    }
}

/// Where a pod came from in the panes.
struct Source {
    kind: String,
    pane: PaneKind,
    line: usize,
    toleration_lines: Vec<usize>,
}

fn pod_entry(
    w: Option<&PWorkload>,
    mut pod: Pod,
    src: Source,
    config: &Config,
    plugins: &Plugins,
) -> PodEntry {
    let Source {
        kind,
        pane,
        line,
        toleration_lines,
    } = src;
    let version = config.semantics.version;
    let submitted = pod.tolerations.clone();
    let api_version = w.map(|w| w.api_version.as_str()).unwrap_or("v1");
    let validation = validate_tolerations(
        &submitted,
        tolerations_path(&kind),
        config.semantics.comparison_operators_enabled(),
        version,
    );
    let status_message =
        api_status_message(&qualified_kind(&kind, api_version), &pod.name, &validation);
    let daemon = kind == "DaemonSet" || config.admission.daemonset;
    let host_network = w.is_some_and(|w| w.host_network);
    let mut tolerations = submitted.clone();
    if daemon {
        add_or_update_daemon_pod_tolerations(&mut tolerations, host_network);
    }
    let mut with_origin: Vec<(Toleration, Origin)> = tolerations
        .iter()
        .map(|t| {
            let o = if submitted.contains(t) {
                Origin::Pod
            } else {
                Origin::DaemonSet
            };
            (t.clone(), o)
        })
        .collect();
    let mut dropped = Vec::new();
    let mut rejection = None;
    if config.admission.enabled {
        let input = w.map(PWorkload::to_input);
        let requested: Vec<String> = input
            .as_ref()
            .map(|w| w.requested_resources().into_iter().collect())
            .unwrap_or_default();
        let qos = input.as_ref().map(|w| w.qos_class()).unwrap_or_default();
        let request = PodAdmissionRequest {
            operation: Operation::Create,
            tolerations: &tolerations,
            qos_class: qos,
            requested_resources: &requested,
            namespace: &plugins.namespace,
        };
        match admit_pod(&plugins.plugins, &request) {
            Ok(AdmittedPod {
                tolerations: admitted,
                dropped: gone,
            }) => {
                with_origin = admitted
                    .into_iter()
                    .map(|a| {
                        let o = origin_of(a.origin, &a.toleration, &submitted);
                        (a.toleration, o)
                    })
                    .collect();
                dropped = gone.into_iter().map(|d| d.toleration).collect();
            }
            Err(AdmissionRejection { error, .. }) => {
                rejection = Some(error.to_string());
            }
        }
    }
    pod.tolerations = with_origin.iter().map(|(t, _)| t.clone()).collect();
    PodEntry {
        pod,
        kind,
        pane,
        line,
        submitted,
        toleration_lines,
        daemon,
        tolerations: with_origin,
        dropped,
        rejection,
        validation,
        status_message,
        workload: w.cloned(),
    }
}

/// Builds the pods of both panes.
fn build_pods(
    panes: &[(&PaneParse, PaneKind)],
    config: &Config,
    plugins: &Plugins,
) -> Vec<PodEntry> {
    let mut pods = Vec::new();
    let mut anonymous = 0usize;
    for (p, kind) in panes {
        for w in &p.workloads {
            let mut pod = w.pod.clone();
            if pod.namespace.is_empty() {
                pod.namespace = "default".into();
            }
            let src = Source {
                kind: w.kind.clone(),
                pane: *kind,
                line: w.line,
                toleration_lines: w.toleration_lines.clone(),
            };
            pods.push(pod_entry(Some(w), pod, src, config, plugins));
        }
        if *kind == PaneKind::Pods {
            for l in &p.toleration_lists {
                anonymous += 1;
                let pod = Pod {
                    namespace: "default".into(),
                    name: format!("pod-{anonymous}"),
                    tolerations: l.tolerations.clone(),
                    ..Pod::default()
                };
                let src = Source {
                    kind: "Tolerations".into(),
                    pane: *kind,
                    line: l.line,
                    toleration_lines: l.lines.clone(),
                };
                pods.push(pod_entry(None, pod, src, config, plugins));
            }
        }
    }
    pods
}

/// Derives everything from the two parsed panes and the settings.
pub fn analyse(nodes_pane: &PaneParse, pods_pane: &PaneParse, config: &Config) -> Analysis {
    let panes = [(nodes_pane, PaneKind::Nodes), (pods_pane, PaneKind::Pods)];
    let (nodes, commands) = build_nodes(&panes, config.semantics.version);
    let plugins = plugins(&config.admission);
    let pods = build_pods(&panes, config, &plugins);
    let mut events = Vec::new();
    for (p, kind) in panes {
        for e in &p.events {
            events.push(EventEntry {
                pane: kind,
                event: e.read(),
            });
        }
    }
    let node_list: Vec<Node> = nodes.iter().map(|n| n.node.clone()).collect();
    let pod_list: Vec<Pod> = pods.iter().map(|p| p.pod.clone()).collect();
    let result = schedule(&pod_list, &node_list, config.semantics);
    Analysis {
        semantics: config.semantics,
        nodes,
        pods,
        commands,
        events,
        config_errors: plugins.errors,
        result,
        node_list: Rc::new(node_list),
    }
}

impl Analysis {
    /// The cell for pod `p` on node `n`.
    pub fn cell(&self, p: usize, n: usize) -> Option<CellView> {
        let pod = self.pods.get(p)?;
        let node = self.nodes.get(n)?;
        let cell = self.result.cell(p, n)?;
        let gate = self.semantics.comparison_operators_enabled();
        let eviction = no_execute_verdict(&node.node.taints, &pod.pod.tolerations, gate);
        let kind = match cell.verdict {
            Verdict::Bypassed if pod.pod.node_name == node.node.name => CellKind::BoundHere,
            Verdict::Bypassed => CellKind::Elsewhere,
            Verdict::Schedulable => CellKind::Schedulable,
            Verdict::Penalized { .. } => CellKind::Penalized,
            Verdict::Unschedulable | Verdict::Untolerated { .. } => CellKind::Blocked,
        };
        Some(CellView {
            kind,
            verdict: cell.verdict,
            score: cell.score,
            eviction,
        })
    }

    /// The FailedScheduling message of a pod that fits nowhere.
    pub fn message(&self, p: usize) -> Option<&str> {
        self.result.message(p)
    }

    /// Pods whose computed message is exactly this text.
    pub fn pods_with_message(&self, message: &str) -> Vec<usize> {
        (0..self.pods.len())
            .filter(|&p| self.result.message(p) == Some(message))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_pane;

    fn config() -> Config {
        Config {
            semantics: Semantics::newest(),
            admission: Admission::default(),
        }
    }

    #[test]
    fn taint_commands_make_a_cluster_and_pods_are_admitted() {
        let nodes = parse_pane(
            "kubectl taint nodes gpu-1 nvidia.com/gpu=present:NoSchedule\nkubectl taint nodes cpu-1 spot=true:PreferNoSchedule\n",
            PaneKind::Nodes,
        );
        let pods = parse_pane(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx}]\n",
            PaneKind::Pods,
        );
        let a = analyse(&nodes, &pods, &config());
        assert_eq!(a.nodes.len(), 2);
        assert!(a.nodes.iter().all(|n| n.created));
        assert_eq!(a.nodes[0].node.taints.len(), 1);
        assert_eq!(a.commands[0].stdout, "node/gpu-1 tainted\n");
        // DefaultTolerationSeconds added not-ready and unreachable.
        assert_eq!(a.pods[0].pod.tolerations.len(), 2);
        assert!(matches!(
            a.pods[0].tolerations[0].1,
            Origin::Admission(TolerationOrigin::DefaultTolerationSeconds)
        ));
        assert_eq!(a.cell(0, 0).map(|c| c.kind), Some(CellKind::Blocked));
        assert_eq!(a.cell(0, 1).map(|c| c.kind), Some(CellKind::Penalized));
        assert_eq!(a.message(0), None);
    }

    #[test]
    fn failed_scheduling_message_and_validation() {
        let nodes = parse_pane("kubectl taint nodes n1 a=b:NoSchedule\n", PaneKind::Nodes);
        let pods = parse_pane(
            "tolerations:\n- key: a\n  operator: Exists\n  value: b\n  effect: NoExecute\n",
            PaneKind::Pods,
        );
        let a = analyse(&nodes, &pods, &config());
        assert_eq!(
            a.message(0),
            Some(
                "0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
            )
        );
        let status = a.pods[0].status_message.as_deref().expect("invalid");
        assert!(
            status.starts_with("Pod \"pod-1\" is invalid: spec.tolerations[0].operator"),
            "{status}"
        );
        assert_eq!(a.pods[0].toleration_lines, vec![2]);
    }

    #[test]
    fn daemonset_pods_get_the_daemon_tolerations() {
        let nodes = parse_pane(
            "kubectl taint nodes n1 node.kubernetes.io/unschedulable:NoSchedule\n",
            PaneKind::Nodes,
        );
        let pods = parse_pane(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n",
            PaneKind::Pods,
        );
        let a = analyse(&nodes, &pods, &config());
        assert!(a.pods[0].daemon);
        assert!(
            a.pods[0]
                .tolerations
                .iter()
                .any(|(_, o)| *o == Origin::DaemonSet)
        );
        assert_eq!(a.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
    }
}
