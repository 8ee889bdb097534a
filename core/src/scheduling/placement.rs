//! One scheduling cycle of the default profile with every modelled placement plugin:
//! NodeUnschedulable, NodeName, TaintToleration, NodeAffinity and NodePorts filters,
//! NodeAffinity's PreFilter result, TaintToleration and NodeAffinity scores,
//! DynamicResources' and DefaultPreemption's PostFilter, scheduling gates, and the
//! FailedScheduling text, per release.
//!
//! Upstream sources, read at the `cluster-autoscaler-1.25.0` … `1.30.0` tags of
//! kubernetes/autoscaler (which vendor `k8s.io/kubernetes` v1.25.0 … v1.30.0) and in
//! the current kubernetes/kubernetes tree for later releases:
//! `pkg/scheduler/schedule_one.go` (`findNodesThatFitPod`), `framework/runtime/framework.go`
//! (`RunFilterPlugins`, `RunPostFilterPlugins`), `framework/preemption/preemption.go`
//! (`nodesWherePreemptionMightHelp`, `Preempt`), `plugins/defaultpreemption`
//! (`SelectVictimsOnNode`), `plugins/{nodename,nodeaffinity,nodeports}`.
//!
//! What differs by release:
//! * Filters: 1.25 – 1.26 run every filter on a node and merge the failures (the node
//!   counts under every failing plugin's reasons); from 1.27 the framework stops at the
//!   first failing plugin.
//! * NodeAffinity PreFilter: 1.25 – 1.26 answer `pod affinity terms conflict` as soon as
//!   one term's `metadata.name In` sets do not intersect; from 1.27 only when the union
//!   over all terms is empty.
//! * Nodes outside the PreFilter result: 1.25 – 1.29 do not record them (and a listed
//!   name that is not a node is a scheduler error, `nodeinfo not found for node name`);
//!   1.30 records `node is filtered out by the prefilter result`; 1.31 on give them the
//!   absent-node status `node(s) didn't satisfy plugin(s) [NodeAffinity]`.
//! * A PreFilter rejection (`pod affinity terms conflict`): 1.25 records it on every
//!   node (so it shows in the histogram); 1.26 – 1.28 only set `PreFilterMsg` and
//!   record no node, so preemption dry-runs every node; 1.29 – 1.30 record it on every
//!   node again; 1.31 on make it the absent-node status.
//! * FitError layout: see [`super::fit_error::FitError::message`].
//! * DynamicResources PostFilter (`no new claims to deallocate`): see
//!   [`super::fit_error::dynamic_resources_enabled`].
//! * Scheduling gates hold a pod from 1.27 (the `PodSchedulingReadiness` gate is alpha
//!   and off in 1.26, so the API server drops the field; the field does not exist in 1.25).
//! * NodePorts counts restartable init containers' (sidecars') host ports from 1.34
//!   (PR #132040; the 1.33 patch cherry-pick #133390 is not modelled).
//!
//! Not modelled, so a real scheduler may still reject a node this model accepts:
//! NodeResourcesFit, volume plugins, PodTopologySpread, InterPodAffinity, DynamicResources'
//! Filter, and the score plugins NodeResourcesFit, NodeResourcesBalancedAllocation,
//! ImageLocality, InterPodAffinity and PodTopologySpread. The combined score here is
//! TaintToleration × 3 + NodeAffinity × 2 only, so it is not "the node the scheduler
//! picks". Scores are computed over all feasible nodes (`percentageOfNodesToScore: 100`),
//! also when only one node is feasible (upstream then skips scoring).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::filter::{
    Code, FilterPlugin, Status, node_unschedulable_filter, taint_toleration_filter,
};
use super::fit_error::{
    FailedScheduling, FitError, NO_PREEMPTION_VICTIMS, PREEMPTION_NOT_HELPFUL,
    PREEMPTION_POLICY_NEVER, PREEMPTION_PREFIX, dynamic_resources_enabled, post_filter_message,
};
use super::score::{
    MAX_NODE_SCORE, TAINT_TOLERATION_WEIGHT, normalize_one, taint_toleration_score,
};
use super::selector::{OBJECT_NAME_FIELD, PreferredTerms, RequiredNodeAffinity};
use crate::model::{HostPort, Node, PreemptionPolicy, SchedulingPod};
use crate::version::Semantics;

