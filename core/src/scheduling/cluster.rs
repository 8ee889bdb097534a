//! Every pod against every node: filter verdicts, normalized TaintToleration scores and
//! FailedScheduling messages, computed per equivalence class.
//!
//! Real clusters repeat taint sets across nodes and toleration sets across pods. Nodes
//! are grouped by (taints in order, `spec.unschedulable`) and pods by (tolerations in
//! order, preemption policy); pods with `spec.nodeName` preset form one class of their
//! own, since the scheduler never sees them. Each pod class is evaluated once against each node class, and the
//! pod × node matrix is answered through accessors without being materialised.
//!
//! Scores are normalized over every node that passes the filters. The real scheduler
//! stops filtering once it has found `numFeasibleNodesToFind` nodes (adaptive
//! `percentageOfNodesToScore`, from a rotating start index) and skips scoring when only
//! one node is feasible; this model is the `percentageOfNodesToScore: 100` view.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::hash::{Hash, Hasher};

use crate::key_index::KeyIndex;

use super::filter::{
    FilterPlugin, NODE_UNSCHEDULABLE_REASON, NodeFilterResult, TaintReasonText, bypasses_scheduler,
    run_filters, tolerates_unschedulable,
};
use super::fit_error::{
    FailedScheduling, FitError, NO_NODES_AVAILABLE, dynamic_resources_enabled, post_filter_message,
    preemption_message,
};
use super::score::{
    MAX_NODE_SCORE, TAINT_TOLERATION_WEIGHT, count_intolerable_prefer_no_schedule,
    default_normalize_score, normalize_one, pre_score_tolerations, taint_toleration_score,
};
use crate::helpers::{TaintFilter, find_matching_untolerated_taint};
use crate::model::{Node, Pod, PreemptionPolicy, Taint, Toleration};
use crate::version::Semantics;

/// What the scheduler makes of one pod on one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Passes every filter, and no PreferNoSchedule taint is left untolerated.
    Schedulable,
    /// Passes every filter, but untolerated PreferNoSchedule taints lower its score.
    Penalized {
        /// The raw TaintToleration score: untolerated PreferNoSchedule taints.
        untolerated_prefer_no_schedule: usize,
    },
    /// NodeUnschedulable rejected it: the node is cordoned and the pod does not tolerate
    /// `node.kubernetes.io/unschedulable:NoSchedule`.
    Unschedulable,
    /// TaintToleration rejected it.
    Untolerated {
        /// Index in `node.taints` of the first untolerated NoSchedule/NoExecute taint.
        first_untolerated: usize,
    },
    /// The pod has `spec.nodeName` preset and never passes through the scheduler.
    Bypassed,
}

impl Verdict {
    /// True when the node passes the filters (schedulable, with or without penalty).
    pub fn passes_filter(self) -> bool {
        matches!(self, Self::Schedulable | Self::Penalized { .. })
    }

    /// The raw TaintToleration score, for nodes that pass the filters.
    pub fn raw_score(self) -> Option<i64> {
        match self {
            Self::Schedulable => Some(0),
            Self::Penalized {
                untolerated_prefer_no_schedule: n,
            } => Some(i64::try_from(n).unwrap_or(i64::MAX)),
            _ => None,
        }
    }

    /// The filter that rejected the node, if one did.
    pub fn rejected_by(self) -> Option<FilterPlugin> {
        match self {
            Self::Unschedulable => Some(FilterPlugin::NodeUnschedulable),
            Self::Untolerated { .. } => Some(FilterPlugin::TaintToleration),
            _ => None,
        }
    }

    fn from_raw(raw: usize) -> Self {
        if raw == 0 {
            Self::Schedulable
        } else {
            Self::Penalized {
                untolerated_prefer_no_schedule: raw,
            }
        }
    }
}

/// One pod × node cell: the verdict and the normalized TaintToleration score (0..=100,
/// before the plugin weight), `None` unless the node passes the filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The verdict.
    pub verdict: Verdict,
    /// The normalized score.
    pub score: Option<i64>,
}

