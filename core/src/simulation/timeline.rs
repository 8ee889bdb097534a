//! The result of a what-if simulation: events in order, per-pod spans for swim lanes,
//! the cluster at any second and a summary.

use alloc::string::String;
use alloc::vec::Vec;

use super::cluster::Owner;
use super::events::Event;
use crate::model::Taint;

/// Why a pod is terminating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TerminationCause {
    /// The taint-eviction controller deleted it (an untolerated `NoExecute` taint or an
    /// expired `tolerationSeconds`).
    TaintEviction,
    /// `kubectl drain` evicted it through the Eviction API.
    DrainEviction,
    /// `kubectl drain --disable-eviction` deleted it.
    DrainDeletion,
    /// The scheduler preempted it for a pod of higher priority.
    Preemption,
    /// Its controller scaled down.
    ScaleDown,
    /// Its node was deleted; pod GC removed it.
    NodeDeleted,
}

impl TerminationCause {
    /// A short name: `taint-eviction`, `drain-eviction`, `drain-deletion`, `preemption`,
    /// `scale-down`, `node-deleted`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TaintEviction => "taint-eviction",
            Self::DrainEviction => "drain-eviction",
            Self::DrainDeletion => "drain-deletion",
            Self::Preemption => "preemption",
            Self::ScaleDown => "scale-down",
            Self::NodeDeleted => "node-deleted",
        }
    }
}

/// What a pod is doing during a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "state", rename_all = "camelCase"))]
pub enum PodState {
    /// Not bound to a node (waiting in the scheduling queue, or gated).
    Pending,
    /// Bound to the span's node.
    Running,
    /// Deleted gracefully, still on the span's node until gone.
    Terminating {
        /// Why.
        cause: TerminationCause,
    },
}

/// One stretch of a pod's life in one state on one node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PodSpan {
    /// Index into [`Timeline::pods`].
    pub pod: usize,
    /// Index into [`Timeline::nodes`]; `None` while Pending.
    pub node: Option<usize>,
    /// The state.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub state: PodState,
    /// First second of the span.
    pub from: i64,
    /// The second the span ends (exclusive); `None` when it lasts past the end.
    pub to: Option<i64>,
}