/// NodeName's reason (`ErrReason`), UnschedulableAndUnresolvable.
pub const NODE_NAME_REASON: &str = "node(s) didn't match the requested node name";
/// NodeAffinity's reason (`ErrReasonPod`), UnschedulableAndUnresolvable.
pub const NODE_AFFINITY_REASON: &str = "node(s) didn't match Pod's node affinity/selector";
/// NodeAffinity's PreFilter rejection (`errReasonConflict`), UnschedulableAndUnresolvable.
pub const NODE_AFFINITY_CONFLICT_REASON: &str = "pod affinity terms conflict";
/// NodePorts' reason (`ErrReason`), Unschedulable.
pub const NODE_PORTS_REASON: &str = "node(s) didn't have free ports for the requested pod ports";
/// v1.30's status for nodes outside the PreFilter result (`findNodesThatFitPod`).
pub const FILTERED_OUT_BY_PRE_FILTER_REASON: &str = "node is filtered out by the prefilter result";
/// The default profile's scheduler name; pods naming another scheduler are not ours.
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";
/// NodeAffinity's score weight in the default profile.
pub const NODE_AFFINITY_WEIGHT: i64 = 2;
/// `DefaultBindAllHostIP`.
pub const BIND_ALL_HOST_IP: &str = "0.0.0.0";

/// The absent-node reason of 1.31 on: `node(s) didn't satisfy plugin(s) [<names>]`
/// (Go's `%v` of the sorted plugin names: space separated, in brackets).
pub fn absent_node_reason(plugins: &[&str]) -> String {
    let mut names: Vec<&str> = plugins.to_vec();
    names.sort_unstable();
    format!("node(s) didn't satisfy plugin(s) [{}]", names.join(" "))
}

/// The cluster being modelled and the settings that matter to placement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlacementOptions {
    /// Release and gates.
    pub semantics: Semantics,
    /// The `DynamicResourceAllocation` gate when set explicitly; `None` is the release
    /// default (see [`dynamic_resources_enabled`]).
    pub dynamic_resource_allocation: Option<bool>,
}

impl PlacementOptions {
    /// A release with default gates.
    pub fn new(semantics: Semantics) -> Self {
        Self {
            semantics,
            dynamic_resource_allocation: None,
        }
    }

    /// Whether DynamicResources is in the profile (its PostFilter text then prefixes
    /// DefaultPreemption's).
    pub fn dynamic_resources(&self) -> bool {
        dynamic_resources_enabled(self.semantics.version, self.dynamic_resource_allocation)
    }

    /// From 1.27 the framework stops at the first failing filter.
    pub fn stops_at_first_failure(&self) -> bool {
        self.semantics.version.at_least(27)
    }

    /// Whether `spec.schedulingGates` holds a pod (1.27 on, default gates).
    pub fn honours_scheduling_gates(&self) -> bool {
        self.semantics.version.at_least(27)
    }

    /// Whether NodePorts counts sidecar host ports (1.34 on).
    pub fn counts_sidecar_ports(&self) -> bool {
        self.semantics.version.at_least(34)
    }

    fn counts(&self, port: &HostPort) -> bool {
        !port.sidecar || self.counts_sidecar_ports()
    }
}

// ---------------------------------------------------------------------------------------
// NodePorts
// ---------------------------------------------------------------------------------------

/// `HostPortInfo`: host IP → (protocol, port) pairs in use on a node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UsedPorts {
    by_ip: BTreeMap<String, BTreeSet<(String, i32)>>,
}

fn sanitize<'a>(ip: &'a str, protocol: &'a str) -> (&'a str, &'a str) {
    (
        if ip.is_empty() { BIND_ALL_HOST_IP } else { ip },
        if protocol.is_empty() { "TCP" } else { protocol },
    )
}

impl UsedPorts {
    /// `HostPortInfo.Add`: ports ≤ 0 are not recorded.
    pub fn add(&mut self, port: &HostPort) {
        if port.host_port <= 0 {
            return;
        }
        let (ip, protocol) = sanitize(&port.host_ip, &port.protocol);
        self.by_ip
            .entry(String::from(ip))
            .or_default()
            .insert((String::from(protocol), port.host_port));
    }

