//! The disruption controller's status computation (`pkg/controller/disruption/
//! disruption.go`: `trySync`, `getExpectedPodCount`, `getExpectedScale`, the finders,
//! `countHealthyPods`, `buildDisruptedPodMap`, `updatePdbStatus`, `failSafe`) and
//! `intstr.GetScaledValueFromIntOrPercent`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{IntOrPercent, OwnerRef, PdbStatus, PodDisruptionBudget, PodRecord, parse_group};
use crate::labels::LabelSelector;

/// `DeletionTimeout`: how long an eviction approved by the API server may take to show up
/// as a deletion before the controller counts the pod again (2 minutes).
pub const DELETION_TIMEOUT_SECONDS: i64 = 120;

/// `policy.DisruptionAllowedCondition`.
pub const DISRUPTION_ALLOWED: &str = "DisruptionAllowed";

/// One entry of `status.conditions` (`metav1.Condition`, without `lastTransitionTime`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Condition {
    /// `type`
    pub type_: String,
    /// `True` / `False`
    pub status: String,
    /// `reason`: `SufficientPods`, `InsufficientPods` or `SyncFailed`.
    pub reason: String,
    /// `message` (the sync error for `SyncFailed`, otherwise empty).
    pub message: String,
    /// `observedGeneration`
    pub observed_generation: i64,
}

/// `pdbhelper.UpdateDisruptionAllowedCondition` (component-helpers
/// `apps/poddisruptionbudget`): `True/SufficientPods` when disruptions are allowed,
/// otherwise `False/InsufficientPods`, replacing an existing `DisruptionAllowed` entry.
pub fn update_disruption_allowed_condition(status: &mut PdbStatus) {
    let (st, reason) = if status.disruptions_allowed > 0 {
        ("True", "SufficientPods")
    } else {
        ("False", "InsufficientPods")
    };
    set_condition(
        &mut status.conditions,
        Condition {
            type_: String::from(DISRUPTION_ALLOWED),
            status: String::from(st),
            reason: String::from(reason),
            message: String::new(),
            observed_generation: status.observed_generation,
        },
    );
}

/// `apimeta.SetStatusCondition` (timestamps aside).
fn set_condition(conditions: &mut Vec<Condition>, new: Condition) {
    match conditions.iter_mut().find(|c| c.type_ == new.type_) {
        Some(c) => *c = new,
        None => conditions.push(new),
    }
}

/// `intstr.GetScaledValueFromIntOrPercent`: an integer as is; `"<n>%"` as `n` percent of
/// `total`, rounded up (`round_up`) or down. Errors carry upstream's text.
///
/// The disruption controller always rounds up, for `minAvailable` and for
/// `maxUnavailable` alike.
pub fn get_scaled_value_from_int_or_percent(
    value: &IntOrPercent,
    total: i32,
    round_up: bool,
) -> Result<i32, String> {
    match value {
        IntOrPercent::Int(i) => Ok(*i),
        IntOrPercent::Str(s) => {
            let Some(num) = s.strip_suffix('%') else {
                return Err(String::from(
                    "invalid value for IntOrString: invalid type: string is not a percentage",
                ));
            };
            let v: i64 = go_atoi(num).ok_or_else(|| {
                format!(
                    "invalid value for IntOrString: invalid value {}: strconv.Atoi: parsing {}: invalid syntax",
                    crate::validation::go_quote(s),
                    crate::validation::go_quote(num)
                )
            })?;
            // math.Ceil / math.Floor of float64(v) * float64(total) / 100: exact in
            // integers for every value the API admits.
            let product = v * i64::from(total);
            let scaled = if round_up {
                product.div_euclid(100) + i64::from(product.rem_euclid(100) != 0)
            } else {
                product.div_euclid(100)
            };
            Ok(scaled.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
        }
    }
}

/// `strconv.Atoi` for the values a percentage can hold (optional sign, ASCII digits).
fn go_atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 18 {
        return None;
    }
    s.parse().ok()
}

