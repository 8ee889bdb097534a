//! # taintlab-scenario
//!
//! The one path from pasted text to what Kubernetes does with it, shared by every edge
//! (the playground, the npm package and its `<taint-check>` element, a command-line
//! tool): texts and [`Options`] in, one [`Scenario`] out.
//!
//! * Texts are read per pane ([`ParsedPane`], by the input layer with its limits);
//!   [`Panes`] keeps the last reading of each pane so an edit re-reads only its pane.
//! * [`Scenario::build`] derives the cluster (nodes after `kubectl taint` commands,
//!   nodes created for commands that name unknown nodes), the pods after the DaemonSet
//!   controller and admission (the origin and location of every toleration), API
//!   validation at upstream's field paths, the scheduling matrix, the pasted
//!   FailedScheduling events and every diagnostic with its location ([`Finding`]).
//! * [`Scenario::placement`] runs the default profile's full filter chain for every pod
//!   (node affinity, ports, resources against the pasted running pods, preemption,
//!   scheduling gates, per-node DaemonSet pods; see [`placement`]); its views are
//!   [`Scenario::placement_cell`], [`Scenario::explain_placement`],
//!   [`Scenario::pod_scheduling`], [`Scenario::node_resources`] and
//!   [`Scenario::daemon_check`].
//! * Per-pair views are computed on demand: [`Scenario::cell`], [`Scenario::explain`],
//!   [`Scenario::eviction`]; so are the AdmissionRequests and the Kubewarden policy's
//!   decisions ([`Scenario::policy`]).
//!
//! ## Anonymous lists
//!
//! A bare taint list (a `taints:` list, a single taint object, `key=value:Effect`
//! specs) is one node; a bare toleration list (a `tolerations:` list, a single
//! toleration object, a describe `Tolerations:` block) is one pod. They are named
//! `node-1`, `node-2`, ... and `pod-1`, `pod-2`, ... (pods in `default`), numbered in
//! paste order across the panes, Nodes pane first. The pane only decides how an
//! ambiguous `{key, value, effect}` object reads (a taint in the Nodes pane and in a
//! combined text, a toleration in the Pods pane). Within a pane, nodes and pods are
//! listed in paste order; nodes created by `kubectl taint` commands come last.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod blocks;
pub mod cluster;
pub mod options;
pub mod pane;
pub mod placement;
pub mod pods;
pub mod policy;
pub mod view;
pub mod what_if;

use taintlab_core::scheduling::{ClusterResult, schedule};
use taintlab_core::{Node, Pod, Semantics};
use taintlab_input::{Code, Location, SchedulingEvent, Severity};

pub use blocks::{Block, Fact, blocks, form_label, join_facts};
pub use cluster::{CommandEntry, NodeEntry, NodeOrigin};
pub use options::{
    AdmissionOptions, Options, RestrictionOptions, TolerationsInput, annotation_from_json,
    read_tolerations,
};
pub use pane::{MAX_INPUT_BYTES, PaneKind, Panes, ParsedPane, parse_options, split_combined};
pub use placement::{
    CellScores, DaemonNodeCheck, DaemonPod, EventTrace, FilterState, FilterStep, Hold, LabelCheck,
    NodeResources, Placement, PlacementCell, PlacementExplanation, PodScheduling, ResourceBar,
    UNMODELLED_FILTER_PLUGINS, UNMODELLED_SCORE_PLUGINS,
};
pub use pods::{
    DroppedEntry, Origin, PodEntry, PodOrigin, PriorityResolution, SYSTEM_PRIORITY_CLASSES,
    TolerationEntry, resolve_priority,
};
pub use policy::{
    Envelope, PolicyAnswer, UserInfo, admission_request, admission_request_around, json_patch,
    read_settings,
};
pub use view::{CellKind, CellView, eviction_on};
pub use what_if::{
    ACTION_FORMS, WhatIfCluster, WhatIfNote, format_action, parse_action, parse_actions,
};

/// Where something is: the pane and the location in its text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The pane.
    pub pane: PaneKind,
    /// The location in the pane's text.
    pub location: Location,
}

impl Source {
    /// A source.
    pub fn new(pane: PaneKind, location: Location) -> Self {
        Self { pane, location }
    }
}

