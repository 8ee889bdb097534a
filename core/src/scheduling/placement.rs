//! One scheduling cycle of the default profile with every modelled placement plugin:
//! NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts and
//! NodeResourcesFit filters, NodeAffinity's PreFilter result, TaintToleration,
//! NodeAffinity, NodeResourcesFit and NodeResourcesBalancedAllocation scores,
//! DynamicResources' and DefaultPreemption's PostFilter (victims and nominated node,
//! see [`super::preemption`]), scheduling gates, and the FailedScheduling text, per
//! release.
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
//! * NodeResourcesFit and the resource scores: see [`super::resources`] and
//!   [`crate::resource`]. A node whose `status.allocatable` is unknown (`None` in
//!   [`node_states_with_allocatable`]) is not checked for resources, and its resource
//!   scores are `None` ([`NodeOutcome::resources_checked`]).
//!
//! Not modelled, so a real scheduler may still reject a node this model accepts:
//! volume plugins, PodTopologySpread, InterPodAffinity, DynamicResources' Filter, and
//! the score plugins ImageLocality, InterPodAffinity and PodTopologySpread. The
//! combined score here is TaintToleration × 3 + NodeAffinity × 2 + NodeResourcesFit +
//! NodeResourcesBalancedAllocation, so it is not necessarily the node the scheduler
//! picks. Scores are computed over all feasible nodes (`percentageOfNodesToScore: 100`),
//! also when only one node is feasible (upstream then skips scoring).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::filter::{
    Code, FilterPlugin, Status, node_unschedulable_filter, taint_toleration_filter,
};
use super::fit_error::{FailedScheduling, FitError, dynamic_resources_enabled};
pub use super::preemption::Nomination;
use super::preemption::{GroupView, assemble};
use super::resources::{
    InsufficientResource, NodeUsage, balanced_allocation_applies, balanced_allocation_score,
    fits_request, least_allocated_score, node_resources_fit_filter,
};
use super::score::{
    MAX_NODE_SCORE, TAINT_TOLERATION_WEIGHT, normalize_one, taint_toleration_score,
};
use super::selector::{OBJECT_NAME_FIELD, PreferredTerms, RequiredNodeAffinity};
use crate::model::{HostPort, Node, SchedulingPod};
use crate::resource::{PodResourceSummary, Resource, ResourceList, summarize};
use crate::version::Semantics;
use core::hash::{Hash, Hasher};

