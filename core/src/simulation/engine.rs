//! The simulation loop: the world's state, the time-ordered work heap, node lifecycle
//! and pod lifecycle. Controllers, scheduler and drain live in their own files and work
//! on the same [`World`].

use alloc::borrow::Cow;
use alloc::collections::{BTreeMap, BTreeSet, BinaryHeap};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;
use core::hash::{Hash, Hasher};

use super::actions::ActionKind;
use super::cluster::{ClusterNode, ClusterPod, ControllerKind, Owner, Workload};
use super::drain_step::DrainRun;
use super::events::{self, Event, NORMAL, ObjectRef, Source};
use super::scheduler_queue::{ClassCache, SchedulerQueue};
use super::timeline::{
    NodeCapacity, NodeChange, PodRecord, PodSpan, PodState, StillPending, Summary,
    TerminationCause, Timeline,
};
use super::{DEFAULT_TERMINATION_GRACE_PERIOD, InputError, WhatIf};
use crate::eviction::{EventKind, EvictionSimulator, PodKey, SimEvent, TimedEvent};
use crate::model::{
    ConditionStatus, Node, NodeCondition, Pod, SchedulingPod, Taint, TaintEffect, Toleration,
};
use crate::node_lifecycle::{
    self, ZoneState, apply_default_toleration_seconds, compute_zone_state,
    no_schedule_tainting_pass, zone_tainting_rate,
};
use crate::resource::{PodResourceSummary, summarize};
use crate::scheduling::placement::{NodeState, PlacementOptions, UsedPorts, add_pod};
use crate::version::Semantics;

/// Pod GC's orphan quarantine (`pkg/controller/podgc/gc_controller.go` `quarantineTime`).
pub(super) const POD_GC_QUARANTINE: i64 = 40;
/// Pod GC's period (`gcCheckPeriod`).
pub(super) const POD_GC_PERIOD: i64 = 20;
/// Label keys of a node's zone (`pkg/controller/nodelifecycle` `nodetopology.GetZoneKey`).
const ZONE_LABELS: [&str; 2] = [
    "topology.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/zone",
];
const REGION_LABELS: [&str; 2] = [
    "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/region",
];
/// Nodes with this label are left out of zone disruption counting.
const EXCLUDE_DISRUPTION_LABEL: &str = "node.kubernetes.io/exclude-disruption";

/// Ids by namespace and name, found by the key's hash ([`name_hash`]): a lookup compares
/// strings only for the keys with that hash, and a key borrowed from the input cluster
/// is not copied.
#[derive(Default)]
pub(super) struct ByName<'a>(BTreeMap<u64, Named<'a>>);

type NameKey<'a> = (Cow<'a, str>, Cow<'a, str>, usize);

/// The keys with one hash: almost always one.
enum Named<'a> {
    One(NameKey<'a>),
    Many(Vec<NameKey<'a>>),
}

/// The index's hash of a key: eight bytes at a time, multiply and rotate (the scheme of
/// rustc's FxHasher), each part followed by its length so the parts cannot run into
/// each other.
fn name_hash(namespace: &str, name: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = 0;
    let mut add = |w: u64| h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    for part in [namespace, name] {
        let mut chunks = part.as_bytes().chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            add(u64::from_le_bytes(w));
        }
        let mut w = [0u8; 8];
        for (d, b) in w.iter_mut().zip(chunks.remainder()) {
            *d = *b;
        }
        add(u64::from_le_bytes(w));
        add(part.len() as u64);
    }
    h
}

impl<'a> ByName<'a> {
    pub fn get(&self, namespace: &str, name: &str) -> Option<usize> {
        self.get_hashed(name_hash(namespace, name), namespace, name)
    }

    /// [`Self::get`] with the key's hash given (the tests give colliding ones).
    fn get_hashed(&self, hash: u64, namespace: &str, name: &str) -> Option<usize> {
        let is = |k: &NameKey<'_>| k.0 == namespace && k.1 == name;
        match self.0.get(&hash)? {
            Named::One(k) => is(k).then_some(k.2),
            Named::Many(v) => v.iter().find(|k| is(k)).map(|k| k.2),
        }
    }

    pub fn contains(&self, namespace: &str, name: &str) -> bool {
        self.get(namespace, name).is_some()
    }

    /// Maps the key to `id` (a copy of the key is kept).
    pub fn insert(&mut self, namespace: &str, name: &str, id: usize) {
        let key = (
            Cow::Owned(String::from(namespace)),
            Cow::Owned(String::from(name)),
            id,
        );
        self.put(name_hash(namespace, name), key, true);
    }

    /// Maps a borrowed key to `id` unless the key is there already (then nothing
    /// changes): whether it was inserted. One search of the index.
    pub fn insert_new(&mut self, namespace: &'a str, name: &'a str, id: usize) -> bool {
        let key = (Cow::Borrowed(namespace), Cow::Borrowed(name), id);
        self.put(name_hash(namespace, name), key, false)
    }

    /// Puts `key` (whose hash is `hash`) in the index; a key already there gets the new
    /// id when `replace`, else stays as it is. Whether the key was new.
    fn put(&mut self, hash: u64, key: NameKey<'a>, replace: bool) -> bool {
        let named = match self.0.entry(hash) {
            alloc::collections::btree_map::Entry::Vacant(e) => {
                e.insert(Named::One(key));
                return true;
            }
            alloc::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
        };
        let same = |k: &NameKey<'_>| k.0 == key.0 && k.1 == key.1;
        let found = match named {
            Named::One(k) => same(k).then_some(k),
            Named::Many(v) => v.iter_mut().find(|k| same(k)),
        };
        if let Some(k) = found {
            if replace {
                *k = key;
            }
            return false;
        }
        match named {
            Named::Many(v) => v.push(key),
            Named::One(_) => {
                if let Named::One(k) = core::mem::replace(named, Named::Many(Vec::new()))
                    && let Named::Many(v) = named
                {
                    v.push(k);
                    v.push(key);
                }
            }
        }
        true
    }

    pub fn remove(&mut self, namespace: &str, name: &str) {
        self.remove_hashed(name_hash(namespace, name), namespace, name);
    }

    fn remove_hashed(&mut self, hash: u64, namespace: &str, name: &str) {
        let is = |k: &NameKey<'_>| k.0 == namespace && k.1 == name;
        let empty = match self.0.get_mut(&hash) {
            None => return,
            Some(Named::One(k)) => is(k),
            Some(Named::Many(v)) => {
                v.retain(|k| !is(k));
                v.is_empty()
            }
        };
        if empty {
            self.0.remove(&hash);
        }
    }
}

/// Timed work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Work {
    /// The user's action with this index.
    Action(usize),
    /// A terminating pod's grace period is over.
    PodGone(usize),
    /// The node lifecycle controller's first pass after a node's grace period.
    NodeUnknown { node: usize, generation: u64 },
    /// The node lifecycle controller's pass that removes a returned node's NoExecute taint.
    NodeReachable { node: usize, generation: u64 },
    /// A zone's rate-limited NoExecute tainter has a token.
    ZoneTainter(usize),
    /// Pod GC removes the pods of a deleted node.
    PodGc(usize),
    /// A drain's next step (eviction retry or timeout).
    Drain(usize),
    /// A Job's failure backoff ends.
    JobBackoff(usize),
}

/// What a pod is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Pending,
    Running,
    Terminating { cause: TerminationCause, since: i64 },
    Gone,
}

/// A pod's spec: borrowed from the input cluster, or owned (boxed, so that a pod slot
/// stays small whichever it holds).
pub(super) enum Spec<'a> {
    Borrowed(&'a SchedulingPod),
    Owned(alloc::boxed::Box<SchedulingPod>),
}

impl Spec<'_> {
    /// The spec to change, copied first if it is borrowed.
    pub fn to_mut(&mut self) -> &mut SchedulingPod {
        match self {
            Spec::Owned(sp) => sp,
            Spec::Borrowed(sp) => {
                let copy = alloc::boxed::Box::new(SchedulingPod::clone(sp));
                *self = Spec::Owned(copy);
                self.to_mut()
            }
        }
    }
}

impl core::ops::Deref for Spec<'_> {
    type Target = SchedulingPod;

    fn deref(&self) -> &SchedulingPod {
        match self {
            Spec::Borrowed(sp) => sp,
            Spec::Owned(sp) => sp,
        }
    }
}