/// Sorts items by where they are in their pane's text (stable).
///
/// The sort itself runs once, on positions (see [`position_order`]); only the small
/// permutation below is instantiated per item type, which keeps one copy of the sort in
/// the WebAssembly builds.
pub(crate) fn by_position<T>(items: &mut [(Location, T)]) {
    let mut keys: Vec<(usize, usize, usize)> = Vec::with_capacity(items.len());
    for (l, _) in items.iter() {
        keys.push((l.document, l.line, l.column));
    }
    let mut order = position_order(&keys);
    // Apply the permutation in place, one cycle at a time: position `k` receives the item
    // at `order[k]`; a visited position is marked `usize::MAX`.
    for start in 0..items.len() {
        let mut k = start;
        while let Some(&next) = order.get(k).filter(|&&n| n != usize::MAX) {
            order[k] = usize::MAX;
            if next == start {
                break;
            }
            items.swap(k, next);
            k = next;
        }
    }
}

/// The indices of `keys` in stable sorted order.
fn position_order(keys: &[(usize, usize, usize)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    taintlab_core::sort::sort_by_key(&mut order, |&i| keys[i]);
    order
}

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// The input layer's diagnostic, with its code.
    Input(Code),
    /// kubectl rejected a `kubectl taint` command or failed on a node (its stderr).
    Kubectl,
    /// The API server would reject a pod's tolerations (upstream's field path).
    Validation,
    /// An admission plugin rejects a pod, or (a warning) the Priority plugin's answer
    /// depends on a PriorityClass that is not pasted.
    Admission,
    /// The admission configuration could not be read.
    Configuration,
    /// Something the scheduling answer depends on: a pod the default scheduler does not
    /// place (another `schedulerName`), a scheduling-gated pod, a node whose
    /// allocatable is unknown while pods request resources.
    Scheduling,
}

/// A diagnostic of the scenario, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// What it is about.
    pub kind: FindingKind,
    /// The pane, `None` for the configuration.
    pub pane: Option<PaneKind>,
    /// Where in the pane's text; for validation errors the toleration's location with
    /// upstream's field path (`template.spec.tolerations[0].operator`).
    pub location: Location,
    /// The message (upstream's text where there is one).
    pub message: String,
}

/// A pasted FailedScheduling event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventEntry {
    /// The pane it was pasted in.
    pub pane: PaneKind,
    /// The event, read.
    pub event: SchedulingEvent,
}

/// The cluster's objects as the scenario reads them, without anything scheduled: the
/// nodes after every `kubectl taint` command, the pods after admission and the DaemonSet
/// controller as `options` set them. For callers that only need the objects (npm's
/// tools module reads nodes and pods this way), so they do not link the scheduler.
pub struct Objects {
    /// As [`Scenario::nodes`].
    pub nodes: Vec<NodeEntry>,
    /// As [`Scenario::pods`].
    pub pods: Vec<PodEntry>,
    /// As [`Scenario::commands`].
    pub commands: Vec<CommandEntry>,
    /// As [`Scenario::config_errors`].
    pub config_errors: Vec<String>,
}

impl Objects {
    /// Reads `panes` as [`Scenario::build`] does, up to (not including) scheduling.
    pub fn read(panes: &[&ParsedPane], options: &Options) -> Self {
        let mut anonymous_nodes = 0;
        let (nodes, commands) =
            cluster::build(panes, options.semantics.version, &mut anonymous_nodes);
        let mut config_errors = Vec::new();
        let plugins = options
            .admission
            .as_ref()
            .map(|a| pods::plugins(a, &mut config_errors));
        let mut anonymous_pods = 0;
        let pods = pods::build(panes, options, plugins.as_ref(), &mut anonymous_pods);
        Self {
            nodes,
            pods,
            commands,
            config_errors,
        }
    }
}

/// Everything derived from the texts and the options.
pub struct Scenario {
    /// Release and gate.
    pub semantics: Semantics,
    /// The cluster's nodes: pasted ones in pane and paste order, then the ones created
    /// by commands.
    pub nodes: Vec<NodeEntry>,
    /// The pods, in pane and paste order.
    pub pods: Vec<PodEntry>,
    /// `kubectl taint` commands, in the order they ran.
    pub commands: Vec<CommandEntry>,
    /// Pasted FailedScheduling events.
    pub events: Vec<EventEntry>,
    /// Problems in the admission configuration (an unreadable toleration list).
    pub config_errors: Vec<String>,
    /// Every diagnostic: the input layer's, kubectl's, validation, admission and
    /// configuration, pane by pane.
    pub findings: Vec<Finding>,
    /// The taint filters' view of every pod (row, as in [`Scenario::pods`]) on every
    /// node (column, as in [`Scenario::nodes`]): NodeUnschedulable and TaintToleration
    /// only, and the TaintToleration score over the nodes that pass them. The full
    /// answer (node affinity, ports, resources, preemption) is [`Scenario::placement`],
    /// which [`Scenario::cell`] and [`Scenario::message`] use. Pods admission rejects are
    /// scheduled too.
    pub result: ClusterResult<'static>,
    /// The full filter chain of the default profile for every pod on the cluster, with
    /// the pasted running pods as load (see [`placement`]).
    pub placement: Placement,
    /// Pasted PodDisruptionBudgets, which what-if simulations check evictions against.
    pub disruption_budgets: Vec<(taintlab_input::DisruptionBudget, Source)>,
}

