//! A kubelet stops reporting: the node lifecycle controller's timeline and the
//! taint-eviction controller's verdict for every pod on the node.

use alloc::string::String;
use alloc::vec::Vec;

use super::{
    NODE_NOT_READY_EVENT_REASON, NoExecuteTaintUpdate, NodeMonitorTiming, apply_taint_update,
    mark_node_status_unknown, no_execute_tainting, no_schedule_tainting_pass,
    node_status_change_message, tainter_update,
};
use crate::eviction::{ActionKind, PodKey, SimEvent, SimulationResult, TimedEvent, simulate};
use crate::matching::match_taint;
use crate::model::{
    ConditionStatus, Node, NodeCondition, Operator, Pod, Taint, TaintEffect, Toleration, keys,
};
use crate::version::Semantics;

/// The `DefaultTolerationSeconds` admission plugin's flags
/// (`--default-not-ready-toleration-seconds`, `--default-unreachable-toleration-seconds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DefaultTolerationSeconds {
    /// Seconds for the added `node.kubernetes.io/not-ready:NoExecute` toleration.
    pub not_ready: i64,
    /// Seconds for the added `node.kubernetes.io/unreachable:NoExecute` toleration.
    pub unreachable: i64,
}

impl Default for DefaultTolerationSeconds {
    /// 300 s each, upstream's defaults.
    fn default() -> Self {
        Self {
            not_ready: 300,
            unreachable: 300,
        }
    }
}

/// Whether some toleration "covers" a key the way `DefaultTolerationSeconds` checks it:
/// key equal or empty, effect `NoExecute` or empty. Operator, value and seconds are
/// ignored (upstream quirk: `{not-ready, Equal, "foo", NoExecute}` counts).
fn covers(tolerations: &[Toleration], key: &str) -> bool {
    tolerations.iter().any(|t| {
        (t.key.is_empty() || t.key == key)
            && matches!(t.effect, TaintEffect::NoExecute | TaintEffect::Empty)
    })
}

/// Appends what the `DefaultTolerationSeconds` admission plugin would: an
/// `Exists`/`NoExecute` toleration for `not-ready`, then one for `unreachable`, each only
/// if no existing toleration covers that key (see upstream's loose "covers" check).
pub fn apply_default_toleration_seconds(
    tolerations: &[Toleration],
    defaults: DefaultTolerationSeconds,
) -> Vec<Toleration> {
    let mut out = tolerations.to_vec();
    for (key, seconds) in [
        (keys::NOT_READY, defaults.not_ready),
        (keys::UNREACHABLE, defaults.unreachable),
    ] {
        if !covers(tolerations, key) {
            out.push(
                Toleration::new(key, Operator::Exists, "", TaintEffect::NoExecute)
                    .with_seconds(Some(seconds)),
            );
        }
    }
    out
}

/// How the zone's rate-limited tainter treats the queued `NoExecute` tainting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NoExecuteTainterThrottle {
    /// The token bucket has its burst token (a zone in `Normal` state that has not tainted
    /// another node within the last 10 s): the taint is added at the pass that queues
    /// the node (the tainter's 100 ms tick is rounded away).
    #[default]
    Immediate,
    /// The token arrives this many seconds after queueing (e.g. 10 s per node ahead of it
    /// in the zone at 0.1/s, or 100 s per node at the secondary 0.01/s rate).
    After(i64),
    /// Tainting is stopped: every zone is fully disrupted (a single-node cluster whose
    /// node fails is one) or a small zone is partially disrupted. The `NoExecute` taint
    /// never arrives and no pod is evicted through it.
    Stopped,
}