/// A workload object a pod's controllerRef can point to, as the finders read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Workload {
    /// `apiVersion` (`apps/v1`, `v1` for a ReplicationController, a CRD's version).
    pub api_version: String,
    /// `kind`
    pub kind: String,
    /// `metadata.namespace`
    pub namespace: String,
    /// `metadata.name`
    pub name: String,
    /// `metadata.uid`
    pub uid: String,
    /// `spec.replicas` (or the scale subresource's); `None` for kinds without one
    /// (DaemonSet, Job).
    pub replicas: Option<i32>,
    /// The workload's own controllerRef (a ReplicaSet's Deployment).
    pub controller: Option<OwnerRef>,
}

impl Workload {
    /// A workload with a scale.
    pub fn new(api_version: &str, kind: &str, namespace: &str, name: &str, replicas: i32) -> Self {
        Self {
            api_version: String::from(api_version),
            kind: String::from(kind),
            namespace: String::from(namespace),
            name: String::from(name),
            replicas: Some(replicas),
            ..Self::default()
        }
    }

    /// The plural resource and group, as `GroupResource.String()` prints it
    /// (`daemonsets.apps`).
    fn group_resource(&self) -> String {
        let group = parse_group(&self.api_version).unwrap_or("");
        let mut plural = self.kind.to_ascii_lowercase();
        plural.push('s');
        if group.is_empty() {
            plural
        } else {
            format!("{plural}.{group}")
        }
    }
}

/// The workloads the finders may look up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Workloads {
    /// All workloads, any namespace.
    pub items: Vec<Workload>,
}

impl Workloads {
    fn get(&self, namespace: &str, kind: &str, name: &str) -> Option<&Workload> {
        self.items
            .iter()
            .find(|w| w.namespace == namespace && w.kind == kind && w.name == name)
    }
}

/// `verifyGroupKind`: the kind matches and the ref's group is one of `groups`.
fn verify_group_kind(r: &OwnerRef, kind: &str, groups: &[&str]) -> Result<bool, String> {
    let group = r.group()?;
    Ok(r.kind == kind && groups.contains(&group))
}

/// The de-duplication key of a controller: upstream keys by uid; kind and name are added
/// so that workloads given without uids stay apart.
fn workload_key(w: &Workload) -> String {
    format!("{}/{}/{}/{}", w.kind, w.namespace, w.name, w.uid)
}

/// What a finder found: the controller's uid (the de-duplication key) and its scale.
type Found = Option<(String, i32)>;

/// A `podControllerFinder`.
type Finder = fn(&Workloads, &OwnerRef, &str) -> Result<Found, String>;

/// `getPodReplicationController`
fn find_rc(ws: &Workloads, r: &OwnerRef, ns: &str) -> Result<Found, String> {
    if !verify_group_kind(r, "ReplicationController", &[""])? {
        return Ok(None);
    }
    Ok(ws
        .get(ns, "ReplicationController", &r.name)
        .filter(|w| w.uid == r.uid)
        .map(|w| (workload_key(w), w.replicas.unwrap_or(1))))
}

/// `getPodDeployment`: a ReplicaSet ref whose ReplicaSet is controlled by a Deployment.
fn find_deployment(ws: &Workloads, r: &OwnerRef, ns: &str) -> Result<Found, String> {
    if !verify_group_kind(r, "ReplicaSet", &["apps", "extensions"])? {
        return Ok(None);
    }
    let Some(rs) = ws.get(ns, "ReplicaSet", &r.name).filter(|w| w.uid == r.uid) else {
        return Ok(None);
    };
    let Some(dref) = &rs.controller else {
        return Ok(None);
    };
    if !verify_group_kind(dref, "Deployment", &["apps", "extensions"])? {
        return Ok(None);
    }
    Ok(ws
        .get(&rs.namespace, "Deployment", &dref.name)
        .filter(|d| d.uid == dref.uid)
        .map(|d| (workload_key(d), d.replicas.unwrap_or(1))))
}

/// `getPodReplicaSet`: a ReplicaSet not controlled by a Deployment.
fn find_replica_set(ws: &Workloads, r: &OwnerRef, ns: &str) -> Result<Found, String> {
    if !verify_group_kind(r, "ReplicaSet", &["apps", "extensions"])? {
        return Ok(None);
    }
    let Some(rs) = ws.get(ns, "ReplicaSet", &r.name).filter(|w| w.uid == r.uid) else {
        return Ok(None);
    };
    if rs
        .controller
        .as_ref()
        .is_some_and(|c| c.kind == "Deployment")
    {
        return Ok(None);
    }
    Ok(Some((workload_key(rs), rs.replicas.unwrap_or(1))))
}

