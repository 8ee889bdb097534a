//! The workload controllers' pod accounting: when each one creates a replacement and
//! which pods it deletes on scale-down.
//!
//! * ReplicaSet (and a Deployment through its current ReplicaSet, and a
//!   ReplicationController): `pkg/controller/replicaset/replica_set.go`
//!   `syncReplicaSet`/`manageReplicas` count only *active* pods
//!   (`controller.FilterActivePods`: not terminating, not Succeeded/Failed), so a pod
//!   that is terminating is replaced at once. Scale-down deletes in
//!   `getPodsToDelete` order (unassigned first, then pods on a not-Ready node, then the
//!   pods with more siblings on their node, then the newest).
//! * StatefulSet: `pkg/controller/statefulset/stateful_set_control.go`
//!   `updateStatefulSet`/`processReplica`: a slot holds its pod until the object is
//!   gone, then a pod with the same name is created; with the default `OrderedReady`
//!   policy the walk over ordinals stops at the first slot that is being created,
//!   terminating or not Running (Ready is taken to be Running here), and scale-down
//!   removes the highest ordinal first, one at a time.
//! * Job: `pkg/controller/job/job_controller.go` `manageJob`: a terminating pod counts
//!   as failed at once unless `podReplacementPolicy: Failed`, and each failure delays
//!   the next creation by the failure backoff (`backoff_utils.go`: 10 s doubling, capped
//!   at 6 min before 1.29 and 10 min from 1.29; the cap's exact release is not
//!   verified). Pods never complete within a simulation.
//! * DaemonSet: `pkg/controller/daemon/daemon_controller.go` `NodeShouldRunDaemonPod`
//!   and `podsShouldBeOnNode`: a pod is created on a node that should run one and has
//!   no daemon pod object (terminating ones count), and deleted where the node has an
//!   untolerated `NoExecute` taint. Daemon pods get the DaemonSet tolerations and a
//!   `matchFields` affinity to their node, and go through the scheduler.
//!
//! Controllers react within the second of the change (informer latency, expectations,
//! slow-start batches and the 500-pod burst limit are not modelled).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::cluster::{ClusterPod, ControllerKind, Owner, PodReplacementPolicy, Workload};
use super::engine::{Phase, Work, WorkloadSlot, World};
use super::events::{self, NORMAL, ObjectKind, ObjectRef};
use super::timeline::TerminationCause;
use crate::daemonset::{
    add_or_update_daemon_pod_tolerations, daemon_taint_check, replace_node_name_node_affinity,
};
use crate::scheduling::selector::RequiredNodeAffinity;

/// `utilrand`'s alphabet for generated name suffixes (no vowels, no confusable digits).
const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
/// `maxNameLength - randomLength` of the API server's name generator: the longest
/// GenerateName base kept.
const MAX_GENERATED_NAME_BASE: usize = 58;
/// `DefaultJobPodFailureBackOff`.
const JOB_BACKOFF: i64 = 10;

fn kind_object(kind: ControllerKind) -> ObjectKind {
    match kind {
        ControllerKind::ReplicaSet => ObjectKind::ReplicaSet,
        ControllerKind::Deployment => ObjectKind::ReplicaSet,
        ControllerKind::StatefulSet => ObjectKind::StatefulSet,
        ControllerKind::Job => ObjectKind::Job,
        ControllerKind::DaemonSet => ObjectKind::DaemonSet,
        ControllerKind::ReplicationController => ObjectKind::ReplicationController,
    }
}