/// A pod object. A starting pod borrows its spec and labels from the input cluster
/// (copied only if the simulation changes them); a pod created during the run owns them.
/// Admission's tolerations of a borrowed spec are kept beside it ([`World::admitted`]),
/// shared by every pod whose tolerations admission changed alike, so the spec is not
/// copied for them: read a pod's tolerations with [`World::tolerations`].
pub(super) struct PodSlot<'a> {
    pub pod: Spec<'a>,
    /// Index into [`World::admitted`] when admission changed the borrowed spec's
    /// tolerations (an owned spec carries its admitted tolerations itself).
    pub admitted: Option<usize>,
    pub labels: Cow<'a, BTreeMap<String, String>>,
    pub owner: Option<Cow<'a, Owner>>,
    pub workload: Option<usize>,
    pub ordinal: Option<u32>,
    pub grace: i64,
    pub empty_dir: bool,
    pub mirror: bool,
    pub phase: Phase,
    pub node: Option<usize>,
    /// Index of the open span in the timeline.
    pub span: Option<usize>,
    /// Scheduling class (pods of one class schedule alike); a pod that is not a
    /// controller's gets its own at its first scheduling cycle (`None` until then).
    pub class: Option<usize>,
    pub last_message: Option<String>,
    pub nominated: Option<usize>,
    /// When set, the pod is gone at this second unless its node stops reporting.
    pub gone_at: Option<i64>,
    /// The taint-eviction controller has been told about the pod (see
    /// [`World::watched`]).
    pub fed: bool,
    /// The PodDisruptionBudgets that select it: a range of [`World::budget_lists`]
    /// (shared with the pod admitted before it when both have one namespace and the
    /// same labels).
    pub budgets: (usize, usize),
    pub created: i64,
}

impl PodSlot<'_> {
    pub fn key(&self) -> (String, String) {
        (self.pod.pod.namespace.clone(), self.pod.pod.name.clone())
    }
    pub fn is_active(&self) -> bool {
        matches!(self.phase, Phase::Pending | Phase::Running)
    }
    pub fn exists(&self) -> bool {
        !matches!(self.phase, Phase::Gone)
    }
}

pub(super) struct NodeSlot {
    pub spec: Node,
    /// Read back only by the debug check of the incremental node view, so kept only in
    /// debug builds.
    #[cfg(debug_assertions)]
    pub allocatable: Option<crate::resource::ResourceList>,
    pub exists: bool,
    pub reporting: bool,
    pub ready: bool,
    pub zone: usize,
    pub counted_in_zone: bool,
    /// Pods bound here (running or terminating), binding order.
    pub pods: Vec<usize>,
    pub state: NodeState,
    /// The pods of [`NodeState::pods`], in its order (the state holds no names: a
    /// preemption victim is found by its index here).
    pub view: Vec<usize>,
    /// Bumped on every readiness change, to drop stale node-lifecycle work.
    pub generation: u64,
    pub queued_for_no_execute: bool,
    /// The node has had a `NoExecute` taint: the taint-eviction controller is told
    /// about the pods bound here (see [`World::watched`]).
    pub watched: bool,
}

pub(super) struct ZoneSlot {
    pub queue: alloc::collections::VecDeque<usize>,
    pub next_token: i64,
    pub wake_scheduled: Option<i64>,
    pub state: ZoneState,
    /// Nodes counted in the zone (as of the last `zones_changed`).
    pub size: usize,
}

pub(super) struct WorkloadSlot {
    pub spec: Workload,
    /// For a Deployment, the ReplicaSet its pods are named after.
    pub pod_prefix: String,
    pub failures: u32,
    pub last_failure: i64,
    pub backoff_until: Option<i64>,
    pub name_seq: u64,
    /// The scheduling class of the pods it creates.
    pub class: Option<usize>,
    /// Every pod it ever owned, in creation order.
    pub pods: Vec<usize>,
    /// DaemonSet: its pods per node (bound there or created for it).
    pub by_node: BTreeMap<usize, Vec<usize>>,
    /// Pods that left (terminating or gone) and were not replaced yet.
    pub departed: Vec<usize>,
    /// The last of its pods whose resources were summarized, and the summary.
    pub summary: Option<(usize, PodResourceSummary)>,
}

/// Whether two pods' specs give the same resource summary (the fields [`summarize`]
/// reads).
fn same_resources(a: &SchedulingPod, b: &SchedulingPod) -> bool {
    let (a, b) = (&a.placement, &b.placement);
    a.containers == b.containers
        && a.init_containers == b.init_containers
        && a.overhead == b.overhead
        && a.resources == b.resources
}

pub(super) struct World<'a> {
    pub input: &'a WhatIf,
    /// Toleration lists admission gave borrowed specs, each with the starting list and
    /// whether the pod is a DaemonSet's (the two inputs of admission), found by their
    /// hash.
    pub admitted: Vec<(bool, &'a [Toleration], Vec<Toleration>)>,
    admitted_by_hash: BTreeMap<u64, Vec<usize>>,
    /// The first action that named a node which did not exist at its second; the run
    /// stops there and reports it (kubectl answers such a command with NotFound and
    /// changes nothing, so no timeline after it would be the one the user asked for).
    pub action_error: Option<InputError>,
    pub sem: Semantics,
    pub popts: PlacementOptions,
    pub now: i64,
    pub nodes: Vec<NodeSlot>,
    pub node_by_name: BTreeMap<String, usize>,
    /// Existing nodes in order (scheduler's node list).
    pub live: Vec<usize>,
    pub pods: Vec<PodSlot<'a>>,
    pub pod_by_key: ByName<'a>,
    pub workloads: Vec<WorkloadSlot>,
    /// Workloads by (kind, namespace, name).
    pub workload_index: BTreeMap<ControllerKind, ByName<'static>>,
    pub zones: Vec<ZoneSlot>,
    pub zone_by_key: BTreeMap<String, usize>,
    heap: BinaryHeap<Reverse<(i64, u64, Work)>>,
    seq: u64,
    pub evictor: EvictionSimulator,
    evictor_events_seen: usize,
    /// The taint-eviction controller is told about a pod only once its node has had a
    /// `NoExecute` taint (the node's pods are then passed to it in binding order, just
    /// before the taint): on a node without one, creating and deleting a pod does
    /// nothing there. It gives the same decisions as telling it about every pod as long
    /// as no pod key and no node name is used twice (the controller numbers pods by
    /// their first appearance and walks a node's pods in that order); [`run`] runs
    /// again with every pod passed on when one is ([`World::reused`]).
    pub watched: bool,
    /// Keys of pods that are gone, while [`World::watched`] is on.
    gone_keys: ByName<'a>,
    /// A pod key or node name came back while [`World::watched`] was on.
    pub reused: bool,
    pub out: Timeline,
    pub queue: SchedulerQueue,
    pub classes: Vec<ClassCache>,
    pub dirty_workloads: BTreeSet<usize>,
    pub dirty_daemon_nodes: BTreeSet<usize>,
    pub drains: Vec<DrainRun>,
    /// The PodDisruptionBudgets with their status, each made on first use.
    pub budgets: Vec<Option<crate::disruption::PodDisruptionBudget>>,
    /// Per budget, the pods it selects (labels do not change).
    pub budget_pods: Vec<Vec<usize>>,
    /// The budgets that select each pod, one pod after the other ([`PodSlot::budgets`]).
    pub budget_lists: Vec<usize>,
    /// Scratch list of [`World::index_budgets`].
    pub budget_scratch: Vec<usize>,
    /// Budgets by one `matchLabels` pair, budgets without one, converted selectors.
    #[allow(clippy::type_complexity)]
    pub budget_index: Option<(
        super::drain_step::BudgetsByLabel,
        Vec<usize>,
        Vec<Option<crate::labels::Selector>>,
    )>,
    /// Bumped whenever a node's spec (taints, cordon, labels) changes or a node comes or
    /// goes; the change log lets class caches update only the nodes that changed.
    pub spec_gen: u64,
    pub spec_log: Vec<(u64, usize)>,
    /// Bumped on every change the scheduler's answer may depend on.
    pub state_gen: u64,
    /// Bumped on every change that may let a pending pod fit (the requeue trigger).
    pub help_gen: u64,
    /// The live nodes and their states as slices, for the full evaluation, with the
    /// `state_gen` they were copied at.
    pub live_copy: Option<(u64, Vec<Node>, Vec<NodeState>)>,
    /// Position of each node slot in the copy.
    pub live_pos: Vec<Option<usize>>,
    /// Node slots changed since the copy was refreshed (none are recorded while there
    /// is no copy: the next one is made from every node).
    pub copy_dirty: BTreeSet<usize>,
    /// Schedule every pod with the full per-node evaluation (the baseline).
    pub naive: bool,
    /// Every zone is fully disrupted: NoExecute tainting stopped.
    pub all_zones_fully_disrupted: bool,
    /// The workloads as the disruption controller's finders read them; `None` after a
    /// workload was added, scaled or renamed.
    pub finder: Option<crate::disruption::Workloads>,
}

fn err(field: String, message: impl Into<String>) -> InputError {
    InputError {
        field,
        message: message.into(),
    }
}

fn zone_key(node: &Node) -> String {
    let get = |keys: [&str; 2]| {
        keys.iter()
            .find_map(|k| node.labels.get(*k))
            .cloned()
            .unwrap_or_default()
    };
    // GetZoneKey: region and zone joined with ":\x00:".
    let region = get(REGION_LABELS);
    let zone = get(ZONE_LABELS);
    if region.is_empty() && zone.is_empty() {
        String::new()
    } else {
        format!("{region}:\x00:{zone}")
    }
}

