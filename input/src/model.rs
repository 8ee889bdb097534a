//! What the parsers produce: nodes, workloads, bare taint and toleration lists,
//! `kubectl taint` commands and FailedScheduling events, each with its source location.

use std::collections::BTreeMap;

use serde::Serialize;
use taintlab_core::model::PodPlacement;
use taintlab_core::resource::ResourceList;
use taintlab_core::{Node, Pod, PreemptionPolicy, QosClass, Taint, Toleration};

use crate::diag::{Code, Diagnostic, Location, Severity};
use crate::event::SchedulingEvent;
use crate::kubectl::TaintCommandLine;
use crate::quantity::Quantity;

/// The form a document was written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// A YAML document.
    #[default]
    Yaml,
    /// A JSON value.
    Json,
    /// `kubectl taint ...` command lines.
    KubectlTaint,
    /// `kubectl describe node` output.
    DescribeNode,
    /// `kubectl describe pod` output (or just its `Tolerations:` block).
    DescribePod,
    /// A FailedScheduling event message, alone or in an events table.
    EventMessage,
    /// Bare taint specs such as `dedicated=gpu:NoSchedule`.
    TaintSpec,
    /// A `kubectl get nodes` table (STATUS `Ready,SchedulingDisabled` means cordoned), or
    /// custom columns with the taints printed as Go maps.
    NodeTable,
    /// A `kubectl get pods -o wide` table (with or without `NAMESPACE`): each row a pod,
    /// bound to the node of its `NODE` column or pending (`<none>`).
    PodTable,
    /// A `kubectl get priorityclass` table (`NAME VALUE GLOBAL-DEFAULT AGE
    /// [PREEMPTIONPOLICY]`): each row a PriorityClass.
    PriorityClassTable,
    /// Terraform configuration (HCL): its toleration and taint blocks checked as Terraform,
    /// the provider and the API server would check them.
    Terraform,
}

/// One document of the paste.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct DocumentInfo {
    /// 1-based index, as used in every [`Location::document`].
    pub index: usize,
    /// How it was read.
    pub form: Form,
    /// First line.
    pub line: usize,
    /// Last line.
    pub end_line: usize,
}

/// A node and where its parts came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct InputNode {
    /// The node as the taint logic sees it.
    pub node: Node,
    /// Where the object starts (`path` is `items[3]` inside a list).
    pub location: Location,
    /// Where each taint of `node.taints` is.
    pub taint_locations: Vec<Location>,
    /// Where `spec.unschedulable` is, when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unschedulable_location: Option<Location>,
    /// `status.nodeInfo.kubeletVersion`, when present (tells the cluster's release).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubelet_version: Option<String>,
    /// `status.allocatable` (describe's `Allocatable:` block); `None` when the paste
    /// does not show it: resources are then unknown and not checked on this node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocatable: Option<ResourceList>,
    /// `status.capacity` (describe's `Capacity:` block), when shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<ResourceList>,
    /// How it was written.
    pub form: Form,
}

impl InputNode {
    /// Whether the node is cordoned, as far as the input shows it: `None` when the form
    /// hides it (`kubectl describe node` before kubectl 1.10 prints no `Unschedulable:`
    /// line, and the node carries no `node.kubernetes.io/unschedulable` taint to tell).
    pub fn unschedulable_state(&self) -> Option<bool> {
        let hidden =
            matches!(self.form, Form::DescribeNode) && self.unschedulable_location.is_none();
        if !hidden || self.node.unschedulable {
            return Some(self.node.unschedulable);
        }
        self.node
            .taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/unschedulable")
            .then_some(true)
    }
}

/// Requests and limits of one container, as written (quantity strings).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct ContainerResources {
    /// Container name.
    pub name: String,
    /// Container image.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
    /// `resources.requests`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: BTreeMap<String, String>,
    /// `resources.limits`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<String, String>,
}