    /// `HostPortInfo.CheckConflict`: `0.0.0.0` conflicts with the pair on any IP; a
    /// specific IP conflicts with the pair on itself or on `0.0.0.0`.
    pub fn conflicts(&self, port: &HostPort) -> bool {
        if port.host_port <= 0 {
            return false;
        }
        let (ip, protocol) = sanitize(&port.host_ip, &port.protocol);
        let has = |set: &BTreeSet<(String, i32)>| {
            set.iter()
                .any(|(p, n)| *n == port.host_port && p == protocol)
        };
        if ip == BIND_ALL_HOST_IP {
            self.by_ip.values().any(has)
        } else {
            [BIND_ALL_HOST_IP, ip]
                .iter()
                .any(|k| self.by_ip.get(*k).is_some_and(has))
        }
    }

    /// True when nothing is in use.
    pub fn is_empty(&self) -> bool {
        self.by_ip.is_empty()
    }
}

/// NodePorts `Filter`: fails (Unschedulable) when any wanted port conflicts.
pub fn node_ports_filter(wanted: &[HostPort], used: &UsedPorts) -> Status {
    if wanted.iter().any(|p| used.conflicts(p)) {
        Status::rejected(Code::Unschedulable, NODE_PORTS_REASON)
    } else {
        Status::success()
    }
}

/// NodeName `Filter`: `spec.nodeName` empty or equal to the node's name.
pub fn node_name_filter(pod_node_name: &str, node_name: &str) -> Status {
    if pod_node_name.is_empty() || pod_node_name == node_name {
        Status::success()
    } else {
        Status::rejected(Code::UnschedulableAndUnresolvable, NODE_NAME_REASON)
    }
}

/// NodeAffinity `Filter` (no profile `addedAffinity`): parse errors are ignored, so a
/// malformed term simply does not match.
pub fn node_affinity_filter(required: &RequiredNodeAffinity, node: &Node) -> Status {
    if required.matches_node(node) {
        Status::success()
    } else {
        Status::rejected(Code::UnschedulableAndUnresolvable, NODE_AFFINITY_REASON)
    }
}

// ---------------------------------------------------------------------------------------
// NodeAffinity PreFilter
// ---------------------------------------------------------------------------------------

/// What NodeAffinity's PreFilter answers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PreFilterResult {
    /// Every node is a candidate.
    AllNodes,
    /// Only these node names are candidates (`PreFilterResult.NodeNames`).
    Nodes(BTreeSet<String>),
    /// `pod affinity terms conflict`: UnschedulableAndUnresolvable, no node evaluated.
    Conflict,
}

/// NodeAffinity `PreFilter`: the node names of `matchFields metadata.name In` (per term
/// the intersection of its requirements, over terms the union).
pub fn node_affinity_pre_filter(pod: &SchedulingPod, options: PlacementOptions) -> PreFilterResult {
    let Some(required) = pod.placement.required_node_affinity() else {
        return PreFilterResult::AllNodes;
    };
    if required.node_selector_terms.is_empty() {
        return PreFilterResult::AllNodes;
    }
    let conflict_per_term = !options.semantics.version.at_least(27);
    let mut union: BTreeSet<String> = BTreeSet::new();
    for term in &required.node_selector_terms {
        let mut names: Option<BTreeSet<String>> = None;
        for r in &term.match_fields {
            if r.key == OBJECT_NAME_FIELD && r.operator == "In" {
                let set: BTreeSet<String> = r.values.iter().cloned().collect();
                names = Some(match names {
                    None => set,
                    Some(prev) => prev.intersection(&set).cloned().collect(),
                });
            }
        }
        let Some(names) = names else {
            // A term without a name requirement can match any node: terms are ORed.
            return PreFilterResult::AllNodes;
        };
        if conflict_per_term && names.is_empty() {
            return PreFilterResult::Conflict;
        }
        union.extend(names);
    }
    if union.is_empty() {
        PreFilterResult::Conflict
    } else {
        PreFilterResult::Nodes(union)
    }
}

// ---------------------------------------------------------------------------------------
// Cluster state
// ---------------------------------------------------------------------------------------

/// A pod already bound to a node, as far as placement needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoundPod {
    /// `spec.priority`.
    pub priority: i32,
    /// Host ports counted by this release's NodePorts.
    pub ports: Vec<HostPort>,
}