/// FNV-1a, for deterministic name suffixes.
fn fnv(s: &str, seq: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes().chain(seq.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn suffix(seed: &str, seq: u64, len: usize) -> String {
    let mut h = fnv(seed, seq);
    let mut out = String::with_capacity(len);
    for _ in 0..len {
        let i = (h % ALPHANUMS.len() as u64) as usize;
        out.push(char::from(ALPHANUMS.get(i).copied().unwrap_or(b'x')));
        h /= ALPHANUMS.len() as u64;
        if h == 0 {
            h = fnv(seed, seq.wrapping_add(0x9e37));
        }
    }
    out
}

/// `rand.SafeEncodeString(fmt.Sprint(h))` (k8s.io/apimachinery/pkg/util/rand): each
/// decimal digit of `h` as the character of [`ALPHANUMS`] at its ASCII code modulo 27,
/// so a pod-template-hash only ever holds `4`-`9`, `b`, `c`, `d` and `f`.
fn safe_encode_u32(h: u32) -> String {
    format!("{h}")
        .bytes()
        .map(|b| char::from(ALPHANUMS[usize::from(b) % ALPHANUMS.len()]))
        .collect()
}

/// The ReplicaSet of a Deployment whose pasted cluster names none: `<name>-<hash>` as
/// pkg/controller/deployment/sync.go `getNewReplicaSet` names it, with a hash shaped like
/// upstream's (pkg/controller/controller_utils.go `ComputeHash`). Upstream hashes the
/// Go-printed pod template (FNV-32a over `hashutil.DeepHashObject`), which is not
/// reproduced: this hash is of the Deployment's name.
fn generated_replica_set(name: &str) -> String {
    let h = fnv(name, 0);
    format!("{name}-{}", safe_encode_u32((h ^ (h >> 32)) as u32))
}

/// The maximum Job failure backoff: 6 min before 1.29, 10 min from 1.29.
fn job_backoff_cap(version: crate::KubeVersion) -> i64 {
    if version.at_least(29) { 600 } else { 360 }
}

impl World<'_> {
    /// Registers a workload.
    pub(super) fn add_workload(&mut self, spec: Workload) -> usize {
        let id = self.workloads.len();
        self.finder = None;
        self.workload_index
            .entry(spec.kind)
            .or_default()
            .insert(&spec.namespace, &spec.name, id);
        // A Deployment's pods are named after its ReplicaSet, a ReplicaSet's (and every
        // other controller's) after itself: GenerateName `<owner>-`
        // (pkg/controller/controller_utils.go `getPodsPrefix`).
        let pod_prefix = match (spec.kind, &spec.replica_set) {
            (ControllerKind::Deployment, Some(rs)) => rs.clone(),
            (ControllerKind::Deployment, None) => generated_replica_set(&spec.name),
            _ => spec.name.clone(),
        };
        self.workloads.push(WorkloadSlot {
            spec,
            pod_prefix,
            failures: 0,
            last_failure: i64::MIN,
            backoff_until: None,
            name_seq: 0,
            class: None,
            pods: Vec::new(),
            by_node: alloc::collections::BTreeMap::new(),
            departed: Vec::new(),
            summary: None,
        });
        id
    }

    /// The workload that owns a pod of `namespace` with this owner reference. A
    /// Deployment owns the pods of its ReplicaSets (`<deployment>-<hash>`); unless the
    /// Deployment names its ReplicaSet ([`Workload::replica_set`]), the first such
    /// ReplicaSet seen names the Deployment's new pods.
    pub(super) fn workload_of(&mut self, namespace: &str, owner: &Owner) -> Option<usize> {
        if let Some(i) = self
            .workload_index
            .get(&owner.kind)
            .and_then(|m| m.get(namespace, &owner.name))
        {
            return Some(i);
        }
        if owner.kind != ControllerKind::ReplicaSet {
            return None;
        }
        let (deployment, hash) = owner.name.rsplit_once('-')?;
        if hash.is_empty() {
            return None;
        }
        let i = self
            .workload_index
            .get(&ControllerKind::Deployment)?
            .get(namespace, deployment)?;
        if let Some(w) = self.workloads.get_mut(i)
            && w.name_seq == 0
            && w.spec.replica_set.is_none()
        {
            if w.pod_prefix != owner.name {
                self.finder = None;
            }
            w.pod_prefix = owner.name.clone();
            w.spec.replica_set = Some(owner.name.clone());
        }
        Some(i)
    }

    /// The pods a workload owns that still exist.
    fn owned(&self, w: usize) -> Vec<usize> {
        self.workloads.get(w).map_or_else(Vec::new, |ws| {
            ws.pods
                .iter()
                .copied()
                .filter(|&p| self.pods.get(p).is_some_and(|pp| pp.exists()))
                .collect()
        })
    }

    pub(super) fn run_controllers(&mut self) {
        let dirty: Vec<usize> = core::mem::take(&mut self.dirty_workloads)
            .into_iter()
            .collect();
        for w in dirty {
            let owned = self.owned(w);
            let Some(kind) = self.workloads.get(w).map(|s| s.spec.kind) else {
                continue;
            };
            match kind {
                ControllerKind::ReplicaSet
                | ControllerKind::Deployment
                | ControllerKind::ReplicationController => self.sync_replica_set(w, &owned),
                ControllerKind::StatefulSet => self.sync_stateful_set(w, &owned),
                ControllerKind::Job => self.sync_job(w, &owned),
                ControllerKind::DaemonSet => {}
            }
        }
        let nodes: Vec<usize> = core::mem::take(&mut self.dirty_daemon_nodes)
            .into_iter()
            .collect();
        if !nodes.is_empty() {
            let daemon_sets: Vec<usize> = (0..self.workloads.len())
                .filter(|&w| {
                    self.workloads
                        .get(w)
                        .is_some_and(|s| s.spec.kind == ControllerKind::DaemonSet)
                })
                .collect();
            for ds in daemon_sets {
                // What the template asks of a node, worked out once for all the nodes.
                let Some(template) = self.workloads.get(ds).map(|s| &s.spec.template) else {
                    continue;
                };
                let affinity = RequiredNodeAffinity::of(&template.spec.placement);
                let mut tolerations = template.spec.pod.tolerations.clone();
                add_or_update_daemon_pod_tolerations(&mut tolerations, template.host_network);
                for &n in &nodes {
                    self.sync_daemon_node(ds, n, &affinity, &tolerations);
                }
            }
        }
    }

    /// Creates one pod for workload `w` (named `name`, or generated), with the
    /// `SuccessfulCreate` event, and queues it for the scheduler.
    fn create_pod(
        &mut self,
        w: usize,
        name: Option<String>,
        node: Option<usize>,
        replaces: Option<usize>,
    ) -> usize {
        let node_name = node.map(|n| String::from(self.node_name(n)));
        let Some(slot) = self.workloads.get_mut(w) else {
            return usize::MAX;
        };
        let spec = &slot.spec;
        let name = match name {
            Some(n) => n,
            // GenerateName `<owner>-`: the base cut to 58 bytes, then 5 random characters
            // (staging/src/k8s.io/apiserver/pkg/storage/names/generate.go `GenerateName`).
            None => loop {
                slot.name_seq += 1;
                let mut candidate = format!("{}-", slot.pod_prefix);
                let mut cut = candidate.len().min(MAX_GENERATED_NAME_BASE);
                while !candidate.is_char_boundary(cut) {
                    cut -= 1;
                }
                candidate.truncate(cut);
                candidate.push_str(&suffix(&slot.pod_prefix, slot.name_seq, 5));
                if !self.pod_by_key.contains(&spec.namespace, &candidate) {
                    break candidate;
                }
            },
        };
        let mut pod = spec.template.spec.clone();
        pod.pod.namespace = spec.namespace.clone();
        pod.pod.name = name.clone();
        pod.pod.node_name = String::new();
        let owner_kind = match spec.kind {
            ControllerKind::Deployment => ControllerKind::ReplicaSet,
            k => k,
        };
        let owner_name = match spec.kind {
            ControllerKind::Deployment => slot.pod_prefix.clone(),
            _ => spec.name.clone(),
        };
        if spec.kind == ControllerKind::DaemonSet {
            add_or_update_daemon_pod_tolerations(
                &mut pod.pod.tolerations,
                spec.template.host_network,
            );
            if let Some(node_name) = &node_name {
                pod.placement.affinity = Some(replace_node_name_node_affinity(
                    pod.placement.affinity.take(),
                    node_name,
                ));
            }
        }
        let (kind, ns, set) = (spec.kind, spec.namespace.clone(), spec.name.clone());
        let cluster_pod = ClusterPod {
            pod,
            labels: spec.template.labels.clone(),
            owner: Some(Owner {
                kind: owner_kind,
                name: owner_name.clone(),
            }),
            termination_grace_period_seconds: spec.template.termination_grace_period_seconds,
            empty_dir: spec.template.empty_dir,
            mirror: false,
        };
        let class = if kind == ControllerKind::DaemonSet {
            None
        } else {
            Some(self.class_for_workload(w))
        };
        let id = self.admit(cluster_pod, replaces, class);
        if kind == ControllerKind::DaemonSet
            && let Some(n) = node
            && let Some(ws) = self.workloads.get_mut(w)
        {
            ws.by_node.entry(n).or_default().push(id);
        }
        let message = if kind == ControllerKind::StatefulSet {
            events::stateful_create_message(&name, &set)
        } else {
            events::created_pod_message(&name)
        };
        let object = ObjectRef {
            kind: kind_object(kind),
            namespace: ns.clone(),
            name: owner_name,
        };
        self.emit(events::SUCCESSFUL_CREATE, NORMAL, object, message);
        self.enqueue(id);
        id
    }

    fn delete_by_controller(&mut self, w: usize, pod: usize) {
        let Some(slot) = self.workloads.get(w) else {
            return;
        };
        let kind = slot.spec.kind;
        let set = slot.spec.name.clone();
        let ns = slot.spec.namespace.clone();
        let owner_name = if kind == ControllerKind::Deployment {
            slot.pod_prefix.clone()
        } else {
            set.clone()
        };
        let name = self
            .pods
            .get(pod)
            .map(|p| p.pod.pod.name.clone())
            .unwrap_or_default();
        self.start_termination(pod, TerminationCause::ScaleDown, None);
        // A scaled-down pod is not replaced.
        if let Some(ws) = self.workloads.get_mut(w) {
            ws.departed.retain(|&d| d != pod);
        }
        let message = if kind == ControllerKind::StatefulSet {
            events::stateful_delete_message(&name, &set)
        } else {
            events::deleted_pod_message(&name)
        };
        let object = ObjectRef {
            kind: kind_object(kind),
            namespace: ns,
            name: owner_name,
        };
        self.emit(events::SUCCESSFUL_DELETE, NORMAL, object, message);
    }

    /// The pod a new pod replaces: the latest pod of the workload that left and was not
    /// replaced yet (for a StatefulSet, the one with the same name).
    fn replaced_pod(&self, w: usize, name: Option<&str>) -> Option<usize> {
        let ws = self.workloads.get(w)?;
        ws.departed
            .iter()
            .rev()
            .copied()
            .find(|&d| name.is_none_or(|n| self.pods.get(d).is_some_and(|p| p.pod.pod.name == n)))
    }

    fn sync_replica_set(&mut self, w: usize, owned: &[usize]) {
        let active: Vec<usize> = owned
            .iter()
            .copied()
            .filter(|&p| self.pods.get(p).is_some_and(|p| p.is_active()))
            .collect();
        let replicas = self
            .workloads
            .get(w)
            .map_or(0, |s| i64::from(s.spec.replicas.max(0)));
        let diff = active.len() as i64 - replicas;
        if diff < 0 {
            for _ in 0..(-diff) {
                let replaces = self.replaced_pod(w, None);
                self.create_pod(w, None, None, replaces);
            }
        } else if diff > 0 {
            let mut ranked = active;
            ranked.sort_by_key(|&p| self.deletion_rank(p));
            for p in ranked.into_iter().take(diff as usize) {
                self.delete_by_controller(w, p);
            }
        }
    }

    /// `ActivePodsWithRanks.Less` as far as the simulation knows the fields: unassigned
    /// first, then pods on a not-Ready node, then more siblings on the same node, then
    /// newer pods, then later in creation order.
    fn deletion_rank(
        &self,
        p: usize,
    ) -> (
        u8,
        u8,
        core::cmp::Reverse<usize>,
        core::cmp::Reverse<i64>,
        core::cmp::Reverse<usize>,
    ) {
        let Some(pod) = self.pods.get(p) else {
            return (
                0,
                0,
                core::cmp::Reverse(0),
                core::cmp::Reverse(0),
                core::cmp::Reverse(p),
            );
        };
        let node = pod.node.and_then(|n| self.nodes.get(n));
        let siblings = node.map_or(0, |n| {
            n.pods
                .iter()
                .filter(|&&q| {
                    self.pods
                        .get(q)
                        .is_some_and(|qp| qp.workload == pod.workload && qp.is_active())
                })
                .count()
        });
        (
            u8::from(pod.node.is_some()),
            u8::from(node.is_some_and(|n| n.ready)),
            core::cmp::Reverse(siblings),
            core::cmp::Reverse(pod.created),
            core::cmp::Reverse(p),
        )
    }

    fn sync_stateful_set(&mut self, w: usize, owned: &[usize]) {
        let Some(slot) = self.workloads.get(w) else {
            return;
        };
        let replicas = u32::try_from(slot.spec.replicas.max(0)).unwrap_or(0);
        let set = slot.spec.name.clone();
        let by_ordinal = |world: &World<'_>, i: u32| {
            owned.iter().copied().find(|&p| {
                world
                    .pods
                    .get(p)
                    .is_some_and(|pp| pp.ordinal == Some(i) && pp.exists())
            })
        };
        // processReplica, ordinals in order; monotonic: stop at the first blocker.
        for i in 0..replicas {
            match by_ordinal(self, i) {
                None => {
                    let name = format!("{set}-{i}");
                    let replaces = self.replaced_pod(w, Some(&name));
                    let id = self.create_pod(w, Some(name), None, replaces);
                    if let Some(p) = self.pods.get_mut(id) {
                        p.ordinal = Some(i);
                    }
                    return;
                }
                Some(p) => {
                    if !self
                        .pods
                        .get(p)
                        .is_some_and(|pp| matches!(pp.phase, Phase::Running))
                    {
                        return;
                    }
                }
            }
        }
        // processCondemned: the highest ordinal first, one at a time, waiting for a
        // terminating one.
        let mut condemned: Vec<(u32, usize)> = owned
            .iter()
            .filter_map(|&p| {
                let pp = self.pods.get(p)?;
                let o = pp.ordinal?;
                (o >= replicas && pp.exists()).then_some((o, p))
            })
            .collect();
        condemned.sort_unstable();
        if let Some(&(_, p)) = condemned.last()
            && self.pods.get(p).is_some_and(|pp| pp.is_active())
        {
            self.delete_by_controller(w, p);
        }
    }

    fn sync_job(&mut self, w: usize, owned: &[usize]) {
        let Some(slot) = self.workloads.get(w) else {
            return;
        };
        let policy = slot.spec.pod_replacement_policy.unwrap_or_default();
        let parallelism = i64::from(slot.spec.replicas.max(0));
        // Failures: pods newly terminating (default policy) or gone (policy Failed).
        let mut new_failures = 0u32;
        let mut active = 0i64;
        let mut terminating = 0i64;
        for &p in owned {
            let Some(pp) = self.pods.get(p) else { continue };
            match pp.phase {
                Phase::Pending | Phase::Running => active += 1,
                Phase::Terminating { .. } => terminating += 1,
                Phase::Gone => {}
            }
        }
        let counted: Vec<usize> = slot
            .pods
            .iter()
            .copied()
            .filter(|&p| {
                self.pods.get(p).is_some_and(|p| match policy {
                    PodReplacementPolicy::TerminatingOrFailed => !p.is_active(),
                    PodReplacementPolicy::Failed => matches!(p.phase, Phase::Gone),
                })
            })
            .collect();
        let known = self.workloads.get(w).map_or(0, |s| s.failures);
        if counted.len() as u32 > known {
            new_failures = counted.len() as u32 - known;
        }
        let cap = job_backoff_cap(self.sem.version);
        if new_failures > 0
            && let Some(s) = self.workloads.get_mut(w)
        {
            s.failures += new_failures;
            s.last_failure = self.now;
            let exp = s.failures.saturating_sub(1).min(20);
            let backoff = (JOB_BACKOFF << exp).min(cap);
            s.backoff_until = Some(self.now + backoff);
            self.push(self.now + backoff, Work::JobBackoff(w));
        }
        if self
            .workloads
            .get(w)
            .and_then(|s| s.backoff_until)
            .is_some_and(|b| b > self.now)
        {
            return;
        }
        let busy = match policy {
            PodReplacementPolicy::TerminatingOrFailed => active,
            PodReplacementPolicy::Failed => active + terminating,
        };
        for _ in busy..parallelism {
            let replaces = self.replaced_pod(w, None);
            self.create_pod(w, None, None, replaces);
        }
    }

    /// `podsShouldBeOnNode` for one DaemonSet and one node; `affinity` and `tolerations`
    /// are the template's required node affinity and its tolerations with the DaemonSet
    /// tolerations added.
    fn sync_daemon_node(
        &mut self,
        ds: usize,
        n: usize,
        affinity: &RequiredNodeAffinity,
        tolerations: &[crate::model::Toleration],
    ) {
        let Some(node) = self.nodes.get(n) else {
            return;
        };
        let Some(slot) = self.workloads.get(ds) else {
            return;
        };
        // Its pod objects for the node (terminating ones count), and those bound there.
        let ids = slot.by_node.get(&n).map_or(&[][..], Vec::as_slice);
        let on = |p: usize, bound: bool| {
            self.pods
                .get(p)
                .is_some_and(|pp| pp.exists() && (!bound || pp.node == Some(n)))
        };
        let mine = ids.iter().filter(|&&p| on(p, false)).count();
        let on_node = ids.iter().filter(|&&p| on(p, true)).count();
        let pending_for_node = mine > on_node;
        let (should_run, should_continue) = if !node.exists {
            (false, true)
        } else if !affinity.matches_node(&node.spec) {
            (false, false)
        } else {
            let check = daemon_taint_check(
                &node.spec.taints,
                tolerations,
                self.sem.comparison_operators_enabled(),
            );
            (check.should_run, check.should_continue_running)
        };
        if should_run && on_node == 0 && !pending_for_node {
            let replaces = self.replaced_pod(ds, None);
            self.create_pod(ds, None, Some(n), replaces);
        } else if !should_continue {
            let on_node: Vec<usize> = ids.iter().copied().filter(|&p| on(p, true)).collect();
            for p in on_node {
                if self.pods.get(p).is_some_and(|pp| pp.is_active()) {
                    self.delete_by_controller(ds, p);
                }
            }
        }
    }
}