/// A node whose kubelet stops reporting, and the pods on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeFailureScenario {
    /// The node as it is while healthy: name, taints (assumed consistent with a healthy
    /// node), `spec.unschedulable`, and conditions. `Ready` is taken to be `True` until
    /// the failure whatever `conditions` says; the other conditions are what the
    /// kubelet reports (and reports again on recovery).
    pub node: Node,
    /// The pods bound to the node (their `node_name` is set to the node's name). Their
    /// tolerations are taken as given, i.e. after admission, unless
    /// `default_toleration_seconds` is set.
    pub pods: Vec<Pod>,
    /// The controller's probe timestamp: when it last observed a heartbeat (a renewed
    /// lease or a changed Ready heartbeat). Upstream stamps it with the time of the
    /// monitor pass that noticed the heartbeat, so from the kubelet's last renewal at `h`
    /// it is `timing.pass_at_or_after(h)`. The simulation starts here.
    pub last_heartbeat: i64,
    /// When the kubelet reports again (posting `Ready=True` and renewing its lease), if
    /// it does. A report at second `t` is visible to controller work at second `t`.
    pub heartbeat_resumes_at: Option<i64>,
    /// The release (grace-period default) and the comparison-operator gate (eviction
    /// matching).
    pub semantics: Semantics,
    /// Grace period, monitor period and phase; see [`NodeMonitorTiming`].
    pub timing: NodeMonitorTiming,
    /// The `NoExecute` tainter's rate limiting; see [`NoExecuteTainterThrottle`].
    pub tainter: NoExecuteTainterThrottle,
    /// When set, [`apply_default_toleration_seconds`] is applied to every pod first.
    pub default_toleration_seconds: Option<DefaultTolerationSeconds>,
    /// End of the simulation; `None` runs until every finite timer has fired.
    pub until: Option<i64>,
}

impl NodeFailureScenario {
    /// A scenario with the release's default timing, an unthrottled tainter, the pods'
    /// tolerations as given, no recovery and no end time.
    pub fn new(node: Node, pods: Vec<Pod>, last_heartbeat: i64, semantics: Semantics) -> Self {
        Self {
            node,
            pods,
            last_heartbeat,
            heartbeat_resumes_at: None,
            semantics,
            timing: NodeMonitorTiming::defaults(semantics.version),
            tainter: NoExecuteTainterThrottle::Immediate,
            default_toleration_seconds: None,
            until: None,
        }
    }
}

/// Something that happens to the node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeChange {
    /// The last heartbeat the controller observed (start of the simulation).
    LastHeartbeat,
    /// The grace period ran out: Ready (and MemoryPressure, DiskPressure, PIDPressure)
    /// become `Unknown` with reason `NodeStatusUnknown` and message `Kubelet stopped
    /// posting node status.`; a `NodeNotReady` event is recorded on the node and the
    /// node's pods get `Ready=False`.
    ReadyUnknown,
    /// The monitor pass observed `Unknown` and queued the node for `NoExecute` tainting.
    QueuedForNoExecuteTainting,
    /// A taint was added (or replaced).
    TaintAdded(Taint),
    /// A taint was removed.
    TaintRemoved(Taint),
    /// The kubelet reports again: Ready is `True`.
    HeartbeatResumed,
}

impl NodeChange {
    /// The Kubernetes Event recorded on the node for this change, as (reason, message):
    /// only [`NodeChange::ReadyUnknown`] records one (`NodeNotReady`).
    pub fn node_event(&self, node_name: &str) -> Option<(&'static str, String)> {
        match self {
            Self::ReadyUnknown => Some((
                NODE_NOT_READY_EVENT_REASON,
                node_status_change_message(node_name, NODE_NOT_READY_EVENT_REASON),
            )),
            _ => None,
        }
    }
}

/// A node change and its time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeTimelineEntry {
    /// Seconds.
    pub at: i64,
    /// What happened.
    pub change: NodeChange,
}

/// What becomes of a pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PodOutcome {
    /// Deleted by the taint-eviction controller at this second.
    Evicted {
        /// Seconds.
        at: i64,
    },
    /// Still bound at the end (tolerated forever, or the node recovered in time).
    StaysBound,
    /// A timer is still pending at the end time (only with a finite `until`).
    PendingEviction {
        /// When it would fire.
        fire_at: i64,
    },
}