/// What is running on one node: used host ports and the pods holding them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeState {
    /// `NodeInfo.UsedPorts`.
    pub used_ports: UsedPorts,
    /// Bound pods that hold host ports (victim search re-checks the ports without them).
    pub port_holders: Vec<BoundPod>,
    /// The lowest priority of any bound pod (`None` for an empty node): a preemptor
    /// finds victims only when this is lower than its own.
    pub min_priority: Option<i32>,
}

impl NodeState {
    /// The node's state with `pods` bound to it.
    pub fn new<'a>(
        pods: impl IntoIterator<Item = &'a SchedulingPod>,
        options: PlacementOptions,
    ) -> Self {
        let mut s = Self::default();
        for p in pods {
            s.add(p, options);
        }
        s
    }

    /// Adds one bound pod.
    pub fn add(&mut self, pod: &SchedulingPod, options: PlacementOptions) {
        let priority = pod.placement.priority;
        self.min_priority = Some(self.min_priority.map_or(priority, |m| m.min(priority)));
        let ports: Vec<HostPort> = pod
            .placement
            .host_ports
            .iter()
            .filter(|p| options.counts(p) && p.host_port > 0)
            .cloned()
            .collect();
        if !ports.is_empty() {
            for p in &ports {
                self.used_ports.add(p);
            }
            self.port_holders.push(BoundPod { priority, ports });
        }
    }

    /// Used ports once every pod of priority lower than `priority` is removed.
    fn ports_without_victims(&self, priority: i32) -> UsedPorts {
        let mut used = UsedPorts::default();
        for h in self.port_holders.iter().filter(|h| h.priority >= priority) {
            for p in &h.ports {
                used.add(p);
            }
        }
        used
    }
}

/// Per-node states for `nodes`, from the pods whose `spec.nodeName` names them.
pub fn node_states(
    nodes: &[Node],
    bound: &[SchedulingPod],
    options: PlacementOptions,
) -> Vec<NodeState> {
    let mut states = alloc::vec![NodeState::default(); nodes.len()];
    if bound.is_empty() {
        return states;
    }
    let index: BTreeMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i))
        .collect();
    for p in bound {
        if let Some(s) = index
            .get(p.pod.node_name.as_str())
            .and_then(|&i| states.get_mut(i))
        {
            s.add(p, options);
        }
    }
    states
}

// ---------------------------------------------------------------------------------------
// One pod
// ---------------------------------------------------------------------------------------

/// A pod with everything the cycle derives from it once (`PreFilter`, `PreScore`).
#[derive(Clone, Debug)]
pub struct PreparedPod<'a> {
    /// The pod.
    pub pod: &'a SchedulingPod,
    /// `GetRequiredNodeAffinity`.
    pub required: RequiredNodeAffinity,
    /// NodeAffinity's PreFilter answer.
    pub pre_filter: PreFilterResult,
    /// `NewPreferredSchedulingTerms`; `Err` when a kept term does not parse.
    pub preferred: Result<PreferredTerms, ()>,
    /// The host ports NodePorts checks for this release.
    pub wanted_ports: Vec<HostPort>,
    options: PlacementOptions,
}

impl<'a> PreparedPod<'a> {
    /// Runs the per-pod preparation.
    pub fn new(pod: &'a SchedulingPod, options: PlacementOptions) -> Self {
        Self {
            pod,
            required: RequiredNodeAffinity::of(&pod.placement),
            pre_filter: node_affinity_pre_filter(pod, options),
            preferred: PreferredTerms::new(pod.placement.preferred_node_affinity()).map_err(|_| ()),
            wanted_ports: pod
                .placement
                .host_ports
                .iter()
                .filter(|p| options.counts(p))
                .cloned()
                .collect(),
            options,
        }
    }

    /// Runs the filters on one node with `used` ports in use: the statuses of the
    /// failing plugins, in profile order. From 1.27 at most one (the first failure);
    /// 1.25 – 1.26 every failing plugin.
    pub fn filter(&self, node: &Node, used: &UsedPorts) -> Vec<(FilterPlugin, Status)> {
        let sem = self.options.semantics;
        let all = !self.options.stops_at_first_failure();
        let mut failed = Vec::new();
        for plugin in FilterPlugin::DEFAULT_ORDER {
            let status = match plugin {
                FilterPlugin::NodeUnschedulable => {
                    node_unschedulable_filter(node.unschedulable, &self.pod.pod.tolerations, sem)
                }
                FilterPlugin::NodeName => node_name_filter(&self.pod.pod.node_name, &node.name),
                FilterPlugin::TaintToleration => {
                    taint_toleration_filter(&node.taints, &self.pod.pod.tolerations, sem).status
                }
                FilterPlugin::NodeAffinity => node_affinity_filter(&self.required, node),
                FilterPlugin::NodePorts => node_ports_filter(&self.wanted_ports, used),
            };
            if !status.is_success() {
                failed.push((plugin, status));
                if !all {
                    break;
                }
            }
        }
        failed
    }

