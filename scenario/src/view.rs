//! Per-pair views of a scenario, computed on demand: the matrix cell, the explanation
//! and the eviction timeline of one pod on one node.

use taintlab_core::eviction::{
    EvictionDelay, NoExecuteVerdict, SimEvent, SimulationResult, TimedEvent, no_execute_verdict,
    simulate,
};
use taintlab_core::scheduling::{Explanation, Verdict, explain};
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
    /// The kind.
    pub kind: CellKind,
    /// The scheduler's verdict.
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

impl crate::Scenario {
    /// The cell for pod `p` on node `n` (indices into [`crate::Scenario::pods`] and
    /// [`crate::Scenario::nodes`]).
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

    /// Why pod `p` can or cannot run on node `n`, taint by taint.
    pub fn explain(&self, p: usize, n: usize) -> Option<Explanation> {
        let pod = self.pods.get(p)?;
        let node = self.nodes.get(n)?;
        Some(explain(&pod.pod, &node.node, self.semantics))
    }

    /// The taint-eviction controller's timeline for pod `p` already running on node `n`
    /// when the node's taints appear at second 0; `None` when the node has no NoExecute
    /// taint (nothing happens) or an index is out of range.
    pub fn eviction(&self, p: usize, n: usize) -> Option<SimulationResult> {
        let pod = self.pods.get(p)?;
        let node = self.nodes.get(n)?;
        eviction_on(&pod.pod, &node.node, self.semantics)
    }

    /// The FailedScheduling message of pod `p` when it fits nowhere.
    pub fn message(&self, p: usize) -> Option<&str> {
        self.result.message(p)
    }

    /// The pods whose computed FailedScheduling message is exactly `message`.
    pub fn pods_with_message(&self, message: &str) -> Vec<usize> {
        (0..self.pods.len())
            .filter(|&p| self.result.message(p) == Some(message))
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