impl Scenario {
    /// Derives the scenario of `panes` (for the playground the Nodes pane then the Pods
    /// pane; for one combined text a single [`PaneKind::Combined`] pane).
    pub fn build(panes: &[&ParsedPane], options: &Options) -> Self {
        Self::derive(panes, options, true)
    }

    /// [`Scenario::build`] without the scheduling of every pod on every node: its
    /// [`Scenario::result`] and [`Scenario::placement`] hold no pods, and the findings
    /// that come from them are absent. This is what a what-if run needs
    /// ([`Scenario::what_if_cluster`] reads the objects, admission and budgets only): for
    /// 5,000 nodes and 50,000 pods the full matrix is 250 million cells, far more work
    /// than the simulation itself.
    pub fn build_for_what_if(panes: &[&ParsedPane], options: &Options) -> Self {
        Self::derive(panes, options, false)
    }

    fn derive(panes: &[&ParsedPane], options: &Options, schedule_all: bool) -> Self {
        let semantics = options.semantics;
        let Objects {
            nodes,
            pods,
            commands,
            config_errors,
        } = Objects::read(panes, options);
        let mut events = Vec::new();
        for p in panes {
            for e in &p.parsed.events {
                events.push(EventEntry {
                    pane: p.kind,
                    event: e.clone(),
                });
            }
        }
        let mut findings = findings(panes, &commands, &pods, &config_errors);
        let scheduled: &[PodEntry] = if schedule_all { &pods } else { &[] };
        let mut node_list: Vec<Node> = Vec::with_capacity(nodes.len());
        for n in &nodes {
            node_list.push(n.node.clone());
        }
        let mut pod_list: Vec<Pod> = Vec::with_capacity(scheduled.len());
        for p in scheduled {
            pod_list.push(p.pod.clone());
        }
        let result = schedule(&pod_list, &node_list, semantics);
        let placement = placement::build(&nodes, scheduled, semantics);
        if schedule_all {
            let more = scheduling_findings(&nodes, &pods, &placement, &findings);
            findings.extend(more);
        }
        let mut disruption_budgets = Vec::new();
        for p in panes {
            for b in &p.parsed.disruption_budgets {
                disruption_budgets.push((b.clone(), Source::new(p.kind, b.location.clone())));
            }
        }
        Self {
            semantics,
            nodes,
            pods,
            commands,
            events,
            config_errors,
            findings,
            result,
            placement,
            disruption_budgets,
        }
    }

    /// The scenario of one text holding nodes and pods (read as a
    /// [`PaneKind::Combined`] pane).
    pub fn from_text(text: &str, options: &Options) -> Self {
        let pane = ParsedPane::parse(text, PaneKind::Combined, options.semantics.version);
        Self::build(&[&pane], options)
    }

    /// The errors among [`Scenario::findings`].
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
    }
}

