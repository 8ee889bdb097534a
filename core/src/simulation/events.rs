//! Kubernetes Events and `kubectl drain` output lines, with the exact texts upstream
//! writes.

use alloc::format;
use alloc::string::String;

/// The kind of object an event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ObjectKind {
    /// A Pod.
    Pod,
    /// A Node.
    Node,
    /// A ReplicaSet.
    ReplicaSet,
    /// A Deployment.
    Deployment,
    /// A StatefulSet.
    StatefulSet,
    /// A Job.
    Job,
    /// A DaemonSet.
    DaemonSet,
    /// A ReplicationController.
    ReplicationController,
}

impl ObjectKind {
    /// The API kind.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pod => "Pod",
            Self::Node => "Node",
            Self::ReplicaSet => "ReplicaSet",
            Self::Deployment => "Deployment",
            Self::StatefulSet => "StatefulSet",
            Self::Job => "Job",
            Self::DaemonSet => "DaemonSet",
            Self::ReplicationController => "ReplicationController",
        }
    }
}

/// `involvedObject`: kind, namespace (empty for a node) and name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ObjectRef {
    /// The kind.
    pub kind: ObjectKind,
    /// The namespace; empty for a node.
    pub namespace: String,
    /// The name.
    pub name: String,
}

impl ObjectRef {
    /// A pod.
    pub fn pod(namespace: &str, name: &str) -> Self {
        Self {
            kind: ObjectKind::Pod,
            namespace: String::from(namespace),
            name: String::from(name),
        }
    }

    /// A node.
    pub fn node(name: &str) -> Self {
        Self {
            kind: ObjectKind::Node,
            namespace: String::new(),
            name: String::from(name),
        }
    }
}

/// Who wrote a line: a Kubernetes Event, or `kubectl drain` printing to its terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Source {
    /// A Kubernetes Event (`kubectl get events`).
    Event,
    /// A line `kubectl drain` prints on stdout.
    DrainStdout,
    /// A line `kubectl drain` prints on stderr.
    DrainStderr,
}

/// One entry of the timeline: a Kubernetes Event or a line printed by `kubectl drain`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Event {
    /// Second at which it happens.
    pub at: i64,
    /// Event or printed line.
    pub source: Source,
    /// `reason` (`TaintManagerEviction`, `Killing`, `SuccessfulCreate`, `Scheduled`,
    /// `FailedScheduling`, `Preempted`, ...); for a drain line, the command (`drain`).
    pub reason: String,
    /// `type`: `Normal` or `Warning` (drain lines: `Normal` on stdout, `Warning` on
    /// stderr).
    pub event_type: String,
    /// The object the event is about.
    pub object: ObjectRef,
    /// The exact message (FailedScheduling: the untruncated condition text).
    pub message: String,
}

/// `Normal`.
pub const NORMAL: &str = "Normal";
/// `Warning`.
pub const WARNING: &str = "Warning";

/// The kubelet's `Killing` reason (`pkg/kubelet/events`, `KillingContainer`).
pub const KILLING: &str = "Killing";
/// The controllers' `SuccessfulCreate` reason (`pkg/controller/controller_utils.go`).
pub const SUCCESSFUL_CREATE: &str = "SuccessfulCreate";
/// The controllers' `SuccessfulDelete` reason.
pub const SUCCESSFUL_DELETE: &str = "SuccessfulDelete";
/// The scheduler's `Scheduled` reason.
pub const SCHEDULED: &str = "Scheduled";
/// The scheduler's `FailedScheduling` reason.
pub const FAILED_SCHEDULING: &str = "FailedScheduling";
/// The scheduler's `Preempted` reason, on the victim.
pub const PREEMPTED: &str = "Preempted";
/// The node lifecycle controller's `NodeNotReady` reason.
pub const NODE_NOT_READY: &str = "NodeNotReady";
/// The reason used for lines `kubectl drain` prints.
pub const DRAIN: &str = "drain";

/// `Stopping container <name>` (kubelet `killContainer`).
pub fn killing_message(container: &str) -> String {
    format!("Stopping container {container}")
}

/// `Created pod: <name>` (`RealPodControl.CreatePods`, ReplicaSet, Job and DaemonSet).
pub fn created_pod_message(pod: &str) -> String {
    format!("Created pod: {pod}")
}

/// `Deleted pod: <name>` (`RealPodControl.DeletePod`).
pub fn deleted_pod_message(pod: &str) -> String {
    format!("Deleted pod: {pod}")
}

/// `create Pod <pod> in StatefulSet <set> successful`
/// (`pkg/controller/statefulset/stateful_pod_control.go` `recordPodEvent`).
pub fn stateful_create_message(pod: &str, set: &str) -> String {
    format!("create Pod {pod} in StatefulSet {set} successful")
}

/// `delete Pod <pod> in StatefulSet <set> successful`.
pub fn stateful_delete_message(pod: &str, set: &str) -> String {
    format!("delete Pod {pod} in StatefulSet {set} successful")
}

/// `Successfully assigned <ns>/<name> to <node>` (`pkg/scheduler/schedule_one.go`
/// `handleBindingCycleError`'s counterpart in `bindingCycle`).
pub fn scheduled_message(namespace: &str, name: &str, node: &str) -> String {
    format!("Successfully assigned {namespace}/{name} to {node}")
}

/// The victim's `Preempted` message per release
/// (`pkg/scheduler/framework/preemption/preemption.go` `prepareCandidate`): 1.25 – 1.26
/// `Preempted by <ns>/<name> on node <n>`, 1.27 – 1.28 `Preempted by a pod on node <n>`,
/// from 1.29 `Preempted by pod <preemptor UID> on node <n>`. The simulation has no
/// UIDs, so from 1.29 the preemptor's `<ns>/<name>` stands where the UID would be.
pub fn preempted_message(
    version: crate::KubeVersion,
    preemptor_namespace: &str,
    preemptor: &str,
    node: &str,
) -> String {
    if !version.at_least(27) {
        format!("Preempted by {preemptor_namespace}/{preemptor} on node {node}")
    } else if !version.at_least(29) {
        format!("Preempted by a pod on node {node}")
    } else {
        format!("Preempted by pod {preemptor_namespace}/{preemptor} on node {node}")
    }
}