/// The error for a `kubectl scale` of a workload that does not exist, as kubectl
/// reports it (`Error from server (NotFound): deployments.apps "web" not found`), with
/// the workloads of that kind that do.
fn no_workload(
    i: usize,
    kind: ControllerKind,
    namespace: &str,
    name: &str,
    workloads: &[WorkloadSlot],
) -> InputError {
    let wk = crate::workload::WorkloadKind::from(kind);
    let resource = match wk.group() {
        "" => String::from(wk.resource()),
        group => format!("{}.{group}", wk.resource()),
    };
    let known: Vec<String> = workloads
        .iter()
        .filter(|w| w.spec.kind == kind)
        .map(|w| format!("{}/{}", w.spec.namespace, w.spec.name))
        .collect();
    let known = if known.is_empty() {
        format!("; the paste has no {}", kind.as_str())
    } else {
        format!("; the {} are: {}", wk.resource(), known.join(", "))
    };
    err(
        format!("actions[{i}].name"),
        format!(
            "{} {namespace}/{name} does not exist (kubectl: Error from server (NotFound): {resource} \"{name}\" not found){known}",
            kind.as_str()
        ),
    )
}

pub(super) fn run(input: &WhatIf, naive: bool) -> Result<Timeline, InputError> {
    // A StatefulSet reuses its pods' names: no use trying the watched-nodes-only run.
    let stateful = input
        .cluster
        .workloads
        .iter()
        .any(|w| w.kind == ControllerKind::StatefulSet)
        || input.actions.iter().any(|a| {
            matches!(&a.kind, ActionKind::CreateWorkload { workload }
                if workload.kind == ControllerKind::StatefulSet)
        });
    run_with(input, naive, !stateful)
}

/// [`run`], telling the taint-eviction controller only about the pods of nodes that had
/// a `NoExecute` taint when `watched` (see [`World::watched`]), about every pod if not.
pub(super) fn run_with(input: &WhatIf, naive: bool, watched: bool) -> Result<Timeline, InputError> {
    let mut w = World::new(input, watched)?;
    w.naive = naive;
    w.main_loop();
    if w.reused {
        drop(w);
        w = World::new(input, false)?;
        w.naive = naive;
        w.main_loop();
    }
    if let Some(e) = w.action_error.take() {
        return Err(e);
    }
    Ok(w.finish())
}

impl<'a> World<'a> {
    fn new(input: &'a WhatIf, watched: bool) -> Result<Self, InputError> {
        if input.until < 0 {
            return Err(err("until".into(), "must be 0 or later"));
        }
        for (i, a) in input.actions.iter().enumerate() {
            if a.at < 0 {
                return Err(err(format!("actions[{i}].at"), "must be 0 or later"));
            }
        }
        let sem = input.semantics;
        let mut popts = PlacementOptions::new(sem);
        popts.dynamic_resource_allocation = input.options.dynamic_resource_allocation;
        let mut w = World {
            input,
            admitted: Vec::new(),
            admitted_by_hash: BTreeMap::new(),
            action_error: None,
            sem,
            popts,
            now: 0,
            nodes: Vec::new(),
            node_by_name: BTreeMap::new(),
            live: Vec::new(),
            pods: Vec::new(),
            pod_by_key: ByName::default(),
            workloads: Vec::new(),
            workload_index: BTreeMap::new(),
            zones: Vec::new(),
            zone_by_key: BTreeMap::new(),
            heap: BinaryHeap::new(),
            seq: 0,
            evictor: EvictionSimulator::new(sem),
            evictor_events_seen: 0,
            watched: false,
            gone_keys: ByName::default(),
            reused: false,
            out: Timeline {
                until: input.until,
                ..Timeline::default()
            },
            queue: SchedulerQueue::default(),
            classes: Vec::new(),
            dirty_workloads: BTreeSet::new(),
            dirty_daemon_nodes: BTreeSet::new(),
            drains: Vec::new(),
            budgets: alloc::vec![None; input.cluster.disruption_budgets.len()],
            budget_pods: alloc::vec![Vec::new(); input.cluster.disruption_budgets.len()],
            budget_lists: Vec::new(),
            budget_scratch: Vec::new(),
            budget_index: None,
            spec_gen: 0,
            spec_log: Vec::new(),
            state_gen: 0,
            help_gen: 0,
            live_copy: None,
            live_pos: Vec::new(),
            copy_dirty: BTreeSet::new(),
            naive: false,
            all_zones_fully_disrupted: false,
            finder: None,
        };
        w.watched = watched;
        w.nodes.reserve(input.cluster.nodes.len());
        w.pods.reserve(input.cluster.pods.len());
        w.out.pods.reserve(input.cluster.pods.len());
        w.out.spans.reserve(input.cluster.pods.len() * 2);
        for (i, n) in input.cluster.nodes.iter().enumerate() {
            if n.node.name.is_empty() {
                return Err(err(format!("cluster.nodes[{i}].name"), "must not be empty"));
            }
            if w.node_by_name.contains_key(&n.node.name) {
                return Err(err(
                    format!("cluster.nodes[{i}].name"),
                    format!("duplicate node {:?}", n.node.name),
                ));
            }
            w.add_node(n);
        }
        for (i, wl) in input.cluster.workloads.iter().enumerate() {
            if w.workload_index
                .get(&wl.kind)
                .is_some_and(|m| m.contains(&wl.namespace, &wl.name))
            {
                return Err(err(
                    format!("cluster.workloads[{i}].name"),
                    format!(
                        "duplicate {} {}/{}",
                        wl.kind.as_str(),
                        wl.namespace,
                        wl.name
                    ),
                ));
            }
            w.add_workload(wl.clone());
        }
        for (i, p) in input.cluster.pods.iter().enumerate() {
            let key = (&p.pod.pod.namespace, &p.pod.pod.name);
            if key.1.is_empty() {
                return Err(err(format!("cluster.pods[{i}].name"), "must not be empty"));
            }
            // The starting pod's key goes into the index here, borrowed
            // ([`Self::admit_pod`] indexes only the pods it owns).
            if !w.pod_by_key.insert_new(key.0, key.1, w.pods.len()) {
                return Err(err(
                    format!("cluster.pods[{i}].name"),
                    format!("duplicate pod {}/{}", key.0, key.1),
                ));
            }
            let node = if p.pod.pod.node_name.is_empty() {
                None
            } else {
                match w.node_by_name.get(&p.pod.pod.node_name) {
                    Some(&n) => Some(n),
                    None => {
                        return Err(err(
                            format!("cluster.pods[{i}].nodeName"),
                            format!("node {:?} is not in the cluster", p.pod.pod.node_name),
                        ));
                    }
                }
            };
            let id = w.admit_pod(Cow::Borrowed(p), None, None);
            if let Some(n) = node {
                w.bind(id, n, false);
            } else {
                w.enqueue(id);
            }
        }
        for (i, a) in input.actions.iter().enumerate() {
            w.push(a.at, Work::Action(i));
        }
        // Every workload and every node is looked at once at the start.
        w.dirty_workloads.extend(0..w.workloads.len());
        w.dirty_daemon_nodes.extend(0..w.nodes.len());
        Ok(w)
    }

    pub fn push(&mut self, at: i64, work: Work) {
        self.seq += 1;
        self.heap.push(Reverse((at, self.seq, work)));
    }

    pub fn emit(
        &mut self,
        reason: &str,
        event_type: &'static str,
        object: ObjectRef,
        message: String,
    ) {
        self.out.events.push(Event {
            at: self.now,
            source: Source::Event,
            reason: String::from(reason),
            event_type: String::from(event_type),
            object,
            message,
        });
    }

    pub fn print(&mut self, stderr: bool, node: &str, message: String) {
        self.out.events.push(Event {
            at: self.now,
            source: if stderr {
                Source::DrainStderr
            } else {
                Source::DrainStdout
            },
            reason: String::from(events::DRAIN),
            event_type: String::from(if stderr { events::WARNING } else { NORMAL }),
            object: ObjectRef::node(node),
            message,
        });
    }

    // -----------------------------------------------------------------------------
    // Nodes
    // -----------------------------------------------------------------------------

    fn add_node(&mut self, n: &ClusterNode) -> usize {
        let slot = self.nodes.len();
        let key = zone_key(&n.node);
        let zone = match self.zone_by_key.get(&key) {
            Some(&z) => z,
            None => {
                let z = self.zones.len();
                self.zones.push(ZoneSlot {
                    queue: alloc::collections::VecDeque::new(),
                    next_token: i64::MIN,
                    wake_scheduled: None,
                    state: ZoneState::Normal,
                    size: 0,
                });
                self.zone_by_key.insert(key, z);
                z
            }
        };
        let mut spec = n.node.clone();
        // The simulation owns the Ready condition; the others are kept as given.
        spec.conditions.retain(|c| c.type_ != "Ready");
        spec.conditions.push(NodeCondition {
            type_: String::from("Ready"),
            status: ConditionStatus::True,
        });
        let state = NodeState::with_allocatable(n.allocatable.as_ref(), [], self.popts);
        self.nodes.push(NodeSlot {
            spec,
            #[cfg(debug_assertions)]
            allocatable: n.allocatable.clone(),
            exists: true,
            reporting: true,
            ready: true,
            zone,
            counted_in_zone: !n.node.labels.contains_key(EXCLUDE_DISRUPTION_LABEL),
            pods: Vec::new(),
            state,
            view: Vec::new(),
            generation: 0,
            queued_for_no_execute: false,
            watched: false,
        });
        self.node_by_name.insert(n.node.name.clone(), slot);
        self.out.nodes.push(n.node.name.clone());
        self.live.push(slot);
        self.live_copy = None;
        self.watch_if_tainted(slot, &n.node.taints);
        self.evictor_apply(SimEvent::CreateNode {
            name: n.node.name.clone(),
            taints: n.node.taints.clone(),
        });
        // The starting spec goes through the NoSchedule tainting pass like any change.
        self.node_spec_changed(slot);
        slot
    }

