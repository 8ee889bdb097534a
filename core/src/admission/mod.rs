//! Admission plugins that add or check tolerations and taints
//! (`plugin/pkg/admission/{defaulttolerationseconds,podtolerationrestriction,
//! extendedresourcetoleration,nodetaint}` and `TaintNodesByCondition` in
//! `pkg/controller/nodelifecycle`).
//!
//! * `DefaultTolerationSeconds` (enabled by default) in [`default_toleration_seconds`].
//! * `PodTolerationRestriction` with `pkg/util/tolerations` in [`pod_toleration_restriction`].
//! * `ExtendedResourceToleration` in [`extended_resource_toleration`].
//! * `TaintNodesByCondition` on Node CREATE: [`taint_nodes_by_condition`].
//! * The pod plugins chained in the apiserver's order, with the
//!   validating phase after all mutations, and a record of which plugin added what:
//!   [`admit_pod`].
//!
//! [`add_or_update_toleration`] is upstream's `AddOrUpdateTolerationInPodSpec`, shared by
//! `ExtendedResourceToleration` and the DaemonSet controller ([`crate::daemonset`]).

pub mod default_toleration_seconds;
pub mod extended_resource_toleration;
pub mod pod_toleration_restriction;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::matching::{match_taint, match_toleration};
use crate::model::{QosClass, Taint, TaintEffect, Toleration, keys};

use default_toleration_seconds::DefaultTolerationSecondsConfig;
use pod_toleration_restriction::{
    ExtraSource, NamespaceTolerations, PodTolerationRestrictionConfig,
    PodTolerationRestrictionError,
};

/// The operation of an admission request (`admission.Operation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `CREATE`
    Create,
    /// `UPDATE`
    Update,
    /// `DELETE`
    Delete,
    /// `CONNECT`
    Connect,
}

impl Operation {
    /// The API string (`CREATE`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Create => "CREATE",
            Self::Update => "UPDATE",
            Self::Delete => "DELETE",
            Self::Connect => "CONNECT",
        }
    }

    /// Parses the API string (exact, upper case).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "CREATE" => Some(Self::Create),
            "UPDATE" => Some(Self::Update),
            "DELETE" => Some(Self::Delete),
            "CONNECT" => Some(Self::Connect),
            _ => None,
        }
    }

    /// The pod plugins here only handle CREATE and UPDATE.
    pub fn is_create_or_update(self) -> bool {
        matches!(self, Self::Create | Self::Update)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The admission plugins modelled here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdmissionPlugin {
    /// `TaintNodesByCondition` (nodes).
    TaintNodesByCondition,
    /// `DefaultTolerationSeconds`
    DefaultTolerationSeconds,
    /// `PodTolerationRestriction`
    PodTolerationRestriction,
    /// `ExtendedResourceToleration`
    ExtendedResourceToleration,
}

impl AdmissionPlugin {
    /// The plugin name as given to `--enable-admission-plugins`.
    pub fn name(self) -> &'static str {
        match self {
            Self::TaintNodesByCondition => "TaintNodesByCondition",
            Self::DefaultTolerationSeconds => "DefaultTolerationSeconds",
            Self::PodTolerationRestriction => "PodTolerationRestriction",
            Self::ExtendedResourceToleration => "ExtendedResourceToleration",
        }
    }
}

