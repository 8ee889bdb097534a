//! Where each pod lands: core's full filter chain of the default profile
//! ([`taintlab_core::scheduling::placement`]) run on the scenario's cluster.
//!
//! * The cluster is the nodes after every `kubectl taint` command, with their labels,
//!   taints, `spec.unschedulable` and `status.allocatable` (unknown when the paste does
//!   not show it: NodeResourcesFit is then not run on that node and
//!   [`PlacementCell::resources_checked`] is false).
//! * Pasted pods with `spec.nodeName` are the pods already running: unless their phase
//!   is `Succeeded` or `Failed` they hold their requests and host ports on their node.
//!   They bypass the scheduler themselves.
//! * Every other pod goes through one scheduling cycle against that cluster: filters
//!   (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
//!   NodeResourcesFit), scores, the FailedScheduling message of its release and
//!   DefaultPreemption's dry run. Pods are scheduled independently (one pod's placement
//!   does not use up room for the next).
//! * A DaemonSet pod is one pod per node: the controller creates a pod for a node only
//!   when the template's `nodeSelector`, required node affinity and taints allow it
//!   (`NodeShouldRunDaemonPod`), with the node affinity replaced by
//!   `matchFields metadata.name In [<node>]`; each such pod is scheduled on its own.
//! * Scheduling-gated pods are held (no cycle, no FailedScheduling event); pods naming
//!   another `schedulerName` are not placed by the default scheduler.
//!
//! The scores shown are the modelled ones only: the default profile's ImageLocality,
//! InterPodAffinity and PodTopologySpread scores are not modelled (see
//! [`UNMODELLED_SCORE_PLUGINS`]), so the highest combined score is not necessarily the
//! node the scheduler picks.

use taintlab_core::daemonset::{
    DaemonTaintCheck, daemon_taint_check, replace_node_name_node_affinity,
};
use taintlab_core::model::{HostPort, SchedulingPod};
use taintlab_core::resource::{PODS, Resource, ResourceList, summarize};
use taintlab_core::scheduling::explain::Explanation;
use taintlab_core::scheduling::filter::{Code, FilterPlugin, Status};
use taintlab_core::scheduling::placement::{
    NodeOutcome, NodeState, Nomination, PlacementOptions, PodOutcome, PreparedPod,
    node_states_with_allocatable, schedule_one,
};
use taintlab_core::scheduling::placement_cluster::{
    Fx, GroupingKeys, PlacementIndex, PlacementResult,
};
use taintlab_core::scheduling::resources::{InsufficientResource, ResourceLine, resource_lines};
use taintlab_core::scheduling::selector::{ParsedTerm, RequiredNodeAffinity};
use taintlab_core::{Node, Semantics, Toleration};

use crate::cluster::NodeEntry;
use crate::pods::{Origin, PodEntry};

/// The default profile's score plugins this model does not compute. The combined score
/// of a cell leaves them out, so it does not tell which node the scheduler picks.
pub const UNMODELLED_SCORE_PLUGINS: [&str; 3] =
    ["ImageLocality", "InterPodAffinity", "PodTopologySpread"];

/// The scheduler name given to a DaemonSet row in [`Placement::result`], so the batch
/// skips it (its daemon pods are scheduled one by one).
const DAEMON_ROW_SCHEDULER: &str = "taintlab.daemonset-controller";

/// The plain statement a view shows next to scores.
pub const SCORES_NOTE: &str = "Scores shown: TaintToleration (weight 3), NodeAffinity (weight 2), \
NodeResourcesFit and NodeResourcesBalancedAllocation (weight 1 each). Not modelled: ImageLocality, \
InterPodAffinity and PodTopologySpread, so the highest combined score is not necessarily the node \
the scheduler picks.";

/// The default profile's filter plugins this model does not run: a real scheduler may
/// still reject a node this model accepts when a pod uses volumes, pod (anti-)affinity,
/// topology spread constraints or resource claims.
pub const UNMODELLED_FILTER_PLUGINS: [&str; 8] = [
    "NodeVolumeLimits",
    "EBSLimits",
    "GCEPDLimits",
    "AzureDiskLimits",
    "VolumeBinding",
    "VolumeZone",
    "PodTopologySpread",
    "InterPodAffinity",
];

/// One daemon pod of a DaemonSet row: the pod the controller creates for one node, or
/// (outcome `Bypassed`) a pasted running pod of the DaemonSet already on that node
/// (named `<name>-<5 characters>` in the DaemonSet's namespace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DaemonPod {
    /// The node it is for (index into [`crate::Scenario::nodes`]).
    pub node: usize,
    /// What happens to it.
    pub outcome: PodOutcome,
    /// Its outcome on its own node.
    pub cell: NodeOutcome,
}