    /// The raw scores of a feasible node: (TaintToleration, NodeAffinity).
    pub fn raw_scores(&self, node: &Node) -> (i64, i64) {
        let tt = taint_toleration_score(
            &node.taints,
            &self.pod.pod.tolerations,
            self.options.semantics,
        );
        let na = match &self.preferred {
            Ok(p) => p.score(&node.name, &node.labels),
            Err(()) => 0,
        };
        (tt, na)
    }
}

/// The merged status of a node's failures (`PluginToStatus.Merge` for 1.25 – 1.26; the
/// single failure from 1.27): the strongest code and every reason.
pub fn merge_statuses(failed: &[(FilterPlugin, Status)]) -> Status {
    let mut out = Status {
        code: Code::Success,
        reasons: Vec::new(),
    };
    for (_, s) in failed {
        out.code = out.code.max(s.code);
        out.reasons.extend(s.reasons.iter().cloned());
    }
    out
}

/// What the cycle says about one node for one pod.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NodeOutcome {
    /// Passes every modelled filter. Scores are normalized (0..=100) and unweighted.
    Feasible {
        /// TaintToleration's normalized score.
        taint_toleration: i64,
        /// NodeAffinity's normalized score.
        node_affinity: i64,
    },
    /// Rejected by filters: `plugins` in profile order (one from 1.27, every failing
    /// plugin on 1.25 – 1.26), `status` the merged status.
    Rejected {
        /// The failing plugins, first failure first.
        plugins: Vec<FilterPlugin>,
        /// Code and reasons as counted in the FailedScheduling message.
        status: Status,
    },
    /// Outside NodeAffinity's PreFilter result: never evaluated by the filters.
    FilteredOutByPreFilter,
    /// NodeAffinity's PreFilter rejected the pod (`pod affinity terms conflict`).
    PreFilterRejected,
    /// The pod never reached the filters (gated, bound, another scheduler, or an
    /// error before Filter).
    NotEvaluated,
}

impl NodeOutcome {
    /// True for [`NodeOutcome::Feasible`].
    pub fn is_feasible(&self) -> bool {
        matches!(self, Self::Feasible { .. })
    }

    /// The weighted total of the modelled scores: TaintToleration × 3 + NodeAffinity × 2.
    pub fn combined_score(&self) -> Option<i64> {
        match self {
            Self::Feasible {
                taint_toleration,
                node_affinity,
            } => Some(
                taint_toleration
                    .saturating_mul(TAINT_TOLERATION_WEIGHT)
                    .saturating_add(node_affinity.saturating_mul(NODE_AFFINITY_WEIGHT)),
            ),
            _ => None,
        }
    }

    /// The first plugin that rejected the node.
    pub fn rejected_by(&self) -> Option<FilterPlugin> {
        match self {
            Self::Rejected { plugins, .. } => plugins.first().copied(),
            _ => None,
        }
    }
}

/// What happens to a pod.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PodOutcome {
    /// `spec.schedulingGates` is not empty: the pod waits outside the queue
    /// (`PodScheduled=False`, reason `SchedulingGated`) and gets no FailedScheduling event.
    Gated,
    /// `spec.nodeName` was set at creation: the scheduler never sees the pod.
    Bypassed,
    /// `spec.schedulerName` names another scheduler: the default scheduler ignores it.
    OtherScheduler,
    /// At least this many nodes pass every modelled filter.
    Feasible {
        /// Number of feasible nodes.
        nodes: usize,
    },
    /// No node fits: the FailedScheduling event and condition.
    Unschedulable {
        /// Event and `PodScheduled` condition.
        event: FailedScheduling,
        /// True when DefaultPreemption found victims whose removal lets the pod fit
        /// somewhere (the pod is then nominated; the message has no post-filter part).
        preemption_possible: bool,
    },
    /// The cycle ended with an error (event reason `FailedScheduling`, condition
    /// reason `SchedulerError`).
    SchedulerError {
        /// The error text.
        message: String,
    },
    /// A preferred node-affinity term does not parse and at least two nodes are
    /// feasible: PreScore returns an error status and the cycle fails with
    /// `SchedulerError` (the error text wraps the parse errors and is not reproduced).
    PreScoreError,
    /// The scheduler of this release panics on this pod (see [`DIVIDE_BY_ZERO_PANIC`]).
    SchedulerPanic {
        /// The Go runtime error.
        message: String,
    },
}