/// `getPodStatefulSet`
fn find_stateful_set(ws: &Workloads, r: &OwnerRef, ns: &str) -> Result<Found, String> {
    if !verify_group_kind(r, "StatefulSet", &["apps"])? {
        return Ok(None);
    }
    Ok(ws
        .get(ns, "StatefulSet", &r.name)
        .filter(|w| w.uid == r.uid)
        .map(|w| (workload_key(w), w.replicas.unwrap_or(1))))
}

/// One of the disruption controller's `podControllerFinder`s, tried in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ControllerFinder {
    /// `getPodReplicationController`
    ReplicationController,
    /// `getPodDeployment` (through the pod's ReplicaSet)
    Deployment,
    /// `getPodReplicaSet` (a ReplicaSet without a Deployment)
    ReplicaSet,
    /// `getPodStatefulSet`
    StatefulSet,
    /// `getScaleController`
    Scale,
}

/// Runs one finder for a pod's controllerRef in `namespace`: `Ok(Some(scale))` when it
/// recognises the controller, `Ok(None)` when it does not, `Err` with upstream's text.
pub fn find_controller_scale(
    finder: ControllerFinder,
    workloads: &Workloads,
    controller_ref: &OwnerRef,
    namespace: &str,
) -> Result<Option<i32>, String> {
    let f: Finder = match finder {
        ControllerFinder::ReplicationController => find_rc,
        ControllerFinder::Deployment => find_deployment,
        ControllerFinder::ReplicaSet => find_replica_set,
        ControllerFinder::StatefulSet => find_stateful_set,
        ControllerFinder::Scale => find_scale,
    };
    Ok(f(workloads, controller_ref, namespace)?.map(|(_, n)| n))
}

/// Kinds the API serves without a scale subresource, with the `GroupResource` upstream's
/// error names.
const WITHOUT_SCALE: &[(&str, &str, &str)] = &[
    ("apps", "DaemonSet", "daemonsets.apps"),
    ("extensions", "DaemonSet", "daemonsets.extensions"),
    ("batch", "Job", "jobs.batch"),
    ("batch", "CronJob", "cronjobs.batch"),
];

/// `getScaleController`: any other kind through its scale subresource. DaemonSets and
/// Jobs (and a listed workload without `replicas`) do not implement scale: upstream's
/// error names the group resource. A workload that is not listed is not found (`nil`,
/// so the pod ends with `found no controllers`).
fn find_scale(ws: &Workloads, r: &OwnerRef, ns: &str) -> Result<Found, String> {
    let group = r.group()?;
    if let Some((_, _, gr)) = WITHOUT_SCALE
        .iter()
        .find(|(g, k, _)| *g == group && *k == r.kind)
    {
        return Err(format!("{gr} does not implement the scale subresource"));
    }
    let Some(w) = ws.get(ns, &r.kind, &r.name) else {
        return Ok(None);
    };
    match w.replicas {
        None => Err(format!(
            "{} does not implement the scale subresource",
            w.group_resource()
        )),
        Some(n) if w.uid == r.uid => Ok(Some((workload_key(w), n))),
        Some(_) => Ok(None),
    }
}

/// `getExpectedScale`: the sum of the scales of the distinct controllers of the pods;
/// pods without a controller are listed apart (`UnmanagedPods`). As upstream, a
/// controllerRef already looked up is not looked up again (upstream keys by the ref's
/// uid; the whole ref and namespace here, so refs given without uids stay apart).
fn expected_scale(ws: &Workloads, pods: &[&PodRecord]) -> Result<(i32, Vec<String>), String> {
    let mut seen: Vec<(String, i32)> = Vec::new();
    let mut looked_up: Vec<(&str, &OwnerRef)> = Vec::new();
    let mut unmanaged = Vec::new();
    for pod in pods {
        let Some(r) = &pod.controller else {
            unmanaged.push(pod.name.clone());
            continue;
        };
        let key = (pod.namespace.as_str(), r);
        if looked_up.contains(&key) {
            continue;
        }
        looked_up.push(key);
        let finders: [Finder; 5] = [
            find_rc,
            find_deployment,
            find_replica_set,
            find_stateful_set,
            find_scale,
        ];
        let mut found = None;
        for finder in finders {
            if let Some(f) = finder(ws, r, &pod.namespace)? {
                found = Some(f);
                break;
            }
        }
        match found {
            Some(f) => {
                if !seen.iter().any(|(uid, _)| *uid == f.0) {
                    seen.push(f);
                }
            }
            None => {
                return Err(format!(
                    "found no controllers for pod {}",
                    crate::validation::go_quote(&pod.name)
                ));
            }
        }
    }
    Ok((seen.iter().map(|(_, n)| *n).sum(), unmanaged))
}