/// The placement of every pod of a scenario.
#[derive(Clone, Debug)]
pub struct Placement {
    /// Release, gates and whether DynamicResources is in the profile.
    pub options: PlacementOptions,
    /// Each scenario pod as the scheduler sees it (row as in [`crate::Scenario::pods`]):
    /// final tolerations and the placement fields of its object (for a DaemonSet, its
    /// template).
    pub pods: Vec<SchedulingPod>,
    /// What each pod requests (`PodRequests` of this release), row as in
    /// [`crate::Scenario::pods`].
    pub requests: Vec<Resource>,
    /// What is running on each node (column as in [`crate::Scenario::nodes`]).
    pub states: Vec<NodeState>,
    /// Each node's `status.allocatable`; `None` when unknown.
    pub allocatable: Vec<Option<ResourceList>>,
    /// Number of running pods on each node (pasted pods with `spec.nodeName` naming
    /// it, phase neither `Succeeded` nor `Failed`).
    pub running: Vec<usize>,
    /// The resources that matter to the pasted pods: `pods`, then every resource some
    /// pod requests (cpu, memory, ephemeral-storage, then extended resources by name).
    pub resources: Vec<String>,
    /// Core's result for every pod. A DaemonSet row is not scheduled here (its outcome
    /// is `OtherScheduler`, its cells not evaluated): its daemon pods are, one per
    /// node ([`Placement::daemon_pods`]); the views ([`crate::Scenario::placement_cell`],
    /// [`crate::Scenario::pod_scheduling`], [`crate::Scenario::message`]) use them.
    pub result: PlacementResult,
    /// A class per node (column as in [`crate::Scenario::nodes`], classes numbered in
    /// order of first appearance): nodes of one class get the same cell from every pod
    /// (same taints, cordon, the labels the pods read, running pods' load, ports and
    /// priorities, the same daemon pods, and no pod bound to one but not the other), so
    /// a matrix can show one column per class.
    pub node_class: Vec<usize>,
    daemon: Vec<Option<Vec<DaemonPod>>>,
}

/// Why the scheduler does not evaluate a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hold {
    /// The pod has `spec.nodeName`: it is bound and bypasses the scheduler.
    Bound,
    /// `spec.schedulingGates` holds the pod: no cycle, no FailedScheduling event.
    Gated,
    /// `spec.schedulerName` names another scheduler.
    OtherScheduler,
    /// The cycle ended with an error before any node was filtered (or a panic).
    SchedulerError,
    /// A DaemonSet pod: the controller creates no pod for this node (its
    /// `nodeSelector`, required node affinity or an untolerated NoSchedule/NoExecute
    /// taint rules the node out).
    NoDaemonPod,
}

impl Hold {
    /// A stable kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bound => "bound",
            Self::Gated => "gated",
            Self::OtherScheduler => "other-scheduler",
            Self::SchedulerError => "scheduler-error",
            Self::NoDaemonPod => "no-daemon-pod",
        }
    }
}

/// The modelled scores of a feasible node: normalized per plugin (0..=100), unweighted,
/// and their weighted sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellScores {
    /// TaintToleration (weight 3).
    pub taint_toleration: i64,
    /// NodeAffinity's preferred terms (weight 2).
    pub node_affinity: i64,
    /// NodeResourcesFit, LeastAllocated (weight 1); `None` when the node's allocatable
    /// is unknown.
    pub node_resources_fit: Option<i64>,
    /// NodeResourcesBalancedAllocation (weight 1); `None` when the allocatable is
    /// unknown or the plugin skips the pod.
    pub balanced_allocation: Option<i64>,
    /// TaintToleration × 3 + NodeAffinity × 2 + NodeResourcesFit + BalancedAllocation
    /// (see [`UNMODELLED_SCORE_PLUGINS`] for what it leaves out).
    pub combined: i64,
}

/// One pod on one node, as the full filter chain sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementCell {
    /// Core's outcome for this node.
    pub outcome: NodeOutcome,
    /// The first plugin that rejected the node.
    pub rejected_by: Option<FilterPlugin>,
    /// Every plugin that rejected it, in profile order (one from 1.27; 1.25 – 1.26 run
    /// every filter).
    pub rejected_by_all: Vec<FilterPlugin>,
    /// The status code of the rejection (Unschedulable: preemption may help).
    pub code: Option<Code>,
    /// The node's reasons as counted in the FailedScheduling histogram. For a node
    /// outside NodeAffinity's PreFilter result or rejected by the PreFilter, the status
    /// this release gives it (none before 1.30).
    pub reasons: Vec<String>,
    /// Scores on a feasible node.
    pub scores: Option<CellScores>,
    /// False when the node's `status.allocatable` is unknown: NodeResourcesFit was not
    /// run on it, and a real scheduler may still find it full.
    pub resources_checked: bool,
    /// For a node NodeResourcesFit rejected: every resource that falls short, with the
    /// arithmetic ([`InsufficientResource::shortfall`] is by how much).
    pub insufficient: Vec<InsufficientResource>,
    /// Why the scheduler does not evaluate this cell, when it does not.
    pub hold: Option<Hold>,
}

