//! What the user does, at chosen seconds.

use alloc::string::String;

use super::cluster::{ClusterNode, ClusterPod, ControllerKind, Workload};
use crate::model::{Taint, TaintEffect};

/// `kubectl drain`'s flags that change what happens.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct DrainOptions {
    /// `--ignore-daemonsets`: DaemonSet-managed pods are skipped instead of refusing
    /// the drain.
    pub ignore_daemonsets: bool,
    /// `--delete-emptydir-data`: pods with `emptyDir` volumes are evicted instead of
    /// refusing the drain.
    pub delete_emptydir_data: bool,
    /// `--force`: pods without a controller are evicted instead of refusing the drain.
    pub force: bool,
    /// `--disable-eviction`: pods are deleted directly, bypassing PodDisruptionBudgets.
    pub disable_eviction: bool,
    /// `--grace-period`: seconds each pod gets to terminate; `None` (kubectl's `-1`)
    /// uses the pod's own `terminationGracePeriodSeconds`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub grace_period: Option<i64>,
    /// `--timeout`: give up after this many seconds; `None` (kubectl's `0s`) waits
    /// forever.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub timeout: Option<i64>,
    /// `--skip-wait-for-delete-timeout`: pods deleted longer ago than this many seconds
    /// are not waited for.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub skip_wait_for_delete_timeout: Option<i64>,
}

/// One thing that happens to the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "action",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )
)]
pub enum ActionKind {
    /// `kubectl taint nodes NODE key=value:Effect` (any effect; an existing taint with
    /// the same key and effect is replaced).
    AddTaint {
        /// The node's name.
        node: String,
        /// The taint.
        taint: Taint,
    },
    /// `kubectl taint nodes NODE key:Effect-` (`effect` empty: every effect of the key).
    RemoveTaint {
        /// The node's name.
        node: String,
        /// The taint's key.
        key: String,
        /// The effect; [`TaintEffect::Empty`] removes the key with every effect.
        effect: TaintEffect,
    },
    /// `kubectl cordon NODE`.
    Cordon {
        /// The node's name.
        node: String,
    },
    /// `kubectl uncordon NODE`.
    Uncordon {
        /// The node's name.
        node: String,
    },
    /// `kubectl drain NODE` with its flags: cordon, then evict pod by pod.
    Drain {
        /// The node's name.
        node: String,
        /// The flags.
        options: DrainOptions,
    },
    /// The node's kubelet stops reporting (crash, network partition, zone outage): the
    /// node lifecycle controller marks it `Unknown` after the grace period and taints it.
    NodeStopsReporting {
        /// The node's name.
        node: String,
    },
    /// The node's kubelet reports `Ready` again.
    NodeReturns {
        /// The node's name.
        node: String,
    },
    /// The Node object is deleted.
    DeleteNode {
        /// The node's name.
        node: String,
    },
    /// A node joins the cluster.
    AddNode {
        /// The node.
        node: ClusterNode,
    },
    /// A pod is created (bound when `nodeName` is set, otherwise scheduled).
    CreatePod {
        /// The pod.
        pod: ClusterPod,
    },
    /// A workload controller is created; it creates its pods at once.
    CreateWorkload {
        /// The workload.
        workload: Workload,
    },
    /// `kubectl scale KIND/NAME --replicas=N`.
    Scale {
        /// The workload's kind.
        kind: ControllerKind,
        /// Its namespace.
        namespace: String,
        /// Its name.
        name: String,
        /// The new `spec.replicas`.
        replicas: i32,
    },
}

/// An action at a second.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Action {
    /// When, in seconds from the start (0 or later). Actions at the same second apply
    /// in list order.
    pub at: i64,
    /// What.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub kind: ActionKind,
}

impl Action {
    /// An action at second `at`.
    pub fn new(at: i64, kind: ActionKind) -> Self {
        Self { at, kind }
    }

    /// The node the action names, if it names one.
    pub fn node(&self) -> Option<&str> {
        match &self.kind {
            ActionKind::AddTaint { node, .. }
            | ActionKind::RemoveTaint { node, .. }
            | ActionKind::Cordon { node }
            | ActionKind::Uncordon { node }
            | ActionKind::Drain { node, .. }
            | ActionKind::NodeStopsReporting { node }
            | ActionKind::NodeReturns { node }
            | ActionKind::DeleteNode { node } => Some(node),
            ActionKind::AddNode { node } => Some(&node.node.name),
            ActionKind::CreatePod { .. }
            | ActionKind::CreateWorkload { .. }
            | ActionKind::Scale { .. } => None,
        }
    }
}