/// An Event the controller records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerEvent {
    /// `Normal` or `Warning`.
    pub type_: &'static str,
    /// `reason`
    pub reason: &'static str,
    /// `message`
    pub message: String,
    /// The object the event is about: `PodDisruptionBudget` or `Pod`, and its name.
    pub object: (&'static str, String),
}

/// The result of one `sync` of a budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdbSync {
    /// The status the controller writes (`updatePdbStatus`, or `failSafe` on error).
    pub status: PdbStatus,
    /// The sync error that made the controller fail safe.
    pub error: Option<String>,
    /// Events recorded during the sync, in order.
    pub events: Vec<ControllerEvent>,
    /// When the budget is synced again because a `disruptedPods` entry expires.
    pub recheck_at: Option<i64>,
    /// Names of selected pods without a controller (`UnmanagedPods`).
    pub unmanaged_pods: Vec<String>,
}

/// `LabelSelector.String()` (gogo-protobuf generated), as `%v` prints a selector in the
/// `UnmanagedPods` event.
fn selector_string(sel: Option<&LabelSelector>) -> String {
    let Some(sel) = sel else {
        return String::from("nil");
    };
    let mut labels = String::from("map[string]string{");
    for (k, v) in &sel.match_labels {
        labels.push_str(&format!("{k}: {v},"));
    }
    labels.push('}');
    let mut exprs = String::from("[]LabelSelectorRequirement{");
    for e in &sel.match_expressions {
        exprs.push_str(&format!(
            "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
            e.key,
            e.operator,
            e.values.join(" ")
        ));
    }
    exprs.push('}');
    format!("&LabelSelector{{MatchLabels:{labels},MatchExpressions:{exprs},}}")
}

