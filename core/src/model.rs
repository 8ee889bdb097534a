//! The Kubernetes objects this crate reasons about, as upstream stores them.
//!
//! Upstream keeps the operator and the effect as plain strings. An empty operator is
//! *not* defaulted to `Equal` in storage, and unknown values reach validation, so both
//! enums keep every string they are given ([`Operator::Other`], [`TaintEffect::Other`]).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Well-known taint keys (upstream `k8s.io/api/core/v1/well_known_taints.go`).
pub mod keys {
    /// Ready condition is `False`.
    pub const NOT_READY: &str = "node.kubernetes.io/not-ready";
    /// Ready condition is `Unknown` (the node stopped reporting).
    pub const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
    /// `spec.unschedulable` is true (cordon).
    pub const UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
    /// MemoryPressure condition is `True`.
    pub const MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
    /// DiskPressure condition is `True`.
    pub const DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
    /// PIDPressure condition is `True`.
    pub const PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
    /// NetworkUnavailable condition is `True`.
    pub const NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";
    /// Set by the kubelet with an external cloud provider until the node is initialised.
    pub const UNINITIALIZED: &str = "node.cloudprovider.kubernetes.io/uninitialized";
    /// Set by the cloud node-lifecycle controller on shut-down instances.
    pub const SHUTDOWN: &str = "node.cloudprovider.kubernetes.io/shutdown";
    /// Applied by an admin for non-graceful node shutdown.
    pub const OUT_OF_SERVICE: &str = "node.kubernetes.io/out-of-service";
    /// kubeadm's control-plane taint.
    pub const CONTROL_PLANE: &str = "node-role.kubernetes.io/control-plane";
}

/// A taint effect, or any other string a user wrote in that field.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TaintEffect {
    /// `""`: on a toleration it matches every effect; on a taint it is invalid.
    #[default]
    Empty,
    /// `NoSchedule`
    NoSchedule,
    /// `PreferNoSchedule`
    PreferNoSchedule,
    /// `NoExecute`
    NoExecute,
    /// Any other string, kept verbatim (validation reports it; matching compares it
    /// byte for byte like upstream does).
    Other(String),
}

impl TaintEffect {
    /// Parses the API string. Never fails: unknown strings become [`TaintEffect::Other`].
    pub fn parse(s: &str) -> Self {
        match s {
            "" => Self::Empty,
            "NoSchedule" => Self::NoSchedule,
            "PreferNoSchedule" => Self::PreferNoSchedule,
            "NoExecute" => Self::NoExecute,
            other => Self::Other(String::from(other)),
        }
    }

    /// The API string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Empty => "",
            Self::NoSchedule => "NoSchedule",
            Self::PreferNoSchedule => "PreferNoSchedule",
            Self::NoExecute => "NoExecute",
            Self::Other(s) => s,
        }
    }

    /// True for `""`.
    pub fn is_empty(&self) -> bool {
        matches!(self, Self::Empty)
    }

    /// True for the three effects the API accepts.
    pub fn is_known(&self) -> bool {
        matches!(
            self,
            Self::NoSchedule | Self::PreferNoSchedule | Self::NoExecute
        )
    }
}

impl fmt::Display for TaintEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for TaintEffect {
    fn from(s: &str) -> Self {
        Self::parse(s)
    }
}

/// A toleration operator, or any other string a user wrote in that field.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// `""`: behaves as `Equal` when matching, but is stored and compared as `""`.
    #[default]
    Empty,
    /// `Equal`
    Equal,
    /// `Exists`
    Exists,
    /// `Lt` (feature gate `TaintTolerationComparisonOperators`): taint value < toleration value.
    Lt,
    /// `Gt` (same gate): taint value > toleration value.
    Gt,
    /// Any other string, kept verbatim. Never tolerates anything.
    Other(String),
}

impl Operator {
    /// Parses the API string. Never fails: unknown strings become [`Operator::Other`].
    pub fn parse(s: &str) -> Self {
        match s {
            "" => Self::Empty,
            "Equal" => Self::Equal,
            "Exists" => Self::Exists,
            "Lt" => Self::Lt,
            "Gt" => Self::Gt,
            other => Self::Other(String::from(other)),
        }
    }

