//! [`super::placement`] for every pod against every node, computed per equivalence
//! class.
//!
//! Node labels are mostly unique (`kubernetes.io/hostname`), so nodes are not grouped
//! by all their labels: only by the label keys the batch's selectors read, together
//! with their taints, `spec.unschedulable` and their [`NodeState`] (allocatable,
//! requested resources, the bound pods' priorities, requests and host ports; not their
//! names). With resources known, nodes mostly differ by what their pods request, so
//! each node tends to be its own class and the gain comes from the pod classes. When a pod reads the node name (`matchFields`, or a PreFilter
//! result) every node is its own class. Pods are grouped by tolerations, preemption
//! policy, `spec.nodeName` and placement fields.

use alloc::string::String;
use alloc::vec::Vec;
use core::hash::{Hash, Hasher};

use crate::key_index::KeyIndex;

use super::filter::Status;
use super::fit_error::FailedScheduling;
use super::placement::{
    Evaluated, NodeOutcome, NodeState, PlacementOptions, PodOutcome, PreFilterResult, PreparedPod,
    ResourceScores, merge_statuses, node_states_with_allocatable, normalized,
    pre_filter_result_error, skipped,
};
use super::preemption::{GroupView, assemble};
use super::selector::{PreferredTerms, RequiredNodeAffinity};
use crate::model::{Node, SchedulingPod};
use crate::resource::ResourceList;

/// FxHash-style word mixing: grouping hashes every node's strings once. Public for the
/// scenario's node classes, which group by more than this module does.
pub struct Fx(pub u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// What the grouping of nodes depends on: the label keys read and whether names are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupingKeys {
    /// Label keys read by some selector, sorted and deduplicated.
    pub labels: Vec<String>,
    /// True when some pod reads the node name.
    pub names: bool,
}

impl GroupingKeys {
    /// The keys the scheduled pods of `pods` read.
    pub fn of(pods: &[SchedulingPod], options: PlacementOptions) -> Self {
        let mut labels: Vec<String> = Vec::new();
        let mut names = false;
        for p in pods {
            if p.placement.node_selector.is_empty() && p.placement.affinity.is_none() {
                continue;
            }
            let required = RequiredNodeAffinity::of(&p.placement);
            labels.extend(required.label_keys().map(String::from));
            names |= required.reads_name();
            if let Ok(pref) = PreferredTerms::new(p.placement.preferred_node_affinity()) {
                labels.extend(pref.label_keys().map(String::from));
                names |= pref.reads_name();
            }
            names |= matches!(
                super::placement::node_affinity_pre_filter(p, options),
                PreFilterResult::Nodes(_)
            );
        }
        crate::sort::sort(&mut labels);
        labels.dedup();
        Self { labels, names }
    }

    /// True when these keys are enough for `other`.
    pub fn covers(&self, other: &GroupingKeys) -> bool {
        (self.names || !other.names)
            && other
                .labels
                .iter()
                .all(|k| self.labels.binary_search(k).is_ok())
    }
}

/// A class of nodes the modelled plugins cannot tell apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeGroup {
    /// Index of the class's first node.
    pub first_node: usize,
    /// Number of nodes.
    pub nodes: usize,
}

/// The nodes of a cluster grouped for a set of [`GroupingKeys`], with their states.
/// Build it once and schedule many pod batches against it.
#[derive(Clone, Debug)]
pub struct PlacementIndex<'a> {
    nodes: &'a [Node],
    states: Vec<NodeState>,
    options: PlacementOptions,
    keys: GroupingKeys,
    class_of: Vec<u32>,
    groups: Vec<NodeGroup>,
}

fn same_node(a: &Node, sa: &NodeState, b: &Node, sb: &NodeState, keys: &GroupingKeys) -> bool {
    a.unschedulable == b.unschedulable
        && a.taints.len() == b.taints.len()
        && a.taints
            .iter()
            .zip(&b.taints)
            .all(|(x, y)| x.key == y.key && x.value == y.value && x.effect == y.effect)
        && (!keys.names || a.name == b.name)
        && keys
            .labels
            .iter()
            .all(|k| a.labels.get(k) == b.labels.get(k))
        && sa == sb
}

fn node_hash(n: &Node, s: &NodeState, keys: &GroupingKeys) -> u64 {
    let mut h = Fx(0);
    h.write_u8(u8::from(n.unschedulable));
    h.write_usize(n.taints.len());
    for t in &n.taints {
        t.key.hash(&mut h);
        t.value.hash(&mut h);
        t.effect.hash(&mut h);
    }
    if keys.names {
        n.name.hash(&mut h);
    }
    for k in &keys.labels {
        n.labels.get(k).hash(&mut h);
    }
    if s.min_priority.is_some() || s.usage.is_some() {
        s.hash(&mut h);
    }
    h.finish()
}