    /// After any change of a node's taints, `spec.unschedulable` or conditions: the node
    /// lifecycle controller's `doNoScheduleTaintingPass`, the change record, the
    /// taint-eviction controller and the scheduler's caches.
    pub fn node_spec_changed(&mut self, slot: usize) {
        let Some(n) = self.nodes.get_mut(slot) else {
            return;
        };
        let pass =
            no_schedule_tainting_pass(&n.spec.conditions, n.spec.unschedulable, &n.spec.taints);
        if !pass.is_noop() {
            n.spec.taints.retain(|t| !pass.to_remove.contains(t));
            n.spec.taints.extend(pass.to_add.iter().cloned());
        }
        let change = NodeChange {
            at: self.now,
            node: slot,
            taints: n.spec.taints.clone(),
            unschedulable: n.spec.unschedulable,
            ready: n.ready,
            exists: n.exists,
        };
        let event = if n.exists {
            SimEvent::UpdateNode {
                name: n.spec.name.clone(),
                taints: n.spec.taints.clone(),
            }
        } else {
            SimEvent::DeleteNode {
                name: n.spec.name.clone(),
            }
        };
        // One record per node and second: a later change in the same second replaces it.
        if let Some(last) = self.out.node_changes.last_mut()
            && last.at == change.at
            && last.node == slot
        {
            *last = change;
        } else {
            self.out.node_changes.push(change);
        }
        if let SimEvent::UpdateNode { taints, .. } = &event {
            self.watch_if_tainted(slot, taints);
        }
        self.evictor_apply(event);
        if self.live_copy.is_some() {
            self.copy_dirty.insert(slot);
        }
        self.spec_gen += 1;
        self.spec_log.push((self.spec_gen, slot));
        self.state_gen += 1;
        self.help_gen += 1;
        self.dirty_daemon_nodes.insert(slot);
    }

    pub fn node_name(&self, slot: usize) -> &str {
        self.nodes.get(slot).map_or("", |n| n.spec.name.as_str())
    }

    fn set_ready(&mut self, slot: usize, ready: bool) {
        let Some(n) = self.nodes.get_mut(slot) else {
            return;
        };
        n.ready = ready;
        n.generation += 1;
        let status = if ready {
            ConditionStatus::True
        } else {
            ConditionStatus::Unknown
        };
        for c in &mut n.spec.conditions {
            if c.type_ == "Ready" {
                c.status = status.clone();
            }
        }
    }

    /// `tryUpdateNodeHealth` found the grace period over: Ready turns Unknown, the
    /// NoSchedule pass adds `unreachable:NoSchedule`, the node is queued for the zone's
    /// NoExecute tainter (`processTaintBaseEviction`).
    fn node_unknown(&mut self, slot: usize) {
        self.set_ready(slot, false);
        let name = String::from(self.node_name(slot));
        self.emit(
            events::NODE_NOT_READY,
            NORMAL,
            ObjectRef::node(&name),
            node_lifecycle::node_status_change_message(&name, events::NODE_NOT_READY),
        );
        self.node_spec_changed(slot);
        let zone = self.nodes.get(slot).map_or(0, |n| n.zone);
        if let Some(n) = self.nodes.get_mut(slot)
            && !n.queued_for_no_execute
        {
            n.queued_for_no_execute = true;
            if let Some(z) = self.zones.get_mut(zone) {
                z.queue.push_back(slot);
            }
        }
        self.zones_changed();
    }

    /// `handleDisruption`: every zone's state and tainting rate from the Ready counts.
    /// When every zone is fully disrupted, tainting stops and the NoExecute taints of
    /// the node lifecycle controller are removed from every node
    /// (`markAllNodesAsReachable` in taint mode).
    fn zones_changed(&mut self) {
        let mut counts = alloc::vec![(0usize, 0usize); self.zones.len()];
        for n in &self.nodes {
            if !n.exists || !n.counted_in_zone {
                continue;
            }
            if let Some(c) = counts.get_mut(n.zone) {
                if n.ready {
                    c.0 += 1;
                } else {
                    c.1 += 1;
                }
            }
        }
        let states: Vec<ZoneState> = counts
            .iter()
            .map(|&(r, nr)| compute_zone_state(r, nr))
            .collect();
        let all_full = !states.is_empty()
            && counts.iter().any(|c| c.0 + c.1 > 0)
            && states
                .iter()
                .zip(&counts)
                .all(|(s, c)| c.0 + c.1 == 0 || *s == ZoneState::FullDisruption);
        for (z, s) in states.iter().enumerate() {
            if let Some(zone) = self.zones.get_mut(z) {
                zone.state = *s;
                zone.size = counts.get(z).map_or(0, |c| c.0 + c.1);
            }
        }
        self.all_zones_fully_disrupted = all_full;
        if all_full {
            for slot in 0..self.nodes.len() {
                let had = self
                    .nodes
                    .get(slot)
                    .is_some_and(|n| n.spec.taints.iter().any(is_lifecycle_no_execute));
                if had {
                    if let Some(n) = self.nodes.get_mut(slot) {
                        n.spec.taints.retain(|t| !is_lifecycle_no_execute(t));
                    }
                    self.node_spec_changed(slot);
                }
            }
            return;
        }
        for z in 0..self.zones.len() {
            self.wake_zone(z);
        }
    }

    fn zone_interval(&self, z: usize) -> Option<i64> {
        let zone = self.zones.get(z)?;
        let rate = zone_tainting_rate(zone.state, zone.size, self.all_zones_fully_disrupted);
        // The token bucket's interval in whole seconds (10 s at 0.1/s, 100 s at 0.01/s).
        (rate > 0.0).then(|| ((1.0 / rate) + 0.5) as i64)
    }

    fn wake_zone(&mut self, z: usize) {
        let Some(zone) = self.zones.get(z) else {
            return;
        };
        if zone.queue.is_empty() || self.zone_interval(z).is_none() {
            return;
        }
        let at = zone.next_token.max(self.now);
        if zone.wake_scheduled.is_some_and(|w| w <= at) {
            return;
        }
        if let Some(zone) = self.zones.get_mut(z) {
            zone.wake_scheduled = Some(at);
        }
        self.push(at, Work::ZoneTainter(z));
    }

    /// `doNoExecuteTaintingPass`: takes a token and taints the queue's first node that is
    /// still not Ready (the rate limiter's 100 ms tick is rounded to whole seconds).
    fn zone_tainter(&mut self, z: usize) {
        let Some(zone) = self.zones.get_mut(z) else {
            return;
        };
        if zone.wake_scheduled != Some(self.now) {
            return;
        }
        zone.wake_scheduled = None;
        let Some(interval) = self.zone_interval(z) else {
            return;
        };
        let Some(zone) = self.zones.get_mut(z) else {
            return;
        };
        if zone.next_token > self.now {
            self.wake_zone(z);
            return;
        }
        while let Some(slot) = zone.queue.pop_front() {
            let Some(n) = self.nodes.get_mut(slot) else {
                continue;
            };
            n.queued_for_no_execute = false;
            if !n.exists || n.ready {
                continue;
            }
            zone.next_token = self.now + interval;
            let taint = node_lifecycle::taint_template(
                crate::model::keys::UNREACHABLE,
                TaintEffect::NoExecute,
            );
            if !n.spec.taints.iter().any(is_lifecycle_no_execute) {
                n.spec.taints.push(taint);
                self.node_spec_changed(slot);
            }
            break;
        }
        self.wake_zone(z);
    }

    /// The kubelet reports Ready again: Ready=True at once (the NoSchedule pass removes
    /// `unreachable:NoSchedule`), the NoExecute taint goes at the next monitor pass
    /// (`markNodeAsReachable`), and the kubelet finishes the pods that were deleted
    /// while it was away.
    fn node_returns(&mut self, slot: usize) {
        let Some(n) = self.nodes.get_mut(slot) else {
            return;
        };
        if n.reporting {
            return;
        }
        n.reporting = true;
        let was_ready = n.ready;
        n.generation += 1;
        let generation = n.generation;
        if !was_ready {
            self.set_ready(slot, true);
            let generation = self.nodes.get(slot).map_or(0, |n| n.generation);
            self.node_spec_changed(slot);
            let pass = self.input.options.node_monitor.pass_at_or_after(self.now);
            self.push(
                pass,
                Work::NodeReachable {
                    node: slot,
                    generation,
                },
            );
            self.zones_changed();
        } else {
            let _ = generation;
        }
        let pods: Vec<usize> = self
            .nodes
            .get(slot)
            .map(|n| n.pods.clone())
            .unwrap_or_default();
        for p in pods {
            if let Some(pod) = self.pods.get(p)
                && let Phase::Terminating { since, .. } = pod.phase
            {
                let at = (since + pod.grace).max(self.now);
                if let Some(pod) = self.pods.get_mut(p) {
                    pod.gone_at = Some(at);
                }
                self.push(at, Work::PodGone(p));
            }
        }
    }