    /// The API string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Empty => "",
            Self::Equal => "Equal",
            Self::Exists => "Exists",
            Self::Lt => "Lt",
            Self::Gt => "Gt",
            Self::Other(s) => s,
        }
    }

    /// True for `""`.
    pub fn is_empty(&self) -> bool {
        matches!(self, Self::Empty)
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Operator {
    fn from(s: &str) -> Self {
        Self::parse(s)
    }
}

/// `core/v1.Taint`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Taint {
    /// Required. A qualified name.
    pub key: String,
    /// Optional. A label value.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub value: String,
    /// Required.
    pub effect: TaintEffect,
    /// RFC 3339 timestamp, kept as text: nothing upstream decides on it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub time_added: Option<String>,
}

impl Taint {
    /// A taint without `timeAdded`.
    pub fn new(key: &str, value: &str, effect: TaintEffect) -> Self {
        Self {
            key: String::from(key),
            value: String::from(value),
            effect,
            time_added: None,
        }
    }
}

/// `core/v1.Toleration`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Toleration {
    /// Empty means every key (only valid with `Exists`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub key: String,
    /// Empty means `Equal` when matching.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Operator::is_empty"))]
    pub operator: Operator,
    /// Compared with the taint value (`Equal`, `Lt`, `Gt`); ignored by `Exists`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub value: String,
    /// Empty means every effect.
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "TaintEffect::is_empty")
    )]
    pub effect: TaintEffect,
    /// Only meaningful for `NoExecute`: how long the pod stays bound after the taint
    /// appears. `None` is forever; zero or negative is immediate eviction.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub toleration_seconds: Option<i64>,
}

impl Toleration {
    /// A toleration without `tolerationSeconds`.
    pub fn new(key: &str, operator: Operator, value: &str, effect: TaintEffect) -> Self {
        Self {
            key: String::from(key),
            operator,
            value: String::from(value),
            effect,
            toleration_seconds: None,
        }
    }

    /// Builder-style `tolerationSeconds`.
    pub fn with_seconds(mut self, seconds: Option<i64>) -> Self {
        self.toleration_seconds = seconds;
        self
    }
}

/// Status of a node condition (`True`, `False`, `Unknown`, or anything else).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConditionStatus {
    /// `True`
    True,
    /// `False`
    False,
    /// `Unknown`, or no status at all.
    #[default]
    Unknown,
    /// Any other string, kept verbatim.
    Other(String),
}

impl ConditionStatus {
    /// Parses the API string.
    pub fn parse(s: &str) -> Self {
        match s {
            "True" => Self::True,
            "False" => Self::False,
            "Unknown" => Self::Unknown,
            other => Self::Other(String::from(other)),
        }
    }

    /// The API string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::True => "True",
            Self::False => "False",
            Self::Unknown => "Unknown",
            Self::Other(s) => s,
        }
    }
}

impl fmt::Display for ConditionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of a node's `status.conditions` (only what the taint logic reads).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct NodeCondition {
    /// `Ready`, `MemoryPressure`, `DiskPressure`, `PIDPressure`, `NetworkUnavailable`, ...
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub type_: String,
    /// The condition's status.
    pub status: ConditionStatus,
}

/// What the taint and scheduling logic needs to know about a node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Node {
    /// `metadata.name`
    pub name: String,
    /// `metadata.labels`
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "BTreeMap::is_empty"))]
    pub labels: BTreeMap<String, String>,
    /// `spec.taints`, in list order (order matters: the first untolerated taint is reported).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub taints: Vec<Taint>,
    /// `spec.unschedulable` (cordon).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub unschedulable: bool,
    /// `status.conditions`
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub conditions: Vec<NodeCondition>,
}

