//! The cluster a what-if simulation starts from: nodes, pods, the workload controllers
//! that own them and the PodDisruptionBudgets that guard them.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::labels::LabelSelector;
use crate::model::{Node, SchedulingPod};
use crate::resource::ResourceList;

/// A node: its spec and conditions as the controllers and the scheduler read them
/// (name, labels, taints, `spec.unschedulable`) and its `status.allocatable`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct ClusterNode {
    /// Name, labels (the zone is read from `topology.kubernetes.io/zone` and
    /// `topology.kubernetes.io/region`), taints and `spec.unschedulable`.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub node: Node,
    /// `status.allocatable`; `None` when unknown (NodeResourcesFit is then not run on
    /// the node, as in [`crate::scheduling::placement`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub allocatable: Option<ResourceList>,
}

/// The kind of the controller that owns a pod (`metadata.ownerReferences[controller]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ControllerKind {
    /// `apps/v1` ReplicaSet (a Deployment's pods are owned by its ReplicaSet).
    #[default]
    ReplicaSet,
    /// `apps/v1` Deployment: modelled as its one current ReplicaSet (no rollout).
    Deployment,
    /// `apps/v1` StatefulSet.
    StatefulSet,
    /// `batch/v1` Job.
    Job,
    /// `apps/v1` DaemonSet.
    DaemonSet,
    /// `v1` ReplicationController: accounted like a ReplicaSet.
    ReplicationController,
}

impl ControllerKind {
    /// The API kind, e.g. `ReplicaSet`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReplicaSet => "ReplicaSet",
            Self::Deployment => "Deployment",
            Self::StatefulSet => "StatefulSet",
            Self::Job => "Job",
            Self::DaemonSet => "DaemonSet",
            Self::ReplicationController => "ReplicationController",
        }
    }

    /// The kind `kubectl scale KIND/NAME` names, as kubectl resolves the resource on its
    /// command line: singular, plural or short name, any case (`deploy`, `RS`, `sts`).
    /// `None` for other words and for DaemonSets, which have no scale subresource.
    pub fn scale_target(word: &str) -> Option<Self> {
        Some(match word.to_ascii_lowercase().as_str() {
            "deployment" | "deployments" | "deploy" => Self::Deployment,
            "replicaset" | "replicasets" | "rs" => Self::ReplicaSet,
            "statefulset" | "statefulsets" | "sts" => Self::StatefulSet,
            "job" | "jobs" => Self::Job,
            "replicationcontroller" | "replicationcontrollers" | "rc" => {
                Self::ReplicationController
            }
            _ => return None,
        })
    }

    /// The kinds [`ControllerKind::scale_target`] takes, for error messages.
    pub const SCALE_TARGETS: &'static str =
        "deployment, replicaset, statefulset, job or replicationcontroller";

    /// Parses an API kind; `None` for a kind that manages no pods here.
    pub fn parse(kind: &str) -> Option<Self> {
        Some(match kind {
            "ReplicaSet" => Self::ReplicaSet,
            "Deployment" => Self::Deployment,
            "StatefulSet" => Self::StatefulSet,
            "Job" => Self::Job,
            "DaemonSet" => Self::DaemonSet,
            "ReplicationController" => Self::ReplicationController,
            _ => return None,
        })
    }
}

impl From<ControllerKind> for crate::workload::WorkloadKind {
    fn from(k: ControllerKind) -> Self {
        match k {
            ControllerKind::ReplicaSet => Self::ReplicaSet,
            ControllerKind::Deployment => Self::Deployment,
            ControllerKind::StatefulSet => Self::StatefulSet,
            ControllerKind::Job => Self::Job,
            ControllerKind::DaemonSet => Self::DaemonSet,
            ControllerKind::ReplicationController => Self::ReplicationController,
        }
    }
}

/// A pod's controlling owner.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Owner {
    /// The owner's kind.
    pub kind: ControllerKind,
    /// The owner's name (same namespace as the pod).
    pub name: String,
}