/// Evaluates one pod on one node directly, with the plugin functions: the reference
/// the class-grouped evaluation must agree with.
pub fn evaluate_pair(pod: &Pod, node: &Node, semantics: Semantics) -> Verdict {
    if bypasses_scheduler(pod) {
        return Verdict::Bypassed;
    }
    verdict_of(&run_filters(pod, node, semantics), pod, node, semantics)
}

/// The verdict for a pod that went through the filters, given their result.
fn verdict_of(
    filtered: &NodeFilterResult<'_>,
    pod: &Pod,
    node: &Node,
    semantics: Semantics,
) -> Verdict {
    match filtered.rejected_by {
        Some(FilterPlugin::NodeUnschedulable) => Verdict::Unschedulable,
        Some(FilterPlugin::TaintToleration) => Verdict::Untolerated {
            first_untolerated: filtered
                .first_untolerated
                .and_then(|t| node.taints.iter().position(|x| core::ptr::eq(x, t)))
                .unwrap_or(0),
        },
        // run_filters runs NodeUnschedulable and TaintToleration only.
        Some(_) | None => {
            let raw = taint_toleration_score(&node.taints, &pod.tolerations, semantics);
            Verdict::from_raw(usize::try_from(raw).unwrap_or(0))
        }
    }
}

// ---------------------------------------------------------------------------------------
// Grouping
// ---------------------------------------------------------------------------------------

/// A small FxHash-style hasher: grouping hashes every node's taint strings once, and
/// SipHash-quality hashing is not needed for that (collisions are resolved by equality).
struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            self.add(word(chunk));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn taint_hash(taints: &[Taint], unschedulable: bool) -> u64 {
    let mut h = FxHasher(0);
    h.write_u8(u8::from(unschedulable));
    h.write_usize(taints.len());
    for t in taints {
        // timeAdded is deliberately left out: nothing in scheduling reads it.
        t.key.hash(&mut h);
        t.value.hash(&mut h);
        t.effect.hash(&mut h);
    }
    h.finish()
}

/// Byte equality for the short keys and values of taints and tolerations, compared
/// eight bytes at a time. Grouping compares every node's strings once with its class's;
/// a libc `memcmp` call per short string measured several times slower than this.
fn bytes_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    // Zero-padded words: equal lengths make the padding equal too.
    a.chunks(8)
        .zip(b.chunks(8))
        .all(|(x, y)| word(x) == word(y))
}

/// Up to eight bytes as a zero-padded word.
fn word(bytes: &[u8]) -> u64 {
    if let Ok(full) = <[u8; 8]>::try_from(bytes) {
        return u64::from_le_bytes(full);
    }
    bytes
        .iter()
        .enumerate()
        .fold(0, |w, (i, &b)| w | (u64::from(b) << (8 * i)))
}

fn same_taints(a: &[Taint], b: &[Taint]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            bytes_eq(&x.key, &y.key) && bytes_eq(&x.value, &y.value) && x.effect == y.effect
        })
}

fn toleration_hash(tolerations: &[Toleration], policy: &PreemptionPolicy) -> u64 {
    let mut h = FxHasher(1);
    h.write_u8(u8::from(*policy == PreemptionPolicy::Never));
    h.write_usize(tolerations.len());
    for t in tolerations {
        // tolerationSeconds is deliberately left out: the scheduler never reads it.
        t.key.hash(&mut h);
        t.operator.hash(&mut h);
        t.value.hash(&mut h);
        t.effect.hash(&mut h);
    }
    h.finish()
}

fn same_tolerations(a: &[Toleration], b: &[Toleration]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            bytes_eq(&x.key, &y.key)
                && x.operator == y.operator
                && bytes_eq(&x.value, &y.value)
                && x.effect == y.effect
        })
}

fn to_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Nodes that the scheduler cannot tell apart: same taints in the same order (ignoring
/// `timeAdded`) and same `spec.unschedulable`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeClass {
    /// The taints of the class's first node.
    pub taints: Vec<Taint>,
    /// `spec.unschedulable`.
    pub unschedulable: bool,
    /// Index of the first node in the class.
    pub first_node: usize,
    /// Number of nodes in the class.
    pub nodes: usize,
}

