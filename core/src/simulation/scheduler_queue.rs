//! The scheduler: its queue and the scheduling cycle run on the simulated cluster.
//!
//! Queue (`pkg/scheduler/backend/queue/scheduling_queue.go`, formerly
//! `pkg/scheduler/internal/queue`): pods are popped by priority, then by the time they
//! entered the queue (`PrioritySort`). A pod that does not fit goes to the
//! unschedulable pods; any cluster change that may let a pod fit (a node added or its
//! taints, cordon or labels changed, a pod gone) moves them all back
//! (`MoveAllToActiveOrBackoffQueue`), and they are retried within the same second.
//! Simplified, because the timing depends on things not modelled: the backoff queue
//! (1 s doubling to 10 s) and queueing hints are not modelled (a retried pod is tried at
//! once, and on every change rather than only the ones its plugins register for), nor
//! the 5-minute flush of unschedulable pods (it would find the same cluster).
//!
//! One cycle is [`crate::scheduling::placement`]'s chain: the NodeUnschedulable,
//! NodeName, TaintToleration, NodeAffinity, NodePorts and NodeResourcesFit filters, the
//! modelled scores, and DefaultPreemption. The node taken is the feasible node with the
//! highest combined score, the first in node order on a tie (upstream picks at random
//! among the best, `selectHost`). A pod that fits nowhere gets the FailedScheduling
//! event with [`crate::scheduling::fit_error`]'s text; a new event is recorded only when
//! the text changes (the event recorder folds identical events into a count). When
//! preemption helps, the victims get the `Preempted` event and are deleted, and the pod
//! waits for them to be gone (it is not retried while a victim on its nominated node is
//! terminating: `PodEligibleToPreemptOthers`); nominated pods do not reserve room on
//! their node against other pods here.
//!
//! Speed: pods a workload creates share a class; per class, the node filters that
//! depend only on the node (cordon, taints, affinity) are cached and updated only for
//! the nodes that changed since, so a cycle checks ports and resources and scores the
//! statically feasible nodes only. The full per-node evaluation
//! ([`crate::scheduling::placement::schedule_one`]) runs for pods that read node names
//! (DaemonSet pods, `matchFields`) and to write the FailedScheduling text, once per
//! class and cluster state.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::engine::{Phase, World};
use super::events::{self, ObjectRef, WARNING};
use super::timeline::TerminationCause;
use crate::model::Node;
use crate::scheduling::filter::{node_unschedulable_filter, taint_toleration_filter};
use crate::scheduling::placement::{
    NodeOutcome, NodeState, PodOutcome, PreFilterResult, PreparedPod, ResourceScores, normalized,
    schedule_one, skipped,
};
use crate::scheduling::placement::{node_affinity_filter, node_name_filter};

type QueueKey = (Reverse<i32>, i64, u64, usize);

/// Active and unschedulable pods.
#[derive(Default)]
pub(super) struct SchedulerQueue {
    active: BTreeSet<QueueKey>,
    unschedulable: BTreeSet<QueueKey>,
    key_of: BTreeMap<usize, QueueKey>,
    seq: u64,
    /// `help_gen` when the unschedulable pods were last moved back.
    moved_at: u64,
}

impl SchedulerQueue {
    pub fn remove(&mut self, pod: usize) {
        if let Some(k) = self.key_of.remove(&pod) {
            self.active.remove(&k);
            self.unschedulable.remove(&k);
        }
    }

    fn add(&mut self, pod: usize, priority: i32, now: i64) {
        self.remove(pod);
        self.seq += 1;
        let k = (Reverse(priority), now, self.seq, pod);
        self.active.insert(k);
        self.key_of.insert(pod, k);
    }
}

/// Per scheduling class: the nodes that pass the node-only filters.
pub(super) struct ClassCache {
    /// `spec_gen` the cache is valid for (`u64::MAX`: never built).
    built_gen: u64,
    /// Per node slot: passes NodeUnschedulable, NodeName, TaintToleration, NodeAffinity.
    ok: Vec<bool>,
    /// `(state_gen, message, nomination found)` of the last failure, to reuse for pods
    /// of the class while nothing changed.
    failure: Option<(u64, PodOutcome)>,
}