impl fmt::Display for AdmissionPlugin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What [`add_or_update_toleration`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddOrUpdate {
    /// At least one entry with the same key, operator, value and effect was overwritten
    /// in place.
    Replaced,
    /// No such entry; the toleration was appended.
    Appended,
}

/// `AddOrUpdateTolerationInPodSpec`: every entry that [`match_toleration`]es the new one
/// (same key, effect, operator and value) is overwritten in place by it; if none did, it
/// is appended.
///
/// Upstream quirk: the "already identical, leave unchanged" shortcut compares a pointer
/// with a value and never fires, so replacement is unconditional and any
/// `tolerationSeconds` on the matched entry is replaced by the new one's (usually none).
pub fn add_or_update_toleration(
    tolerations: &mut Vec<Toleration>,
    toleration: &Toleration,
) -> AddOrUpdate {
    let mut replaced = false;
    for existing in tolerations.iter_mut() {
        if match_toleration(toleration, existing) {
            existing.clone_from(toleration);
            replaced = true;
        }
    }
    if replaced {
        AddOrUpdate::Replaced
    } else {
        tolerations.push(toleration.clone());
        AddOrUpdate::Appended
    }
}

/// The taint `TaintNodesByCondition` adds to new nodes: `node.kubernetes.io/not-ready`
/// with effect `NoSchedule`, no value and no `timeAdded`.
pub fn not_ready_no_schedule_taint() -> Taint {
    Taint::new(keys::NOT_READY, "", TaintEffect::NoSchedule)
}

/// The `TaintNodesByCondition` admission plugin (enabled by default): on Node CREATE,
/// appends [`not_ready_no_schedule_taint`] unless a taint with that key and effect
/// ([`match_taint`]: the value is ignored) is already present. Returns whether it was
/// added. Other operations are ignored. The node lifecycle controller removes the taint
/// once the node reports Ready.
pub fn taint_nodes_by_condition(operation: Operation, taints: &mut Vec<Taint>) -> bool {
    if operation != Operation::Create {
        return false;
    }
    let taint = not_ready_no_schedule_taint();
    if taints.iter().any(|t| match_taint(t, &taint)) {
        return false;
    }
    taints.push(taint);
    true
}

/// Which pod admission plugins are enabled, with their configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodAdmissionPlugins {
    /// `DefaultTolerationSeconds` (enabled by default upstream).
    pub default_toleration_seconds: Option<DefaultTolerationSecondsConfig>,
    /// `PodTolerationRestriction` (off by default).
    pub pod_toleration_restriction: Option<PodTolerationRestrictionConfig>,
    /// `ExtendedResourceToleration` (off by default).
    pub extended_resource_toleration: bool,
}

impl Default for PodAdmissionPlugins {
    /// The kube-apiserver defaults: only `DefaultTolerationSeconds`, with 300 s.
    fn default() -> Self {
        Self {
            default_toleration_seconds: Some(DefaultTolerationSecondsConfig::default()),
            pod_toleration_restriction: None,
            extended_resource_toleration: false,
        }
    }
}

/// The parts of a pod admission request the plugins read.
#[derive(Clone, Copy, Debug)]
pub struct PodAdmissionRequest<'a> {
    /// The request's operation; only CREATE and UPDATE are acted on.
    pub operation: Operation,
    /// The pod's `spec.tolerations` as submitted.
    pub tolerations: &'a [Toleration],
    /// The pod's QoS class (PodTolerationRestriction adds memory-pressure unless
    /// BestEffort).
    pub qos_class: QosClass,
    /// Resource names in `resources.requests` of all containers and init containers
    /// (ExtendedResourceToleration; limits are not read).
    pub requested_resources: &'a [String],
    /// The pod's namespace annotations (PodTolerationRestriction).
    pub namespace: &'a NamespaceTolerations,
}

/// Where a toleration in the admitted pod came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TolerationOrigin {
    /// In the pod as submitted.
    Pod,
    /// Appended by `DefaultTolerationSeconds` (not-ready or unreachable).
    DefaultTolerationSeconds,
    /// Merged in by `PodTolerationRestriction` from the namespace default annotation.
    NamespaceDefault,
    /// Merged in by `PodTolerationRestriction` from the cluster configuration's default.
    ClusterDefault,
    /// Merged in by `PodTolerationRestriction` because the pod is not BestEffort.
    MemoryPressure,
    /// Added by `ExtendedResourceToleration`. `replaced` is true when it overwrote an
    /// entry with the same key, operator, value and effect in place.
    ExtendedResource {
        /// Whether an existing entry was overwritten in place.
        replaced: bool,
    },
}