/// The nodes of a cluster grouped into [`NodeClass`]es: the scheduler's snapshot.
/// Build it once and evaluate many pod batches against it with [`schedule_on`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeClasses {
    class_of: Vec<u32>,
    classes: Vec<NodeClass>,
}

impl NodeClasses {
    /// Groups `nodes` (node indices are positions in this slice).
    pub fn new(nodes: &[Node]) -> Self {
        let mut index = KeyIndex::new();
        let mut classes: Vec<NodeClass> = Vec::new();
        let mut class_of = Vec::with_capacity(nodes.len());
        for (i, node) in nodes.iter().enumerate() {
            let hash = taint_hash(&node.taints, node.unschedulable);
            let id = {
                let classes_ref = &classes;
                let same = |id: usize| {
                    classes_ref.get(id).is_some_and(|c| {
                        c.unschedulable == node.unschedulable
                            && same_taints(&c.taints, &node.taints)
                    })
                };
                let next = to_u32(classes.len());
                let id = to_u32(index.find_or_insert(hash, classes.len(), &same));
                if id == next {
                    classes.push(NodeClass {
                        taints: node.taints.clone(),
                        unschedulable: node.unschedulable,
                        first_node: i,
                        nodes: 0,
                    });
                }
                id
            };
            if let Some(c) = classes.get_mut(id as usize) {
                c.nodes = c.nodes.saturating_add(1);
            }
            class_of.push(id);
        }
        Self { class_of, classes }
    }

    /// Number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.class_of.len()
    }

    /// The classes, in order of first appearance.
    pub fn classes(&self) -> &[NodeClass] {
        &self.classes
    }

    /// The class of a node.
    pub fn class_of(&self, node: usize) -> Option<usize> {
        self.class_of.get(node).map(|&c| c as usize)
    }

    /// The nodes of a class, in index order.
    pub fn members(&self, class: usize) -> impl Iterator<Item = usize> + '_ {
        self.class_of
            .iter()
            .enumerate()
            .filter(move |&(_, &c)| c as usize == class)
            .map(|(i, _)| i)
    }
}

/// Pods that the scheduler cannot tell apart: same tolerations in the same order
/// (ignoring `tolerationSeconds`) and same preemption policy. Every pod with
/// `spec.nodeName` preset falls into one bypassing class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodClass {
    /// The tolerations of the class's first pod (empty for the bypassing class).
    pub tolerations: Vec<Toleration>,
    /// The preemption policy (the default for the bypassing class).
    pub preemption_policy: PreemptionPolicy,
    /// True for the class of pods with `spec.nodeName` preset.
    pub bypasses_scheduler: bool,
    /// Index of the first pod in the class.
    pub first_pod: usize,
    /// Number of pods in the class.
    pub pods: usize,
    /// Number of nodes that pass the filters.
    pub feasible_nodes: usize,
    /// Largest raw score over the feasible nodes (0 when none).
    pub max_raw_score: i64,
    /// The FailedScheduling message; `None` when a node fits or the class bypasses.
    pub message: Option<String>,
}

fn group_pods(pods: &[Pod]) -> (Vec<u32>, Vec<PodClass>) {
    let mut index = KeyIndex::new();
    let mut classes: Vec<PodClass> = Vec::new();
    let mut class_of = Vec::with_capacity(pods.len());
    let mut bypass_class: Option<u32> = None;
    for (i, pod) in pods.iter().enumerate() {
        let next = to_u32(classes.len());
        let id = if bypasses_scheduler(pod) {
            *bypass_class.get_or_insert(next)
        } else {
            let hash = toleration_hash(&pod.tolerations, &pod.preemption_policy);
            let classes_ref = &classes;
            let same = |id: usize| {
                classes_ref.get(id).is_some_and(|c| {
                    !c.bypasses_scheduler
                        && c.preemption_policy == pod.preemption_policy
                        && same_tolerations(&c.tolerations, &pod.tolerations)
                })
            };
            to_u32(index.find_or_insert(hash, classes.len(), &same))
        };
        if id == next {
            let bypass = bypasses_scheduler(pod);
            classes.push(PodClass {
                tolerations: if bypass {
                    Vec::new()
                } else {
                    pod.tolerations.clone()
                },
                preemption_policy: if bypass {
                    PreemptionPolicy::default()
                } else {
                    pod.preemption_policy.clone()
                },
                bypasses_scheduler: bypass,
                first_pod: i,
                pods: 0,
                feasible_nodes: 0,
                max_raw_score: 0,
                message: None,
            });
        }
        if let Some(c) = classes.get_mut(id as usize) {
            c.pods = c.pods.saturating_add(1);
        }
        class_of.push(id);
    }
    (class_of, classes)
}