/// How a filter plugin fared on a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterState {
    /// It ran and passed.
    Passed,
    /// It ran and rejected the node with this status.
    Failed(Status),
    /// It did not run: an earlier plugin failed (from 1.27 the framework stops at the
    /// first failure), or the node never reached the filters.
    NotEvaluated,
    /// NodeResourcesFit on a node whose allocatable is unknown: not checked.
    NotChecked,
}

/// One filter plugin in the profile's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterStep {
    /// The plugin.
    pub plugin: FilterPlugin,
    /// What it said.
    pub state: FilterState,
}

/// Why one pod does or does not land on one node, with every filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementExplanation {
    /// The cell.
    pub cell: PlacementCell,
    /// Every modelled filter in the default profile's order.
    pub filters: Vec<FilterStep>,
    /// The NodeResourcesFit arithmetic for every resource the pod requests (plus the
    /// pod count); `None` when the node's allocatable is unknown.
    pub resources: Option<Vec<ResourceLine>>,
    /// The taint-by-taint view (which toleration covered which taint).
    pub taints: Explanation,
    /// Each `spec.nodeSelector` entry against the node's labels.
    pub node_selector: Vec<LabelCheck>,
    /// Each required node-affinity term (in pod order, empty terms included) and
    /// whether it matches the node (terms are ORed; a term that does not parse never
    /// matches). Empty without required node affinity.
    pub affinity_terms: Vec<bool>,
    /// The pod's host ports already in use on the node (by the running pods).
    pub port_conflicts: Vec<HostPort>,
}

/// One `nodeSelector` entry on one node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LabelCheck {
    /// The label key.
    pub key: String,
    /// The value the pod asks for.
    pub wanted: String,
    /// The node's value, `None` when the node has no such label.
    pub node_value: Option<String>,
}

impl LabelCheck {
    /// True when the node has the label with the wanted value.
    pub fn matches(&self) -> bool {
        self.node_value.as_deref() == Some(self.wanted.as_str())
    }
}

/// What happens to one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodScheduling {
    /// Core's outcome. For a DaemonSet row: the first daemon pod that fits nowhere, or
    /// else `Feasible` with the number of daemon pods that fit their node.
    pub outcome: PodOutcome,
    /// The FailedScheduling message (the pod condition's full text), when it gets one.
    pub message: Option<String>,
    /// The node DefaultPreemption nominates and the pods it would evict, when
    /// preemption helps.
    pub nomination: Option<Nomination>,
    /// The PostFilter part of the message from `preemption: ` on (the histogram of why
    /// preemption does not help, or `not eligible due to preemptionPolicy=Never.`).
    pub preemption: Option<String>,
    /// For a DaemonSet row, the daemon pods the controller creates, one per node.
    pub daemon: Vec<DaemonPod>,
}

/// One resource on one node, for a requested/allocatable bar.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceBar {
    /// The resource (`pods`, `cpu`, `memory`, `nvidia.com/gpu`, …).
    pub resource: String,
    /// What the node's running pods request (milli-cores for cpu, bytes for memory,
    /// pods for `pods`).
    pub requested: i64,
    /// `status.allocatable` in the same unit.
    pub allocatable: i64,
}

/// What one node holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeResources {
    /// False when the node's `status.allocatable` is unknown (resources are then not
    /// checked on it and [`NodeResources::bars`] is empty).
    pub allocatable_known: bool,
    /// One bar per resource in [`Placement::resources`].
    pub bars: Vec<ResourceBar>,
    /// Number of running pods counted on the node.
    pub running_pods: usize,
}

/// A pasted FailedScheduling event traced back to the pasted cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventTrace {
    /// The pod it is about: the first pod whose computed message is the event's
    /// message, else the pod the event names (`pod/web-0`, `ns/name`, `name`).
    pub pod: Option<usize>,
    /// True when that pod's computed message is exactly the event's.
    pub reproduced: bool,
    /// Each counted reason of the event, in the event's order.
    pub reasons: Vec<ReasonTrace>,
}

/// One counted reason of a pasted event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReasonTrace {
    /// The reason as written in the event.
    pub reason: String,
    /// How many nodes the event counts for it.
    pub count: u32,
    /// The pasted nodes that give this reason for the pod, in this scenario's release
    /// wording (indices into [`crate::Scenario::nodes`]).
    pub nodes: Vec<usize>,
}