impl TolerationOrigin {
    /// The plugin that added the toleration; `None` for the pod's own.
    pub fn plugin(self) -> Option<AdmissionPlugin> {
        match self {
            Self::Pod => None,
            Self::DefaultTolerationSeconds => Some(AdmissionPlugin::DefaultTolerationSeconds),
            Self::NamespaceDefault | Self::ClusterDefault | Self::MemoryPressure => {
                Some(AdmissionPlugin::PodTolerationRestriction)
            }
            Self::ExtendedResource { .. } => Some(AdmissionPlugin::ExtendedResourceToleration),
        }
    }
}

impl From<ExtraSource> for TolerationOrigin {
    fn from(source: ExtraSource) -> Self {
        match source {
            ExtraSource::NamespaceDefault => Self::NamespaceDefault,
            ExtraSource::ClusterDefault => Self::ClusterDefault,
            ExtraSource::MemoryPressure => Self::MemoryPressure,
        }
    }
}

/// A toleration of the admitted pod and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdmittedToleration {
    /// The toleration.
    pub toleration: Toleration,
    /// Where it came from.
    pub origin: TolerationOrigin,
}

/// Why a toleration seen during admission is not in the final pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// `PodTolerationRestriction`'s `MergeTolerations` dropped it because another
    /// toleration covers it (or it duplicated one).
    Superseded,
    /// `ExtendedResourceToleration` overwrote it in place (its `tolerationSeconds` is
    /// lost).
    Overwritten,
}

/// A toleration that was in the pod (or added by an earlier plugin) but is not in the
/// final pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedToleration {
    /// The toleration that was dropped.
    pub toleration: Toleration,
    /// Where it had come from.
    pub origin: TolerationOrigin,
    /// Why it is gone.
    pub reason: DropReason,
}

/// The admitted pod's tolerations, with explanations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdmittedPod {
    /// The final `spec.tolerations`, in order, each with its origin.
    pub tolerations: Vec<AdmittedToleration>,
    /// Tolerations removed or overwritten on the way, in the order it happened.
    pub dropped: Vec<DroppedToleration>,
}

impl AdmittedPod {
    /// The final `spec.tolerations` without origins.
    pub fn final_tolerations(&self) -> Vec<Toleration> {
        self.tolerations
            .iter()
            .map(|t| t.toleration.clone())
            .collect()
    }
}

/// When a rejection happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdmissionPhase {
    /// During the plugin's own `Admit` (PodTolerationRestriction validates at its end).
    Mutating,
    /// In the validating phase, after every mutating plugin ran.
    Validating,
}

/// A rejected pod admission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdmissionRejection {
    /// The rejecting plugin (only `PodTolerationRestriction` rejects pods here).
    pub plugin: AdmissionPlugin,
    /// When it rejected.
    pub phase: AdmissionPhase,
    /// The error; its [`fmt::Display`] is upstream's text.
    pub error: PodTolerationRestrictionError,
}

impl fmt::Display for AdmissionRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