// ---------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------

/// The result of [`schedule`]: every pod × node verdict and score, and each pod's
/// FailedScheduling message, answered from the class × class matrix.
#[derive(Clone, Debug)]
pub struct ClusterResult<'a> {
    semantics: Semantics,
    nodes: Cow<'a, NodeClasses>,
    pod_class_of: Vec<u32>,
    pod_classes: Vec<PodClass>,
    /// Row-major `pod class × node class`, scores already normalized.
    matrix: Vec<Cell>,
}

/// Evaluates every pod against every node (see the module documentation).
pub fn schedule(pods: &[Pod], nodes: &[Node], semantics: Semantics) -> ClusterResult<'static> {
    evaluate(Cow::Owned(NodeClasses::new(nodes)), pods, semantics)
}

/// [`schedule`] against an already grouped set of nodes.
pub fn schedule_on<'a>(
    nodes: &'a NodeClasses,
    pods: &[Pod],
    semantics: Semantics,
) -> ClusterResult<'a> {
    evaluate(Cow::Borrowed(nodes), pods, semantics)
}

fn evaluate<'a>(
    nodes: Cow<'a, NodeClasses>,
    pods: &[Pod],
    semantics: Semantics,
) -> ClusterResult<'a> {
    let (pod_class_of, mut pod_classes) = group_pods(pods);
    let gate = semantics.comparison_operators_enabled();
    let reason_text = TaintReasonText::for_version(semantics.version);
    let node_classes = nodes.classes();
    let num_nodes = nodes.num_nodes();
    let mut matrix = Vec::with_capacity(pod_classes.len().saturating_mul(node_classes.len()));
    let mut reason = String::new();

    for pc in &mut pod_classes {
        if pc.bypasses_scheduler {
            matrix.extend(core::iter::repeat_n(
                Cell {
                    verdict: Verdict::Bypassed,
                    score: None,
                },
                node_classes.len(),
            ));
            continue;
        }
        let tolerates_cordon = tolerates_unschedulable(&pc.tolerations, gate);
        let pre_score = pre_score_tolerations(&pc.tolerations);
        let row_start = matrix.len();
        for nc in node_classes {
            let verdict = if nc.unschedulable && !tolerates_cordon {
                Verdict::Unschedulable
            } else if let Some(i) = first_untolerated_index(&nc.taints, &pc.tolerations, gate) {
                Verdict::Untolerated {
                    first_untolerated: i,
                }
            } else {
                let raw = count_intolerable_prefer_no_schedule(&nc.taints, &pre_score, gate);
                pc.feasible_nodes = pc.feasible_nodes.saturating_add(nc.nodes);
                pc.max_raw_score = pc.max_raw_score.max(raw);
                Verdict::from_raw(usize::try_from(raw).unwrap_or(0))
            };
            matrix.push(Cell {
                verdict,
                score: None,
            });
        }
        let row = matrix.get_mut(row_start..).unwrap_or(&mut []);
        for cell in row.iter_mut() {
            cell.score = cell
                .verdict
                .raw_score()
                .map(|raw| normalize_one(MAX_NODE_SCORE, true, raw, pc.max_raw_score));
        }
        if num_nodes == 0 {
            pc.message = Some(String::from(NO_NODES_AVAILABLE));
        } else if pc.feasible_nodes == 0 {
            let mut fit = FitError::new(num_nodes);
            let row = matrix.get(row_start..).unwrap_or(&[]);
            for (cell, nc) in row.iter().zip(node_classes) {
                reason.clear();
                match cell.verdict {
                    Verdict::Unschedulable => reason.push_str(NODE_UNSCHEDULABLE_REASON),
                    Verdict::Untolerated { first_untolerated } => {
                        if let Some(t) = nc.taints.get(first_untolerated) {
                            reason_text.write(&mut reason, t);
                        }
                    }
                    _ => continue,
                }
                fit.record_nodes(nc.nodes, &[reason.as_str()]);
            }
            fit.post_filter_msg = post_filter_message(
                &preemption_message(&pc.preemption_policy, num_nodes, 0, semantics.version),
                dynamic_resources_enabled(semantics.version, None),
            );
            pc.message = Some(fit.message(semantics.version));
        }
    }

    ClusterResult {
        semantics,
        nodes,
        pod_class_of,
        pod_classes,
        matrix,
    }
}