/// Builds the placement of `pods` on `nodes`.
pub(crate) fn build(nodes: &[NodeEntry], pods: &[PodEntry], semantics: Semantics) -> Placement {
    let options = PlacementOptions::new(semantics);
    let version = semantics.version;
    let mut node_list: Vec<Node> = Vec::with_capacity(nodes.len());
    let mut allocatable: Vec<Option<ResourceList>> = Vec::with_capacity(nodes.len());
    for n in nodes {
        node_list.push(n.node.clone());
        allocatable.push(n.allocatable.clone());
    }
    // Loops rather than iterator chains collected (here and below): each chain cost the
    // npm engine module code of its own.
    let scheduling: Vec<SchedulingPod> = pods.iter().map(scheduling_pod).collect();
    let mut requests: Vec<Resource> = Vec::with_capacity(scheduling.len());
    let mut bound: Vec<SchedulingPod> = Vec::new();
    for p in &scheduling {
        requests.push(summarize(p.placement.spec_resources(), version).request);
        if !p.pod.node_name.is_empty() {
            bound.push(p.clone());
        }
    }
    let mut running = vec![0usize; node_list.len()];
    let by_name = by_node_name(
        node_list
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i))
            .collect(),
    );
    for b in bound.iter().filter(|b| !b.placement.is_terminal()) {
        // Of nodes sharing a name, the last one counts (as a map built in node order).
        if let Some(c) = named(&by_name, &b.pod.node_name)
            .last()
            .and_then(|&(_, i)| running.get_mut(i))
        {
            *c += 1;
        }
    }
    let states = node_states_with_allocatable(&node_list, &allocatable, &bound, options);
    // DaemonSet rows are scheduled per node below; in the batch they would read as one
    // pod without the controller's affinity.
    let daemon_row = |e: &PodEntry, p: &SchedulingPod| e.daemon && p.pod.node_name.is_empty();
    let batch: std::borrow::Cow<'_, [SchedulingPod]> =
        if pods.iter().zip(&scheduling).any(|(e, p)| daemon_row(e, p)) {
            let mut rows = Vec::with_capacity(scheduling.len());
            for (e, p) in pods.iter().zip(&scheduling) {
                if daemon_row(e, p) {
                    // Skipped before the filters: its row in `result` is "not ours".
                    let mut skip = SchedulingPod::default();
                    skip.placement.scheduler_name = DAEMON_ROW_SCHEDULER.to_string();
                    rows.push(skip);
                } else {
                    rows.push(p.clone());
                }
            }
            std::borrow::Cow::Owned(rows)
        } else {
            std::borrow::Cow::Borrowed(&scheduling)
        };
    let index = PlacementIndex::with_states(
        &node_list,
        states.clone(),
        GroupingKeys::of(&batch, options),
        options,
    );
    let result = index.schedule(&batch);
    let gate = semantics.comparison_operators_enabled();
    let mut daemon: Vec<Option<Vec<DaemonPod>>> = Vec::with_capacity(pods.len());
    for (e, p) in pods.iter().zip(&scheduling) {
        daemon.push(if !e.daemon || !p.pod.node_name.is_empty() {
            None
        } else {
            let mut out = Vec::new();
            for (i, node) in node_list.iter().enumerate() {
                // A pasted running pod of this DaemonSet on the node: the controller
                // creates no other one there.
                if scheduling.iter().any(|b| {
                    b.pod.node_name == node.name
                        && !b.placement.is_terminal()
                        && is_daemon_pod_of(&b.pod.name, &b.pod.namespace, e)
                }) {
                    out.push(DaemonPod {
                        node: i,
                        cell: NodeOutcome::NotEvaluated,
                        outcome: PodOutcome::Bypassed,
                    });
                    continue;
                }
                if !daemon_node_check(e, p, node, gate).should_run {
                    continue;
                }
                let mut pod = p.clone();
                pod.placement.affinity = Some(replace_node_name_node_affinity(
                    pod.placement.affinity.take(),
                    &node.name,
                ));
                // The pod can only land on its node: when it fits there, the cycle on
                // that node alone gives the same outcome and scores (only feasible nodes
                // are scored); the whole cluster is needed for the message otherwise.
                let alone = schedule_one(
                    &pod,
                    std::slice::from_ref(node),
                    states.get(i..=i).unwrap_or_default(),
                    options,
                );
                let (outcome, cell) = if matches!(alone.outcome, PodOutcome::Feasible { .. }) {
                    (alone.outcome, alone.nodes.into_iter().next())
                } else {
                    let r = schedule_one(&pod, &node_list, &states, options);
                    let cell = r.nodes.get(i).cloned();
                    (r.outcome, cell)
                };
                out.push(DaemonPod {
                    node: i,
                    cell: cell.unwrap_or(NodeOutcome::NotEvaluated),
                    outcome,
                });
            }
            Some(out)
        });
    }
    let node_class = node_classes(&node_list, &states, &batch, &daemon, &scheduling, options);
    let mut resources: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if !resources.iter().any(|r| r == name) {
            resources.push(name.to_string());
        }
    };
    add(PODS);
    for (name, any) in [
        ("cpu", requests.iter().any(|r| r.milli_cpu > 0)),
        ("memory", requests.iter().any(|r| r.memory > 0)),
        (
            "ephemeral-storage",
            requests.iter().any(|r| r.ephemeral_storage > 0),
        ),
    ] {
        if any {
            add(name);
        }
    }
    // Nested loops rather than `flat_map(..).collect()`, which cost the npm engine module
    // code of its own.
    let mut scalars: Vec<&String> = Vec::new();
    for r in &requests {
        for (k, v) in &r.scalar {
            if *v > 0 {
                scalars.push(k);
            }
        }
    }
    taintlab_core::sort::sort(&mut scalars);
    scalars.dedup();
    for s in scalars {
        add(s);
    }
    Placement {
        options,
        pods: scheduling,
        requests,
        states,
        allocatable,
        running,
        resources,
        result,
        node_class,
        daemon,
    }
}