/// `spec.preemptionPolicy`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum PreemptionPolicy {
    /// `PreemptLowerPriority` (the default).
    #[default]
    PreemptLowerPriority,
    /// `Never`: the FailedScheduling message says the pod is not eligible for preemption.
    Never,
}

impl PreemptionPolicy {
    /// The API string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::PreemptLowerPriority => "PreemptLowerPriority",
            Self::Never => "Never",
        }
    }
}

/// Pod QoS class, as PodTolerationRestriction sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QosClass {
    /// No requests or limits at all.
    #[default]
    BestEffort,
    /// Some requests or limits.
    Burstable,
    /// Requests equal limits for cpu and memory in every container.
    Guaranteed,
}

impl QosClass {
    /// The API string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::BestEffort => "BestEffort",
            Self::Burstable => "Burstable",
            Self::Guaranteed => "Guaranteed",
        }
    }
}

/// What the taint and scheduling logic needs to know about a pod.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Pod {
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name`
    pub name: String,
    /// `spec.nodeName`: a pod created with it set never passes through the scheduler.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub node_name: String,
    /// `spec.tolerations`, in list order (order matters for eviction).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub tolerations: Vec<Toleration>,
    /// `spec.preemptionPolicy`
    pub preemption_policy: PreemptionPolicy,
}

/// `core/v1.NodeSelectorRequirement`: a key, an operator and values.
///
/// The operator stays a string: an unknown operator is a parse error upstream
/// (`component-helpers/scheduling/corev1/nodeaffinity`), which makes the term never
/// match, so it must be kept verbatim rather than rejected on input.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct NodeSelectorRequirement {
    /// A label key (`matchExpressions`) or a field path (`matchFields`, only
    /// `metadata.name` is supported).
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`, or anything else.
    pub operator: String,
    /// The values, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub values: Vec<String>,
}

impl NodeSelectorRequirement {
    /// A requirement from borrowed parts.
    pub fn new(key: &str, operator: &str, values: &[&str]) -> Self {
        Self {
            key: String::from(key),
            operator: String::from(operator),
            values: values.iter().map(|v| String::from(*v)).collect(),
        }
    }
}

/// `core/v1.NodeSelectorTerm`: expressions on labels and on fields, ANDed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct NodeSelectorTerm {
    /// Requirements on node labels.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    /// Requirements on node fields (`metadata.name`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub match_fields: Vec<NodeSelectorRequirement>,
}

/// `core/v1.NodeSelector`: terms, ORed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct NodeSelector {
    /// The terms.
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

/// `core/v1.PreferredSchedulingTerm`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct PreferredSchedulingTerm {
    /// 1..=100 after validation; terms of weight 0 are ignored by the scheduler.
    pub weight: i32,
    /// The term.
    pub preference: NodeSelectorTerm,
}

/// `core/v1.NodeAffinity`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct NodeAffinity {
    /// `requiredDuringSchedulingIgnoredDuringExecution`. `Some` with no terms matches
    /// no node.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
    /// `preferredDuringSchedulingIgnoredDuringExecution`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredSchedulingTerm>,
}

/// `core/v1.Affinity`, as far as it is modelled: node affinity only.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Affinity {
    /// `nodeAffinity`
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub node_affinity: Option<NodeAffinity>,
}

/// One container port with a host port, as NodePorts reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct HostPort {
    /// `hostPort`; 0 or negative holds nothing.
    pub host_port: i32,
    /// `protocol`; empty means `TCP`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub protocol: String,
    /// `hostIP`; empty means `0.0.0.0`, every address.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "hostIP", skip_serializing_if = "String::is_empty")
    )]
    pub host_ip: String,
    /// True when the port belongs to a restartable init container (a sidecar): only
    /// releases whose NodePorts reads sidecars count it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub sidecar: bool,
}

impl HostPort {
    /// A regular container's host port.
    pub fn new(host_port: i32, protocol: &str, host_ip: &str) -> Self {
        Self {
            host_port,
            protocol: String::from(protocol),
            host_ip: String::from(host_ip),
            sidecar: false,
        }
    }
}