impl PodOutcome {
    /// The FailedScheduling message, if the pod gets one.
    pub fn message(&self) -> Option<&str> {
        match self {
            Self::Unschedulable { event, .. } => Some(&event.condition_message),
            Self::SchedulerError { message } => Some(message),
            _ => None,
        }
    }
}

/// Why a pod never reaches the filters, if it does not.
pub fn skipped(pod: &SchedulingPod, options: PlacementOptions) -> Option<PodOutcome> {
    if !pod.pod.node_name.is_empty() {
        return Some(PodOutcome::Bypassed);
    }
    let name = pod.placement.scheduler_name.as_str();
    if !name.is_empty() && name != DEFAULT_SCHEDULER_NAME {
        return Some(PodOutcome::OtherScheduler);
    }
    if !pod.placement.scheduling_gates.is_empty() && options.honours_scheduling_gates() {
        return Some(PodOutcome::Gated);
    }
    None
}

/// One node (or a group of identical nodes) as the message assembly sees it.
#[derive(Clone, Debug)]
pub(crate) enum Evaluated {
    Feasible,
    Rejected(Status),
    /// Outside the PreFilter result.
    Cut,
    /// Every node, when the PreFilter rejected the pod.
    PreFilterRejected,
}

/// What DefaultPreemption's dry run finds on one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DryRun {
    /// Removing the lower-priority pods lets the pod fit: preemption succeeds.
    Candidate,
    /// The node's status in the nested FitError.
    Reasons(Vec<String>),
}

/// `SelectVictimsOnNode` on a node that is a preemption candidate.
pub(crate) fn dry_run(prep: &PreparedPod<'_>, node: &Node, state: &NodeState) -> DryRun {
    let priority = prep.pod.placement.priority;
    if state.min_priority.is_none_or(|m| m >= priority) {
        return DryRun::Reasons(alloc::vec![String::from(NO_PREEMPTION_VICTIMS)]);
    }
    let used = state.ports_without_victims(priority);
    let failed = prep.filter(node, &used);
    if failed.is_empty() {
        DryRun::Candidate
    } else {
        DryRun::Reasons(merge_statuses(&failed).reasons)
    }
}