/// One pod's story.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodFate {
    /// The pod.
    pub pod: PodKey,
    /// The tolerations used (after defaults, if requested).
    pub tolerations: Vec<Toleration>,
    /// When its eviction timer was first armed and when it was due, if ever.
    pub first_scheduled: Option<(i64, i64)>,
    /// The end result.
    pub outcome: PodOutcome,
}

/// The result of [`simulate_node_failure`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeFailureTimeline {
    /// The grace period used, seconds.
    pub grace_period: i64,
    /// The monitor period used, seconds.
    pub monitor_period: i64,
    /// The node's changes, in time order.
    pub node: Vec<NodeTimelineEntry>,
    /// When Ready became `Unknown`, if it did.
    pub ready_unknown_at: Option<i64>,
    /// When `unreachable:NoExecute` was added, if it was.
    pub no_execute_tainted_at: Option<i64>,
    /// When the `NoExecute` taint was removed after recovery, if it was.
    pub no_execute_removed_at: Option<i64>,
    /// The node's taints at the end.
    pub final_taints: Vec<Taint>,
    /// One entry per input pod, in input order.
    pub pods: Vec<PodFate>,
    /// The taint-eviction controller's full log.
    pub eviction: SimulationResult,
}

/// Accumulates node changes and the matching node events for the eviction simulator.
struct NodeRecorder {
    name: String,
    taints: Vec<Taint>,
    entries: Vec<NodeTimelineEntry>,
    updates: Vec<TimedEvent>,
}

impl NodeRecorder {
    fn note(&mut self, at: i64, change: NodeChange) {
        self.entries.push(NodeTimelineEntry { at, change });
    }

    /// Applies a controller taint change at `at` and logs what actually changed.
    fn apply(&mut self, at: i64, add: &[Taint], remove: &[Taint]) {
        let before = core::mem::take(&mut self.taints);
        self.taints = apply_taint_update(&before, add, remove, None);
        if self.taints == before {
            return;
        }
        let added = self.taints.iter().filter(|t| !before.contains(t));
        let removed = before
            .iter()
            .filter(|t| !self.taints.iter().any(|n| match_taint(n, t)));
        let changes: Vec<NodeChange> = added
            .map(|t| NodeChange::TaintAdded(t.clone()))
            .chain(removed.map(|t| NodeChange::TaintRemoved(t.clone())))
            .collect();
        for change in changes {
            self.note(at, change);
        }
        self.updates.push(TimedEvent::new(
            at,
            SimEvent::UpdateNode {
                name: self.name.clone(),
                taints: self.taints.clone(),
            },
        ));
    }

    fn apply_update(&mut self, at: i64, update: &NoExecuteTaintUpdate) {
        let add: Vec<Taint> = update.add.iter().cloned().collect();
        self.apply(at, &add, &update.remove);
    }

    fn no_schedule_pass(&mut self, at: i64, conditions: &[NodeCondition], unschedulable: bool) {
        let pass = no_schedule_tainting_pass(conditions, unschedulable, &self.taints);
        if !pass.is_noop() {
            self.apply(at, &pass.to_add, &pass.to_remove);
        }
    }

    fn has_no_execute(&self, key: &str) -> bool {
        self.taints
            .iter()
            .any(|t| t.key == key && t.effect == TaintEffect::NoExecute)
    }
}