use crate::key_index::KeyIndex;

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
    crate::sort::sort(&mut names);
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
    /// (host IP, protocol, port), sorted and without repeats: the order and equality of
    /// upstream's map of sets, in a list (a node holds few ports, and the modules hold
    /// no map type of their own for it).
    used: Vec<(String, String, i32)>,
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
        let at = self.used.binary_search_by(|(i, p, n)| {
            (i.as_str(), p.as_str(), *n).cmp(&(ip, protocol, port.host_port))
        });
        if let Err(at) = at {
            self.used.insert(
                at,
                (String::from(ip), String::from(protocol), port.host_port),
            );
        }
    }

    /// `HostPortInfo.CheckConflict`: `0.0.0.0` conflicts with the pair on any IP; a
    /// specific IP conflicts with the pair on itself or on `0.0.0.0`.
    pub fn conflicts(&self, port: &HostPort) -> bool {
        if port.host_port <= 0 {
            return false;
        }
        let (ip, protocol) = sanitize(&port.host_ip, &port.protocol);
        self.used.iter().any(|(i, p, n)| {
            *n == port.host_port
                && p == protocol
                && (ip == BIND_ALL_HOST_IP || i == BIND_ALL_HOST_IP || i == ip)
        })
    }

    /// True when nothing is in use.
    pub fn is_empty(&self) -> bool {
        self.used.is_empty()
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
    /// Only these node names are candidates (`PreFilterResult.NodeNames`), sorted and
    /// without repeats (a list rather than a `BTreeSet<String>`, see `sort::insert_name`).
    Nodes(Vec<String>),
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
    let mut union: Vec<String> = Vec::new();
    for term in &required.node_selector_terms {
        let mut names: Option<Vec<String>> = None;
        for r in &term.match_fields {
            if r.key == OBJECT_NAME_FIELD && r.operator == "In" {
                let set = crate::sort::names_from(r.values.iter().cloned());
                names = Some(match names {
                    None => set,
                    Some(mut prev) => {
                        prev.retain(|n| set.binary_search(n).is_ok());
                        prev
                    }
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
        for name in names {
            crate::sort::insert_name(&mut union, name);
        }
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

/// A pod already bound to a node, as far as placement and the victim search need it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoundPod {
    /// `spec.priority`.
    pub priority: i32,
    /// Host ports counted by this release's NodePorts.
    pub ports: Vec<HostPort>,
    /// Its share of `NodeInfo.Requested` (zero when the node's allocatable is unknown).
    pub request: Resource,
    /// Its share of `NodeInfo.NonZeroRequested` (cpu milli, memory).
    pub non_zero: (i64, i64),
    /// `status.startTime` (empty: unknown).
    pub start_time: String,
}

/// A bound pod's `namespace/name`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PodRef {
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name`
    pub name: String,
}

/// What is running on one node: used host ports, requested resources and the pods a
/// victim search would consider.
///
/// Equality and hashing ignore [`NodeState::pod_refs`] (which pods, by name): two nodes
/// whose pods hold the same ports and resources at the same priorities behave alike.
#[derive(Clone, Debug, Default)]
pub struct NodeState {
    /// `NodeInfo.UsedPorts`.
    pub used_ports: UsedPorts,
    /// The bound pods the victim search re-checks, in binding order: every
    /// non-terminal pod when the node's allocatable is known, otherwise only the pods
    /// holding host ports (nothing else can change a filter's answer there).
    pub pods: Vec<BoundPod>,
    /// Names of [`NodeState::pods`], in the same order; empty when the pods were added
    /// with [`NodeState::add_summarized`] (whose caller keeps its own list of them and
    /// finds a victim by [`super::preemption::Victim::index`]).
    pub pod_refs: Vec<PodRef>,
    /// The lowest priority of any bound pod (`None` for an empty node): a preemptor
    /// finds victims only when this is lower than its own.
    pub min_priority: Option<i32>,
    /// Allocatable and requested resources; `None` when the node's
    /// `status.allocatable` is unknown (a pasted node without it): NodeResourcesFit is
    /// then not run on the node.
    pub usage: Option<NodeUsage>,
}

impl PartialEq for NodeState {
    fn eq(&self, o: &Self) -> bool {
        self.used_ports == o.used_ports
            && self.pods == o.pods
            && self.min_priority == o.min_priority
            && self.usage == o.usage
    }
}

impl Eq for NodeState {}

impl Hash for NodeState {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.used_ports.hash(h);
        self.pods.hash(h);
        self.min_priority.hash(h);
        self.usage.hash(h);
    }
}

impl NodeState {
    /// The node's state with `pods` bound to it, allocatable unknown.
    pub fn new<'a>(
        pods: impl IntoIterator<Item = &'a SchedulingPod>,
        options: PlacementOptions,
    ) -> Self {
        Self::with_allocatable(None, pods, options)
    }

    /// The node's state with `status.allocatable` (`None`: unknown) and `pods` bound.
    pub fn with_allocatable<'a>(
        allocatable: Option<&ResourceList>,
        pods: impl IntoIterator<Item = &'a SchedulingPod>,
        options: PlacementOptions,
    ) -> Self {
        let mut s = Self {
            usage: allocatable.map(|a| NodeUsage {
                allocatable: Resource::from_list(a),
                ..NodeUsage::default()
            }),
            ..Self::default()
        };
        for p in pods {
            s.add(p, options);
        }
        s
    }

    /// Adds one bound pod. Pods in phase `Succeeded` or `Failed` are not seen by the
    /// scheduler and are skipped.
    pub fn add(&mut self, pod: &SchedulingPod, options: PlacementOptions) {
        let added = self.add_with(pod, options, |p| {
            summarize(p.placement.spec_resources(), options.semantics.version)
        });
        self.name_added(added, pod);
    }

    /// Keeps the name of a pod that joined [`NodeState::pods`].
    fn name_added(&mut self, added: bool, pod: &SchedulingPod) {
        if added {
            self.pod_refs.push(PodRef {
                namespace: pod.pod.namespace.clone(),
                name: pod.pod.name.clone(),
            });
        }
    }

    /// [`NodeState::add`] with the pod's resource summary already computed (by
    /// [`summarize`] on its spec), for callers that bind many pods of one spec and
    /// summarize it once. The pod's name is not kept in [`NodeState::pod_refs`] (the
    /// caller knows its pods by its own ids): the answer is whether the pod joined
    /// [`NodeState::pods`].
    pub fn add_summarized(
        &mut self,
        pod: &SchedulingPod,
        options: PlacementOptions,
        summary: &PodResourceSummary,
    ) -> bool {
        self.add_with(pod, options, |_| summary.clone())
    }

    /// [`NodeState::add`] with the pod's resource summary from `summary` (a cache),
    /// without its name: whether it joined [`NodeState::pods`].
    fn add_with(
        &mut self,
        pod: &SchedulingPod,
        options: PlacementOptions,
        summary: impl FnOnce(&SchedulingPod) -> PodResourceSummary,
    ) -> bool {
        if pod.placement.is_terminal() {
            return false;
        }
        let priority = pod.placement.priority;
        self.min_priority = Some(self.min_priority.map_or(priority, |m| m.min(priority)));
        let ports: Vec<HostPort> = pod
            .placement
            .host_ports
            .iter()
            .filter(|p| options.counts(p) && p.host_port > 0)
            .cloned()
            .collect();
        for p in &ports {
            self.used_ports.add(p);
        }
        let (request, non_zero) = match &mut self.usage {
            Some(u) => {
                let s = summary(pod);
                u.requested.add_resource(&s.request);
                u.non_zero.0 = u.non_zero.0.saturating_add(s.non_zero_milli_cpu);
                u.non_zero.1 = u.non_zero.1.saturating_add(s.non_zero_memory);
                u.pods = u.pods.saturating_add(1);
                (s.request, (s.non_zero_milli_cpu, s.non_zero_memory))
            }
            None if ports.is_empty() => return false,
            None => (Resource::default(), (0, 0)),
        };
        self.pods.push(BoundPod {
            priority,
            ports,
            request,
            non_zero,
            start_time: pod.placement.start_time.clone(),
        });
        true
    }

    /// The node with every pod of priority lower than `priority` removed: used ports
    /// and resources (`SelectVictimsOnNode`'s first step).
    pub(crate) fn without_victims(&self, priority: i32) -> (UsedPorts, Option<NodeUsage>) {
        let mut used = UsedPorts::default();
        let mut usage = self.usage.clone();
        for p in &self.pods {
            if p.priority >= priority {
                for port in &p.ports {
                    used.add(port);
                }
            } else if let Some(u) = &mut usage {
                remove_pod(u, p);
            }
        }
        (used, usage)
    }
}

pub(crate) fn remove_pod(u: &mut NodeUsage, p: &BoundPod) {
    u.requested.sub_resource(&p.request);
    u.non_zero.0 = u.non_zero.0.saturating_sub(p.non_zero.0);
    u.non_zero.1 = u.non_zero.1.saturating_sub(p.non_zero.1);
    u.pods = u.pods.saturating_sub(1);
}

pub(crate) fn add_pod(u: &mut NodeUsage, p: &BoundPod) {
    u.requested.add_resource(&p.request);
    u.non_zero.0 = u.non_zero.0.saturating_add(p.non_zero.0);
    u.non_zero.1 = u.non_zero.1.saturating_add(p.non_zero.1);
    u.pods = u.pods.saturating_add(1);
}

/// Per-node states for `nodes`, from the pods whose `spec.nodeName` names them;
/// every node's allocatable is unknown.
pub fn node_states(
    nodes: &[Node],
    bound: &[SchedulingPod],
    options: PlacementOptions,
) -> Vec<NodeState> {
    node_states_with_allocatable(nodes, &[], bound, options)
}

/// Per-node states: `allocatable[i]` is node `i`'s `status.allocatable` (`None`, or
/// a missing entry: unknown), `bound` the pods whose `spec.nodeName` names a node.
pub fn node_states_with_allocatable(
    nodes: &[Node],
    allocatable: &[Option<ResourceList>],
    bound: &[SchedulingPod],
    options: PlacementOptions,
) -> Vec<NodeState> {
    let mut states: Vec<NodeState> = (0..nodes.len())
        .map(|i| {
            NodeState::with_allocatable(allocatable.get(i).and_then(Option::as_ref), [], options)
        })
        .collect();
    if bound.is_empty() {
        return states;
    }
    let index = NameIndex::new(nodes);
    // Pods of one workload share their spec: summarize each distinct spec once.
    let mut cache: Vec<(&SchedulingPod, PodResourceSummary)> = Vec::new();
    let mut cached = KeyIndex::new();
    let version = options.semantics.version;
    for p in bound {
        if let Some(s) = index
            .get(p.pod.node_name.as_str())
            .and_then(|i| states.get_mut(i))
        {
            let added = s.add_with(p, options, |_| {
                let next = cache.len();
                let cache_ref = &cache;
                let at = cached.find_or_insert(resource_hash(p), next, &|i| {
                    cache_ref.get(i).is_some_and(|(q, _)| same_resources(q, p))
                });
                if let Some((_, sum)) = cache.get(at) {
                    return sum.clone();
                }
                let sum = summarize(p.placement.spec_resources(), version);
                cache.push((p, sum.clone()));
                sum
            });
            s.name_added(added, p);
        }
    }
    states
}

/// Word-at-a-time multiplicative hashing (FxHash style) for in-memory lookups.
struct WordHash(u64);

impl Hasher for WordHash {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn str_hash(s: &str) -> u64 {
    let mut h = WordHash(0);
    h.write(s.as_bytes());
    h.finish()
}

/// Node names by hash: a sorted table, so a bound pod's node is found with one
/// binary search over integers and usually one string comparison.
struct NameIndex<'a> {
    table: Vec<(u64, usize)>,
    nodes: &'a [Node],
}

impl<'a> NameIndex<'a> {
    fn new(nodes: &'a [Node]) -> Self {
        let mut table: Vec<(u64, usize)> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (str_hash(&n.name), i))
            .collect();
        crate::sort::sort(&mut table);
        Self { table, nodes }
    }

    fn get(&self, name: &str) -> Option<usize> {
        let h = str_hash(name);
        let start = self.table.partition_point(|&(k, _)| k < h);
        self.table
            .get(start..)?
            .iter()
            .take_while(|&&(k, _)| k == h)
            .map(|&(_, i)| i)
            .find(|&i| self.nodes.get(i).is_some_and(|n| n.name == name))
    }
}

fn resource_hash(p: &SchedulingPod) -> u64 {
    let mut h = WordHash(0);
    p.placement.containers.hash(&mut h);
    p.placement.init_containers.hash(&mut h);
    p.placement.overhead.hash(&mut h);
    p.placement.resources.hash(&mut h);
    h.finish()
}

fn same_resources(a: &SchedulingPod, b: &SchedulingPod) -> bool {
    a.placement.containers == b.placement.containers
        && a.placement.init_containers == b.placement.init_containers
        && a.placement.overhead == b.placement.overhead
        && a.placement.resources == b.placement.resources
}

// ---------------------------------------------------------------------------------------
// One pod
// ---------------------------------------------------------------------------------------

/// NodeResourcesFit's and NodeResourcesBalancedAllocation's scores on one node.
pub type ResourceScores = (Option<i64>, Option<i64>);

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
    /// NodeResourcesFit's PreFilter: the pod's requests for this release.
    pub resources: PodResourceSummary,
    pub(crate) options: PlacementOptions,
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
            resources: summarize(pod.placement.spec_resources(), options.semantics.version),
            options,
        }
    }

    /// Runs the filters on one node with `used` ports in use and `usage` resources
    /// (`None`: allocatable unknown, NodeResourcesFit not run): the statuses of the
    /// failing plugins, in profile order. From 1.27 at most one (the first failure);
    /// 1.25 – 1.26 every failing plugin.
    pub fn filter(
        &self,
        node: &Node,
        used: &UsedPorts,
        usage: Option<&NodeUsage>,
    ) -> Vec<(FilterPlugin, Status)> {
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
                FilterPlugin::NodeResourcesFit => match usage {
                    Some(u) => node_resources_fit_filter(&self.resources.request, u, sem.version),
                    None => Status::success(),
                },
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

    /// NodeResourcesFit's and BalancedAllocation's scores on a feasible node (neither
    /// is normalized); `None` when the node's allocatable is unknown, and
    /// BalancedAllocation `None` when it skips the pod.
    pub fn resource_scores(&self, usage: Option<&NodeUsage>) -> ResourceScores {
        let Some(u) = usage else {
            return (None, None);
        };
        let fit = least_allocated_score(self.resources.score_non_zero, u);
        let balanced = balanced_allocation_applies(
            self.resources.score_requested,
            self.options.semantics.version,
        )
        .then(|| balanced_allocation_score(self.resources.score_requested, u));
        (Some(fit), balanced)
    }

    /// True when the filters that depend on the pods bound to a node (NodePorts and
    /// NodeResourcesFit) pass with `used` ports and `usage` resources.
    pub(crate) fn fits_pod_dependent(&self, used: &UsedPorts, usage: Option<&NodeUsage>) -> bool {
        node_ports_filter(&self.wanted_ports, used).is_success()
            && usage.is_none_or(|u| {
                node_resources_fit_filter(
                    &self.resources.request,
                    u,
                    self.options.semantics.version,
                )
                .is_success()
            })
    }

    /// NodeResourcesFit's failed checks on a node with their arithmetic (what the pod
    /// requests, what is used, the allocatable; see
    /// [`super::resources::InsufficientResource::shortfall`]), or `None` when the
    /// node's allocatable is unknown.
    pub fn insufficient(&self, state: &NodeState) -> Option<Vec<InsufficientResource>> {
        let u = state.usage.as_ref()?;
        Some(fits_request(
            &self.resources.request,
            u,
            self.options.semantics.version,
        ))
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
        /// NodeResourcesFit's score (LeastAllocated); `None` when the node's
        /// allocatable is unknown (resources were not checked on it).
        node_resources_fit: Option<i64>,
        /// NodeResourcesBalancedAllocation's score; `None` when the node's allocatable
        /// is unknown or the plugin skips the pod (best-effort pods, 1.33 on).
        balanced_allocation: Option<i64>,
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

    /// The weighted total of the modelled scores: TaintToleration × 3, NodeAffinity × 2,
    /// NodeResourcesFit × 1 and NodeResourcesBalancedAllocation × 1 (a missing score
    /// counts 0).
    pub fn combined_score(&self) -> Option<i64> {
        match self {
            Self::Feasible {
                taint_toleration,
                node_affinity,
                node_resources_fit,
                balanced_allocation,
            } => Some(
                taint_toleration
                    .saturating_mul(TAINT_TOLERATION_WEIGHT)
                    .saturating_add(node_affinity.saturating_mul(NODE_AFFINITY_WEIGHT))
                    .saturating_add(
                        node_resources_fit
                            .unwrap_or(0)
                            .saturating_mul(super::resources::NODE_RESOURCES_FIT_WEIGHT),
                    )
                    .saturating_add(
                        balanced_allocation
                            .unwrap_or(0)
                            .saturating_mul(super::resources::BALANCED_ALLOCATION_WEIGHT),
                    ),
            ),
            _ => None,
        }
    }

    /// True when NodeResourcesFit ran on a feasible node (its allocatable is known).
    pub fn resources_checked(&self) -> bool {
        matches!(
            self,
            Self::Feasible {
                node_resources_fit: Some(_),
                ..
            }
        )
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
        /// The node DefaultPreemption nominates and the pods it evicts, when
        /// preemption helps.
        nomination: Option<Nomination>,
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

/// The full result for one pod: its outcome and every node's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodPlacementResult {
    /// What happens to the pod.
    pub outcome: PodOutcome,
    /// One entry per node, in node order.
    pub nodes: Vec<NodeOutcome>,
}

/// Normalizes raw scores of feasible nodes: TaintToleration reversed, NodeAffinity
/// forward (`DefaultNormalizeScore`), given the maxima; the resource scores are
/// not normalized.
pub(crate) fn normalized(
    raw: (i64, i64),
    max: (i64, i64),
    resources: ResourceScores,
) -> NodeOutcome {
    NodeOutcome::Feasible {
        taint_toleration: normalize_one(MAX_NODE_SCORE, true, raw.0, max.0),
        node_affinity: normalize_one(MAX_NODE_SCORE, false, raw.1, max.1),
        node_resources_fit: resources.0,
        balanced_allocation: resources.1,
    }
}

/// The error of 1.25 – 1.29 when the PreFilter result names a node that does not
/// exist (`Snapshot.Get`), for the first such name in byte order (upstream iterates a
/// Go map, so with several missing names any of them can be named).
pub fn node_not_found_error(name: &str) -> String {
    format!(
        "nodeinfo not found for node name {}",
        crate::validation::go_quote(name)
    )
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
            nomination: None,
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
                let st = state_of(i);
                let failed = prep.filter(node, &st.used_ports, st.usage.as_ref());
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
            let res = prep.resource_scores(state_of(i).usage.as_ref());
            if let Some(o) = outcomes.get_mut(i) {
                *o = normalized(raw, max, res);
            }
        }
        return PodPlacementResult {
            outcome: PodOutcome::Feasible {
                nodes: feasible.len(),
            },
            nodes: outcomes,
        };
    }
    let groups: Vec<GroupView<'_>> = evals
        .iter()
        .zip(nodes)
        .enumerate()
        .map(|(i, (e, n))| GroupView {
            count: 1,
            eval: e,
            node: n,
            state: state_of(i),
        })
        .collect();
    let outcome = assemble(&prep, nodes.len(), &groups, None, nodes, states);
    PodPlacementResult {
        outcome,
        nodes: outcomes,
    }
}

/// The scheduler error caused by the PreFilter result's names, if any: 1.25 – 1.29 fail
/// on a listed name that is not a node; 1.30 divides by zero (a runtime panic) when
/// no listed name is a node; later releases ignore missing names.
pub(crate) fn pre_filter_result_error<'n>(
    names: &[String],
    node_names: impl Iterator<Item = &'n str>,
    minor: u16,
) -> Option<PodOutcome> {
    if minor > 30 {
        return None;
    }
    // A sorted list rather than a `BTreeSet<&str>`, a map type nothing else uses.
    let mut existing: Vec<&str> = node_names.collect();
    crate::sort::sort(&mut existing);
    let existing = |n: &str| existing.binary_search(&n).is_ok();
    if minor <= 29 {
        names
            .iter()
            .find(|n| !existing(n.as_str()))
            .map(|n| PodOutcome::SchedulerError {
                message: node_not_found_error(n),
            })
    } else if names.iter().all(|n| !existing(n.as_str())) {
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

/// [`schedule_one`] for every pod against precomputed node states (see
/// [`node_states_with_allocatable`]): the naive per-pair baseline with resources.
pub fn schedule_naive_states(
    pods: &[SchedulingPod],
    nodes: &[Node],
    states: &[NodeState],
    options: PlacementOptions,
) -> Vec<PodPlacementResult> {
    pods.iter()
        .map(|p| schedule_one(p, nodes, states, options))
        .collect()
}

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