    fn node_reachable(&mut self, slot: usize, generation: u64) {
        let Some(n) = self.nodes.get_mut(slot) else {
            return;
        };
        if n.generation != generation || !n.ready || !n.exists {
            return;
        }
        let before = n.spec.taints.len();
        n.spec.taints.retain(|t| !is_lifecycle_no_execute(t));
        if n.spec.taints.len() != before {
            self.node_spec_changed(slot);
        }
    }

    fn delete_node(&mut self, slot: usize) {
        let Some(n) = self.nodes.get_mut(slot) else {
            return;
        };
        n.exists = false;
        n.generation += 1;
        self.live.retain(|&s| s != slot);
        self.live_copy = None;
        self.node_spec_changed(slot);
        self.zones_changed();
        // gcOrphaned: quarantine, then the next GC pass.
        let earliest = self.now + POD_GC_QUARANTINE;
        let pass = earliest + (POD_GC_PERIOD - earliest.rem_euclid(POD_GC_PERIOD)) % POD_GC_PERIOD;
        self.push(pass, Work::PodGc(slot));
    }

    fn pod_gc(&mut self, slot: usize) {
        if self.nodes.get(slot).is_none_or(|n| n.exists) {
            return;
        }
        let pods: Vec<usize> = self
            .nodes
            .get(slot)
            .map(|n| n.pods.clone())
            .unwrap_or_default();
        for p in pods {
            if self.pods.get(p).is_some_and(|p| p.is_active()) {
                self.start_termination(p, TerminationCause::NodeDeleted, Some(0));
            }
            self.pod_gone(p);
        }
    }

    // -----------------------------------------------------------------------------
    // Pods
    // -----------------------------------------------------------------------------

    /// Creates a pod object (admission applied): returns its id. `replaces` links a
    /// controller's replacement to the pod it replaces.
    pub fn admit(&mut self, p: ClusterPod, replaces: Option<usize>, class: Option<usize>) -> usize {
        self.admit_pod(Cow::Owned(p), replaces, class)
    }

    /// [`Self::admit`] for a pod that may be borrowed from the input cluster: its spec
    /// and labels are then shared, not copied, unless admission changes the spec.
    fn admit_pod(
        &mut self,
        p: Cow<'a, ClusterPod>,
        replaces: Option<usize>,
        class: Option<usize>,
    ) -> usize {
        let id = self.pods.len();
        let (mut pod, labels, owner, grace, empty_dir, mirror) = match p {
            Cow::Borrowed(c) => (
                Spec::Borrowed(&c.pod),
                Cow::Borrowed(&c.labels),
                c.owner.as_ref().map(Cow::Borrowed),
                c.termination_grace_period_seconds,
                c.empty_dir,
                c.mirror,
            ),
            Cow::Owned(c) => (
                Spec::Owned(alloc::boxed::Box::new(c.pod)),
                Cow::Owned(c.labels),
                c.owner.map(Cow::Owned),
                c.termination_grace_period_seconds,
                c.empty_dir,
                c.mirror,
            ),
        };
        // Every daemon pod carries the DaemonSet tolerations (the controller adds them
        // to every pod it creates; adding them again changes nothing).
        let daemon = owner
            .as_ref()
            .is_some_and(|o| o.kind == ControllerKind::DaemonSet);
        let admitted = match &mut pod {
            Spec::Owned(sp) => {
                let tolerations = &mut sp.pod.tolerations;
                *tolerations = self.admit_tolerations(daemon, tolerations);
                None
            }
            Spec::Borrowed(sp) => {
                let sp: &'a SchedulingPod = sp;
                self.admitted_index(daemon, &sp.pod.tolerations)
            }
        };
        let workload = owner
            .as_ref()
            .and_then(|o| self.workload_of(&pod.pod.namespace, o));
        let ordinal = match (workload, &owner) {
            (Some(_), Some(o)) if o.kind == ControllerKind::StatefulSet => pod
                .pod
                .name
                .strip_prefix(o.name.as_str())
                .and_then(|s| s.strip_prefix('-'))
                .and_then(|s| s.parse::<u32>().ok()),
            _ => None,
        };
        if self.watched && self.gone_keys.contains(&pod.pod.namespace, &pod.pod.name) {
            self.reused = true;
        }
        self.out.pods.push(PodRecord {
            namespace: pod.pod.namespace.clone(),
            name: pod.pod.name.clone(),
            owner: owner.as_deref().cloned(),
            created: self.now,
            gone: None,
            replaces,
        });
        // A borrowed (starting) pod was indexed by [`Self::new`].
        if let Spec::Owned(sp) = &pod {
            self.pod_by_key.insert(&sp.pod.namespace, &sp.pod.name, id);
        }
        // The pod keeps its requested node until it is bound (a pod created with
        // `nodeName` skips the scheduler).
        self.pods.push(PodSlot {
            pod,
            admitted,
            labels,
            owner,
            workload,
            ordinal,
            grace: grace.unwrap_or(DEFAULT_TERMINATION_GRACE_PERIOD).max(0),
            empty_dir,
            mirror,
            phase: Phase::Pending,
            node: None,
            span: None,
            class,
            last_message: None,
            nominated: None,
            gone_at: None,
            budgets: (0, 0),
            fed: false,
            created: self.now,
        });
        self.open_span(id, None, PodState::Pending);
        self.index_budgets(id);
        if let Some(w) = workload {
            self.dirty_workloads.insert(w);
            if let Some(ws) = self.workloads.get_mut(w) {
                ws.pods.push(id);
            }
        }
        if let Some(r) = replaces
            && let Some(ws) = workload.and_then(|w| self.workloads.get_mut(w))
        {
            ws.departed.retain(|&d| d != r);
        }
        id
    }

    /// Admission's tolerations (DaemonSet tolerations for a daemon pod, then
    /// DefaultTolerationSeconds when on) for a pod whose spec carries `tolerations`.
    fn admit_tolerations(&self, daemon: bool, tolerations: &[Toleration]) -> Vec<Toleration> {
        let mut out = tolerations.to_vec();
        if daemon {
            crate::daemonset::add_or_update_daemon_pod_tolerations(&mut out, false);
        }
        if let Some(d) = self.input.options.default_toleration_seconds {
            out = apply_default_toleration_seconds(&out, d);
        }
        out
    }

    /// The shared admitted list for a borrowed spec's `tolerations`: `None` when
    /// admission leaves them as they are (a pod read back from the API already carries
    /// them), else its index in [`World::admitted`], made on first use.
    fn admitted_index(&mut self, daemon: bool, tolerations: &'a [Toleration]) -> Option<usize> {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        daemon.hash(&mut h);
        tolerations.hash(&mut h);
        let hash = h.finish();
        if let Some(ids) = self.admitted_by_hash.get(&hash) {
            for &i in ids {
                if let Some((d, t, _)) = self.admitted.get(i)
                    && *d == daemon
                    && *t == tolerations
                {
                    return Some(i);
                }
            }
        }
        let out = self.admit_tolerations(daemon, tolerations);
        if out.as_slice() == tolerations {
            return None;
        }
        let i = self.admitted.len();
        self.admitted.push((daemon, tolerations, out));
        self.admitted_by_hash.entry(hash).or_default().push(i);
        Some(i)
    }