/// A pod that existed at some point of the simulation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PodRecord {
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name` (a StatefulSet's replacement reuses the name: it is a new record).
    pub name: String,
    /// The controlling owner.
    pub owner: Option<Owner>,
    /// When it was created (0 for the starting pods).
    pub created: i64,
    /// When it was gone from the API, if it was.
    pub gone: Option<i64>,
    /// For a pod a controller created to replace another, that pod's index.
    pub replaces: Option<usize>,
}

/// A node's spec and readiness from a second on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct NodeChange {
    /// When.
    pub at: i64,
    /// Index into [`Timeline::nodes`].
    pub node: usize,
    /// `spec.taints` from then on.
    pub taints: Vec<Taint>,
    /// `spec.unschedulable` from then on.
    pub unschedulable: bool,
    /// The Ready condition as the control plane sees it: `True`, `Unknown`.
    pub ready: bool,
    /// False once the Node object is deleted.
    pub exists: bool,
}

/// A pod Pending at the end, with the scheduler's last word on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct StillPending {
    /// Index into [`Timeline::pods`].
    pub pod: usize,
    /// The last FailedScheduling message (empty if the pod was never attempted, e.g.
    /// gated or for another scheduler).
    pub message: String,
}

/// Free capacity of one node at the end.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct NodeCapacity {
    /// Index into [`Timeline::nodes`].
    pub node: usize,
    /// True when new pods without special tolerations could land there (schedulable,
    /// Ready, no `NoSchedule`/`NoExecute` taint).
    pub open: bool,
    /// Allocatable milli-CPU minus requested (`None`: allocatable unknown).
    pub cpu_milli_free: Option<i64>,
    /// Allocatable memory bytes minus requested (`None`: allocatable unknown).
    pub memory_free: Option<i64>,
    /// Allocatable pods minus pods bound (`None`: allocatable unknown).
    pub pods_free: Option<i64>,
}

/// The run in numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Summary {
    /// Pods deleted by taint eviction, drain or preemption.
    pub evicted: usize,
    /// Pods a controller created in place of a terminating or gone pod.
    pub replaced: usize,
    /// Replacements that were bound to a node by the end.
    pub rescheduled: usize,
    /// Pods Pending at the end.
    pub still_pending: Vec<StillPending>,
    /// Per node, free capacity at the end.
    pub capacity: Vec<NodeCapacity>,
    /// True when a `kubectl drain` had not exited successfully by the end (it failed, a
    /// PDB kept refusing, or pods stay terminating on a node whose kubelet is gone).
    pub drains_unfinished: bool,
}

/// The whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Timeline {
    /// The simulated stretch, `[0, until]`.
    pub until: i64,
    /// Node names in input order (nodes added by an action appended).
    pub nodes: Vec<String>,
    /// Every pod that existed, in creation order.
    pub pods: Vec<PodRecord>,
    /// Events and drain lines in the order they happen.
    pub events: Vec<Event>,
    /// Per-pod spans, in the order they start.
    pub spans: Vec<PodSpan>,
    /// Node spec changes, in order (the starting state is at second 0).
    pub node_changes: Vec<NodeChange>,
    /// The numbers.
    pub summary: Summary,
}

/// A pod at one second.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PodAt {
    /// Index into [`Timeline::pods`].
    pub pod: usize,
    /// Index into [`Timeline::nodes`]; `None` while Pending.
    pub node: Option<usize>,
    /// The state.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub state: PodState,
}

/// A node at one second.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct NodeAt {
    /// Index into [`Timeline::nodes`].
    pub node: usize,
    /// `spec.taints`.
    pub taints: Vec<Taint>,
    /// `spec.unschedulable`.
    pub unschedulable: bool,
    /// Ready as the control plane sees it.
    pub ready: bool,
}

/// The cluster at one second.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClusterAt {
    /// The second.
    pub at: i64,
    /// Nodes that exist then.
    pub nodes: Vec<NodeAt>,
    /// Pods that exist then (by pod index).
    pub pods: Vec<PodAt>,
}

impl Timeline {
    /// The cluster as it is at the end of second `t` (everything that happens at `t`
    /// applied).
    pub fn at(&self, t: i64) -> ClusterAt {
        let mut nodes: Vec<Option<NodeAt>> = alloc::vec![None; self.nodes.len()];
        for c in self.node_changes.iter().take_while(|c| c.at <= t) {
            if let Some(slot) = nodes.get_mut(c.node) {
                *slot = c.exists.then(|| NodeAt {
                    node: c.node,
                    taints: c.taints.clone(),
                    unschedulable: c.unschedulable,
                    ready: c.ready,
                });
            }
        }
        let mut pods: Vec<PodAt> = self
            .spans
            .iter()
            .filter(|s| s.from <= t && s.to.is_none_or(|to| to > t))
            .map(|s| PodAt {
                pod: s.pod,
                node: s.node,
                state: s.state,
            })
            .collect();
        pods.sort_by_key(|p| p.pod);
        ClusterAt {
            at: t,
            nodes: nodes.into_iter().flatten().collect(),
            pods,
        }
    }

    /// The spans of one pod, in order.
    pub fn spans_of(&self, pod: usize) -> impl Iterator<Item = &PodSpan> + '_ {
        self.spans.iter().filter(move |s| s.pod == pod)
    }

    /// The index of the last pod record with this namespace and name.
    pub fn pod_index(&self, namespace: &str, name: &str) -> Option<usize> {
        self.pods
            .iter()
            .rposition(|p| p.namespace == namespace && p.name == name)
    }

    /// The events with this reason, in order.
    pub fn events_with_reason<'a>(&'a self, reason: &'a str) -> impl Iterator<Item = &'a Event> {
        self.events.iter().filter(move |e| e.reason == reason)
    }
}