/// Runs the enabled pod plugins in the apiserver's order (`AllOrderedPlugins`):
/// `DefaultTolerationSeconds`, `PodTolerationRestriction` (whose `Admit` ends with its own
/// whitelist check), `ExtendedResourceToleration`; then `PodTolerationRestriction`'s
/// validating phase on the final tolerations. So a whitelist sees every toleration the
/// other plugins added.
///
/// Operations other than CREATE and UPDATE pass the pod through unchanged. Other
/// plugins that touch tolerations (RuntimeClass, webhooks) are not modelled.
pub fn admit_pod(
    plugins: &PodAdmissionPlugins,
    request: &PodAdmissionRequest<'_>,
) -> Result<AdmittedPod, AdmissionRejection> {
    let mut pod = AdmittedPod {
        tolerations: request
            .tolerations
            .iter()
            .map(|t| AdmittedToleration {
                toleration: t.clone(),
                origin: TolerationOrigin::Pod,
            })
            .collect(),
        dropped: Vec::new(),
    };
    let operation = request.operation;
    if !operation.is_create_or_update() {
        return Ok(pod);
    }

    if let Some(config) = &plugins.default_toleration_seconds {
        let mut tolerations = pod.final_tolerations();
        let before = tolerations.len();
        default_toleration_seconds::admit(operation, &mut tolerations, config);
        pod.tolerations
            .extend(
                tolerations
                    .into_iter()
                    .skip(before)
                    .map(|toleration| AdmittedToleration {
                        toleration,
                        origin: TolerationOrigin::DefaultTolerationSeconds,
                    }),
            );
    }

    if let Some(config) = &plugins.pod_toleration_restriction {
        let reject = |error| AdmissionRejection {
            plugin: AdmissionPlugin::PodTolerationRestriction,
            phase: AdmissionPhase::Mutating,
            error,
        };
        let extra = pod_toleration_restriction::extra_tolerations(
            operation,
            request.qos_class,
            request.namespace,
            config,
        )
        .map_err(reject)?;
        if !extra.is_empty() {
            merge_with_origins(&mut pod, extra);
        }
        pod_toleration_restriction::validate(
            operation,
            &pod.final_tolerations(),
            request.namespace,
            config,
        )
        .map_err(reject)?;
    }

    if plugins.extended_resource_toleration {
        for name in
            extended_resource_toleration::extended_resource_names(request.requested_resources)
        {
            add_or_update_with_origin(
                &mut pod,
                extended_resource_toleration::toleration_for(&name),
            );
        }
    }

    if let Some(config) = &plugins.pod_toleration_restriction {
        pod_toleration_restriction::validate(
            operation,
            &pod.final_tolerations(),
            request.namespace,
            config,
        )
        .map_err(|error| AdmissionRejection {
            plugin: AdmissionPlugin::PodTolerationRestriction,
            phase: AdmissionPhase::Validating,
            error,
        })?;
    }
    Ok(pod)
}

/// `MergeTolerations(pod, extra)` keeping origins and recording what was dropped.
fn merge_with_origins(pod: &mut AdmittedPod, extra: Vec<(Toleration, ExtraSource)>) {
    let extra: Vec<AdmittedToleration> = extra
        .into_iter()
        .map(|(toleration, source)| AdmittedToleration {
            toleration,
            origin: source.into(),
        })
        .collect();
    let first = pod.final_tolerations();
    let second: Vec<Toleration> = extra.iter().map(|t| t.toleration.clone()).collect();
    let kept = pod_toleration_restriction::merge_kept_indices(&first, &second);
    let all: Vec<AdmittedToleration> = core::mem::take(&mut pod.tolerations)
        .into_iter()
        .chain(extra)
        .collect();
    let mut kept_iter = kept.into_iter().peekable();
    for (i, entry) in all.into_iter().enumerate() {
        if kept_iter.peek() == Some(&i) {
            kept_iter.next();
            pod.tolerations.push(entry);
        } else {
            pod.dropped.push(DroppedToleration {
                toleration: entry.toleration,
                origin: entry.origin,
                reason: DropReason::Superseded,
            });
        }
    }
}