    /// A pod's tolerations as admitted.
    pub fn tolerations<'s>(&'s self, p: &'s PodSlot<'a>) -> &'s [Toleration] {
        match p.admitted.and_then(|i| self.admitted.get(i)) {
            Some((_, _, t)) => t,
            None => &p.pod.pod.tolerations,
        }
    }

    /// The pod's spec as admitted, for the callers that need the whole of it: borrowed
    /// unless admission changed its tolerations.
    pub fn admitted_spec(&self, p: &PodSlot<'a>) -> Cow<'a, SchedulingPod> {
        match p.admitted.and_then(|i| self.admitted.get(i)) {
            Some((_, _, t)) => {
                let mut s = SchedulingPod::clone(&p.pod);
                s.pod.tolerations.clone_from(t);
                Cow::Owned(s)
            }
            None => match &p.pod {
                Spec::Borrowed(sp) => Cow::Borrowed(*sp),
                Spec::Owned(sp) => Cow::Owned(SchedulingPod::clone(sp)),
            },
        }
    }

    /// Records that a workload's pod left, for the link to its replacement.
    fn departed(&mut self, id: usize) {
        if let Some(w) = self.pods.get(id).and_then(|p| p.workload)
            && let Some(ws) = self.workloads.get_mut(w)
            && !ws.departed.contains(&id)
        {
            ws.departed.push(id);
        }
    }

    fn open_span(&mut self, pod: usize, node: Option<usize>, state: PodState) {
        if let Some(s) = self.pods.get(pod).and_then(|p| p.span)
            && let Some(span) = self.out.spans.get_mut(s)
        {
            // A span that would last no time is replaced by the next state.
            if span.from == self.now {
                span.node = node;
                span.state = state;
                return;
            }
            span.to = Some(self.now);
        }
        let idx = self.out.spans.len();
        self.out.spans.push(PodSpan {
            pod,
            node,
            state,
            from: self.now,
            to: None,
        });
        if let Some(p) = self.pods.get_mut(pod) {
            p.span = Some(idx);
        }
    }

    fn close_span(&mut self, pod: usize) {
        if let Some(s) = self.pods.get_mut(pod).and_then(|p| p.span.take())
            && let Some(span) = self.out.spans.get_mut(s)
        {
            span.to = Some(self.now);
        }
    }

    /// Binds a pod to a node: the scheduler's bind (with the `Scheduled` event when it
    /// went through the scheduler) or a starting pod already there.
    pub fn bind(&mut self, id: usize, slot: usize, scheduled: bool) {
        let popts = self.popts;
        let name = self.nodes.get(slot).map_or("", |n| n.spec.name.as_str());
        let Some(p) = self.pods.get_mut(id) else {
            return;
        };
        // A pod bound without the scheduler was created with `nodeName`: the node was
        // found by that name.
        debug_assert!(scheduled || p.pod.pod.node_name == name);
        if scheduled && p.pod.pod.node_name != name {
            // The spec is copied: admission's tolerations go into the copy.
            let admitted = p.admitted.take().and_then(|i| self.admitted.get(i));
            let spec = p.pod.to_mut();
            spec.pod.node_name = String::from(name);
            if let Some((_, _, t)) = admitted {
                spec.pod.tolerations.clone_from(t);
            }
        }
        p.phase = Phase::Running;
        p.node = Some(slot);
        p.nominated = None;
        let pod_for_evictor = if self.watched && !self.nodes.get(slot).is_some_and(|n| n.watched) {
            None
        } else {
            self.evictor_pod(id)
        };
        if self.live_copy.is_some() {
            self.copy_dirty.insert(slot);
        }
        let summary = self.resource_summary(id);
        if let Some(n) = self.nodes.get_mut(slot) {
            n.pods.push(id);
            if let Some(p) = self.pods.get(id)
                && n.state.add_summarized(&p.pod, popts, &summary)
            {
                n.view.push(id);
            }
        }
        self.queue.remove(id);
        if let Some(w) = self.pods.get(id).and_then(|p| p.workload)
            && let Some(ws) = self.workloads.get_mut(w)
            && ws.spec.kind == ControllerKind::DaemonSet
        {
            let v = ws.by_node.entry(slot).or_default();
            if !v.contains(&id) {
                v.push(id);
            }
        }
        self.open_span(id, Some(slot), PodState::Running);
        if scheduled && let Some(p) = self.pods.get(id) {
            let (ns, pname) = (&p.pod.pod.namespace, &p.pod.pod.name);
            let object = ObjectRef::pod(ns, pname);
            let message = events::scheduled_message(ns, pname, &p.pod.pod.node_name);
            self.emit(events::SCHEDULED, NORMAL, object, message);
        }
        self.feed(id, pod_for_evictor);
        self.state_gen += 1;
        if let Some(w) = self.pods.get(id).and_then(|p| p.workload) {
            self.dirty_workloads.insert(w);
        }
    }

    /// The pod's resource summary ([`summarize`] on its spec), reused from the last pod
    /// of its workload that was summarized when both specs' resources are equal.
    fn resource_summary(&mut self, id: usize) -> PodResourceSummary {
        let version = self.sem.version;
        let Some(p) = self.pods.get(id) else {
            return PodResourceSummary::default();
        };
        let w = p.workload;
        if let Some((last, sum)) = w.and_then(|w| self.workloads.get(w)?.summary.as_ref())
            && self
                .pods
                .get(*last)
                .is_some_and(|q| same_resources(&q.pod, &p.pod))
        {
            return sum.clone();
        }
        let sum = summarize(p.pod.placement.spec_resources(), version);
        if let Some(ws) = w.and_then(|w| self.workloads.get_mut(w)) {
            ws.summary = Some((id, sum.clone()));
        }
        sum
    }

    /// Starts a graceful deletion: the pod is terminating (its controller may replace it
    /// now), the kubelet stops its containers, and it is gone after the grace period
    /// unless its node's kubelet is not reporting. An unbound pod is gone at once.
    pub fn start_termination(&mut self, id: usize, cause: TerminationCause, grace: Option<i64>) {
        let Some(p) = self.pods.get_mut(id) else {
            return;
        };
        if !p.is_active() {
            return;
        }
        let Some(slot) = p.node else {
            // Unbound pods are deleted without waiting (the API's graceful-delete check).
            p.phase = Phase::Terminating {
                cause,
                since: self.now,
            };
            self.queue.remove(id);
            if let Some(w) = self.pods.get(id).and_then(|p| p.workload) {
                self.dirty_workloads.insert(w);
            }
            self.departed(id);
            self.pod_gone(id);
            return;
        };
        let grace = grace.unwrap_or(p.grace).max(0);
        self.departed(id);
        let Some(p) = self.pods.get_mut(id) else {
            return;
        };
        p.phase = Phase::Terminating {
            cause,
            since: self.now,
        };
        let containers: Vec<String> = p
            .pod
            .placement
            .containers
            .iter()
            .filter(|c| !c.name.is_empty())
            .map(|c| c.name.clone())
            .collect();
        let (ns, name) = p.key();
        let workload = p.workload;
        let reporting = self
            .nodes
            .get(slot)
            .is_some_and(|n| n.reporting && n.exists);
        self.open_span(id, Some(slot), PodState::Terminating { cause });
        if reporting {
            for c in containers {
                self.emit(
                    events::KILLING,
                    NORMAL,
                    ObjectRef::pod(&ns, &name),
                    events::killing_message(&c),
                );
            }
            let at = self.now + grace;
            if let Some(p) = self.pods.get_mut(id) {
                p.gone_at = Some(at);
            }
            self.push(at, Work::PodGone(id));
        }
        if let Some(w) = workload {
            self.dirty_workloads.insert(w);
        }
        self.state_gen += 1;
    }

    fn pod_gone_work(&mut self, id: usize) {
        let Some(p) = self.pods.get(id) else {
            return;
        };
        if p.gone_at != Some(self.now) || !matches!(p.phase, Phase::Terminating { .. }) {
            return;
        }
        let reporting = p
            .node
            .and_then(|n| self.nodes.get(n))
            .is_some_and(|n| n.reporting && n.exists);
        if reporting {
            self.pod_gone(id);
        }
    }

    /// The pod object is removed from the API.
    pub fn pod_gone(&mut self, id: usize) {
        let Some(p) = self.pods.get_mut(id) else {
            return;
        };
        if matches!(p.phase, Phase::Gone) {
            return;
        }
        let was_active = p.is_active();
        p.phase = Phase::Gone;
        p.gone_at = None;
        if was_active {
            self.departed(id);
        }
        let Some(p) = self.pods.get(id) else {
            return;
        };
        let key = p.key();
        let node = p.node;
        let workload = p.workload;
        self.queue.remove(id);
        self.close_span(id);
        if let Some(r) = self.out.pods.get_mut(id) {
            r.gone = Some(self.now);
        }
        if self.pod_by_key.get(&key.0, &key.1) == Some(id) {
            self.pod_by_key.remove(&key.0, &key.1);
        }
        if let Some(slot) = node
            && let Some(n) = self.nodes.get_mut(slot)
        {
            n.pods.retain(|&q| q != id);
            remove_from_state(&mut n.state, &mut n.view, id, &n.pods, &self.pods);
            #[cfg(debug_assertions)]
            {
                // The scheduler's view of the node equals one rebuilt from the pods still bound.
                let popts = self.popts;
                let mut state = NodeState::with_allocatable(n.allocatable.as_ref(), [], popts);
                let mut view = Vec::new();
                for q in &n.pods {
                    if let Some(qp) = self.pods.get(*q) {
                        let summary =
                            summarize(qp.pod.placement.spec_resources(), self.sem.version);
                        if state.add_summarized(&qp.pod, popts, &summary) {
                            view.push(*q);
                        }
                    }
                }
                debug_assert!(state == n.state && view == n.view);
            }
            self.dirty_daemon_nodes.insert(slot);
            if self.live_copy.is_some() {
                self.copy_dirty.insert(slot);
            }
        }
        if self.pods.get(id).is_some_and(|p| p.fed) || !self.watched {
            self.evictor_apply(SimEvent::DeletePod(PodKey::new(&key.0, &key.1)));
        }
        if self.watched {
            self.gone_keys.insert(&key.0, &key.1, id);
        }
        if let Some(w) = workload {
            self.dirty_workloads.insert(w);
        }
        self.state_gen += 1;
        self.help_gen += 1;
    }

    // -----------------------------------------------------------------------------
    // Taint-eviction controller
    // -----------------------------------------------------------------------------

    /// The pod as the taint-eviction controller reads it (admitted tolerations).
    fn evictor_pod(&self, id: usize) -> Option<Pod> {
        let p = self.pods.get(id)?;
        Some(Pod {
            namespace: p.pod.pod.namespace.clone(),
            name: p.pod.pod.name.clone(),
            node_name: p.pod.pod.node_name.clone(),
            tolerations: self.tolerations(p).to_vec(),
            preemption_policy: p.pod.pod.preemption_policy.clone(),
        })
    }

    /// Tells the taint-eviction controller about a pod bound to a node.
    fn feed(&mut self, id: usize, pod: Option<Pod>) {
        let Some(pod) = pod else {
            return;
        };
        if let Some(p) = self.pods.get_mut(id) {
            p.fed = true;
        }
        self.evictor_apply(SimEvent::CreatePod(pod));
    }

    /// Before the taint-eviction controller sees the node with `taints`: when they hold
    /// a `NoExecute` taint for the first time, it is told about the pods bound there,
    /// in binding order (see [`World::watched`]).
    fn watch_if_tainted(&mut self, slot: usize, taints: &[Taint]) {
        if !self.watched || !taints.iter().any(|t| t.effect == TaintEffect::NoExecute) {
            return;
        }
        let Some(n) = self.nodes.get_mut(slot) else {
            return;
        };
        if n.watched {
            return;
        }
        n.watched = true;
        let pods = n.pods.clone();
        for id in pods {
            if self.pods.get(id).is_some_and(|p| !p.fed) {
                let pod = self.evictor_pod(id);
                self.feed(id, pod);
            }
        }
    }

    fn evictor_apply(&mut self, event: SimEvent) {
        // Events are never older than the evictor's clock: the loop advances it first.
        let _ = self.evictor.apply(TimedEvent::new(self.now, event));
        self.collect_evictions();
    }

    /// Turns the taint-eviction controller's new events into Kubernetes Events and
    /// graceful deletions.
    fn collect_evictions(&mut self) {
        while let Some(ev) = self.evictor.events().get(self.evictor_events_seen).copied() {
            self.evictor_events_seen += 1;
            let Some(key) = self.evictor.pod_key(ev.pod).cloned() else {
                continue;
            };
            let Some(id) = self.pod_by_key.get(&key.namespace, &key.name) else {
                continue;
            };
            let at = self.now;
            self.now = ev.at.max(self.now);
            self.emit(
                ev.kind.reason(),
                ev.kind.event_type(),
                ObjectRef::pod(&key.namespace, &key.name),
                ev.kind.message(&key),
            );
            self.now = at.max(ev.at);
            if ev.kind == EventKind::MarkingForDeletion {
                self.start_termination(id, TerminationCause::TaintEviction, None);
            }
        }
    }

    // -----------------------------------------------------------------------------
    // Actions
    // -----------------------------------------------------------------------------

    fn action(&mut self, i: usize) {
        let Some(action) = self.input.actions.get(i) else {
            return;
        };
        let node = |w: &World<'_>, name: &str| {
            w.node_by_name
                .get(name)
                .copied()
                .filter(|&s| w.nodes.get(s).is_some_and(|n| n.exists))
        };
        if !matches!(action.kind, ActionKind::AddNode { .. })
            && let Some(name) = action.node()
            && node(self, name).is_none()
        {
            self.action_error = Some(err(
                format!("actions[{i}].node"),
                format!(
                    "node \"{name}\" does not exist at second {} (kubectl: Error from server (NotFound): nodes \"{name}\" not found)",
                    self.now
                ),
            ));
            return;
        }
        match &action.kind {
            ActionKind::AddTaint { node: name, taint } => {
                if let Some(slot) = node(self, name)
                    && let Some(n) = self.nodes.get_mut(slot)
                {
                    match n
                        .spec
                        .taints
                        .iter_mut()
                        .find(|t| t.key == taint.key && t.effect == taint.effect)
                    {
                        Some(t) => *t = taint.clone(),
                        None => n.spec.taints.push(taint.clone()),
                    }
                    self.node_spec_changed(slot);
                }
            }
            ActionKind::RemoveTaint {
                node: name,
                key,
                effect,
            } => {
                if let Some(slot) = node(self, name)
                    && let Some(n) = self.nodes.get_mut(slot)
                {
                    n.spec
                        .taints
                        .retain(|t| !(t.key == *key && (effect.is_empty() || t.effect == *effect)));
                    self.node_spec_changed(slot);
                }
            }
            ActionKind::Cordon { node: name } | ActionKind::Uncordon { node: name } => {
                let cordon = matches!(action.kind, ActionKind::Cordon { .. });
                if let Some(slot) = node(self, name)
                    && let Some(n) = self.nodes.get_mut(slot)
                    && n.spec.unschedulable != cordon
                {
                    n.spec.unschedulable = cordon;
                    self.node_spec_changed(slot);
                }
            }
            ActionKind::Drain {
                node: name,
                options,
            } => {
                if let Some(slot) = node(self, name) {
                    self.start_drain(slot, options.clone());
                }
            }
            ActionKind::NodeStopsReporting { node: name } => {
                if let Some(slot) = node(self, name)
                    && let Some(n) = self.nodes.get_mut(slot)
                    && n.reporting
                {
                    n.reporting = false;
                    n.generation += 1;
                    let generation = n.generation;
                    // The last heartbeat is observed at the first monitor pass at or
                    // after this second; Unknown at the first pass after the grace period.
                    let timing = self.input.options.node_monitor;
                    let probe = timing.pass_at_or_after(self.now);
                    self.push(
                        timing.ready_unknown_at(probe),
                        Work::NodeUnknown {
                            node: slot,
                            generation,
                        },
                    );
                }
            }
            ActionKind::NodeReturns { node: name } => {
                if let Some(slot) = node(self, name) {
                    self.node_returns(slot);
                }
            }
            ActionKind::DeleteNode { node: name } => {
                if let Some(slot) = node(self, name) {
                    self.delete_node(slot);
                }
            }
            ActionKind::AddNode { node: n } => {
                if !self
                    .node_by_name
                    .get(&n.node.name)
                    .is_some_and(|&s| self.nodes.get(s).is_some_and(|n| n.exists))
                {
                    if self.watched && self.node_by_name.contains_key(&n.node.name) {
                        self.reused = true;
                        return;
                    }
                    let slot = self.add_node(n);
                    self.zones_changed();
                    self.dirty_daemon_nodes.insert(slot);
                }
            }
            ActionKind::CreatePod { pod } => {
                let key = (&pod.pod.pod.namespace, &pod.pod.pod.name);
                if key.1.is_empty() || self.pod_by_key.contains(key.0, key.1) {
                    return;
                }
                let target = if pod.pod.pod.node_name.is_empty() {
                    None
                } else {
                    self.node_by_name.get(&pod.pod.pod.node_name).copied()
                };
                let id = self.admit(pod.clone(), None, None);
                match target {
                    Some(slot) if self.nodes.get(slot).is_some_and(|n| n.exists) => {
                        self.bind(id, slot, false)
                    }
                    _ if pod.pod.pod.node_name.is_empty() => self.enqueue(id),
                    // A pod bound to a node that does not exist stays Pending.
                    _ => {}
                }
            }
            ActionKind::CreateWorkload { workload } => {
                let exists = self
                    .workload_index
                    .get(&workload.kind)
                    .is_some_and(|m| m.contains(&workload.namespace, &workload.name));
                if !exists {
                    let id = self.add_workload(workload.clone());
                    self.dirty_workloads.insert(id);
                    if workload.kind == ControllerKind::DaemonSet {
                        self.dirty_daemon_nodes.extend(0..self.nodes.len());
                    }
                }
            }
            ActionKind::Scale {
                kind,
                namespace,
                name,
                replicas,
            } => {
                if let Some(id) = self.workloads.iter().position(|w| {
                    w.spec.kind == *kind && w.spec.namespace == *namespace && w.spec.name == *name
                }) {
                    if let Some(w) = self.workloads.get_mut(id) {
                        w.spec.replicas = (*replicas).max(0);
                    }
                    self.finder = None;
                    self.dirty_workloads.insert(id);
                } else {
                    self.action_error =
                        Some(no_workload(i, *kind, namespace, name, &self.workloads));
                }
            }
        }
    }

    // -----------------------------------------------------------------------------
    // Loop
    // -----------------------------------------------------------------------------

    fn main_loop(&mut self) {
        // Second 0: the starting state settles (controllers fill up, pending pods are
        // scheduled) before any action.
        self.now = 0;
        self.settle();
        while self.action_error.is_none() && !self.reused {
            let next_heap = self.heap.peek().map(|Reverse((t, _, _))| *t);
            let next_timer = self.evictor.next_timer();
            let t = match (next_heap, next_timer) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) => a,
                (None, Some(b)) => b,
                (None, None) => break,
            };
            if t > self.input.until {
                break;
            }
            self.now = self.now.max(t);
            // Tie rule: the taint-eviction controller's due timers fire first.
            self.evictor.advance_to(self.now);
            self.collect_evictions();
            while let Some(Reverse((at, _, work))) = self.heap.peek().copied() {
                if at > self.now {
                    break;
                }
                self.heap.pop();
                self.work(work);
                if self.action_error.is_some() || self.reused {
                    return;
                }
            }
            self.settle();
        }
        self.now = self.input.until;
        self.evictor.advance_to(self.now);
    }

    fn work(&mut self, work: Work) {
        match work {
            Work::Action(i) => self.action(i),
            Work::PodGone(p) => self.pod_gone_work(p),
            Work::NodeUnknown { node, generation } => {
                if self.nodes.get(node).is_some_and(|n| {
                    n.generation == generation && !n.reporting && n.exists && n.ready
                }) {
                    self.node_unknown(node);
                }
            }
            Work::NodeReachable { node, generation } => self.node_reachable(node, generation),
            Work::ZoneTainter(z) => self.zone_tainter(z),
            Work::PodGc(n) => self.pod_gc(n),
            Work::Drain(d) => self.drain_work(d),
            Work::JobBackoff(w) => {
                self.dirty_workloads.insert(w);
            }
        }
    }

    /// Runs the workload controllers and the scheduler until nothing changes.
    fn settle(&mut self) {
        for _ in 0..64 {
            let before = (self.state_gen, self.pods.len());
            self.run_controllers();
            self.run_scheduler();
            self.collect_evictions();
            if (self.state_gen, self.pods.len()) == before
                && self.dirty_workloads.is_empty()
                && self.dirty_daemon_nodes.is_empty()
            {
                break;
            }
        }
    }

    fn finish(mut self) -> Timeline {
        let until = self.input.until;
        let mut summary = Summary::default();
        for (id, p) in self.pods.iter().enumerate() {
            if let Phase::Terminating { cause, .. } = p.phase {
                let _ = cause;
            }
            if matches!(p.phase, Phase::Pending) {
                summary.still_pending.push(StillPending {
                    pod: id,
                    message: p.last_message.clone().unwrap_or_default(),
                });
            }
        }
        for s in &self.out.spans {
            if let PodState::Terminating { cause } = s.state
                && matches!(
                    cause,
                    TerminationCause::TaintEviction
                        | TerminationCause::DrainEviction
                        | TerminationCause::DrainDeletion
                        | TerminationCause::Preemption
                )
                && s.from <= until
            {
                summary.evicted += 1;
            }
        }
        // Pods that were ever on a node, from one pass over the spans.
        let mut placed = alloc::vec![false; self.out.pods.len()];
        for s in &self.out.spans {
            if s.node.is_some()
                && let Some(p) = placed.get_mut(s.pod)
            {
                *p = true;
            }
        }
        for (r, placed) in self.out.pods.iter().zip(&placed) {
            if r.replaces.is_some() {
                summary.replaced += 1;
                if *placed {
                    summary.rescheduled += 1;
                }
            }
        }
        for &slot in &self.live {
            let Some(n) = self.nodes.get(slot) else {
                continue;
            };
            let open =
                !n.spec.unschedulable
                    && n.ready
                    && !n.spec.taints.iter().any(|t| {
                        matches!(t.effect, TaintEffect::NoSchedule | TaintEffect::NoExecute)
                    });
            let u = n.state.usage.as_ref();
            summary.capacity.push(NodeCapacity {
                node: slot,
                open,
                cpu_milli_free: u.map(|u| u.allocatable.milli_cpu - u.requested.milli_cpu),
                memory_free: u.map(|u| u.allocatable.memory - u.requested.memory),
                pods_free: u.map(|u| u.allocatable.allowed_pod_number - u.pods),
            });
        }
        summary.drains_unfinished = self.drains.iter().any(|d| d.exit_code() != Some(0));
        self.out.summary = summary;
        self.out
    }
}

