//! PodDisruptionBudgets: the disruption controller's status computation
//! (`pkg/controller/disruption/disruption.go`) and the Eviction API's check
//! (`pkg/registry/core/pod/storage/eviction.go`), plus the pod-accounting rules of the
//! workload controllers that decide when a replacement appears ([`controllers`]).
//!
//! Times are whole seconds on the caller's clock (the simulation's `t`); upstream's
//! timestamps only ever enter as differences (`DeletionTimeout`, the eviction's
//! `disruptedPods` entry).
//!
//! * [`status`]: `trySync` — expected pods, `desiredHealthy`, `currentHealthy`,
//!   `disruptionsAllowed`, the `disruptedPods` clean-up and the `DisruptionAllowed`
//!   condition, with the controller finders that read a workload's scale.
//! * [`eviction`]: `EvictionREST.Create` — may this pod be evicted now, and what the
//!   server answers (the 429 text kubectl prints, the 500 for several budgets).
//! * [`controllers`]: ReplicaSet/StatefulSet/DaemonSet/Job rules about which pods count
//!   and when a replacement is made.
//!
//! ```
//! use taintlab_core::disruption::{IntOrPercent, PdbSpec, PodDisruptionBudget, PodRecord, compute_status, Workloads};
//! use taintlab_core::labels::LabelSelector;
//!
//! let mut pdb = PodDisruptionBudget::new("default", "web");
//! pdb.spec = PdbSpec {
//!     min_available: Some(IntOrPercent::Int(2)),
//!     selector: Some(LabelSelector { match_labels: [("app".into(), "web".into())].into(), ..Default::default() }),
//!     ..PdbSpec::default()
//! };
//! let pods: Vec<PodRecord> = (0..3)
//!     .map(|i| PodRecord::running("default", &format!("web-{i}")).with_label("app", "web"))
//!     .collect();
//! let sync = compute_status(&pdb, &pods, &Workloads::default(), 0);
//! assert_eq!(sync.status.disruptions_allowed, 1);
//! ```

pub mod controllers;
pub mod eviction;
pub mod status;

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::labels::LabelSelector;

pub use eviction::{ApiError, EvictionOutcome, evict, matching_budgets, matching_budgets_for};
pub use status::{
    Condition, ControllerFinder, PdbSync, Workload, Workloads, apply_sync, compute_status,
    find_controller_scale, get_scaled_value_from_int_or_percent,
};

/// `intstr.IntOrString` as `minAvailable` / `maxUnavailable` hold it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntOrPercent {
    /// An absolute number of pods.
    Int(i32),
    /// A string; valid ones are `"<n>%"`.
    Str(String),
}

impl IntOrPercent {
    /// `"30%"` → `Str`, `3` → `Int`.
    pub fn percent(p: i32) -> Self {
        Self::Str(alloc::format!("{p}%"))
    }
}

impl fmt::Display for IntOrPercent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(i) => write!(f, "{i}"),
            Self::Str(s) => f.write_str(s),
        }
    }
}

/// `spec.unhealthyPodEvictionPolicy` (policy/v1, from 1.26).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnhealthyPodEvictionPolicy {
    /// `IfHealthyBudget` (also what an unset field means): a not-ready pod may be evicted
    /// only while the application is not disrupted (`currentHealthy >= desiredHealthy`).
    #[default]
    IfHealthyBudget,
    /// `AlwaysAllow`: a not-ready pod may always be evicted.
    AlwaysAllow,
}

impl UnhealthyPodEvictionPolicy {
    /// Parses the API string; `None` for anything else.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "IfHealthyBudget" => Some(Self::IfHealthyBudget),
            "AlwaysAllow" => Some(Self::AlwaysAllow),
            _ => None,
        }
    }

    /// The API string.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::IfHealthyBudget => "IfHealthyBudget",
            Self::AlwaysAllow => "AlwaysAllow",
        }
    }
}

/// `metav1.OwnerReference` with `controller: true` (the pod's controllerRef), or any
/// owner reference a finder follows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OwnerRef {
    /// `apiVersion`, e.g. `apps/v1`, `v1`, `batch/v1`.
    pub api_version: String,
    /// `kind`, e.g. `ReplicaSet`.
    pub kind: String,
    /// `name`
    pub name: String,
    /// `uid`; compared with the workload's as upstream does (both may be empty).
    pub uid: String,
}

impl OwnerRef {
    /// An owner reference without a uid.
    pub fn new(api_version: &str, kind: &str, name: &str) -> Self {
        Self {
            api_version: String::from(api_version),
            kind: String::from(kind),
            name: String::from(name),
            uid: String::new(),
        }
    }

    /// The API group of `apiVersion` (`schema.ParseGroupVersion`): `""` for `v1`,
    /// `apps` for `apps/v1`. `Err` with upstream's text for more than one `/`.
    pub fn group(&self) -> Result<&str, String> {
        parse_group(&self.api_version)
    }
}

/// `schema.ParseGroupVersion`, the group part.
pub(crate) fn parse_group(api_version: &str) -> Result<&str, String> {
    if api_version.is_empty() || api_version == "/" {
        return Ok("");
    }
    match api_version.matches('/').count() {
        0 => Ok(""),
        1 => Ok(api_version.split('/').next().unwrap_or("")),
        _ => Err(alloc::format!(
            "unexpected GroupVersion string: {api_version}"
        )),
    }
}