/// A pod in the starting cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct ClusterPod {
    /// Namespace, name, `spec.nodeName` (empty: Pending), tolerations, preemption policy
    /// and placement (selectors, affinity, ports, priority, resources).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub pod: SchedulingPod,
    /// `metadata.labels`, read by PodDisruptionBudget selectors.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "BTreeMap::is_empty"))]
    pub labels: BTreeMap<String, String>,
    /// The controlling owner; `None` for an unmanaged pod (`kubectl drain` needs
    /// `--force` for it and nothing recreates it).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub owner: Option<Owner>,
    /// `spec.terminationGracePeriodSeconds`; `None` is the API default, 30 s.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub termination_grace_period_seconds: Option<i64>,
    /// True when the pod mounts an `emptyDir` volume (`kubectl drain` needs
    /// `--delete-emptydir-data`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub empty_dir: bool,
    /// True for a mirror pod (annotation `kubernetes.io/config.mirror`): a static pod's
    /// reflection, which `kubectl drain` skips and no controller recreates.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub mirror: bool,
}

impl ClusterPod {
    /// True when a DaemonSet owns the pod.
    pub fn is_daemon(&self) -> bool {
        self.owner
            .as_ref()
            .is_some_and(|o| o.kind == ControllerKind::DaemonSet)
    }
}

/// `Job.spec.podReplacementPolicy` (`JobPodReplacementPolicy`, beta and on by default
/// from 1.29).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PodReplacementPolicy {
    /// `TerminatingOrFailed`: a replacement is created as soon as a pod is terminating
    /// (the default without a pod failure policy, and the only behaviour before 1.29).
    #[default]
    TerminatingOrFailed,
    /// `Failed`: a replacement only once the old pod is gone (the default with a
    /// `podFailurePolicy` from 1.29).
    Failed,
}

/// The pod template of a workload: what every pod it creates looks like.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct PodTemplate {
    /// Tolerations, preemption policy and placement; name, namespace and `nodeName`
    /// are ignored (the controller names its pods).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub spec: SchedulingPod,
    /// `template.metadata.labels`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "BTreeMap::is_empty"))]
    pub labels: BTreeMap<String, String>,
    /// `spec.terminationGracePeriodSeconds`; `None`: 30 s.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub termination_grace_period_seconds: Option<i64>,
    /// True when the template mounts an `emptyDir` volume.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub empty_dir: bool,
    /// `spec.hostNetwork` (a DaemonSet then also tolerates `network-unavailable`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub host_network: bool,
}

/// A pod-bearing controller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Workload {
    /// The controller's kind.
    pub kind: ControllerKind,
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name`
    pub name: String,
    /// `spec.replicas` (Job: `spec.parallelism`; ignored for a DaemonSet).
    pub replicas: i32,
    /// The pod template.
    pub template: PodTemplate,
    /// Job only: `spec.podReplacementPolicy`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub pod_replacement_policy: Option<PodReplacementPolicy>,
    /// Deployment only: its current ReplicaSet (`<name>-<pod-template-hash>`), which owns
    /// and names the pods it creates (`<replica set>-<5 characters>`). `None`: the first
    /// ReplicaSet `<name>-<hash>` a starting pod's owner names, or else a made-up hash
    /// (upstream's, an FNV-32a of the Go-printed pod template, is not reproduced).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub replica_set: Option<String>,
}

/// `intstr.IntOrString` as a PodDisruptionBudget uses it: a count or a percentage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum IntOrPercent {
    /// A number of pods.
    Int(i32),
    /// A percentage such as `"50%"`, kept as written.
    Percent(String),
}

/// A `policy/v1` PodDisruptionBudget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct DisruptionBudget {
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name`
    pub name: String,
    /// `spec.selector`.
    pub selector: LabelSelector,
    /// `spec.minAvailable`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub min_available: Option<IntOrPercent>,
    /// `spec.maxUnavailable`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub max_unavailable: Option<IntOrPercent>,
}

/// The starting cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Cluster {
    /// The nodes, in display order (ties between equally scored nodes go to the first).
    pub nodes: Vec<ClusterNode>,
    /// The pods: bound ones (`nodeName` set) run there, the others are Pending and go
    /// through the scheduler at second 0.
    pub pods: Vec<ClusterPod>,
    /// The workload controllers; each keeps its `replicas` pods (its pods are matched by
    /// [`ClusterPod::owner`]).
    pub workloads: Vec<Workload>,
    /// The PodDisruptionBudgets.
    pub disruption_budgets: Vec<DisruptionBudget>,
    /// DaemonSets that exist but whose spec is not known, as `(namespace, name)`: the
    /// owners of pods whose DaemonSet the input does not show. `kubectl drain` finds
    /// them (their pods are DaemonSet-managed, not orphans), and nothing creates pods
    /// for them. A DaemonSet owner in neither list is one that is gone.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub daemon_sets_without_spec: Vec<(String, String)>,
}