/// Whether a pod named `name` in `namespace` looks like one the controller created for
/// DaemonSet `ds`: `<ds name>-` and the five characters `generateName` appends
/// (`utilrand.String`'s alphabet). Owner references are not read, so this is inferred
/// from the name.
fn is_daemon_pod_of(name: &str, namespace: &str, ds: &PodEntry) -> bool {
    const ALPHABET: &str = "bcdfghjklmnpqrstvwxz2456789";
    let Some(w) = ds.workload.as_ref() else {
        return false;
    };
    namespace == ds.pod.namespace
        && name
            .strip_prefix(w.name.as_str())
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|suffix| suffix.len() == 5 && suffix.chars().all(|c| ALPHABET.contains(c)))
}

/// `(node name, index)` pairs sorted by name, equal names in their given order: a
/// lookup table for [`named`] (a sorted list rather than a `HashMap<&str, _>`, whose
/// hash table code the wasm modules would hold for each value type).
fn by_node_name(mut pairs: Vec<(&str, usize)>) -> Vec<(&str, usize)> {
    taintlab_core::sort::sort_by(&mut pairs, |a, b| a.0.cmp(b.0));
    pairs
}

/// The entries of a [`by_node_name`] table for `name`, in their given order.
fn named<'l, 'n>(table: &'l [(&'n str, usize)], name: &str) -> &'l [(&'n str, usize)] {
    let start = table.partition_point(|&(n, _)| n < name);
    let end = table.partition_point(|&(n, _)| n <= name);
    table.get(start..end).unwrap_or_default()
}

/// See [`Placement::node_class`].
fn node_classes(
    nodes: &[Node],
    states: &[NodeState],
    batch: &[SchedulingPod],
    daemon: &[Option<Vec<DaemonPod>>],
    pods: &[SchedulingPod],
    options: PlacementOptions,
) -> Vec<usize> {
    use core::hash::{Hash, Hasher};
    use taintlab_core::key_index::KeyIndex;
    let keys = GroupingKeys::of(batch, options);
    let mut bound: Vec<(&str, usize)> = Vec::new();
    for (i, p) in pods.iter().enumerate() {
        if !p.pod.node_name.is_empty() {
            bound.push((p.pod.node_name.as_str(), i));
        }
    }
    let bound_here = by_node_name(bound);
    type Key<'a> = (
        &'a [taintlab_core::Taint],
        bool,
        Option<&'a str>,
        Vec<Option<&'a String>>,
        Option<&'a NodeState>,
        Vec<Option<(&'a PodOutcome, &'a NodeOutcome)>>,
        &'a [(&'a str, usize)],
    );
    // Keys hashed with core's grouping hasher into core's hash index of class numbers,
    // each class's key kept for the equality check: the index core's node grouping uses,
    // and no hash table or B-tree map of its own in the npm module.
    let mut index = KeyIndex::new();
    let mut seen: Vec<Key<'_>> = Vec::new();
    let mut classes = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let key: Key<'_> = (
            &n.taints,
            n.unschedulable,
            keys.names.then_some(n.name.as_str()),
            keys.labels.iter().map(|k| n.labels.get(k)).collect(),
            states.get(i),
            daemon
                .iter()
                .flatten()
                .map(|d| {
                    d.iter()
                        .find(|d| d.node == i)
                        .map(|d| (&d.outcome, &d.cell))
                })
                .collect(),
            named(&bound_here, &n.name),
        );
        let mut h = Fx(0);
        key.hash(&mut h);
        let seen_ref = &seen;
        let class = index.find_or_insert(h.finish(), seen.len(), &|c| seen_ref[c] == key);
        if class == seen.len() {
            seen.push(key);
        }
        classes.push(class);
    }
    classes
}

/// `NodeShouldRunDaemonPod` for a DaemonSet's pod on one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DaemonNodeCheck {
    /// The template's `nodeSelector` and required node affinity match the node.
    pub node_affinity_matches: bool,
    /// The taint part (the template's tolerations with the controller's).
    pub taints: DaemonTaintCheck,
    /// The controller creates a daemon pod for this node.
    pub should_run: bool,
    /// A daemon pod already on the node stays.
    pub should_continue_running: bool,
}