/// The pod fields that decide placement beyond taints: `spec.nodeSelector`,
/// `spec.affinity.nodeAffinity`, host ports, `spec.schedulingGates`,
/// `spec.schedulerName`, `spec.priority`, the containers' resources, `spec.overhead`,
/// pod-level `spec.resources`, `status.phase` and `status.startTime`.
///
/// Kept apart from [`Pod`] so that code building a [`Pod`] field by field keeps
/// compiling; [`SchedulingPod`] joins the two.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct PodPlacement {
    /// `spec.nodeSelector`
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "BTreeMap::is_empty"))]
    pub node_selector: BTreeMap<String, String>,
    /// `spec.affinity` (node affinity only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub affinity: Option<Affinity>,
    /// Host ports of `spec.containers` and of restartable init containers.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub host_ports: Vec<HostPort>,
    /// `spec.schedulingGates[].name`
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub scheduling_gates: Vec<String>,
    /// `spec.schedulerName`; empty means `default-scheduler`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub scheduler_name: String,
    /// `spec.priority` as admission resolved it (0 without a priority class).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub priority: i32,
    /// Resources of `spec.containers`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub containers: Vec<crate::resource::ContainerResources>,
    /// Resources and `restartPolicy` of `spec.initContainers`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub init_containers: Vec<crate::resource::ContainerResources>,
    /// `spec.overhead` (set by RuntimeClass admission).
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "crate::resource::ResourceList::is_empty")
    )]
    pub overhead: crate::resource::ResourceList,
    /// Pod-level `spec.resources`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub resources: Option<crate::resource::ResourceRequirements>,
    /// `status.phase`: a bound pod in `Succeeded` or `Failed` holds nothing on its node.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub phase: String,
    /// `status.startTime` as the API writes it (RFC 3339 in UTC, `2024-05-01T10:00:00Z`,
    /// so byte order is time order); empty when unknown. DefaultPreemption prefers
    /// evicting the pods that started last.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub start_time: String,
}

#[cfg(feature = "serde")]
fn is_zero(v: &i32) -> bool {
    *v == 0
}

impl PodPlacement {
    /// The resource fields, as `PodRequests` reads them.
    pub fn spec_resources(&self) -> crate::resource::PodSpecResources<'_> {
        crate::resource::PodSpecResources {
            containers: &self.containers,
            init_containers: &self.init_containers,
            overhead: &self.overhead,
            pod_level: self.resources.as_ref(),
        }
    }

    /// True for `status.phase` `Succeeded` or `Failed`: the scheduler's informer does
    /// not see such a pod, so it counts neither for requests nor for the pod count.
    pub fn is_terminal(&self) -> bool {
        self.phase == "Succeeded" || self.phase == "Failed"
    }

    /// The required node affinity, if any.
    pub fn required_node_affinity(&self) -> Option<&NodeSelector> {
        self.affinity
            .as_ref()?
            .node_affinity
            .as_ref()?
            .required_during_scheduling_ignored_during_execution
            .as_ref()
    }

    /// The preferred node affinity terms (empty when none).
    pub fn preferred_node_affinity(&self) -> &[PreferredSchedulingTerm] {
        self.affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref())
            .map(|n| {
                n.preferred_during_scheduling_ignored_during_execution
                    .as_slice()
            })
            .unwrap_or(&[])
    }
}

/// A pod as the placement filters see it: the taint-related [`Pod`] and its
/// [`PodPlacement`]. In JSON both are one flat object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SchedulingPod {
    /// Name, namespace, `spec.nodeName`, tolerations and preemption policy.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub pod: Pod,
    /// The placement fields.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub placement: PodPlacement,
}

impl From<Pod> for SchedulingPod {
    fn from(pod: Pod) -> Self {
        Self {
            pod,
            placement: PodPlacement::default(),
        }
    }
}