impl<'a> PlacementIndex<'a> {
    /// Groups `nodes` for the keys `pods` read; `bound` are the pods already running
    /// (matched to nodes by `spec.nodeName`).
    pub fn new(
        nodes: &'a [Node],
        bound: &[SchedulingPod],
        pods: &[SchedulingPod],
        options: PlacementOptions,
    ) -> Self {
        Self::with_keys(nodes, bound, GroupingKeys::of(pods, options), options)
    }

    /// Groups `nodes` for explicit keys.
    pub fn with_keys(
        nodes: &'a [Node],
        bound: &[SchedulingPod],
        keys: GroupingKeys,
        options: PlacementOptions,
    ) -> Self {
        Self::with_states(
            nodes,
            node_states_with_allocatable(nodes, &[], bound, options),
            keys,
            options,
        )
    }

    /// Groups `nodes` whose allocatable is known: `allocatable[i]` is node `i`'s
    /// `status.allocatable` (`None`: unknown).
    pub fn with_allocatable(
        nodes: &'a [Node],
        allocatable: &[Option<ResourceList>],
        bound: &[SchedulingPod],
        pods: &[SchedulingPod],
        options: PlacementOptions,
    ) -> Self {
        Self::with_states(
            nodes,
            node_states_with_allocatable(nodes, allocatable, bound, options),
            GroupingKeys::of(pods, options),
            options,
        )
    }

    /// Groups `nodes` with precomputed states (one per node, see
    /// [`node_states_with_allocatable`]).
    pub fn with_states(
        nodes: &'a [Node],
        states: Vec<NodeState>,
        keys: GroupingKeys,
        options: PlacementOptions,
    ) -> Self {
        let mut s = Self {
            nodes,
            states,
            options,
            keys,
            class_of: Vec::new(),
            groups: Vec::new(),
        };
        s.regroup();
        s
    }

    fn regroup(&mut self) {
        let mut index = KeyIndex::new();
        let mut groups: Vec<NodeGroup> = Vec::new();
        let mut class_of = Vec::with_capacity(self.nodes.len());
        let default_state = NodeState::default();
        let state = |i: usize| self.states.get(i).unwrap_or(&default_state);
        for (i, node) in self.nodes.iter().enumerate() {
            let hash = node_hash(node, state(i), &self.keys);
            let next = groups.len();
            let groups_ref = &groups;
            let found = index.find_or_insert(hash, next, &|g| {
                groups_ref.get(g).is_some_and(|grp| {
                    self.nodes.get(grp.first_node).is_some_and(|rep| {
                        same_node(rep, state(grp.first_node), node, state(i), &self.keys)
                    })
                })
            });
            if found == next {
                groups.push(NodeGroup {
                    first_node: i,
                    nodes: 0,
                });
            }
            let id = u32::try_from(found).unwrap_or(u32::MAX);
            if let Some(g) = groups.get_mut(id as usize) {
                g.nodes += 1;
            }
            class_of.push(id);
        }
        self.groups = groups;
        self.class_of = class_of;
    }

    /// Number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The node classes.
    pub fn groups(&self) -> &[NodeGroup] {
        &self.groups
    }

    /// The keys the grouping uses.
    pub fn keys(&self) -> &GroupingKeys {
        &self.keys
    }

    /// Schedules `pods`. When they read label keys (or names) the grouping does not
    /// cover, the nodes are regrouped first (the index is not changed).
    pub fn schedule(&self, pods: &[SchedulingPod]) -> PlacementResult {
        let needed = GroupingKeys::of(pods, self.options);
        if self.keys.covers(&needed) {
            return evaluate(self, pods);
        }
        let mut keys = self.keys.clone();
        keys.labels.extend(needed.labels);
        crate::sort::sort(&mut keys.labels);
        keys.labels.dedup();
        keys.names |= needed.names;
        let mut wider = Self {
            nodes: self.nodes,
            states: self.states.clone(),
            options: self.options,
            keys,
            class_of: Vec::new(),
            groups: Vec::new(),
        };
        wider.regroup();
        evaluate(&wider, pods)
    }
}