/// The FailedScheduling outcome from the nodes' statuses. `groups` yields
/// (node count, evaluation, a representative node and its state).
pub(crate) fn assemble<'g>(
    prep: &PreparedPod<'_>,
    num_nodes: usize,
    groups: impl Iterator<Item = (usize, &'g Evaluated, &'g Node, &'g NodeState)> + Clone,
) -> PodOutcome {
    let options = prep.options;
    let version = options.semantics.version;
    let layout = super::fit_error::FitErrorLayout::for_version(version);
    let mut fit = FitError::new(num_nodes);
    let cut_reason = absent_node_reason(&["NodeAffinity"]);
    let mut pre_filter_rejected = false;
    for (count, ev, _, _) in groups.clone() {
        match ev {
            Evaluated::Rejected(status) => fit.record_nodes(count, &status.reasons),
            Evaluated::Cut => match version.minor {
                ..=29 => {}
                30 => fit.record_nodes(count, &[FILTERED_OUT_BY_PRE_FILTER_REASON]),
                _ => fit.add_absent_once(&cut_reason),
            },
            Evaluated::PreFilterRejected => {
                pre_filter_rejected = true;
                match version.minor {
                    // 1.26 – 1.28 only set PreFilterMsg and record no node.
                    26..=28 => {}
                    31.. => fit.add_absent_once(NODE_AFFINITY_CONFLICT_REASON),
                    _ => fit.record_nodes(count, &[NODE_AFFINITY_CONFLICT_REASON]),
                }
            }
            Evaluated::Feasible => {}
        }
    }
    if pre_filter_rejected && layout.has_pre_filter_msg() {
        fit.pre_filter_msg = String::from(NODE_AFFINITY_CONFLICT_REASON);
    }

    // PostFilter: DefaultPreemption.
    let mut preemption_possible = false;
    let preemption = if prep.pod.pod.preemption_policy == PreemptionPolicy::Never {
        let mut m = String::from(PREEMPTION_PREFIX);
        m.push_str(PREEMPTION_POLICY_NEVER);
        m
    } else {
        let mut nested = FitError::new(num_nodes);
        for (count, ev, node, state) in groups {
            let unresolvable = match ev {
                Evaluated::Rejected(s) => s.code == Code::UnschedulableAndUnresolvable,
                // 1.25 – 1.29 leave cut nodes without a status: they are candidates.
                Evaluated::Cut => version.at_least(30),
                // 1.26 – 1.28 record no status after a PreFilter rejection either.
                Evaluated::PreFilterRejected => !(26..=28).contains(&version.minor),
                Evaluated::Feasible => continue,
            };
            if unresolvable {
                nested.record_nodes(count, &[PREEMPTION_NOT_HELPFUL]);
                continue;
            }
            match dry_run(prep, node, state) {
                DryRun::Candidate => {
                    preemption_possible = true;
                    break;
                }
                DryRun::Reasons(r) => nested.record_nodes(count, &r),
            }
        }
        if preemption_possible {
            String::new()
        } else {
            let mut m = String::from(PREEMPTION_PREFIX);
            m.push_str(&nested.message(version));
            m
        }
    };
    if !preemption_possible {
        fit.post_filter_msg = post_filter_message(&preemption, options.dynamic_resources());
    }
    PodOutcome::Unschedulable {
        event: FailedScheduling::unschedulable(fit.message(version)),
        preemption_possible,
    }
}

/// The full result for one pod: its outcome and every node's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodPlacementResult {
    /// What happens to the pod.
    pub outcome: PodOutcome,
    /// One entry per node, in node order.
    pub nodes: Vec<NodeOutcome>,
}

/// Normalizes raw scores of feasible nodes: TaintToleration reversed, NodeAffinity
/// forward (`DefaultNormalizeScore`), given the maxima.
pub(crate) fn normalized(raw: (i64, i64), max: (i64, i64)) -> NodeOutcome {
    NodeOutcome::Feasible {
        taint_toleration: normalize_one(MAX_NODE_SCORE, true, raw.0, max.0),
        node_affinity: normalize_one(MAX_NODE_SCORE, false, raw.1, max.1),
    }
}

/// The error of 1.25 – 1.29 when the PreFilter result names a node that does not
/// exist (`Snapshot.Get`), for the first such name in byte order (upstream iterates a
/// Go map, so with several missing names any of them can be named).
pub fn node_not_found_error(name: &str) -> String {
    format!("nodeinfo not found for node name {name:?}")
}