/// [`add_or_update_toleration`] keeping origins and recording what was overwritten.
fn add_or_update_with_origin(pod: &mut AdmittedPod, toleration: Toleration) {
    let mut replaced = false;
    for entry in pod.tolerations.iter_mut() {
        if match_toleration(&toleration, &entry.toleration) {
            let old = core::mem::replace(
                entry,
                AdmittedToleration {
                    toleration: toleration.clone(),
                    origin: TolerationOrigin::ExtendedResource { replaced: true },
                },
            );
            pod.dropped.push(DroppedToleration {
                toleration: old.toleration,
                origin: old.origin,
                reason: DropReason::Overwritten,
            });
            replaced = true;
        }
    }
    if !replaced {
        pod.tolerations.push(AdmittedToleration {
            toleration,
            origin: TolerationOrigin::ExtendedResource { replaced: false },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Operator;
    use alloc::vec;
    use pod_toleration_restriction::{
        NamespaceAnnotation, WhitelistScope, memory_pressure_toleration,
    };

    fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
        Toleration::new(key, Operator::parse(op), value, TaintEffect::parse(effect))
    }

    #[test]
    fn operation_round_trip() {
        for op in [
            Operation::Create,
            Operation::Update,
            Operation::Delete,
            Operation::Connect,
        ] {
            assert_eq!(Operation::parse(op.as_str()), Some(op));
        }
        assert_eq!(Operation::parse("create"), None);
    }

    #[test]
    fn add_or_update_replaces_every_match_in_place() {
        let new = tol("k", "Exists", "", "NoSchedule");
        let mut tols = vec![
            new.clone().with_seconds(Some(5)),
            tol("other", "Exists", "", ""),
            new.clone().with_seconds(Some(7)),
        ];
        assert_eq!(
            add_or_update_toleration(&mut tols, &new),
            AddOrUpdate::Replaced
        );
        assert_eq!(
            tols,
            vec![new.clone(), tol("other", "Exists", "", ""), new.clone()]
        );
        // An empty operator is not `Equal` for matching: appended.
        let mut tols = vec![tol("k", "", "v", "NoSchedule")];
        let equal = tol("k", "Equal", "v", "NoSchedule");
        assert_eq!(
            add_or_update_toleration(&mut tols, &equal),
            AddOrUpdate::Appended
        );
        assert_eq!(tols.len(), 2);
    }

    #[test]
    fn node_create_gets_not_ready_taint_once() {
        let mut taints = vec![Taint::new("dedicated", "gpu", TaintEffect::NoSchedule)];
        assert!(taint_nodes_by_condition(Operation::Create, &mut taints));
        assert_eq!(taints.last(), Some(&not_ready_no_schedule_taint()));
        assert!(taints.last().is_some_and(|t| t.time_added.is_none()));
        assert!(!taint_nodes_by_condition(Operation::Create, &mut taints));
        assert_eq!(taints.len(), 2);
        // Present with another value: still counts (key + effect only).
        let mut taints = vec![Taint::new(keys::NOT_READY, "x", TaintEffect::NoSchedule)];
        assert!(!taint_nodes_by_condition(Operation::Create, &mut taints));
        // The NoExecute one does not count.
        let mut taints = vec![Taint::new(keys::NOT_READY, "", TaintEffect::NoExecute)];
        assert!(taint_nodes_by_condition(Operation::Create, &mut taints));
        // Updates are ignored.
        let mut taints = Vec::new();
        assert!(!taint_nodes_by_condition(Operation::Update, &mut taints));
        assert!(taints.is_empty());
    }

    fn all_plugins(whitelist: Vec<Toleration>) -> PodAdmissionPlugins {
        PodAdmissionPlugins {
            default_toleration_seconds: Some(DefaultTolerationSecondsConfig::default()),
            pod_toleration_restriction: Some(PodTolerationRestrictionConfig {
                default: Vec::new(),
                whitelist,
            }),
            extended_resource_toleration: true,
        }
    }

    #[test]
    fn default_plugins_add_the_300s_tolerations() {
        let ns = NamespaceTolerations::default();
        let req = PodAdmissionRequest {
            operation: Operation::Create,
            tolerations: &[],
            qos_class: QosClass::Burstable,
            requested_resources: &[String::from("nvidia.com/gpu")],
            namespace: &ns,
        };
        let pod = admit_pod(&PodAdmissionPlugins::default(), &req).unwrap();
        assert_eq!(
            pod.final_tolerations(),
            vec![
                default_toleration_seconds::not_ready_toleration(300),
                default_toleration_seconds::unreachable_toleration(300),
            ]
        );
        assert!(
            pod.tolerations
                .iter()
                .all(|t| t.origin == TolerationOrigin::DefaultTolerationSeconds)
        );
    }

    #[test]
    fn pipeline_order_and_origins() {
        let wildcard_ns_default = vec![tol("example.com/dev", "Exists", "", "")];
        let ns = NamespaceTolerations {
            default_tolerations: NamespaceAnnotation::Tolerations(wildcard_ns_default.clone()),
            tolerations_whitelist: NamespaceAnnotation::Absent,
        };
        let mine = tol("example.com/dev", "Equal", "a", "NoSchedule");
        let gpu = tol("nvidia.com/gpu", "Exists", "", "NoSchedule").with_seconds(Some(9));
        let req = PodAdmissionRequest {
            operation: Operation::Create,
            tolerations: &[mine.clone(), gpu.clone()],
            qos_class: QosClass::Guaranteed,
            requested_resources: &[String::from("nvidia.com/gpu"), String::from("cpu")],
            namespace: &ns,
        };
        let pod = admit_pod(&all_plugins(Vec::new()), &req).unwrap();
        let got: Vec<(Toleration, TolerationOrigin)> = pod
            .tolerations
            .iter()
            .map(|t| (t.toleration.clone(), t.origin))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    extended_resource_toleration::toleration_for("nvidia.com/gpu"),
                    TolerationOrigin::ExtendedResource { replaced: true }
                ),
                (
                    default_toleration_seconds::not_ready_toleration(300),
                    TolerationOrigin::DefaultTolerationSeconds
                ),
                (
                    default_toleration_seconds::unreachable_toleration(300),
                    TolerationOrigin::DefaultTolerationSeconds
                ),
                (
                    wildcard_ns_default[0].clone(),
                    TolerationOrigin::NamespaceDefault
                ),
                (
                    memory_pressure_toleration(),
                    TolerationOrigin::MemoryPressure
                ),
            ]
        );
        assert_eq!(
            pod.dropped,
            vec![
                DroppedToleration {
                    toleration: mine,
                    origin: TolerationOrigin::Pod,
                    reason: DropReason::Superseded
                },
                DroppedToleration {
                    toleration: gpu,
                    origin: TolerationOrigin::Pod,
                    reason: DropReason::Overwritten
                },
            ]
        );
    }

    #[test]
    fn whitelist_sees_tolerations_added_later() {
        // Whitelists everything the earlier plugins add, but not the extended resource.
        let whitelist = vec![
            tol(keys::NOT_READY, "Exists", "", "NoExecute").with_seconds(Some(300)),
            tol(keys::UNREACHABLE, "Exists", "", "NoExecute").with_seconds(Some(300)),
        ];
        let ns = NamespaceTolerations::default();
        let mut req = PodAdmissionRequest {
            operation: Operation::Create,
            tolerations: &[],
            qos_class: QosClass::BestEffort,
            requested_resources: &[],
            namespace: &ns,
        };
        assert!(admit_pod(&all_plugins(whitelist.clone()), &req).is_ok());
        let gpu = [String::from("nvidia.com/gpu")];
        req.requested_resources = &gpu;
        let err = admit_pod(&all_plugins(whitelist.clone()), &req).unwrap_err();
        assert_eq!(err.phase, AdmissionPhase::Validating);
        assert_eq!(err.plugin, AdmissionPlugin::PodTolerationRestriction);
        assert_eq!(
            err.error,
            PodTolerationRestrictionError::WhitelistConflict {
                scope: WhitelistScope::Cluster
            }
        );
        // Non-BestEffort pods fail already inside PodTolerationRestriction's Admit.
        req.requested_resources = &[];
        req.qos_class = QosClass::Burstable;
        let err = admit_pod(&all_plugins(whitelist), &req).unwrap_err();
        assert_eq!(err.phase, AdmissionPhase::Mutating);
        assert_eq!(
            alloc::format!("{err}"),
            "pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist"
        );
    }

    #[test]
    fn delete_passes_through() {
        let ns = NamespaceTolerations::default();
        let mine = [tol("a", "Exists", "", "")];
        let req = PodAdmissionRequest {
            operation: Operation::Delete,
            tolerations: &mine,
            qos_class: QosClass::Burstable,
            requested_resources: &[],
            namespace: &ns,
        };
        let pod = admit_pod(&all_plugins(vec![tol("b", "Exists", "", "")]), &req).unwrap();
        assert_eq!(pod.final_tolerations(), mine.to_vec());
    }
}