/// `NodeShouldRunDaemonPod` (`pkg/controller/daemon/daemon_controller.go`): the pod
/// the controller would create (`NewPod`: the template with the controller's
/// tolerations and `spec.nodeName` set to the node, so NodeName always fits) checked
/// for node affinity and taints. Admission has not run on that pod yet, so only the
/// written and the controller's tolerations count.
fn daemon_node_check(e: &PodEntry, p: &SchedulingPod, node: &Node, gate: bool) -> DaemonNodeCheck {
    let mut tolerations: Vec<Toleration> = Vec::new();
    for t in &e.tolerations {
        if matches!(t.origin, Origin::Pod | Origin::DaemonSet) {
            tolerations.push(t.toleration.clone());
        }
    }
    let node_affinity_matches = RequiredNodeAffinity::of(&p.placement).matches_node(node);
    let taints = daemon_taint_check(&node.taints, &tolerations, gate);
    DaemonNodeCheck {
        node_affinity_matches,
        should_run: node_affinity_matches && taints.should_run,
        should_continue_running: node_affinity_matches && taints.should_continue_running,
        taints,
    }
}

/// The pod as the scheduler sees it: final tolerations, its object's placement fields,
/// and the priority and preemption policy the Priority admission plugin resolved
/// ([`crate::resolve_priority`]).
pub(crate) fn scheduling_pod(e: &PodEntry) -> SchedulingPod {
    let mut placement = e
        .workload
        .as_ref()
        .map(|w| w.placement.clone())
        .unwrap_or_default();
    placement.priority = e.priority;
    SchedulingPod {
        pod: e.pod.clone(),
        placement,
    }
}

fn hold_of(outcome: &PodOutcome) -> Option<Hold> {
    match outcome {
        PodOutcome::Bypassed => Some(Hold::Bound),
        PodOutcome::Gated => Some(Hold::Gated),
        PodOutcome::OtherScheduler => Some(Hold::OtherScheduler),
        PodOutcome::SchedulerError { .. } | PodOutcome::SchedulerPanic { .. } => {
            Some(Hold::SchedulerError)
        }
        PodOutcome::Feasible { .. }
        | PodOutcome::Unschedulable { .. }
        | PodOutcome::PreScoreError => None,
    }
}

impl Placement {
    /// The daemon pods of a DaemonSet row (`None` for other rows).
    pub fn daemon_pods(&self, p: usize) -> Option<&[DaemonPod]> {
        self.daemon.get(p)?.as_deref()
    }

    /// The pod's outcome and its outcome on node `n`, with the daemon pod for `n` in
    /// a DaemonSet row (`None` there when the controller creates no pod for `n`).
    fn pair(&self, p: usize, n: usize) -> Option<Option<(&PodOutcome, &NodeOutcome)>> {
        match self.daemon.get(p)? {
            Some(d) => Some(
                d.iter()
                    .find(|d| d.node == n)
                    .map(|d| (&d.outcome, &d.cell)),
            ),
            None => Some(Some((self.result.outcome(p)?, self.result.cell(p, n)?))),
        }
    }

    /// The pod the scheduler runs on node `node`: the daemon pod for it in a DaemonSet
    /// row.
    fn pod_for(&self, p: usize, node: &str) -> Option<SchedulingPod> {
        let mut pod = self.pods.get(p)?.clone();
        if self.daemon.get(p)?.is_some() {
            pod.placement.affinity = Some(replace_node_name_node_affinity(
                pod.placement.affinity.take(),
                node,
            ));
        }
        Some(pod)
    }

    /// The FailedScheduling message of pod `p` (for a DaemonSet row, of its first
    /// daemon pod that fits nowhere).
    pub fn message(&self, p: usize) -> Option<&str> {
        match self.daemon.get(p)? {
            Some(d) => d.iter().find_map(|d| d.outcome.message()),
            None => self.result.message(p),
        }
    }
}