/// `trySync` + `updatePdbStatus` (or `failSafe`) for one budget at second `now`.
/// `pods` may hold every pod of the cluster: the budget's namespace and selector pick
/// its own. The budget itself is not changed; see [`apply_sync`].
pub fn compute_status(
    pdb: &PodDisruptionBudget,
    pods: &[PodRecord],
    workloads: &Workloads,
    now: i64,
) -> PdbSync {
    let mut events = Vec::new();
    let pdb_obj = ("PodDisruptionBudget", pdb.name.clone());
    let fail = |err: String, events: Vec<ControllerEvent>| {
        let mut status = pdb.status.clone();
        status.disruptions_allowed = 0;
        set_condition(
            &mut status.conditions,
            Condition {
                type_: String::from(DISRUPTION_ALLOWED),
                status: String::from("False"),
                reason: String::from("SyncFailed"),
                message: err.clone(),
                observed_generation: status.observed_generation,
            },
        );
        PdbSync {
            status,
            error: Some(err),
            events,
            recheck_at: None,
            unmanaged_pods: Vec::new(),
        }
    };
    // getPodsForPdb: LabelSelectorAsSelector, an invalid selector is an error.
    let selector = match &pdb.spec.selector {
        None => None,
        Some(s) => match s.to_selector() {
            Ok(sel) => Some(sel),
            Err(e) => {
                events.push(ControllerEvent {
                    type_: "Warning",
                    reason: "NoPods",
                    message: format!("Failed to get pods: {e}"),
                    object: pdb_obj.clone(),
                });
                return fail(e, events);
            }
        },
    };
    let selected: Vec<&PodRecord> = match &selector {
        None => Vec::new(),
        Some(sel) => pods
            .iter()
            .filter(|p| p.namespace == pdb.namespace && sel.matches(&p.labels))
            .collect(),
    };
    if selected.is_empty() {
        events.push(ControllerEvent {
            type_: "Normal",
            reason: "NoPods",
            message: String::from("No matching pods found"),
            object: pdb_obj.clone(),
        });
    }
    // getExpectedPodCount
    let counted = (|| -> Result<(i32, i32, Vec<String>), String> {
        if let Some(max) = &pdb.spec.max_unavailable {
            let (expected, unmanaged) = expected_scale(workloads, &selected)?;
            let max = get_scaled_value_from_int_or_percent(max, expected, true)?;
            Ok((expected, (expected - max).max(0), unmanaged))
        } else if let Some(min) = &pdb.spec.min_available {
            match min {
                IntOrPercent::Int(i) => Ok((selected.len() as i32, *i, Vec::new())),
                IntOrPercent::Str(_) => {
                    let (expected, unmanaged) = expected_scale(workloads, &selected)?;
                    let desired = get_scaled_value_from_int_or_percent(min, expected, true)?;
                    Ok((expected, desired, unmanaged))
                }
            }
        } else {
            Ok((0, 0, Vec::new()))
        }
    })();
    let (expected, desired, unmanaged) = match counted {
        Ok(c) => c,
        Err(e) => {
            events.push(ControllerEvent {
                type_: "Warning",
                reason: "CalculateExpectedPodCountFailed",
                message: format!("Failed to calculate the number of expected pods: {e}"),
                object: pdb_obj.clone(),
            });
            return fail(e, events);
        }
    };
    if !unmanaged.is_empty() {
        events.push(ControllerEvent {
            type_: "Warning",
            reason: "UnmanagedPods",
            message: format!(
                "Pods selected by this PodDisruptionBudget (selector: {}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
                selector_string(pdb.spec.selector.as_ref())
            ),
            object: pdb_obj.clone(),
        });
    }
    // buildDisruptedPodMap
    let mut disrupted = alloc::collections::BTreeMap::new();
    let mut recheck_at: Option<i64> = None;
    for pod in &selected {
        if pod.deletion_timestamp.is_some() {
            continue;
        }
        let Some(&at) = pdb.status.disrupted_pods.get(&pod.name) else {
            continue;
        };
        let expected_deletion = at + DELETION_TIMEOUT_SECONDS;
        if expected_deletion < now {
            // Upstream names the budget's namespace twice.
            events.push(ControllerEvent {
                type_: "Warning",
                reason: "NotDeleted",
                message: format!(
                    "Pod was expected by PDB {}/{} to be deleted but it wasn't",
                    pdb.namespace, pdb.namespace
                ),
                object: ("Pod", pod.name.clone()),
            });
        } else {
            recheck_at = Some(recheck_at.map_or(expected_deletion, |r| r.min(expected_deletion)));
            disrupted.insert(pod.name.clone(), at);
        }
    }
    // countHealthyPods
    let current = selected
        .iter()
        .filter(|p| p.deletion_timestamp.is_none())
        .filter(|p| {
            disrupted
                .get(&p.name)
                .is_none_or(|&at| at + DELETION_TIMEOUT_SECONDS <= now)
        })
        .filter(|p| p.ready)
        .count() as i32;
    // updatePdbStatus
    let mut allowed = current - desired;
    if expected <= 0 || allowed <= 0 {
        allowed = 0;
    }
    let mut status = PdbStatus {
        observed_generation: pdb.generation,
        disrupted_pods: disrupted,
        disruptions_allowed: allowed,
        current_healthy: current,
        desired_healthy: desired,
        expected_pods: expected,
        conditions: pdb.status.conditions.clone(),
    };
    update_disruption_allowed_condition(&mut status);
    PdbSync {
        status,
        error: None,
        events,
        recheck_at,
        unmanaged_pods: unmanaged,
    }
}

/// Runs [`compute_status`] and writes the status into the budget.
pub fn apply_sync(
    pdb: &mut PodDisruptionBudget,
    pods: &[PodRecord],
    workloads: &Workloads,
    now: i64,
) -> PdbSync {
    let sync = compute_status(pdb, pods, workloads, now);
    pdb.status = sync.status.clone();
    sync
}

#[cfg(test)]
mod tests;
