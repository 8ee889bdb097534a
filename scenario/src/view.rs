//! Per-pair views of a scenario, computed on demand: the matrix cell, the explanation
//! and the eviction timeline of one pod on one node.

use taintlab_core::eviction::{
    EvictionDelay, NoExecuteVerdict, SimEvent, SimulationResult, TimedEvent, no_execute_verdict,
    simulate,
};
use taintlab_core::scheduling::score::MAX_NODE_SCORE;
use taintlab_core::scheduling::{Explanation, FilterPlugin, Verdict, explain};

use crate::placement::Hold;
use taintlab_core::{Node, Pod, Semantics, TaintEffect};

/// What a cell of the matrix shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// Passes every filter, no penalty.
    Schedulable,
    /// Passes, with untolerated PreferNoSchedule taints.
    Penalized,
    /// Rejected by a filter.
    Blocked,
    /// The pod is bound elsewhere (`spec.nodeName`) and bypasses the scheduler.
    Elsewhere,
    /// The pod is bound here (`spec.nodeName`) and bypasses the scheduler.
    BoundHere,
}

/// One matrix cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    /// The kind, from the full filter chain: [`CellKind::Blocked`] when any modelled
    /// filter rejects the node (not only taints and cordons), when the node is outside
    /// NodeAffinity's PreFilter result, or when the scheduler does not evaluate the pod
    /// at all ([`CellView::hold`] then says why: gated, another scheduler, no daemon
    /// pod for this node, a scheduler error).
    pub kind: CellKind,
    /// The taint filters' verdict (NodeUnschedulable and TaintToleration only; see
    /// [`CellView::rejected_by`] for the full chain).
    pub verdict: Verdict,
    /// Normalized TaintToleration score (0..=100) on feasible nodes.
    pub score: Option<i64>,
    /// What the NoExecute taints mean for a pod running here.
    pub eviction: NoExecuteVerdict,
    /// The first filter plugin that rejected the node (full chain).
    pub rejected_by: Option<FilterPlugin>,
    /// The weighted sum of the modelled scores on a feasible node (see
    /// [`crate::placement::CellScores`]).
    pub combined_score: Option<i64>,
    /// Why the scheduler does not evaluate this cell, when it does not.
    pub hold: Option<Hold>,
    /// False when the node's allocatable is unknown (resources not checked there).
    pub resources_checked: bool,
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

impl crate::Scenario {
    /// The cell for pod `p` on node `n` (indices into [`crate::Scenario::pods`] and
    /// [`crate::Scenario::nodes`]).
    pub fn cell(&self, p: usize, n: usize) -> Option<CellView> {
        let pod = self.pods.get(p)?;
        let node = self.nodes.get(n)?;
        let cell = self.result.cell(p, n)?;
        let full = self.placement_cell(p, n)?;
        let gate = self.semantics.comparison_operators_enabled();
        let eviction = no_execute_verdict(&node.node.taints, &pod.pod.tolerations, gate);
        let kind = match (&full.hold, &full.scores) {
            // A DaemonSet row is bound only where its pasted daemon pod runs.
            (Some(Hold::Bound), _)
                if pod.pod.node_name == node.node.name
                    || self.placement.daemon_pods(p).is_some() =>
            {
                CellKind::BoundHere
            }
            (Some(Hold::Bound), _) => CellKind::Elsewhere,
            (None, Some(s)) if s.taint_toleration < MAX_NODE_SCORE => CellKind::Penalized,
            (None, Some(_)) => CellKind::Schedulable,
            _ => CellKind::Blocked,
        };
        Some(CellView {
            kind,
            verdict: cell.verdict,
            score: full.scores.map(|s| s.taint_toleration),
            eviction,
            rejected_by: full.rejected_by,
            combined_score: full.scores.map(|s| s.combined),
            hold: full.hold,
            resources_checked: full.resources_checked,
        })
    }

    /// Why pod `p` can or cannot run on node `n`, taint by taint. Its `filter` part is
    /// the full chain's: the first plugin that rejected the node (NodeAffinity,
    /// NodePorts, NodeResourcesFit included), its code and the node's reason; the
    /// `verdict` stays the taint filters' (see [`crate::Scenario::explain_placement`]
    /// for every filter in order).
    pub fn explain(&self, p: usize, n: usize) -> Option<Explanation> {
        let pod = self.pods.get(p)?;
        let node = self.nodes.get(n)?;
        let mut x = explain(&pod.pod, &node.node, self.semantics);
        if let Some(full) = self.placement_cell(p, n)
            && let Some(plugin) = full.rejected_by
            && x.filter.rejected_by != Some(plugin)
        {
            x.filter.rejected_by = Some(plugin);
            x.filter.code = full.code.unwrap_or(x.filter.code);
            x.filter.reason = (!full.reasons.is_empty()).then(|| full.reasons.join(", "));
            x.filter.first_untolerated = None;
        }
        Some(x)
    }

    /// The taint-eviction controller's timeline for pod `p` already running on node `n`
    /// when the node's taints appear at second 0; `None` when the node has no NoExecute
    /// taint (nothing happens) or an index is out of range.
    pub fn eviction(&self, p: usize, n: usize) -> Option<SimulationResult> {
        let pod = self.pods.get(p)?;
        let node = self.nodes.get(n)?;
        eviction_on(&pod.pod, &node.node, self.semantics)
    }

    /// The FailedScheduling message of pod `p` when it fits nowhere, from the full
    /// filter chain (node affinity, ports and resource reasons, the DynamicResources
    /// and preemption parts of its release). For a DaemonSet row, the message of its
    /// first daemon pod that fits nowhere.
    pub fn message(&self, p: usize) -> Option<&str> {
        self.placement.message(p)
    }

    /// The pods whose computed FailedScheduling message is exactly `message`.
    pub fn pods_with_message(&self, message: &str) -> Vec<usize> {
        (0..self.pods.len())
            .filter(|&p| self.message(p) == Some(message))
            .collect()
    }
}

/// See [`crate::Scenario::eviction`].
pub fn eviction_on(pod: &Pod, node: &Node, semantics: Semantics) -> Option<SimulationResult> {
    if !node
        .taints
        .iter()
        .any(|t| t.effect == TaintEffect::NoExecute)
    {
        return None;
    }
    let mut running = pod.clone();
    running.node_name = node.name.clone();
    let events = [
        TimedEvent::new(
            0,
            SimEvent::CreateNode {
                name: node.name.clone(),
                taints: node.taints.clone(),
            },
        ),
        TimedEvent::new(0, SimEvent::CreatePod(running)),
    ];
    Some(simulate(events, i64::MAX, semantics))
}
