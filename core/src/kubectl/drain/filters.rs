//! `kubectl drain`'s pod filters (k8s.io/kubectl `pkg/drain/filters.go`: `makeFilters`,
//! `skipDeletedFilter`, `daemonSetFilter`, `mirrorPodFilter`, `localStorageFilter`,
//! `unreplicatedFilter`) and `PodDeleteList` with its `Warnings` and `errors` texts.
//!
//! Upstream groups warnings and errors by message in Go maps, so with several distinct
//! messages their order varies from run to run; here the groups keep the order in which
//! their first pod was listed.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::disruption::PodRecord;
use crate::version::KubeVersion;

/// `daemonSetFatal`
pub const DAEMON_SET_FATAL: &str = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)";
/// `daemonSetWarning`
pub const DAEMON_SET_WARNING: &str = "ignoring DaemonSet-managed Pods";
/// `localStorageFatal`
pub const LOCAL_STORAGE_FATAL: &str =
    "Pods with local storage (use --delete-emptydir-data to override)";
/// `localStorageWarning`
pub const LOCAL_STORAGE_WARNING: &str = "deleting Pods with local storage";
/// `unmanagedWarning`
pub const UNMANAGED_WARNING: &str = "deleting Pods that declare no controller";

/// `unmanagedFatal` of a release: `Pods declare no controller (...)` up to 1.29; 1.30 to
/// 1.35 carried its own `cannot delete ` prefix (so kubectl printed it twice); 1.36
/// dropped it again (kubernetes commit 468d3a84).
pub fn unmanaged_fatal(version: KubeVersion) -> &'static str {
    if version.at_least(36) {
        "Pods that declare no controller (use --force to override)"
    } else if version.at_least(30) {
        "cannot delete Pods that declare no controller (use --force to override)"
    } else {
        "Pods declare no controller (use --force to override)"
    }
}

/// Release from which `daemonSetFilter` requires the controllerRef's `apiVersion` to be
/// `apps/v1` besides its kind (`isControllerRefDaemonSet`); before, any `DaemonSet` kind
/// was a DaemonSet.
pub const DAEMON_SET_API_VERSION_MINOR: u16 = 34;

/// The drain options the filters read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterOptions {
    /// `--force`
    pub force: bool,
    /// `--ignore-daemonsets`
    pub ignore_daemonsets: bool,
    /// `--delete-emptydir-data` (or the deprecated `--delete-local-data`)
    pub delete_emptydir_data: bool,
    /// `--skip-wait-for-delete-timeout` (seconds; only values > 0 act)
    pub skip_wait_for_delete_timeout_seconds: i64,
}

/// `PodDeleteStatus`: whether the pod is deleted, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PodDeleteStatus {
    /// `Okay`: deleted (evicted).
    Okay,
    /// `Skip`: left alone, silently.
    Skip,
    /// `Warning`: deleted or not, with a message printed as a warning.
    Warning {
        /// Whether the pod is deleted.
        delete: bool,
        /// The warning group's message.
        message: String,
    },
    /// `Error`: the drain of the node fails with this message.
    Error(String),
}

impl PodDeleteStatus {
    /// `Status.Delete`
    pub fn delete(&self) -> bool {
        match self {
            Self::Okay => true,
            Self::Warning { delete, .. } => *delete,
            Self::Skip | Self::Error(_) => false,
        }
    }

    /// `Status.Reason`: `Okay`, `Skip`, `Warning` or `Error`.
    pub fn reason(&self) -> &'static str {
        match self {
            Self::Okay => "Okay",
            Self::Skip => "Skip",
            Self::Warning { .. } => "Warning",
            Self::Error(_) => "Error",
        }
    }

    /// `Status.Message` (empty for `Okay` and `Skip`).
    pub fn message(&self) -> &str {
        match self {
            Self::Warning { message, .. } | Self::Error(message) => message,
            Self::Okay | Self::Skip => "",
        }
    }
}

/// The filter environment: the clock and which DaemonSets exist.
pub struct FilterContext<'a> {
    /// The current second (for `--skip-wait-for-delete-timeout`).
    pub now: i64,
    /// Whether DaemonSet `namespace/name` exists (`daemonSetFilter` GETs it).
    pub daemon_set_exists: &'a dyn Fn(&str, &str) -> bool,
    /// The kubectl release.
    pub version: KubeVersion,
}

/// `shouldSkipPod`: `--skip-wait-for-delete-timeout` > 0 and the pod's
/// `deletionTimestamp` is more than that many whole seconds old.
pub fn should_skip_pod(pod: &PodRecord, skip_seconds: i64, now: i64) -> bool {
    skip_seconds > 0
        && pod
            .deletion_timestamp
            .is_some_and(|d| now - d > skip_seconds)
}

fn skip_deleted_filter(pod: &PodRecord, o: &FilterOptions, ctx: &FilterContext) -> PodDeleteStatus {
    if should_skip_pod(pod, o.skip_wait_for_delete_timeout_seconds, ctx.now) {
        PodDeleteStatus::Skip
    } else {
        PodDeleteStatus::Okay
    }
}