/// A pod, or the pod template of a workload (Deployment, StatefulSet, DaemonSet,
/// ReplicaSet, ReplicationController, Job, CronJob, PodTemplate), with what the
/// scheduling, admission and DaemonSet semantics need beyond [`Pod`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    /// `kind` of the object (`Pod`, `Deployment`, ...).
    pub kind: String,
    /// `apiVersion` of the object.
    pub api_version: String,
    /// `metadata.name` of the object.
    pub name: String,
    /// `metadata.namespace` of the object.
    pub namespace: String,
    /// The pod (for templates: named after the workload), with its tolerations,
    /// `nodeName` and `preemptionPolicy`.
    pub pod: Pod,
    /// `spec.priority`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
    /// `spec.priorityClassName`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub priority_class_name: String,
    /// `spec.preemptionPolicy` as written; `None` when the pod leaves it to the Priority
    /// admission plugin (`pod.preemption_policy` then holds the API default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preemption_policy_written: Option<String>,
    /// `spec.hostNetwork` (DaemonSets then also tolerate network-unavailable).
    pub host_network: bool,
    /// `spec.runtimeClassName` (RuntimeClass admission may add tolerations).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub runtime_class_name: String,
    /// `spec.containers` resources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub containers: Vec<ContainerResources>,
    /// `spec.initContainers` resources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<ContainerResources>,
    /// What the scheduler's filters read beyond tolerations: `nodeSelector`, node
    /// affinity, host ports, scheduling gates, `schedulerName`, priority, container,
    /// init-container, overhead and pod-level resources (quantities parsed), and
    /// `status.phase`/`startTime` of pods already bound.
    #[serde(default, skip_serializing_if = "is_default_placement")]
    pub placement: PodPlacement,
    /// The QoS class the input states (`status.qosClass`, describe's `QoS Class:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stated_qos_class: Option<QosClass>,
    /// Where the object starts.
    pub location: Location,
    /// Where each toleration of `pod.tolerations` is.
    pub toleration_locations: Vec<Location>,
    /// What the workload controllers and `kubectl drain` read (what-if simulations).
    #[serde(default, skip_serializing_if = "Lifecycle::is_empty")]
    pub lifecycle: Lifecycle,
    /// How it was written.
    pub form: Form,
}

/// The controlling owner of a pod (`metadata.ownerReferences[]` with `controller: true`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct OwnerRef {
    /// The owner's kind (`ReplicaSet`, `StatefulSet`, `DaemonSet`, `Job`, ...).
    pub kind: String,
    /// The owner's name.
    pub name: String,
}

/// `metadata.annotations` key of a mirror pod (`kubetypes.ConfigMirrorAnnotationKey`,
/// `pkg/kubelet/types/pod_update.go`).
pub(crate) const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// What the workload controllers, the Eviction API and `kubectl drain` read of a pod or
/// a workload: who owns the pod, how many replicas a workload keeps, how long its pods
/// take to terminate and whether they keep local data.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct Lifecycle {
    /// The pod's labels (for a workload, its pod template's `metadata.labels`), read by
    /// PodDisruptionBudget selectors.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// A pod's controlling owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<OwnerRef>,
    /// A mirror pod (annotation `kubernetes.io/config.mirror`).
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub mirror: bool,
    /// `spec.replicas` (Job: `spec.parallelism`), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// `spec.terminationGracePeriodSeconds` of the pod (template).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
    /// The pod mounts an `emptyDir` volume.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub empty_dir: bool,
    /// Job `spec.podReplacementPolicy`, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_replacement_policy: Option<String>,
}

impl Lifecycle {
    /// True when nothing was read.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A `policy/v1` (or `policy/v1beta1`) PodDisruptionBudget.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct DisruptionBudget {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `spec.selector`; `None` when absent (a nil selector selects no pod).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<taintlab_core::labels::LabelSelector>,
    /// `spec.minAvailable`: a count, or a percentage kept as written (`"50%"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrString>,
    /// `spec.maxUnavailable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    /// Where the object starts.
    pub location: Location,
    /// How it was written.
    pub form: Form,
}

/// `intstr.IntOrString` as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(untagged)]
pub enum IntOrString {
    /// A number.
    Int(i64),
    /// A string (a percentage such as `"50%"`).
    String(String),
}

impl Workload {
    /// A workload of `kind` with its name and namespace (also its pod's) and where it
    /// was read, nothing else set. One constructor, not inlined, so the readers share
    /// one copy of the default fields in the wasm modules.
    #[inline(never)]
    pub(crate) fn new(
        kind: &str,
        api_version: &str,
        name: &str,
        namespace: &str,
        location: Location,
        form: Form,
    ) -> Self {
        let mut w = Workload {
            kind: kind.to_string(),
            api_version: api_version.to_string(),
            name: name.to_string(),
            namespace: namespace.to_string(),
            location,
            form,
            ..Workload::default()
        };
        w.pod.name = name.to_string();
        w.pod.namespace = namespace.to_string();
        w
    }