/// Takes a pod that is gone off its node's scheduler view: its entry leaves the bound
/// pods, and the used ports, requested resources and lowest priority are summed again
/// from the entries left (`remaining`: the pods still bound there), which is what adding
/// the remaining pods to an empty node gives, without summarizing each pod's spec again.
fn remove_from_state(
    state: &mut NodeState,
    view: &mut Vec<usize>,
    id: usize,
    remaining: &[usize],
    pods: &[PodSlot<'_>],
) {
    let Some(i) = view.iter().position(|&q| q == id) else {
        // Not in the view (a Succeeded or Failed pod, or no ports on a node whose
        // allocatable is unknown): only the lowest priority can change.
        state.min_priority = min_priority(remaining, pods);
        return;
    };
    let gone = state.pods.remove(i);
    view.remove(i);
    if !gone.ports.is_empty() {
        let mut used = UsedPorts::default();
        for p in &state.pods {
            for port in &p.ports {
                used.add(port);
            }
        }
        state.used_ports = used;
    }
    if let Some(u) = state.usage.as_mut() {
        u.requested = crate::resource::Resource::default();
        u.non_zero = (0, 0);
        u.pods = 0;
        for p in &state.pods {
            add_pod(u, p);
        }
    }
    state.min_priority = min_priority(remaining, pods);
}

/// The lowest priority among bound pods the scheduler sees (not Succeeded or Failed).
fn min_priority(remaining: &[usize], pods: &[PodSlot<'_>]) -> Option<i32> {
    remaining
        .iter()
        .filter_map(|&q| pods.get(q))
        .filter(|q| !q.pod.placement.is_terminal())
        .map(|q| q.pod.placement.priority)
        .min()
}

/// The node lifecycle controller's own NoExecute taints.
fn is_lifecycle_no_execute(t: &Taint) -> bool {
    t.effect == TaintEffect::NoExecute
        && (t.key == crate::model::keys::UNREACHABLE || t.key == crate::model::keys::NOT_READY)
}

/// FNV-1a as a [`Hasher`], for the admitted toleration lists' index.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod by_name_tests {
    use super::*;

    #[test]
    fn keys_sharing_a_hash_stay_apart() {
        let mut m = ByName::default();
        let owned = |s: &str| Cow::Owned(String::from(s));
        m.put(7, (owned("ns"), owned("a"), 1), true);
        m.put(7, (owned("ns"), owned("b"), 2), true);
        m.put(7, (owned("other"), owned("a"), 3), true);
        assert_eq!(m.get_hashed(7, "ns", "a"), Some(1));
        assert_eq!(m.get_hashed(7, "ns", "b"), Some(2));
        assert_eq!(m.get_hashed(7, "other", "a"), Some(3));
        assert_eq!(m.get_hashed(7, "ns", "c"), None);
        // A key inserted again takes the new id.
        m.put(7, (owned("ns"), owned("b"), 4), true);
        assert_eq!(m.get_hashed(7, "ns", "b"), Some(4));
        m.remove_hashed(7, "ns", "a");
        assert_eq!(m.get_hashed(7, "ns", "a"), None);
        assert_eq!(m.get_hashed(7, "other", "a"), Some(3));
        m.remove_hashed(7, "ns", "b");
        m.remove_hashed(7, "other", "a");
        assert!(m.0.is_empty());
    }

    #[test]
    fn a_new_key_goes_in_once() {
        let mut m = ByName::default();
        let owned = |s: &str| Cow::Owned(String::from(s));
        assert!(m.put(7, (owned("ns"), owned("a"), 1), false));
        // The same key again changes nothing, alone under its hash or not.
        assert!(!m.put(7, (owned("ns"), owned("a"), 2), false));
        assert_eq!(m.get_hashed(7, "ns", "a"), Some(1));
        assert!(m.put(7, (owned("ns"), owned("b"), 3), false));
        assert!(m.put(7, (owned("other"), owned("a"), 4), false));
        assert!(!m.put(7, (owned("ns"), owned("b"), 5), false));
        assert!(!m.put(7, (owned("other"), owned("a"), 6), false));
        assert_eq!(m.get_hashed(7, "ns", "a"), Some(1));
        assert_eq!(m.get_hashed(7, "ns", "b"), Some(3));
        assert_eq!(m.get_hashed(7, "other", "a"), Some(4));
        assert!(m.insert_new("ns", "a", 8));
        assert!(!m.insert_new("ns", "a", 9));
        assert_eq!(m.get("ns", "a"), Some(8));
    }

    #[test]
    fn namespace_and_name_do_not_run_into_each_other() {
        assert_ne!(name_hash("ab", "c"), name_hash("a", "bc"));
        assert_ne!(name_hash("abcdefgh", ""), name_hash("", "abcdefgh"));
        let mut m = ByName::default();
        for i in 0..2_000 {
            m.insert(
                &alloc::format!("ns{}", i % 7),
                &alloc::format!("pod-{i}"),
                i,
            );
        }
        for i in 0..2_000 {
            assert_eq!(
                m.get(&alloc::format!("ns{}", i % 7), &alloc::format!("pod-{i}")),
                Some(i)
            );
            assert!(!m.contains(
                &alloc::format!("ns{}", (i + 1) % 7),
                &alloc::format!("pod-{i}")
            ));
        }
    }
}