/// The result of scheduling a batch: per pod its outcome, per pod × node its cell.
#[derive(Clone, Debug)]
pub struct PlacementResult {
    pod_class_of: Vec<u32>,
    outcomes: Vec<PodOutcome>,
    /// Row-major pod class × node class.
    cells: Vec<NodeOutcome>,
    node_class_of: Vec<u32>,
    width: usize,
}

impl PlacementResult {
    /// Number of pods.
    pub fn num_pods(&self) -> usize {
        self.pod_class_of.len()
    }

    /// Number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.node_class_of.len()
    }

    /// What happens to a pod.
    pub fn outcome(&self, pod: usize) -> Option<&PodOutcome> {
        self.outcomes.get(*self.pod_class_of.get(pod)? as usize)
    }

    /// The FailedScheduling message of a pod, if it gets one.
    pub fn message(&self, pod: usize) -> Option<&str> {
        self.outcome(pod)?.message()
    }

    /// A pod's outcome on a node.
    pub fn cell(&self, pod: usize, node: usize) -> Option<&NodeOutcome> {
        let pc = *self.pod_class_of.get(pod)? as usize;
        let nc = *self.node_class_of.get(node)? as usize;
        self.cells.get(pc.checked_mul(self.width)?.checked_add(nc)?)
    }

    /// Every node's outcome for a pod, in node order.
    pub fn row(&self, pod: usize) -> Option<impl ExactSizeIterator<Item = &NodeOutcome> + '_> {
        let pc = *self.pod_class_of.get(pod)? as usize;
        let row = self.cells.get(pc * self.width..(pc + 1) * self.width)?;
        let fallback = row.first();
        Some(
            self.node_class_of
                .iter()
                .map(move |&c| row.get(c as usize).or(fallback).unwrap_or(&NOT_EVALUATED)),
        )
    }

    /// Number of pod classes (for diagnostics and benchmarks).
    pub fn num_pod_classes(&self) -> usize {
        self.outcomes.len()
    }
}

static NOT_EVALUATED: NodeOutcome = NodeOutcome::NotEvaluated;

fn pod_hash(p: &SchedulingPod) -> u64 {
    let mut h = Fx(1);
    p.pod.node_name.hash(&mut h);
    p.pod.tolerations.hash(&mut h);
    p.pod.preemption_policy.hash(&mut h);
    p.placement.hash(&mut h);
    h.finish()
}

fn same_pod(a: &SchedulingPod, b: &SchedulingPod) -> bool {
    a.pod.node_name == b.pod.node_name
        && a.pod.tolerations == b.pod.tolerations
        && a.pod.preemption_policy == b.pod.preemption_policy
        && a.placement == b.placement
}

/// Groups `nodes` for `pods` and schedules them: [`PlacementIndex::new`] then
/// [`PlacementIndex::schedule`].
pub fn schedule_placement(
    pods: &[SchedulingPod],
    nodes: &[Node],
    bound: &[SchedulingPod],
    options: PlacementOptions,
) -> PlacementResult {
    PlacementIndex::new(nodes, bound, pods, options).schedule(pods)
}

fn evaluate(index: &PlacementIndex<'_>, pods: &[SchedulingPod]) -> PlacementResult {
    let options = index.options;
    let width = index.groups.len();
    let mut classes = KeyIndex::new();
    let mut reps: Vec<usize> = Vec::new();
    let mut pod_class_of = Vec::with_capacity(pods.len());
    for (i, p) in pods.iter().enumerate() {
        let next = reps.len();
        let reps_ref = &reps;
        let found = classes.find_or_insert(pod_hash(p), next, &|c| {
            reps_ref
                .get(c)
                .and_then(|&r| pods.get(r))
                .is_some_and(|rep| same_pod(rep, p))
        });
        if found == next {
            reps.push(i);
        }
        pod_class_of.push(u32::try_from(found).unwrap_or(u32::MAX));
    }

    let default_state = NodeState::default();
    let mut outcomes = Vec::with_capacity(reps.len());
    let mut cells = Vec::with_capacity(reps.len().saturating_mul(width));
    for &r in &reps {
        let Some(pod) = pods.get(r) else { continue };
        let (outcome, row) = evaluate_class(index, pod, &default_state, options);
        outcomes.push(outcome);
        cells.extend(row);
    }
    PlacementResult {
        pod_class_of,
        outcomes,
        cells,
        node_class_of: index.class_of.clone(),
        width,
    }
}