fn first_untolerated_index(
    taints: &[Taint],
    tolerations: &[Toleration],
    gate: bool,
) -> Option<usize> {
    let t = find_matching_untolerated_taint(
        taints,
        tolerations,
        TaintFilter::NoScheduleOrNoExecute,
        gate,
    )?;
    taints.iter().position(|x| core::ptr::eq(x, t))
}

impl ClusterResult<'_> {
    /// The semantics the result was computed with.
    pub fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// Number of pods.
    pub fn num_pods(&self) -> usize {
        self.pod_class_of.len()
    }

    /// Number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.nodes.num_nodes()
    }

    /// The node grouping.
    pub fn node_classes(&self) -> &NodeClasses {
        &self.nodes
    }

    /// The pod classes, in order of first appearance.
    pub fn pod_classes(&self) -> &[PodClass] {
        &self.pod_classes
    }

    /// The class of a pod.
    pub fn pod_class_of(&self, pod: usize) -> Option<usize> {
        self.pod_class_of.get(pod).map(|&c| c as usize)
    }

    /// The verdict for a pod class on a node class.
    pub fn class_verdict(&self, pod_class: usize, node_class: usize) -> Option<Verdict> {
        self.class_cell(pod_class, node_class).map(|c| c.verdict)
    }

    /// The cell for a pod class on a node class.
    pub fn class_cell(&self, pod_class: usize, node_class: usize) -> Option<Cell> {
        let width = self.nodes.classes().len();
        if node_class >= width {
            return None;
        }
        self.matrix
            .get(pod_class.checked_mul(width)?.checked_add(node_class)?)
            .copied()
    }

    fn pod_class(&self, pod: usize) -> Option<&PodClass> {
        self.pod_classes.get(self.pod_class_of(pod)?)
    }

    /// The verdict for a pod on a node; `None` when either index is out of range.
    pub fn verdict(&self, pod: usize, node: usize) -> Option<Verdict> {
        self.class_verdict(self.pod_class_of(pod)?, self.nodes.class_of(node)?)
    }

    /// The normalized TaintToleration score (0..=100) of a pod on a node; `None` unless
    /// the node passes the filters.
    pub fn score(&self, pod: usize, node: usize) -> Option<i64> {
        self.cell(pod, node)?.score
    }

    /// [`ClusterResult::score`] times the plugin weight (3), as added to the node total.
    pub fn weighted_score(&self, pod: usize, node: usize) -> Option<i64> {
        self.score(pod, node)
            .map(|s| s.saturating_mul(TAINT_TOLERATION_WEIGHT))
    }

    /// The verdict and score of a pod on a node.
    pub fn cell(&self, pod: usize, node: usize) -> Option<Cell> {
        self.class_cell(self.pod_class_of(pod)?, self.nodes.class_of(node)?)
    }

    /// Every node's cell for one pod, in node order.
    pub fn row(&self, pod: usize) -> Option<impl ExactSizeIterator<Item = Cell> + '_> {
        let pc = self.pod_class_of(pod)?;
        let width = self.nodes.classes().len();
        let row = self.matrix.get(pc * width..(pc + 1) * width)?;
        // Every class index is < width, so the fallback is never used.
        let none = Cell {
            verdict: Verdict::Bypassed,
            score: None,
        };
        Some(
            self.nodes
                .class_of
                .iter()
                .map(move |&nc| row.get(nc as usize).copied().unwrap_or(none)),
        )
    }

    /// Number of nodes that pass the filters for a pod (0 for a bypassing pod).
    pub fn feasible_nodes(&self, pod: usize) -> Option<usize> {
        self.pod_class(pod).map(|c| c.feasible_nodes)
    }

    /// The FailedScheduling message of a pod; `None` when at least one node fits, the pod
    /// bypasses the scheduler, or the index is out of range.
    pub fn message(&self, pod: usize) -> Option<&str> {
        self.pod_class(pod)?.message.as_deref()
    }

    /// The FailedScheduling event and condition of a pod, when it does not fit.
    pub fn failed_scheduling(&self, pod: usize) -> Option<FailedScheduling> {
        let msg = self.message(pod)?;
        Some(if self.num_nodes() == 0 {
            FailedScheduling::no_nodes()
        } else {
            FailedScheduling::unschedulable(String::from(msg))
        })
    }

    /// Materialises the whole matrix, row-major (`pod * num_nodes + node`).
    pub fn to_cells(&self) -> Vec<Cell> {
        let mut out = Vec::with_capacity(self.num_pods().saturating_mul(self.num_nodes()));
        for pod in 0..self.num_pods() {
            if let Some(row) = self.row(pod) {
                out.extend(row);
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------
// Baseline
// ---------------------------------------------------------------------------------------

/// The result of [`schedule_naive`]: every cell materialised.
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveResult {
    /// Number of nodes (row width).
    pub num_nodes: usize,
    /// Row-major cells.
    pub cells: Vec<Cell>,
    /// Per-pod FailedScheduling message.
    pub messages: Vec<Option<String>>,
}

impl NaiveResult {
    /// The cell of a pod on a node.
    pub fn cell(&self, pod: usize, node: usize) -> Option<Cell> {
        if node >= self.num_nodes {
            return None;
        }
        self.cells
            .get(pod.checked_mul(self.num_nodes)?.checked_add(node)?)
            .copied()
    }
}

/// The per-pair baseline: runs the plugin functions on every pod × node pair, normalizes
/// each pod's scores with `DefaultNormalizeScore` and builds each FitError node by node.
/// Kept for tests (grouped == naive) and benchmarks.
#[doc(hidden)]
pub fn schedule_naive(pods: &[Pod], nodes: &[Node], semantics: Semantics) -> NaiveResult {
    let mut cells = Vec::with_capacity(pods.len().saturating_mul(nodes.len()));
    let mut messages = Vec::with_capacity(pods.len());
    for pod in pods {
        if bypasses_scheduler(pod) {
            cells.extend(core::iter::repeat_n(
                Cell {
                    verdict: Verdict::Bypassed,
                    score: None,
                },
                nodes.len(),
            ));
            messages.push(None);
            continue;
        }
        let mut fit = FitError::new(nodes.len());
        let mut feasible = Vec::new();
        let mut raw = Vec::new();
        let row_start = cells.len();
        for (i, node) in nodes.iter().enumerate() {
            let filtered = run_filters(pod, node, semantics);
            let verdict = verdict_of(&filtered, pod, node, semantics);
            if let Some(r) = verdict.raw_score() {
                feasible.push(i);
                raw.push(r);
            } else {
                fit.record_node(&filtered.status.reasons);
            }
            cells.push(Cell {
                verdict,
                score: None,
            });
        }
        default_normalize_score(MAX_NODE_SCORE, true, &mut raw);
        for (&i, &s) in feasible.iter().zip(&raw) {
            if let Some(c) = cells.get_mut(row_start + i) {
                c.score = Some(s);
            }
        }
        messages.push(if nodes.is_empty() {
            Some(String::from(NO_NODES_AVAILABLE))
        } else if feasible.is_empty() {
            fit.post_filter_msg = post_filter_message(
                &preemption_message(&pod.preemption_policy, nodes.len(), 0, semantics.version),
                dynamic_resources_enabled(semantics.version, None),
            );
            Some(fit.message(semantics.version))
        } else {
            None
        });
    }
    NaiveResult {
        num_nodes: nodes.len(),
        cells,
        messages,
    }
}