/// Schedules one pod on `nodes` node by node: the reference the grouped evaluation
/// ([`super::placement_cluster`]) must agree with. `states` holds one [`NodeState`]
/// per node (see [`node_states`]).
pub fn schedule_one(
    pod: &SchedulingPod,
    nodes: &[Node],
    states: &[NodeState],
    options: PlacementOptions,
) -> PodPlacementResult {
    let not_evaluated = |outcome| PodPlacementResult {
        outcome,
        nodes: alloc::vec![NodeOutcome::NotEvaluated; nodes.len()],
    };
    if let Some(o) = skipped(pod, options) {
        return not_evaluated(o);
    }
    if nodes.is_empty() {
        return not_evaluated(PodOutcome::Unschedulable {
            event: FailedScheduling::no_nodes(),
            preemption_possible: false,
        });
    }
    let prep = PreparedPod::new(pod, options);
    let version = options.semantics.version;
    let empty_state = NodeState::default();
    let state_of = |i: usize| states.get(i).unwrap_or(&empty_state);

    let mut evals: Vec<Evaluated> = Vec::with_capacity(nodes.len());
    let mut outcomes: Vec<NodeOutcome> = Vec::with_capacity(nodes.len());
    match &prep.pre_filter {
        PreFilterResult::Conflict => {
            evals.resize(nodes.len(), Evaluated::PreFilterRejected);
            outcomes.resize(nodes.len(), NodeOutcome::PreFilterRejected);
        }
        pre => {
            let names = match pre {
                PreFilterResult::Nodes(names) => Some(names),
                _ => None,
            };
            if let Some(names) = names
                && let Some(err) = pre_filter_result_error(
                    names,
                    nodes.iter().map(|n| n.name.as_str()),
                    version.minor,
                )
            {
                return not_evaluated(err);
            }
            for (i, node) in nodes.iter().enumerate() {
                if names.is_some_and(|s| !s.contains(&node.name)) {
                    evals.push(Evaluated::Cut);
                    outcomes.push(NodeOutcome::FilteredOutByPreFilter);
                    continue;
                }
                let failed = prep.filter(node, &state_of(i).used_ports);
                if failed.is_empty() {
                    evals.push(Evaluated::Feasible);
                    outcomes.push(NodeOutcome::NotEvaluated); // scored below
                } else {
                    let status = merge_statuses(&failed);
                    evals.push(Evaluated::Rejected(status.clone()));
                    outcomes.push(NodeOutcome::Rejected {
                        plugins: failed.iter().map(|(p, _)| *p).collect(),
                        status,
                    });
                }
            }
        }
    }

    let feasible: Vec<usize> = evals
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Evaluated::Feasible))
        .map(|(i, _)| i)
        .collect();
    if !feasible.is_empty() {
        if prep.preferred.is_err() && feasible.len() > 1 {
            return PodPlacementResult {
                outcome: PodOutcome::PreScoreError,
                nodes: outcomes,
            };
        }
        let raws: Vec<(i64, i64)> = feasible
            .iter()
            .map(|&i| nodes.get(i).map_or((0, 0), |n| prep.raw_scores(n)))
            .collect();
        let max = raws
            .iter()
            .fold((0i64, 0i64), |m, r| (m.0.max(r.0), m.1.max(r.1)));
        for (&i, &raw) in feasible.iter().zip(&raws) {
            if let Some(o) = outcomes.get_mut(i) {
                *o = normalized(raw, max);
            }
        }
        return PodPlacementResult {
            outcome: PodOutcome::Feasible {
                nodes: feasible.len(),
            },
            nodes: outcomes,
        };
    }
    let groups = evals
        .iter()
        .zip(nodes)
        .enumerate()
        .map(|(i, (e, n))| (1usize, e, n, state_of(i)));
    let outcome = assemble(&prep, nodes.len(), groups);
    PodPlacementResult {
        outcome,
        nodes: outcomes,
    }
}

/// The scheduler error caused by the PreFilter result's names, if any: 1.25 – 1.29 fail
/// on a listed name that is not a node; 1.30 divides by zero (a runtime panic) when
/// no listed name is a node; later releases ignore missing names.
pub(crate) fn pre_filter_result_error<'n>(
    names: &BTreeSet<String>,
    node_names: impl Iterator<Item = &'n str>,
    minor: u16,
) -> Option<PodOutcome> {
    if minor > 30 {
        return None;
    }
    let existing: BTreeSet<&str> = node_names.collect();
    if minor <= 29 {
        names
            .iter()
            .find(|n| !existing.contains(n.as_str()))
            .map(|n| PodOutcome::SchedulerError {
                message: node_not_found_error(n),
            })
    } else if names.iter().all(|n| !existing.contains(n.as_str())) {
        Some(PodOutcome::SchedulerPanic {
            message: String::from(DIVIDE_BY_ZERO_PANIC),
        })
    } else {
        None
    }
}

/// v1.30 with a PreFilter result naming no existing node: `findNodesThatFitPod`
/// computes `% len(nodes)` with no nodes, a Go runtime panic.
pub const DIVIDE_BY_ZERO_PANIC: &str = "runtime error: integer divide by zero";

/// [`schedule_one`] for every pod: the naive per-pair baseline.
pub fn schedule_naive(
    pods: &[SchedulingPod],
    nodes: &[Node],
    bound: &[SchedulingPod],
    options: PlacementOptions,
) -> Vec<PodPlacementResult> {
    let states = node_states(nodes, bound, options);
    pods.iter()
        .map(|p| schedule_one(p, nodes, &states, options))
        .collect()
}

impl FitError {
    /// Adds a reason to the absent nodes' shared status unless it is already there.
    pub(crate) fn add_absent_once(&mut self, reason: &str) {
        if !self.absent_nodes_reasons.iter().any(|r| r == reason) {
            self.absent_nodes_reasons.push(String::from(reason));
        }
    }
}