fn evaluate_class(
    index: &PlacementIndex<'_>,
    pod: &SchedulingPod,
    default_state: &NodeState,
    options: PlacementOptions,
) -> (PodOutcome, Vec<NodeOutcome>) {
    let width = index.groups.len();
    let not_evaluated = |o| (o, alloc::vec![NodeOutcome::NotEvaluated; width]);
    if let Some(o) = skipped(pod, options) {
        return not_evaluated(o);
    }
    if index.nodes.is_empty() {
        return not_evaluated(PodOutcome::Unschedulable {
            event: FailedScheduling::no_nodes(),
            preemption_possible: false,
            nomination: None,
        });
    }
    let prep = PreparedPod::new(pod, options);
    let rep = |g: &super::placement_cluster::NodeGroup| {
        (
            index.nodes.get(g.first_node),
            index.states.get(g.first_node).unwrap_or(default_state),
        )
    };
    let mut evals: Vec<Evaluated> = Vec::with_capacity(width);
    let mut row: Vec<NodeOutcome> = Vec::with_capacity(width);
    match &prep.pre_filter {
        PreFilterResult::Conflict => {
            evals.resize(width, Evaluated::PreFilterRejected);
            row.resize(width, NodeOutcome::PreFilterRejected);
        }
        pre => {
            let names = match pre {
                PreFilterResult::Nodes(n) => Some(n),
                _ => None,
            };
            if let Some(names) = names
                && let Some(err) = pre_filter_result_error(
                    names,
                    index.nodes.iter().map(|n| n.name.as_str()),
                    options.semantics.version.minor,
                )
            {
                return not_evaluated(err);
            }
            for g in &index.groups {
                let (Some(node), state) = rep(g) else {
                    evals.push(Evaluated::Cut);
                    row.push(NodeOutcome::NotEvaluated);
                    continue;
                };
                if names.is_some_and(|s| !s.contains(&node.name)) {
                    evals.push(Evaluated::Cut);
                    row.push(NodeOutcome::FilteredOutByPreFilter);
                    continue;
                }
                let failed = prep.filter(node, &state.used_ports, state.usage.as_ref());
                if failed.is_empty() {
                    evals.push(Evaluated::Feasible);
                    row.push(NodeOutcome::NotEvaluated);
                } else {
                    let status = merge_statuses(&failed);
                    // The reasons are copied below only if no node is feasible (the
                    // message needs them); the row keeps them.
                    evals.push(Evaluated::Rejected(Status {
                        code: status.code,
                        reasons: Vec::new(),
                    }));
                    row.push(NodeOutcome::Rejected {
                        plugins: failed.iter().map(|(p, _)| *p).collect(),
                        status,
                    });
                }
            }
        }
    }
    let feasible: usize = evals
        .iter()
        .zip(&index.groups)
        .filter(|(e, _)| matches!(e, Evaluated::Feasible))
        .map(|(_, g)| g.nodes)
        .sum();
    if feasible > 0 {
        if prep.preferred.is_err() && feasible > 1 {
            return (PodOutcome::PreScoreError, row);
        }
        let mut raws: Vec<Option<((i64, i64), ResourceScores)>> = Vec::with_capacity(width);
        let mut max = (0i64, 0i64);
        for (e, g) in evals.iter().zip(&index.groups) {
            let raw = match (e, rep(g)) {
                (Evaluated::Feasible, (Some(node), state)) => Some((
                    prep.raw_scores(node),
                    prep.resource_scores(state.usage.as_ref()),
                )),
                _ => None,
            };
            if let Some((r, _)) = raw {
                max = (max.0.max(r.0), max.1.max(r.1));
            }
            raws.push(raw);
        }
        for (cell, raw) in row.iter_mut().zip(raws) {
            if let Some((r, res)) = raw {
                *cell = normalized(r, max, res);
            }
        }
        return (PodOutcome::Feasible { nodes: feasible }, row);
    }
    for (e, cell) in evals.iter_mut().zip(&row) {
        if let (Evaluated::Rejected(s), NodeOutcome::Rejected { status, .. }) = (e, cell) {
            s.reasons.clone_from(&status.reasons);
        }
    }
    let groups: Option<Vec<GroupView<'_>>> = evals
        .iter()
        .zip(&index.groups)
        .map(|(e, g)| {
            let (node, state) = rep(g);
            node.map(|n| GroupView {
                count: g.nodes,
                eval: e,
                node: n,
                state,
            })
        })
        .collect();
    let Some(groups) = groups else {
        return (PodOutcome::Bypassed, row);
    };
    let outcome = assemble(
        &prep,
        index.nodes.len(),
        &groups,
        Some(&index.class_of),
        index.nodes,
        &index.states,
    );
    (outcome, row)
}