macro_rules! string_serde {
    ($ty:ty) => {
        #[cfg(feature = "serde")]
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$ty, E> {
                        Ok(<$ty>::parse(v))
                    }
                    fn visit_unit<E: serde::de::Error>(self) -> Result<$ty, E> {
                        Ok(<$ty>::default())
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

string_serde!(TaintEffect);
string_serde!(Operator);
string_serde!(ConditionStatus);

impl PreemptionPolicy {
    /// Parses the API string; anything but `Never` preempts.
    pub fn parse(s: &str) -> Self {
        if s == "Never" {
            Self::Never
        } else {
            Self::PreemptLowerPriority
        }
    }
}
string_serde!(PreemptionPolicy);

impl QosClass {
    /// Parses the API string; unknown strings are treated as BestEffort.
    pub fn parse(s: &str) -> Self {
        match s {
            "Guaranteed" => Self::Guaranteed,
            "Burstable" => Self::Burstable,
            _ => Self::BestEffort,
        }
    }
}
string_serde!(QosClass);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_and_unknown_values_are_kept() {
        for s in [
            "",
            "NoSchedule",
            "PreferNoSchedule",
            "NoExecute",
            "NoSchedul",
        ] {
            assert_eq!(TaintEffect::parse(s).as_str(), s);
        }
        assert_eq!(
            TaintEffect::parse("noschedule"),
            TaintEffect::Other("noschedule".into())
        );
        assert!(!TaintEffect::parse("NoSchedul").is_known());
        for s in ["", "Equal", "Exists", "Lt", "Gt", "exists"] {
            assert_eq!(Operator::parse(s).as_str(), s);
        }
        assert_eq!(Operator::parse("exists"), Operator::Other("exists".into()));
        assert_eq!(ConditionStatus::parse("Maybe").as_str(), "Maybe");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_uses_kubernetes_names_and_omits_empty_fields() {
        let t: Toleration = serde_json::from_str(
            r#"{"key":"k","operator":"","effect":"NoExecute","tolerationSeconds":30}"#,
        )
        .unwrap();
        assert_eq!(t.operator, Operator::Empty);
        assert_eq!(t.toleration_seconds, Some(30));
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"key":"k","effect":"NoExecute","tolerationSeconds":30}"#
        );
        let taint: Taint =
            serde_json::from_str(r#"{"key":"k","effect":"Bogus","timeAdded":null}"#).unwrap();
        assert_eq!(taint.effect, TaintEffect::Other("Bogus".into()));
        assert_eq!(
            serde_json::to_string(&taint).unwrap(),
            r#"{"key":"k","effect":"Bogus"}"#
        );
        let node: Node = serde_json::from_str(
            r#"{"name":"n","labels":{"a":"b"},"unschedulable":true,"conditions":[{"type":"Ready","status":"Unknown"}]}"#,
        )
        .unwrap();
        assert_eq!(node.conditions[0].status, ConditionStatus::Unknown);
        assert!(node.unschedulable);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn scheduling_pod_is_one_flat_object_and_defaults_missing_fields() {
        let p: SchedulingPod = serde_json::from_str(
            r#"{"name":"api","tolerations":[{"key":"k","operator":"Exists"}],"nodeSelector":{"dedicated":"payments"},"hostPorts":[{"hostPort":80,"hostIP":"10.0.0.1"}],"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]}}}}"#,
        )
        .unwrap();
        assert_eq!(p.pod.name, "api");
        assert_eq!(p.pod.tolerations.len(), 1);
        assert_eq!(p.placement.node_selector["dedicated"], "payments");
        assert_eq!(p.placement.host_ports[0].host_ip, "10.0.0.1");
        assert_eq!(
            p.placement
                .required_node_affinity()
                .unwrap()
                .node_selector_terms[0]
                .match_fields[0]
                .values,
            ["n1"]
        );
        let back: SchedulingPod =
            serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        // A plain pod's JSON still reads, with empty placement.
        let plain: SchedulingPod = serde_json::from_str(r#"{"name":"x"}"#).unwrap();
        assert_eq!(plain.placement, PodPlacement::default());
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            serde_json::to_string(&plain.pod).unwrap()
        );
    }
}