/// `status.phase` of a pod.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PodPhase {
    /// `Pending`
    Pending,
    /// `Running` (also what an empty phase is taken for here).
    #[default]
    Running,
    /// `Succeeded`
    Succeeded,
    /// `Failed`
    Failed,
    /// `Unknown`
    Unknown,
}

impl PodPhase {
    /// Parses the API string; an empty or unrecognised phase is taken as `Running`.
    pub fn parse(s: &str) -> Self {
        match s {
            "Pending" => Self::Pending,
            "Succeeded" => Self::Succeeded,
            "Failed" => Self::Failed,
            "Unknown" => Self::Unknown,
            _ => Self::Running,
        }
    }

    /// The API string.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "Pending",
            Self::Running => "Running",
            Self::Succeeded => "Succeeded",
            Self::Failed => "Failed",
            Self::Unknown => "Unknown",
        }
    }

    /// `Succeeded` or `Failed`.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Succeeded | Self::Failed)
    }
}

/// What the disruption controller, the Eviction API, `kubectl drain` and the workload
/// controllers read from a pod.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodRecord {
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name`
    pub name: String,
    /// `metadata.uid` (drain's wait-for-delete notices a recreated pod by it).
    pub uid: String,
    /// `metadata.labels`
    pub labels: BTreeMap<String, String>,
    /// `spec.nodeName`
    pub node_name: String,
    /// `status.phase`
    pub phase: PodPhase,
    /// The `Ready` condition is `True` (`podutil.IsPodReady`).
    pub ready: bool,
    /// `metadata.deletionTimestamp`, in seconds on the caller's clock.
    pub deletion_timestamp: Option<i64>,
    /// The controllerRef (`metav1.GetControllerOf`).
    pub controller: Option<OwnerRef>,
    /// The `kubernetes.io/config.mirror` annotation is present (a static pod's mirror).
    pub mirror: bool,
    /// Some volume is an `emptyDir` (`hasLocalStorage`).
    pub has_empty_dir: bool,
    /// `spec.terminationGracePeriodSeconds` (defaulted to 30 by the API server).
    pub termination_grace_period_seconds: i64,
}

impl PodRecord {
    /// A running, ready pod with the API's defaults (grace period 30 s), no owner.
    pub fn running(namespace: &str, name: &str) -> Self {
        Self {
            namespace: String::from(namespace),
            name: String::from(name),
            phase: PodPhase::Running,
            ready: true,
            termination_grace_period_seconds: 30,
            ..Self::default()
        }
    }

    /// Builder: adds a label.
    pub fn with_label(mut self, key: &str, value: &str) -> Self {
        self.labels.insert(String::from(key), String::from(value));
        self
    }

    /// Builder: sets the controllerRef.
    pub fn owned_by(mut self, api_version: &str, kind: &str, name: &str) -> Self {
        self.controller = Some(OwnerRef::new(api_version, kind, name));
        self
    }

    /// `namespace/name`
    pub fn key(&self) -> String {
        alloc::format!("{}/{}", self.namespace, self.name)
    }

    /// `deletionTimestamp` is set.
    pub fn is_terminating(&self) -> bool {
        self.deletion_timestamp.is_some()
    }
}

/// `policy/v1.PodDisruptionBudgetSpec`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdbSpec {
    /// `minAvailable`
    pub min_available: Option<IntOrPercent>,
    /// `maxUnavailable` (wins when both are set, as upstream reads it first).
    pub max_unavailable: Option<IntOrPercent>,
    /// `selector`; `None` selects no pod, an empty selector every pod of the namespace.
    pub selector: Option<LabelSelector>,
    /// `unhealthyPodEvictionPolicy`; `None` behaves as `IfHealthyBudget`.
    pub unhealthy_pod_eviction_policy: Option<UnhealthyPodEvictionPolicy>,
}

/// `policy/v1.PodDisruptionBudgetStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdbStatus {
    /// `observedGeneration`
    pub observed_generation: i64,
    /// `disruptedPods`: pod name → the second the Eviction API approved its eviction.
    pub disrupted_pods: BTreeMap<String, i64>,
    /// `disruptionsAllowed`
    pub disruptions_allowed: i32,
    /// `currentHealthy`
    pub current_healthy: i32,
    /// `desiredHealthy`
    pub desired_healthy: i32,
    /// `expectedPods`
    pub expected_pods: i32,
    /// `conditions` (only `DisruptionAllowed` is written by upstream).
    pub conditions: Vec<Condition>,
}

/// A PodDisruptionBudget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodDisruptionBudget {
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name`
    pub name: String,
    /// `metadata.generation` (1 after creation).
    pub generation: i64,
    /// `spec`
    pub spec: PdbSpec,
    /// `status`
    pub status: PdbStatus,
}

impl PodDisruptionBudget {
    /// A budget with an empty spec and status, generation 1 and not yet observed (the
    /// Eviction API answers 429 until [`apply_sync`] has run once).
    pub fn new(namespace: &str, name: &str) -> Self {
        Self {
            namespace: String::from(namespace),
            name: String::from(name),
            generation: 1,
            ..Self::default()
        }
    }

    /// Whether the budget's selector picks this pod (same namespace; `metav1.
    /// LabelSelectorAsSelector`: nil selects nothing, empty selects everything, an
    /// invalid selector nothing).
    pub fn selects(&self, pod: &PodRecord) -> bool {
        if pod.namespace != self.namespace {
            return false;
        }
        match &self.spec.selector {
            None => false,
            Some(sel) => sel.matches(&pod.labels),
        }
    }
}