/// Diagnostics about what the scheduling answer cannot or does not cover.
fn scheduling_findings(
    nodes: &[NodeEntry],
    pods: &[PodEntry],
    placement: &Placement,
    earlier: &[Finding],
) -> Vec<Finding> {
    use taintlab_core::scheduling::placement::DEFAULT_SCHEDULER_NAME;
    let mut out = Vec::new();
    let warn = |pane: PaneKind, location: &Location, message: String| Finding {
        severity: Severity::Warning,
        kind: FindingKind::Scheduling,
        pane: Some(pane),
        location: location.clone(),
        message,
    };
    for (p, sp) in pods.iter().zip(&placement.pods) {
        if !sp.pod.node_name.is_empty() {
            continue;
        }
        let name = sp.placement.scheduler_name.as_str();
        // The input layer already says so where it reads the field.
        let said = || {
            earlier.iter().any(|f| {
                f.kind == FindingKind::Input(Code::NotModelled)
                    && f.pane == Some(p.source.pane)
                    && f.message.contains(&format!("schedulerName \"{name}\""))
            })
        };
        if !name.is_empty() && name != DEFAULT_SCHEDULER_NAME {
            if said() {
                continue;
            }
            out.push(warn(
                p.source.pane,
                &p.source.location,
                format!(
                    "{} sets schedulerName: {name}: the default scheduler does not place it, \
                     and this answer is the default scheduler's",
                    p.label()
                ),
            ));
        } else if !sp.placement.scheduling_gates.is_empty() {
            let gates = sp.placement.scheduling_gates.join(", ");
            out.push(warn(
                p.source.pane,
                &p.source.location,
                if placement.options.honours_scheduling_gates() {
                    format!(
                        "{} has scheduling gates ({gates}): the scheduler does not try to place \
                         it until they are removed, and it gets no FailedScheduling event",
                        p.label()
                    )
                } else {
                    format!(
                        "{} has scheduling gates ({gates}): Kubernetes {} drops \
                         spec.schedulingGates (the PodSchedulingReadiness gate is off), so the \
                         pod is scheduled",
                        p.label(),
                        placement.options.semantics.version
                    )
                },
            ));
        }
    }
    let requests_something = placement
        .pods
        .iter()
        .zip(&placement.requests)
        .any(|(p, r)| {
            p.pod.node_name.is_empty()
                && (r.milli_cpu > 0
                    || r.memory > 0
                    || r.ephemeral_storage > 0
                    || !r.scalar.is_empty())
        });
    for (n, alloc) in nodes.iter().zip(&placement.allocatable) {
        match alloc {
            None if requests_something => out.push(warn(
                n.source.pane,
                &n.source.location,
                format!(
                    "node {}: status.allocatable is not in the paste, so resources are not \
                     checked on it (a real scheduler may find it full)",
                    n.node.name
                ),
            )),
            Some(a) if !a.contains_key(taintlab_core::resource::PODS) => out.push(warn(
                n.source.pane,
                &n.source.location,
                format!(
                    "node {}: status.allocatable has no pods entry, so the scheduler allows no \
                     pod on it (Too many pods)",
                    n.node.name
                ),
            )),
            _ => {}
        }
    }
    out
}

fn findings(
    panes: &[&ParsedPane],
    commands: &[CommandEntry],
    pods: &[PodEntry],
    config_errors: &[String],
) -> Vec<Finding> {
    // Loops rather than iterator chains collected and extended: each chain cost the npm
    // engine module code of its own.
    let mut out: Vec<Finding> = Vec::new();
    for e in config_errors {
        out.push(Finding {
            severity: Severity::Error,
            kind: FindingKind::Configuration,
            pane: None,
            location: Location::default(),
            message: e.clone(),
        });
    }
    for pane in panes {
        for d in &pane.parsed.diagnostics {
            out.push(Finding {
                severity: d.severity,
                kind: FindingKind::Input(d.code),
                pane: Some(pane.kind),
                location: d.location.clone(),
                message: d.message.clone(),
            });
        }
        for c in commands {
            if c.source.pane == pane.kind && !c.stderr.is_empty() {
                out.push(Finding {
                    severity: Severity::Error,
                    kind: FindingKind::Kubectl,
                    pane: Some(pane.kind),
                    location: c.source.location.clone(),
                    message: c.stderr.trim_end().to_string(),
                });
            }
        }
        for p in pods.iter().filter(|p| p.source.pane == pane.kind) {
            for e in &p.validation {
                let index = e
                    .field
                    .strip_prefix(p.tolerations_path())
                    .and_then(|rest| rest.strip_prefix('['))
                    .and_then(|rest| rest.split(']').next())
                    .and_then(|i| i.parse::<usize>().ok());
                let at = index
                    .and_then(|i| p.submitted_locations.get(i))
                    .unwrap_or(&p.source.location);
                out.push(Finding {
                    severity: Severity::Error,
                    kind: FindingKind::Validation,
                    pane: Some(pane.kind),
                    location: at.clone().with_path(e.field.clone()),
                    message: e.to_string(),
                });
            }
            if let Some(n) = &p.priority_note {
                out.push(Finding {
                    severity: Severity::Warning,
                    kind: FindingKind::Admission,
                    pane: Some(pane.kind),
                    location: p.source.location.clone(),
                    message: n.clone(),
                });
            }
            if let Some(r) = &p.rejection {
                out.push(Finding {
                    severity: Severity::Error,
                    kind: FindingKind::Admission,
                    pane: Some(pane.kind),
                    location: p.source.location.clone(),
                    message: r.clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod placement_tests;
#[cfg(test)]
mod priority_tests;
#[cfg(test)]
mod tests;