    /// A `v1` Pod read from a kubectl table or describe output.
    pub(crate) fn pod(name: &str, namespace: &str, location: Location, form: Form) -> Self {
        Workload::new("Pod", "v1", name, namespace, location, form)
    }

    /// The pod's QoS class: the stated one when the input has it (the API server
    /// computed it), otherwise [`Workload::computed_qos_class`].
    pub fn qos_class(&self) -> QosClass {
        self.stated_qos_class
            .unwrap_or_else(|| self.computed_qos_class())
    }

    /// The QoS class computed from requests and limits as upstream's `ComputePodQOS`
    /// does, after API defaulting (a limit without a request sets the request):
    /// BestEffort without any cpu/memory request or limit; Guaranteed when every
    /// container (and init container) has cpu and memory limits and the summed
    /// requests equal the summed limits; Burstable otherwise. Pod-level resources
    /// (`spec.resources`) are not modelled.
    pub fn computed_qos_class(&self) -> QosClass {
        // The sums for cpu and memory in two fixed slots: upstream's maps hold only these
        // two names here, and a `BTreeMap<&str, Quantity>` would bring its own copy of
        // the B-tree's code into the wasm modules.
        let mut requests: [Option<Quantity>; 2] = [None, None];
        let mut limits: [Option<Quantity>; 2] = [None, None];
        let mut guaranteed = true;
        for c in self.containers.iter().chain(&self.init_containers) {
            for (slot, name) in ["cpu", "memory"].into_iter().enumerate() {
                let limit = c.limits.get(name).and_then(|q| Quantity::parse(q));
                // Defaulting: a missing request takes the limit.
                let request = match c.requests.get(name) {
                    Some(q) => Quantity::parse(q),
                    None => limit,
                };
                if let Some(q) = request.filter(|q| q.is_positive()) {
                    let e = requests[slot].get_or_insert(Quantity::ZERO);
                    *e = e.plus(q);
                }
                match limit.filter(|q| q.is_positive()) {
                    Some(q) => {
                        let e = limits[slot].get_or_insert(Quantity::ZERO);
                        *e = e.plus(q);
                    }
                    None => guaranteed = false,
                }
            }
        }
        let count = |sums: &[Option<Quantity>; 2]| sums.iter().flatten().count();
        if count(&requests) == 0 && count(&limits) == 0 {
            return QosClass::BestEffort;
        }
        if guaranteed {
            guaranteed = requests
                .iter()
                .zip(&limits)
                .all(|(r, l)| r.is_none() || r == l);
        }
        if guaranteed && count(&requests) == count(&limits) {
            QosClass::Guaranteed
        } else {
            QosClass::Burstable
        }
    }

    /// Names of every resource requested by a container or init container, sorted and
    /// without repeats (ExtendedResourceToleration reads requests, not limits).
    pub fn requested_resources(&self) -> Vec<String> {
        let mut names = Vec::new();
        for c in self.containers.iter().chain(&self.init_containers) {
            names.extend(c.requests.keys().cloned());
        }
        taintlab_core::sort::names_from(names)
    }
}

fn is_default_placement(p: &PodPlacement) -> bool {
    *p == PodPlacement::default()
}

/// A bare list of taints (a `taints:` list, a single taint object, taint specs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct TaintList {
    /// The taints, in order.
    pub taints: Vec<Taint>,
    /// Where each one is.
    pub locations: Vec<Location>,
    /// Where the list starts.
    pub location: Location,
    /// How it was written.
    pub form: Form,
}

/// A bare list of tolerations (a `tolerations:` list, a single toleration object, a
/// describe `Tolerations:` block without its pod).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct TolerationList {
    /// The tolerations, in order.
    pub tolerations: Vec<Toleration>,
    /// Where each one is.
    pub locations: Vec<Location>,
    /// Where the list starts.
    pub location: Location,
    /// How it was written.
    pub form: Form,
}

/// A `kind: PriorityClass` object (`scheduling.k8s.io/v1`): what the Priority admission
/// plugin resolves a pod's `priorityClassName` to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct PriorityClass {
    /// `metadata.name`.
    pub name: String,
    /// `value`.
    pub value: i32,
    /// `globalDefault`: pods without a `priorityClassName` get this class.
    #[serde(default)]
    pub global_default: bool,
    /// `preemptionPolicy` as written; `None` means the API default,
    /// `PreemptLowerPriority`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preemption_policy: Option<String>,
    /// Where the object starts.
    pub location: Location,
    /// How it was written.
    pub form: Form,
}