/// Simulates a node whose kubelet stops reporting after `last_heartbeat`.
///
/// The node lifecycle controller, as modelled:
///
/// 1. Ready becomes `Unknown` at the first monitor pass `p1` with
///    `p1 > last_heartbeat + grace` (strict, as upstream), unless the kubelet reported
///    again by then. The status update triggers the `NoSchedule` pass, which adds
///    `unreachable:NoSchedule` at the same second (and drops pressure taints whose
///    conditions are now `Unknown`).
/// 2. Pass `p1` itself still observed `True` (the Ready status is read *before* the
///    pass's own update), so the `NoExecute` decision waits for the next pass,
///    `p2 = p1 + monitor_period`, which observes `Unknown` and queues the node. With an
///    [`Immediate`](NoExecuteTainterThrottle::Immediate) tainter `unreachable:NoExecute`
///    is added at `p2`. (If `not-ready:NoExecute` were already on the node, the swap
///    would be immediate and unthrottled.)
/// 3. The taint-eviction controller sees the `NoExecute` taint at that second and runs
///    each pod's tolerations ([`crate::eviction`]).
/// 4. If the kubelet reports again at `r`, its status update removes
///    `unreachable:NoSchedule` at `r`, and the first pass at or after `r` removes the
///    `NoExecute` taint, which cancels pending evictions.
///
/// Defaults (v1.32+): heartbeat at 0, Unknown at 55, `NoExecute` at 60, a pod with the
/// 300 s default tolerations evicted at 360: about 50 + ≤5 + ≤5 + 300 s.
///
/// Assumptions: the zone stays healthy enough for the tainter setting chosen (see
/// [`NoExecuteTainterThrottle`]); pods exist from `last_heartbeat` on and the eviction
/// controller's clocks start there; taint `timeAdded` is left unset (nothing reads it).
///
/// ```
/// use taintlab_core::node_lifecycle::{
///     DefaultTolerationSeconds, NodeFailureScenario, PodOutcome, simulate_node_failure,
/// };
/// use taintlab_core::{Node, Pod, Semantics};
///
/// let node = Node { name: "node1".into(), ..Node::default() };
/// let web = Pod { namespace: "default".into(), name: "web".into(), ..Pod::default() };
/// let mut scenario = NodeFailureScenario::new(node, vec![web], 0, Semantics::newest());
/// scenario.default_toleration_seconds = Some(DefaultTolerationSeconds::default());
///
/// let timeline = simulate_node_failure(&scenario);
/// assert_eq!(timeline.ready_unknown_at, Some(55));
/// assert_eq!(timeline.no_execute_tainted_at, Some(60));
/// assert_eq!(timeline.pods[0].outcome, PodOutcome::Evicted { at: 360 });
///
/// // The kubelet comes back at 200: the taint goes at the 200 s pass, the timer with it.
/// scenario.heartbeat_resumes_at = Some(200);
/// let timeline = simulate_node_failure(&scenario);
/// assert_eq!(timeline.no_execute_removed_at, Some(200));
/// assert_eq!(timeline.pods[0].outcome, PodOutcome::StaysBound);
/// ```
pub fn simulate_node_failure(scenario: &NodeFailureScenario) -> NodeFailureTimeline {
    let timing = scenario.timing;
    let name = scenario.node.name.clone();
    let start = scenario.last_heartbeat;
    let resumes = scenario.heartbeat_resumes_at.filter(|&r| r > start);
    // Reported before `t`? (A report at `t` is visible at `t`.)
    let silent_at = |t: i64| resumes.is_none_or(|r| t < r);

    let pods: Vec<Pod> = scenario
        .pods
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.node_name.clone_from(&name);
            if let Some(d) = scenario.default_toleration_seconds {
                p.tolerations = apply_default_toleration_seconds(&p.tolerations, d);
            }
            p
        })
        .collect();

    let mut rec = NodeRecorder {
        name: name.clone(),
        taints: scenario.node.taints.clone(),
        entries: Vec::new(),
        updates: Vec::new(),
    };
    rec.note(start, NodeChange::LastHeartbeat);

    // What the kubelet reports while healthy: its conditions with Ready=True.
    let mut healthy = scenario.node.conditions.clone();
    match healthy.iter_mut().find(|c| c.type_ == "Ready") {
        Some(c) => c.status = ConditionStatus::True,
        None => healthy.push(NodeCondition {
            type_: "Ready".into(),
            status: ConditionStatus::True,
        }),
    }

    let unknown_at = timing.ready_unknown_at(start);
    let mut ready_unknown_at = None;
    let mut no_execute_tainted_at = None;
    let mut no_execute_removed_at = None;
    if silent_at(unknown_at) {
        ready_unknown_at = Some(unknown_at);
        rec.note(unknown_at, NodeChange::ReadyUnknown);
        let (unknown, _) = mark_node_status_unknown(&healthy);
        rec.no_schedule_pass(unknown_at, &unknown, scenario.node.unschedulable);

        let observe_at = unknown_at.saturating_add(timing.period());
        if silent_at(observe_at) {
            let decision = no_execute_tainting(&ConditionStatus::Unknown, &rec.taints);
            let mut taint_at = None;
            if let Some(update) = &decision.immediate {
                rec.apply_update(observe_at, update);
                taint_at = Some(observe_at);
            } else if let Some(queued) = &decision.queued {
                rec.note(observe_at, NodeChange::QueuedForNoExecuteTainting);
                let turn = match scenario.tainter {
                    NoExecuteTainterThrottle::Immediate => Some(observe_at),
                    NoExecuteTainterThrottle::After(d) => Some(observe_at.saturating_add(d.max(0))),
                    NoExecuteTainterThrottle::Stopped => None,
                };
                // The tainter re-reads Ready when its turn comes and skips a recovered
                // node; Ready is still Unknown, so it applies the queued swap.
                if let Some(at) = turn.filter(|&at| silent_at(at)) {
                    let update = tainter_update(&ConditionStatus::Unknown);
                    rec.apply_update(at, update.as_ref().unwrap_or(queued));
                    taint_at = Some(at);
                }
            }
            no_execute_tainted_at = taint_at.filter(|_| rec.has_no_execute(keys::UNREACHABLE));
        }

        if let Some(r) = resumes {
            rec.note(r, NodeChange::HeartbeatResumed);
            rec.no_schedule_pass(r, &healthy, scenario.node.unschedulable);
            let pass = timing.pass_at_or_after(r);
            let decision = no_execute_tainting(&ConditionStatus::True, &rec.taints);
            if let Some(update) = &decision.immediate {
                rec.apply_update(pass, update);
                no_execute_removed_at = Some(pass);
            }
        }
    } else if let Some(r) = resumes {
        rec.note(r, NodeChange::HeartbeatResumed);
    }

    let mut events = Vec::with_capacity(pods.len() + rec.updates.len() + 1);
    events.push(TimedEvent::new(
        start,
        SimEvent::CreateNode {
            name: name.clone(),
            taints: scenario.node.taints.clone(),
        },
    ));
    events.extend(
        pods.iter()
            .cloned()
            .map(|p| TimedEvent::new(start, SimEvent::CreatePod(p))),
    );
    events.append(&mut rec.updates);
    let until = scenario.until.unwrap_or(i64::MAX);
    let eviction = simulate(events, until, scenario.semantics);

    let fates = pods
        .into_iter()
        .map(|p| {
            let key = PodKey {
                namespace: p.namespace,
                name: p.name,
            };
            let mut first_scheduled = None;
            let mut outcome = PodOutcome::StaysBound;
            for a in &eviction.actions {
                if eviction.pod_key(a.pod) != Some(&key) {
                    continue;
                }
                match a.kind {
                    ActionKind::Schedule { fire_at } if first_scheduled.is_none() => {
                        first_scheduled = Some((a.at, fire_at));
                    }
                    ActionKind::Evict => outcome = PodOutcome::Evicted { at: a.at },
                    _ => {}
                }
            }
            if let Some(p) = eviction
                .pending_evictions
                .iter()
                .find(|p| eviction.pod_key(p.pod) == Some(&key))
            {
                outcome = PodOutcome::PendingEviction { fire_at: p.fire_at };
            }
            PodFate {
                pod: key,
                tolerations: p.tolerations,
                first_scheduled,
                outcome,
            }
        })
        .collect();

    let mut node = rec.entries;
    // Stable: same-second entries keep the order in which they happened.
    crate::sort::sort_by_key(&mut node, |e| e.at);
    NodeFailureTimeline {
        grace_period: timing.grace_period,
        monitor_period: timing.period(),
        node,
        ready_unknown_at,
        no_execute_tainted_at,
        no_execute_removed_at,
        final_taints: rec.taints,
        pods: fates,
        eviction,
    }
}