impl crate::Scenario {
    /// Pod `p` on node `n` through the full filter chain (indices into
    /// [`crate::Scenario::pods`] and [`crate::Scenario::nodes`]).
    pub fn placement_cell(&self, p: usize, n: usize) -> Option<PlacementCell> {
        let node = self.nodes.get(n)?;
        let pl = &self.placement;
        let resources_checked = pl.allocatable.get(n)?.is_some();
        let Some((outcome, cell)) = pl.pair(p, n)? else {
            return Some(PlacementCell {
                outcome: NodeOutcome::NotEvaluated,
                rejected_by: None,
                rejected_by_all: Vec::new(),
                code: None,
                reasons: Vec::new(),
                scores: None,
                resources_checked,
                insufficient: Vec::new(),
                hold: Some(Hold::NoDaemonPod),
            });
        };
        let mut out = PlacementCell {
            outcome: cell.clone(),
            rejected_by: cell.rejected_by(),
            rejected_by_all: Vec::new(),
            code: None,
            reasons: Vec::new(),
            scores: None,
            resources_checked,
            insufficient: Vec::new(),
            hold: hold_of(outcome),
        };
        match cell {
            NodeOutcome::Feasible {
                taint_toleration,
                node_affinity,
                node_resources_fit,
                balanced_allocation,
            } => {
                out.scores = Some(CellScores {
                    taint_toleration: *taint_toleration,
                    node_affinity: *node_affinity,
                    node_resources_fit: *node_resources_fit,
                    balanced_allocation: *balanced_allocation,
                    combined: cell.combined_score().unwrap_or(0),
                });
            }
            NodeOutcome::Rejected { plugins, status } => {
                out.rejected_by_all.clone_from(plugins);
                out.code = Some(status.code);
                out.reasons.clone_from(&status.reasons);
                if plugins.contains(&FilterPlugin::NodeResourcesFit)
                    && let Some(pod) = pl.pod_for(p, &node.node.name)
                    && let Some(state) = pl.states.get(n)
                {
                    let prep = PreparedPod::new(&pod, pl.options);
                    out.insufficient = prep.insufficient(state).unwrap_or_default();
                }
            }
            NodeOutcome::FilteredOutByPreFilter => {
                let minor = self.semantics.version.minor;
                if minor == 30 {
                    out.reasons = vec![
                        taintlab_core::scheduling::placement::FILTERED_OUT_BY_PRE_FILTER_REASON
                            .to_string(),
                    ];
                    out.code = Some(Code::UnschedulableAndUnresolvable);
                } else if minor > 30 {
                    out.reasons =
                        vec![taintlab_core::scheduling::placement::absent_node_reason(&[
                            "NodeAffinity",
                        ])];
                    out.code = Some(Code::UnschedulableAndUnresolvable);
                }
            }
            NodeOutcome::PreFilterRejected => {
                out.code = Some(Code::UnschedulableAndUnresolvable);
                out.reasons = vec![
                    taintlab_core::scheduling::placement::NODE_AFFINITY_CONFLICT_REASON.to_string(),
                ];
            }
            NodeOutcome::NotEvaluated => {}
        }
        Some(out)
    }