impl World<'_> {
    pub(super) fn new_class(&mut self) -> usize {
        self.classes.push(ClassCache {
            built_gen: u64::MAX,
            ok: Vec::new(),
            failure: None,
        });
        self.classes.len() - 1
    }

    pub(super) fn class_for_workload(&mut self, w: usize) -> usize {
        if let Some(c) = self.workloads.get(w).and_then(|s| s.class) {
            return c;
        }
        let c = self.new_class();
        if let Some(s) = self.workloads.get_mut(w) {
            s.class = Some(c);
        }
        c
    }

    /// Puts a new or retried pod into the active queue (gated pods and pods of another
    /// scheduler stay Pending outside it).
    pub(super) fn enqueue(&mut self, pod: usize) {
        let Some(p) = self.pods.get(pod) else {
            return;
        };
        if skipped(&p.pod, self.popts).is_some() {
            return;
        }
        let priority = p.pod.placement.priority;
        self.queue.add(pod, priority, self.now);
    }

    /// Brings a class's node-only filter cache up to date.
    fn refresh_class(&mut self, class: usize, prep: &PreparedPod<'_>) {
        let Some(cache) = self.classes.get_mut(class) else {
            return;
        };
        let sem = self.sem;
        let check = |n: &super::engine::NodeSlot| {
            n.exists
                && node_unschedulable_filter(n.spec.unschedulable, &prep.pod.pod.tolerations, sem)
                    .is_success()
                && node_name_filter(&prep.pod.pod.node_name, &n.spec.name).is_success()
                && taint_toleration_filter(&n.spec.taints, &prep.pod.pod.tolerations, sem)
                    .status
                    .is_success()
                && node_affinity_filter(&prep.required, &n.spec).is_success()
        };
        let stale_from = self
            .spec_log
            .partition_point(|&(g, _)| cache.built_gen != u64::MAX && g <= cache.built_gen);
        let changed = self.spec_log.len() - stale_from;
        if cache.built_gen == u64::MAX || changed > self.nodes.len() / 4 {
            cache.ok = self.nodes.iter().map(check).collect();
        } else {
            cache.ok.resize(self.nodes.len(), false);
            for &(_, slot) in self.spec_log.get(stale_from..).unwrap_or(&[]) {
                if let (Some(n), Some(ok)) = (self.nodes.get(slot), cache.ok.get_mut(slot)) {
                    *ok = check(n);
                }
            }
        }
        cache.built_gen = self.spec_gen;
    }

    /// One scheduling cycle: `Some(node slot)` to bind, or the failure outcome.
    fn cycle(&mut self, pod: usize) -> Result<usize, alloc::boxed::Box<PodOutcome>> {
        let popts = self.popts;
        let Some(p) = self.pods.get(pod) else {
            return Err(alloc::boxed::Box::new(PodOutcome::Gated));
        };
        let spod = self.admitted_spec(p);
        let class = match p.class {
            Some(c) => c,
            None => {
                let c = self.new_class();
                if let Some(p) = self.pods.get_mut(pod) {
                    p.class = Some(c);
                }
                c
            }
        };
        let prep = PreparedPod::new(&spod, popts);
        let fast = !self.naive
            && matches!(prep.pre_filter, PreFilterResult::AllNodes)
            && prep.preferred.is_ok();
        if let Some(cache) = self.classes.get(class)
            && let Some((seen, outcome)) = &cache.failure
            && *seen == self.state_gen
        {
            return Err(alloc::boxed::Box::new(outcome.clone()));
        }
        if fast {
            self.refresh_class(class, &prep);
            let Some(cache) = self.classes.get(class) else {
                return Err(alloc::boxed::Box::new(PodOutcome::Gated));
            };
            let mut feasible: Vec<(usize, (i64, i64), ResourceScores)> = Vec::new();
            for &slot in &self.live {
                if !cache.ok.get(slot).copied().unwrap_or(false) {
                    continue;
                }
                let Some(n) = self.nodes.get(slot) else {
                    continue;
                };
                if !prep.fits_pod_dependent(&n.state.used_ports, n.state.usage.as_ref()) {
                    continue;
                }
                feasible.push((
                    slot,
                    prep.raw_scores(&n.spec),
                    prep.resource_scores(n.state.usage.as_ref()),
                ));
            }
            if !feasible.is_empty() {
                let max = feasible
                    .iter()
                    .fold((0i64, 0i64), |m, f| (m.0.max(f.1.0), m.1.max(f.1.1)));
                let mut best: Option<(i64, usize)> = None;
                for (slot, raw, res) in feasible {
                    let score = normalized(raw, max, res).combined_score().unwrap_or(0);
                    if best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, slot));
                    }
                }
                if let Some((_, slot)) = best {
                    return Ok(slot);
                }
            }
        }
        // The full evaluation: node-name pods, and the failure text. The copy of the
        // node list is kept and only the nodes that changed are copied again.
        self.refresh_live_copy();
        let Some((_, live_nodes, states)) = self.live_copy.as_ref() else {
            return Err(alloc::boxed::Box::new(PodOutcome::Gated));
        };
        let result = schedule_one(&spod, live_nodes, states, popts);
        if matches!(result.outcome, PodOutcome::Feasible { .. }) {
            let mut best: Option<(i64, usize)> = None;
            for (i, o) in result.nodes.iter().enumerate() {
                if let NodeOutcome::Feasible { .. } = o {
                    let score = o.combined_score().unwrap_or(0);
                    if best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, i));
                    }
                }
            }
            if let Some((_, i)) = best
                && let Some(&slot) = self.live.get(i)
            {
                return Ok(slot);
            }
        }
        if let Some(cache) = self.classes.get_mut(class)
            && fast
        {
            cache.failure = Some((self.state_gen, result.outcome.clone()));
        }
        Err(alloc::boxed::Box::new(result.outcome))
    }

    /// Brings the copy of the live nodes and their states up to date.
    fn refresh_live_copy(&mut self) {
        if self.live_copy.is_none() {
            let live_nodes: Vec<Node> = self
                .live
                .iter()
                .filter_map(|&s| self.nodes.get(s).map(|n| n.spec.clone()))
                .collect();
            let states: Vec<NodeState> = self
                .live
                .iter()
                .filter_map(|&s| self.nodes.get(s).map(|n| n.state.clone()))
                .collect();
            let mut pos = alloc::vec![None; self.nodes.len()];
            for (i, &s) in self.live.iter().enumerate() {
                if let Some(p) = pos.get_mut(s) {
                    *p = Some(i);
                }
            }
            self.live_pos = pos;
            self.live_copy = Some((0, live_nodes, states));
            self.copy_dirty.clear();
            return;
        }
        let dirty = core::mem::take(&mut self.copy_dirty);
        for slot in dirty {
            let (Some(Some(i)), Some(n)) = (self.live_pos.get(slot).copied(), self.nodes.get(slot))
            else {
                continue;
            };
            if let Some((_, specs, states)) = self.live_copy.as_mut() {
                if let Some(x) = specs.get_mut(i) {
                    x.clone_from(&n.spec);
                }
                if let Some(x) = states.get_mut(i) {
                    x.clone_from(&n.state);
                }
            }
        }
    }

    /// Whether the pod waits for the victims of its own preemption.
    fn waits_for_victims(&self, pod: usize) -> bool {
        let Some(p) = self.pods.get(pod) else {
            return false;
        };
        let Some(n) = p.nominated.and_then(|n| self.nodes.get(n)) else {
            return false;
        };
        n.pods.iter().any(|&q| {
            self.pods.get(q).is_some_and(|qp| {
                matches!(qp.phase, Phase::Terminating { .. })
                    && qp.pod.placement.priority < p.pod.placement.priority
            })
        })
    }

    pub(super) fn run_scheduler(&mut self) {
        if self.queue.moved_at != self.help_gen {
            self.queue.moved_at = self.help_gen;
            let moved = core::mem::take(&mut self.queue.unschedulable);
            self.queue.active.extend(moved);
        }
        while let Some(k) = self.queue.active.pop_first() {
            let pod = k.3;
            if !self
                .pods
                .get(pod)
                .is_some_and(|p| matches!(p.phase, Phase::Pending))
            {
                self.queue.key_of.remove(&pod);
                continue;
            }
            if self.waits_for_victims(pod) {
                self.queue.unschedulable.insert(k);
                continue;
            }
            match self.cycle(pod) {
                Ok(slot) => {
                    self.queue.key_of.remove(&pod);
                    self.bind(pod, slot, true);
                }
                Err(outcome) => {
                    self.queue.unschedulable.insert(k);
                    self.failed(pod, *outcome);
                }
            }
        }
    }

    fn failed(&mut self, pod: usize, outcome: PodOutcome) {
        let Some(p) = self.pods.get(pod) else {
            return;
        };
        let (ns, name) = p.key();
        let priority = p.pod.placement.priority;
        let message = match &outcome {
            PodOutcome::Unschedulable { event, .. } => Some(event.condition_message.clone()),
            PodOutcome::SchedulerError { message } => Some(message.clone()),
            PodOutcome::SchedulerPanic { message } => Some(message.clone()),
            _ => None,
        };
        if let Some(m) = message
            && p.last_message.as_deref() != Some(m.as_str())
        {
            if let Some(p) = self.pods.get_mut(pod) {
                p.last_message = Some(m.clone());
            }
            self.emit(
                events::FAILED_SCHEDULING,
                WARNING,
                ObjectRef::pod(&ns, &name),
                m,
            );
        }
        let PodOutcome::Unschedulable {
            nomination: Some(nom),
            ..
        } = outcome
        else {
            return;
        };
        let Some(&slot) = self.live.get(nom.node_index) else {
            return;
        };
        if let Some(p) = self.pods.get_mut(pod) {
            p.nominated = Some(slot);
        }
        let node_name = String::from(self.node_name(slot));
        for v in nom.victims {
            // The node's state was copied for this cycle: its pods are the node's view.
            let Some(&vid) = self.nodes.get(slot).and_then(|n| n.view.get(v.index)) else {
                continue;
            };
            let Some(vp) = self.pods.get(vid).filter(|vp| {
                vp.is_active() && vp.node == Some(slot) && vp.pod.placement.priority < priority
            }) else {
                continue;
            };
            let object = ObjectRef::pod(&vp.pod.pod.namespace, &vp.pod.pod.name);
            let message = events::preempted_message(self.sem.version, &ns, &name, &node_name);
            self.emit(events::PREEMPTED, events::NORMAL, object, message);
            self.start_termination(vid, TerminationCause::Preemption, None);
        }
    }
}