fn daemon_set_filter(pod: &PodRecord, o: &FilterOptions, ctx: &FilterContext) -> PodDeleteStatus {
    let Some(r) = &pod.controller else {
        return PodDeleteStatus::Okay;
    };
    let is_ds = r.kind == "DaemonSet"
        && (!ctx.version.at_least(DAEMON_SET_API_VERSION_MINOR) || r.api_version == "apps/v1");
    if !is_ds || pod.phase.is_terminal() {
        return PodDeleteStatus::Okay;
    }
    if !(ctx.daemon_set_exists)(&pod.namespace, &r.name) {
        // apierrors.NewNotFound(daemonsets.apps, name).Error()
        let msg = format!(
            "daemonsets.apps {} not found",
            crate::validation::go_quote(&r.name)
        );
        return if o.force {
            PodDeleteStatus::Warning {
                delete: true,
                message: msg,
            }
        } else {
            PodDeleteStatus::Error(msg)
        };
    }
    if !o.ignore_daemonsets {
        return PodDeleteStatus::Error(String::from(DAEMON_SET_FATAL));
    }
    PodDeleteStatus::Warning {
        delete: false,
        message: String::from(DAEMON_SET_WARNING),
    }
}

fn mirror_pod_filter(pod: &PodRecord) -> PodDeleteStatus {
    if pod.mirror {
        PodDeleteStatus::Skip
    } else {
        PodDeleteStatus::Okay
    }
}

fn local_storage_filter(pod: &PodRecord, o: &FilterOptions) -> PodDeleteStatus {
    if !pod.has_empty_dir || pod.phase.is_terminal() {
        return PodDeleteStatus::Okay;
    }
    if !o.delete_emptydir_data {
        return PodDeleteStatus::Error(String::from(LOCAL_STORAGE_FATAL));
    }
    PodDeleteStatus::Warning {
        delete: true,
        message: String::from(LOCAL_STORAGE_WARNING),
    }
}

fn unreplicated_filter(pod: &PodRecord, o: &FilterOptions, v: KubeVersion) -> PodDeleteStatus {
    if pod.phase.is_terminal() || pod.controller.is_some() {
        return PodDeleteStatus::Okay;
    }
    if o.force {
        PodDeleteStatus::Warning {
            delete: true,
            message: String::from(UNMANAGED_WARNING),
        }
    } else {
        PodDeleteStatus::Error(String::from(unmanaged_fatal(v)))
    }
}

/// `filterPods` for one pod: the five filters in upstream order, stopping at the first
/// that does not delete; the status kept is the last one computed (so a pod with local
/// storage and no controller under `--force --delete-emptydir-data` keeps only the
/// "no controller" warning, upstream's TODO).
pub fn filter_pod(pod: &PodRecord, o: &FilterOptions, ctx: &FilterContext) -> PodDeleteStatus {
    let filters: [&dyn Fn() -> PodDeleteStatus; 5] = [
        &|| skip_deleted_filter(pod, o, ctx),
        &|| daemon_set_filter(pod, o, ctx),
        &|| mirror_pod_filter(pod),
        &|| local_storage_filter(pod, o),
        &|| unreplicated_filter(pod, o, ctx.version),
    ];
    let mut status = PodDeleteStatus::Okay;
    for f in filters {
        status = f();
        if !status.delete() {
            break;
        }
    }
    status
}

/// `PodDeleteList`: every listed pod with its status, in list order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodDeleteList {
    /// `(pod, status)` in list order.
    pub items: Vec<(PodRecord, PodDeleteStatus)>,
}

/// Groups `namespace/name` by message for the items whose status has `reason`.
fn group(
    items: &[(PodRecord, PodDeleteStatus)],
    reason: &str,
    empty: &str,
) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (pod, status) in items.iter().filter(|(_, s)| s.reason() == reason) {
        let msg = if status.message().is_empty() {
            empty
        } else {
            status.message()
        };
        let key = pod.key();
        match groups.iter_mut().find(|(m, _)| m == msg) {
            Some((_, pods)) => pods.push(key),
            None => groups.push((String::from(msg), alloc::vec![key])),
        }
    }
    groups
}

impl PodDeleteList {
    /// `Pods()`: the pods to delete, in list order.
    pub fn pods(&self) -> Vec<&PodRecord> {
        self.items
            .iter()
            .filter(|(_, s)| s.delete())
            .map(|(p, _)| p)
            .collect()
    }

    /// `Warnings()`: `<message>: ns/a, ns/b` groups joined by `; `; empty when none.
    pub fn warnings(&self) -> String {
        group(&self.items, "Warning", "")
            .iter()
            .map(|(m, pods)| format!("{m}: {}", pods.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// `errors()`: one `cannot delete <message>: ns/a, ns/b` per message.
    pub fn errors(&self) -> Vec<String> {
        group(&self.items, "Error", "unexpected error")
            .iter()
            .map(|(m, pods)| format!("cannot delete {m}: {}", pods.join(", ")))
            .collect()
    }
}

/// `GetPodsForDeletion` after the list call: filters `pods` (already restricted to the
/// node and `--pod-selector`). `Err` carries the list and its errors, as upstream
/// returns both.
pub fn filter_pods(
    pods: &[PodRecord],
    o: &FilterOptions,
    ctx: &FilterContext,
) -> Result<PodDeleteList, (PodDeleteList, Vec<String>)> {
    let list = PodDeleteList {
        items: pods
            .iter()
            .map(|p| (p.clone(), filter_pod(p, o, ctx)))
            .collect(),
    };
    let errors = list.errors();
    if errors.is_empty() {
        Ok(list)
    } else {
        Err((list, errors))
    }
}

/// `utilerrors.NewAggregate(errs).Error()`: one message as is, several (deduplicated) in
/// brackets joined by `, `.
pub fn aggregate_error(errs: &[String]) -> String {
    match errs {
        [] => String::new(),
        [one] => one.clone(),
        many => {
            let mut seen: Vec<&str> = Vec::new();
            for e in many {
                if !seen.contains(&e.as_str()) {
                    seen.push(e);
                }
            }
            if seen.len() == 1 {
                String::from(seen[0])
            } else {
                format!("[{}]", seen.join(", "))
            }
        }
    }
}