    /// Why pod `p` does or does not land on node `n`: every filter in order (the first
    /// failing one, the ones after it "not evaluated" from 1.27), the resource
    /// arithmetic, the scores and the taint-by-taint view.
    pub fn explain_placement(&self, p: usize, n: usize) -> Option<PlacementExplanation> {
        let cell = self.placement_cell(p, n)?;
        let node = self.nodes.get(n)?;
        let pl = &self.placement;
        let taints =
            taintlab_core::scheduling::explain(&self.pods.get(p)?.pod, &node.node, self.semantics);
        let not_evaluated = || {
            let mut steps = Vec::with_capacity(FilterPlugin::DEFAULT_ORDER.len());
            for &plugin in FilterPlugin::DEFAULT_ORDER.iter() {
                steps.push(FilterStep {
                    plugin,
                    state: FilterState::NotEvaluated,
                });
            }
            steps
        };
        let state = pl.states.get(n)?;
        let pod = pl.pod_for(p, &node.node.name)?;
        let prep = PreparedPod::new(&pod, pl.options);
        let resources = state
            .usage
            .as_ref()
            .map(|u| resource_lines(&prep.resources.request, u));
        let filters = match &cell.outcome {
            NodeOutcome::Feasible { .. } | NodeOutcome::Rejected { .. } => {
                let failed = prep.filter(&node.node, &state.used_ports, state.usage.as_ref());
                let stops = pl.options.stops_at_first_failure();
                let mut stopped = false;
                let mut steps = Vec::with_capacity(FilterPlugin::DEFAULT_ORDER.len());
                for &plugin in FilterPlugin::DEFAULT_ORDER.iter() {
                    let state = if stopped {
                        FilterState::NotEvaluated
                    } else if let Some((_, s)) = failed.iter().find(|(q, _)| *q == plugin) {
                        stopped = stops;
                        FilterState::Failed(s.clone())
                    } else if plugin == FilterPlugin::NodeResourcesFit && state.usage.is_none() {
                        FilterState::NotChecked
                    } else {
                        FilterState::Passed
                    };
                    steps.push(FilterStep { plugin, state });
                }
                steps
            }
            _ => not_evaluated(),
        };
        let mut node_selector = Vec::new();
        for (k, v) in &pod.placement.node_selector {
            node_selector.push(LabelCheck {
                key: k.clone(),
                wanted: v.clone(),
                node_value: node.node.labels.get(k).cloned(),
            });
        }
        // An empty term matches nothing (`NewLazyErrorNodeSelector` drops it).
        let affinity_terms = pod
            .placement
            .required_node_affinity()
            .map(|ns| {
                ns.node_selector_terms
                    .iter()
                    .map(|t| {
                        (!t.match_expressions.is_empty() || !t.match_fields.is_empty())
                            && ParsedTerm::parse(t).matches(&node.node.name, &node.node.labels)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut port_conflicts = Vec::new();
        for p in &prep.wanted_ports {
            if state.used_ports.conflicts(p) {
                port_conflicts.push(p.clone());
            }
        }
        Some(PlacementExplanation {
            cell,
            filters,
            resources,
            taints,
            node_selector,
            affinity_terms,
            port_conflicts,
        })
    }

    /// What happens to pod `p`: its outcome, FailedScheduling message and preemption.
    pub fn pod_scheduling(&self, p: usize) -> Option<PodScheduling> {
        let pl = &self.placement;
        let daemon = pl.daemon.get(p)?;
        let outcome = match daemon {
            Some(d) => d
                .iter()
                .find(|d| d.outcome.message().is_some())
                .map(|d| d.outcome.clone())
                .unwrap_or(PodOutcome::Feasible {
                    nodes: d
                        .iter()
                        .filter(|d| matches!(d.outcome, PodOutcome::Feasible { .. }))
                        .count(),
                }),
            None => pl.result.outcome(p)?.clone(),
        };
        let message = outcome.message().map(str::to_string);
        let nomination = match &outcome {
            PodOutcome::Unschedulable { nomination, .. } => nomination.clone(),
            _ => None,
        };
        let preemption = message.as_deref().and_then(|m| {
            m.find(taintlab_core::scheduling::fit_error::PREEMPTION_PREFIX)
                .map(|i| m[i..].to_string())
        });
        Some(PodScheduling {
            outcome,
            message,
            nomination,
            preemption,
            daemon: daemon.clone().unwrap_or_default(),
        })
    }

    /// The requested/allocatable bars of node `n` for the resources that matter to the
    /// pasted pods ([`Placement::resources`]).
    pub fn node_resources(&self, n: usize) -> Option<NodeResources> {
        let pl = &self.placement;
        let state = pl.states.get(n)?;
        let running_pods = pl.running.get(n).copied().unwrap_or(0);
        let Some(u) = &state.usage else {
            return Some(NodeResources {
                allocatable_known: false,
                bars: Vec::new(),
                running_pods,
            });
        };
        let mut bars = Vec::with_capacity(pl.resources.len());
        for r in &pl.resources {
            let (requested, allocatable) = if r == PODS {
                (u.pods, u.allocatable.allowed_pod_number)
            } else {
                (u.requested.get(r), u.allocatable.get(r))
            };
            bars.push(ResourceBar {
                resource: r.clone(),
                requested,
                allocatable,
            });
        }
        Some(NodeResources {
            allocatable_known: true,
            bars,
            running_pods,
        })
    }

    /// For a DaemonSet row, whether the controller creates a daemon pod for node `n`
    /// and keeps one there (`NodeShouldRunDaemonPod`: the template's node affinity and
    /// taints); `None` for other rows. The scheduling of the pods it creates is in
    /// [`Placement::daemon_pods`].
    pub fn daemon_check(&self, p: usize, n: usize) -> Option<DaemonNodeCheck> {
        self.placement.daemon.get(p)?.as_ref()?;
        let gate = self.semantics.comparison_operators_enabled();
        Some(daemon_node_check(
            self.pods.get(p)?,
            self.placement.pods.get(p)?,
            &self.nodes.get(n)?.node,
            gate,
        ))
    }

    /// Traces pasted event `e` ([`crate::Scenario::events`]) back to the pod it is
    /// about and, for each counted reason, the pasted nodes that give it.
    pub fn trace_event(&self, e: usize) -> Option<EventTrace> {
        let event = &self.events.get(e)?.event;
        let exact = self.pods_with_message(&event.message).first().copied();
        let named = || {
            let object = event.object.as_deref()?;
            let object = object
                .strip_prefix("pod/")
                .or_else(|| object.strip_prefix("pods/"))
                .unwrap_or(object);
            let (ns, name) = match object.split_once('/') {
                Some((ns, name)) => (Some(ns), name),
                None => (None, object),
            };
            self.pods
                .iter()
                .position(|p| p.pod.name == name && ns.is_none_or(|ns| p.pod.namespace == ns))
        };
        let pod = exact.or_else(named);
        let reasons = event
            .fit
            .as_ref()
            .map(|f| {
                f.reasons
                    .iter()
                    .map(|r| ReasonTrace {
                        reason: r.reason.clone(),
                        count: r.count,
                        nodes: pod
                            .map(|p| {
                                (0..self.nodes.len())
                                    .filter(|&n| {
                                        self.placement_cell(p, n)
                                            .is_some_and(|c| c.reasons.contains(&r.reason))
                                    })
                                    .collect()
                            })
                            .unwrap_or_default(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(EventTrace {
            pod,
            reproduced: exact.is_some(),
            reasons,
        })
    }

    /// Number of nodes pod `p` fits (for a DaemonSet row, the number of daemon pods
    /// that fit their node); `None` when the pod is not scheduled (bound, gated,
    /// another scheduler, an error).
    pub fn feasible_nodes(&self, p: usize) -> Option<usize> {
        match self.pod_scheduling(p)?.outcome {
            PodOutcome::Feasible { nodes } => Some(nodes),
            PodOutcome::Unschedulable { .. } => Some(0),
            _ => None,
        }
    }
}