impl PriorityClass {
    /// The preemption policy pods of this class get (`PreemptLowerPriority` unless the
    /// class says `Never`, as API defaulting of `scheduling.k8s.io/v1` does).
    pub fn effective_preemption_policy(&self) -> PreemptionPolicy {
        PreemptionPolicy::parse(self.preemption_policy.as_deref().unwrap_or(""))
    }
}

/// Everything read from one paste. Partial success is normal: each document that could
/// be read contributes its objects even when others failed.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct Parsed {
    /// The documents found, in order.
    pub documents: Vec<DocumentInfo>,
    /// Nodes (objects, list items, describe output).
    pub nodes: Vec<InputNode>,
    /// Pods and workloads.
    pub workloads: Vec<Workload>,
    /// Bare taint lists.
    pub taint_lists: Vec<TaintList>,
    /// Bare toleration lists.
    pub toleration_lists: Vec<TolerationList>,
    /// `kubectl taint` commands, to apply to nodes.
    pub taint_commands: Vec<TaintCommandLine>,
    /// FailedScheduling events.
    pub events: Vec<SchedulingEvent>,
    /// `PriorityClass` objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub priority_classes: Vec<PriorityClass>,
    /// `PodDisruptionBudget` objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disruption_budgets: Vec<DisruptionBudget>,
    /// Warnings and errors, in input order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
    }

    /// Records an error.
    pub(crate) fn push_error(
        &mut self,
        code: Code,
        location: Location,
        message: impl Into<String>,
    ) {
        self.diagnostics
            .push(Diagnostic::error(code, location, message));
    }

    /// Records a warning.
    pub(crate) fn push_warning(
        &mut self,
        code: Code,
        location: Location,
        message: impl Into<String>,
    ) {
        self.diagnostics
            .push(Diagnostic::warning(code, location, message));
    }

    /// True when nothing at all was read.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
            && self.workloads.is_empty()
            && self.taint_lists.is_empty()
            && self.toleration_lists.is_empty()
            && self.taint_commands.is_empty()
            && self.events.is_empty()
            && self.priority_classes.is_empty()
            && self.disruption_budgets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container(requests: &[(&str, &str)], limits: &[(&str, &str)]) -> ContainerResources {
        let map = |kv: &[(&str, &str)]| {
            kv.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        ContainerResources {
            name: "c".into(),
            requests: map(requests),
            limits: map(limits),
            ..Default::default()
        }
    }

    fn qos(containers: Vec<ContainerResources>, init: Vec<ContainerResources>) -> QosClass {
        Workload {
            containers,
            init_containers: init,
            ..Workload::default()
        }
        .computed_qos_class()
    }

    #[test]
    fn computed_qos_class_follows_compute_pod_qos() {
        let full = || container(&[], &[("cpu", "1"), ("memory", "1Gi")]);
        assert_eq!(qos(vec![], vec![]), QosClass::BestEffort);
        // Only non-cpu/memory resources, or zero quantities: still BestEffort.
        assert_eq!(
            qos(
                vec![container(&[("nvidia.com/gpu", "1"), ("cpu", "0")], &[])],
                vec![]
            ),
            QosClass::BestEffort
        );
        // Limits default the requests: equal sums.
        assert_eq!(
            qos(vec![full(), full()], vec![full()]),
            QosClass::Guaranteed
        );
        // Sums compared per resource: 500m + 1500m against 2 cpus.
        let half = container(&[("cpu", "500m")], &[("cpu", "1"), ("memory", "1Gi")]);
        let more = container(&[("cpu", "1500m")], &[("cpu", "1"), ("memory", "1Gi")]);
        assert_eq!(qos(vec![half, more], vec![]), QosClass::Guaranteed);
        // A request below its limit, a missing memory limit, or one in an init container.
        let low = container(&[("cpu", "500m")], &[("cpu", "1"), ("memory", "1Gi")]);
        assert_eq!(qos(vec![low], vec![]), QosClass::Burstable);
        assert_eq!(
            qos(vec![container(&[], &[("cpu", "1")])], vec![]),
            QosClass::Burstable
        );
        assert_eq!(
            qos(vec![full()], vec![container(&[("memory", "1Gi")], &[])]),
            QosClass::Burstable
        );
    }
}
