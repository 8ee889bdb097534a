//! The node lifecycle controller's taints and health timing, upstream
//! `pkg/controller/nodelifecycle/node_lifecycle_controller.go` (with
//! `pkg/controller/util/node` and `pkg/util/taints`).
//!
//! * [`no_schedule_tainting_pass`]: node conditions and `spec.unschedulable` mirrored as
//!   `NoSchedule` taints (`doNoScheduleTaintingPass`).
//! * [`no_execute_tainting`]: the `not-ready` / `unreachable` `NoExecute` taints derived
//!   from the Ready condition (`processTaintBaseEviction`), and [`tainter_update`], the
//!   rate-limited tainter's own decision (`doNoExecuteTaintingPass`).
//! * [`mark_node_status_unknown`] and [`NodeMonitorTiming`]: when a silent node's
//!   conditions turn `Unknown` (`tryUpdateNodeHealth`).
//! * [`compute_zone_state`] and [`zone_tainting_rate`]: the disruption rules that throttle
//!   or stop `NoExecute` tainting.
//! * [`simulate_node_failure`]: a kubelet stops reporting; when do the taints appear and
//!   when is each pod evicted (through [`crate::eviction`]).
//!
//! Times are whole seconds.

mod scenario;

pub use scenario::{
    DefaultTolerationSeconds, NoExecuteTainterThrottle, NodeChange, NodeFailureScenario,
    NodeFailureTimeline, NodeTimelineEntry, PodFate, PodOutcome, apply_default_toleration_seconds,
    simulate_node_failure,
};

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::matching::match_taint;
use crate::model::{ConditionStatus, NodeCondition, Taint, TaintEffect, keys};
use crate::version::KubeVersion;

/// `--node-monitor-period` default: how often the controller checks node health (5 s).
pub const DEFAULT_NODE_MONITOR_PERIOD: i64 = 5;
/// `--node-monitor-grace-period` default since v1.32 (PR #126287).
pub const NODE_MONITOR_GRACE_PERIOD_SINCE_1_32: i64 = 50;
/// `--node-monitor-grace-period` default before v1.32.
pub const NODE_MONITOR_GRACE_PERIOD_BEFORE_1_32: i64 = 40;
/// `--node-startup-grace-period` default: the grace for a node that never posted a Ready
/// condition (60 s).
pub const NODE_STARTUP_GRACE_PERIOD: i64 = 60;
/// `--node-eviction-rate` default: NoExecute taintings per second and zone.
pub const NODE_EVICTION_RATE: f32 = 0.1;
/// `--secondary-node-eviction-rate` default: the rate in a partially disrupted large zone.
pub const SECONDARY_NODE_EVICTION_RATE: f32 = 0.01;
/// `--large-cluster-size-threshold` default: a zone with more nodes than this is "large".
pub const LARGE_CLUSTER_SIZE_THRESHOLD: usize = 50;
/// `--unhealthy-zone-threshold` default: the not-Ready fraction of a partially disrupted
/// zone.
pub const UNHEALTHY_ZONE_THRESHOLD: f32 = 0.55;
/// The tainter's token bucket burst: one node can be tainted at once.
pub const EVICTION_RATE_LIMITER_BURST: u32 = 1;
/// How often the rate-limited tainter runs, in milliseconds.
pub const NO_EXECUTE_TAINTER_PERIOD_MS: u64 = 100;

/// Reason of a condition the controller set to `Unknown` because the kubelet went silent.
pub const NODE_STATUS_UNKNOWN_REASON: &str = "NodeStatusUnknown";
/// Message that goes with [`NODE_STATUS_UNKNOWN_REASON`].
pub const NODE_STATUS_UNKNOWN_MESSAGE: &str = "Kubelet stopped posting node status.";
/// Reason of a condition the controller appended because the kubelet never posted it.
pub const NODE_STATUS_NEVER_UPDATED_REASON: &str = "NodeStatusNeverUpdated";
/// Message that goes with [`NODE_STATUS_NEVER_UPDATED_REASON`].
pub const NODE_STATUS_NEVER_UPDATED_MESSAGE: &str = "Kubelet never posted node status.";
/// Reason (and status word) of the Normal event recorded on the node when Ready leaves
/// `True`.
pub const NODE_NOT_READY_EVENT_REASON: &str = "NodeNotReady";

/// The default `--node-monitor-grace-period` of a release: 50 s since v1.32, 40 s before.
pub fn default_node_monitor_grace_period(version: KubeVersion) -> i64 {
    if version.at_least(32) {
        NODE_MONITOR_GRACE_PERIOD_SINCE_1_32
    } else {
        NODE_MONITOR_GRACE_PERIOD_BEFORE_1_32
    }
}

/// The message of the node status-change event (`RecordNodeStatusChange`), e.g.
/// `Node node1 status is now: NodeNotReady`.
pub fn node_status_change_message(node_name: &str, new_status: &str) -> String {
    format!("Node {node_name} status is now: {new_status}")
}

/// A taint as the controller's templates write it: no value, no `timeAdded`.
pub fn taint_template(key: &str, effect: TaintEffect) -> Taint {
    Taint::new(key, "", effect)
}

/// The managed `NoSchedule` taint key for a node condition in a given status (upstream
/// `nodeConditionToTaintKeyStatusMap`), or `None` when that status adds no taint.
pub fn condition_taint_key(condition_type: &str, status: &ConditionStatus) -> Option<&'static str> {
    match (condition_type, status) {
        ("Ready", ConditionStatus::False) => Some(keys::NOT_READY),
        ("Ready", ConditionStatus::Unknown) => Some(keys::UNREACHABLE),
        ("MemoryPressure", ConditionStatus::True) => Some(keys::MEMORY_PRESSURE),
        ("DiskPressure", ConditionStatus::True) => Some(keys::DISK_PRESSURE),
        ("PIDPressure", ConditionStatus::True) => Some(keys::PID_PRESSURE),
        ("NetworkUnavailable", ConditionStatus::True) => Some(keys::NETWORK_UNAVAILABLE),
        _ => None,
    }
}

/// Whether the `NoSchedule` pass owns a taint with this key (the condition keys plus
/// `unschedulable`). Other `NoSchedule` taints are never touched by it.
pub fn is_managed_no_schedule_key(key: &str) -> bool {
    matches!(
        key,
        keys::NOT_READY
            | keys::UNREACHABLE
            | keys::MEMORY_PRESSURE
            | keys::DISK_PRESSURE
            | keys::PID_PRESSURE
            | keys::NETWORK_UNAVAILABLE
            | keys::UNSCHEDULABLE
    )
}

/// The outcome of one `doNoScheduleTaintingPass`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoScheduleTaintingPass {
    /// The managed `NoSchedule` taints the node should carry, in `status.conditions`
    /// order, then `unschedulable`.
    pub desired: Vec<Taint>,
    /// Desired taints the node lacks (matched by key and effect), in desired order.
    /// Applying them stamps `timeAdded = now` (see [`apply_taint_update`]).
    pub to_add: Vec<Taint>,
    /// Managed `NoSchedule` taints no longer desired, as they are on the node, in node
    /// order.
    pub to_remove: Vec<Taint>,
}

impl NoScheduleTaintingPass {
    /// Whether the pass changes nothing (upstream then skips the API call).
    pub fn is_noop(&self) -> bool {
        self.to_add.is_empty() && self.to_remove.is_empty()
    }
}

/// `doNoScheduleTaintingPass`: mirrors the node conditions (walked in list order) and
/// `spec.unschedulable` as `NoSchedule` taints, and diffs them against the node's managed
/// `NoSchedule` taints by key and effect (`TaintSetDiff`). Values are ignored by the
/// diff, so a user's `not-ready=custom:NoSchedule` satisfies a desired `not-ready`.
pub fn no_schedule_tainting_pass(
    conditions: &[NodeCondition],
    unschedulable: bool,
    existing_taints: &[Taint],
) -> NoScheduleTaintingPass {
    let mut desired: Vec<Taint> = conditions
        .iter()
        .filter_map(|c| condition_taint_key(&c.type_, &c.status))
        .map(|key| taint_template(key, TaintEffect::NoSchedule))
        .collect();
    if unschedulable {
        desired.push(taint_template(keys::UNSCHEDULABLE, TaintEffect::NoSchedule));
    }
    let managed: Vec<&Taint> = existing_taints
        .iter()
        .filter(|t| t.effect == TaintEffect::NoSchedule && is_managed_no_schedule_key(&t.key))
        .collect();
    let to_add = desired
        .iter()
        .filter(|d| !managed.iter().any(|m| match_taint(m, d)))
        .cloned()
        .collect();
    let to_remove = managed
        .iter()
        .filter(|m| !desired.iter().any(|d| match_taint(m, d)))
        .map(|m| (*m).clone())
        .collect();
    NoScheduleTaintingPass {
        desired,
        to_add,
        to_remove,
    }
}

/// One taint change the controller makes (`SwapNodeControllerTaint` or
/// `RemoveTaintOffNode`): add one taint and remove others, matched by key and effect.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoExecuteTaintUpdate {
    /// The taint added (a template; applying it stamps `timeAdded`).
    pub add: Option<Taint>,
    /// The taints removed (templates; removal matches key and effect).
    pub remove: Vec<Taint>,
}

/// What one monitor pass decides about a node's `NoExecute` taints
/// (`processTaintBaseEviction`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoExecuteTaintingDecision {
    /// Applied during the pass itself, without rate limiting.
    pub immediate: Option<NoExecuteTaintUpdate>,
    /// Handed to the zone's rate-limited tainter. The tainter re-reads the node when its
    /// turn comes and decides again with [`tainter_update`].
    pub queued: Option<NoExecuteTaintUpdate>,
    /// The node is taken out of the tainter's queue (Ready is `True`).
    pub dequeue: bool,
}

fn swap(add: &str, remove: &str) -> NoExecuteTaintUpdate {
    NoExecuteTaintUpdate {
        add: Some(taint_template(add, TaintEffect::NoExecute)),
        remove: alloc::vec![taint_template(remove, TaintEffect::NoExecute)],
    }
}

fn has_taint(taints: &[Taint], key: &str, effect: TaintEffect) -> bool {
    let template = taint_template(key, effect);
    taints.iter().any(|t| match_taint(t, &template))
}

/// `processTaintBaseEviction(node, observedReady)`. `observed_ready` is the Ready status
/// as read at the start of the monitor pass, *before* the pass's own update.
///
/// * `False`: if `unreachable:NoExecute` is present, swap it for `not-ready:NoExecute`
///   at once; otherwise queue that change (re-queued if `not-ready:NoExecute` is absent).
/// * `Unknown`: the mirror image.
/// * `True`: remove whichever of the two `NoExecute` taints is present (nothing when
///   neither is, as `RemoveTaintOffNode` short-circuits) and dequeue the node.
/// * Anything else: nothing.
pub fn no_execute_tainting(
    observed_ready: &ConditionStatus,
    existing_taints: &[Taint],
) -> NoExecuteTaintingDecision {
    let (wanted, opposite) = match observed_ready {
        ConditionStatus::False => (keys::NOT_READY, keys::UNREACHABLE),
        ConditionStatus::Unknown => (keys::UNREACHABLE, keys::NOT_READY),
        ConditionStatus::True => {
            let remove: Vec<Taint> = [keys::UNREACHABLE, keys::NOT_READY]
                .into_iter()
                .filter(|k| has_taint(existing_taints, k, TaintEffect::NoExecute))
                .map(|k| taint_template(k, TaintEffect::NoExecute))
                .collect();
            return NoExecuteTaintingDecision {
                immediate: (!remove.is_empty())
                    .then_some(NoExecuteTaintUpdate { add: None, remove }),
                queued: None,
                dequeue: true,
            };
        }
        ConditionStatus::Other(_) => return NoExecuteTaintingDecision::default(),
    };
    if has_taint(existing_taints, opposite, TaintEffect::NoExecute) {
        NoExecuteTaintingDecision {
            immediate: Some(swap(wanted, opposite)),
            ..NoExecuteTaintingDecision::default()
        }
    } else {
        NoExecuteTaintingDecision {
            queued: Some(swap(wanted, opposite)),
            ..NoExecuteTaintingDecision::default()
        }
    }
}

/// The rate-limited tainter's decision when the node's turn comes
/// (`doNoExecuteTaintingPass`), from the Ready status *at that moment*: `False` adds
/// `not-ready:NoExecute` and removes `unreachable:NoExecute`, `Unknown` the reverse, and
/// anything else (the node recovered) skips the node.
pub fn tainter_update(current_ready: &ConditionStatus) -> Option<NoExecuteTaintUpdate> {
    match current_ready {
        ConditionStatus::False => Some(swap(keys::NOT_READY, keys::UNREACHABLE)),
        ConditionStatus::Unknown => Some(swap(keys::UNREACHABLE, keys::NOT_READY)),
        _ => None,
    }
}

/// Applies a controller taint change to a taint list the way `SwapNodeControllerTaint`
/// does: each added taint gets `timeAdded = time_added` and replaces, in place, a taint
/// with the same key and effect unless it is identical (`AddOrUpdateTaint`; new ones are
/// appended), then every taint matching a removed one by key and effect is dropped.
pub fn apply_taint_update(
    existing: &[Taint],
    add: &[Taint],
    remove: &[Taint],
    time_added: Option<&str>,
) -> Vec<Taint> {
    let mut taints = existing.to_vec();
    for a in add {
        let mut a = a.clone();
        a.time_added = time_added.map(String::from);
        match taints.iter_mut().find(|t| match_taint(t, &a)) {
            Some(t) => *t = a,
            None => taints.push(a),
        }
    }
    taints.retain(|t| !remove.iter().any(|r| match_taint(t, r)));
    taints
}

/// A condition the controller changed because the node's grace period ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionChange {
    /// The condition type.
    pub type_: &'static str,
    /// The new reason ([`NODE_STATUS_UNKNOWN_REASON`] or
    /// [`NODE_STATUS_NEVER_UPDATED_REASON`]).
    pub reason: &'static str,
    /// The new message.
    pub message: &'static str,
    /// True when the condition did not exist and was appended.
    pub appended: bool,
}

/// The conditions `tryUpdateNodeHealth` sets to `Unknown` when the grace period runs
/// out. `NetworkUnavailable` is left alone (it is managed by the control plane).
pub const CONDITIONS_SET_UNKNOWN: [&str; 4] =
    ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

/// `tryUpdateNodeHealth` once `now > probe + grace`: each of
/// [`CONDITIONS_SET_UNKNOWN`] that exists and is not already `Unknown` becomes `Unknown`
/// (`NodeStatusUnknown`, `Kubelet stopped posting node status.`); each missing one is
/// appended as `Unknown` (`NodeStatusNeverUpdated`, `Kubelet never posted node status.`).
/// Returns the new conditions and the changes, in that order.
pub fn mark_node_status_unknown(
    conditions: &[NodeCondition],
) -> (Vec<NodeCondition>, Vec<ConditionChange>) {
    let mut out = conditions.to_vec();
    let mut changes = Vec::new();
    for type_ in CONDITIONS_SET_UNKNOWN {
        // Upstream's GetNodeCondition: the first condition of that type.
        match out.iter_mut().find(|c| c.type_ == type_) {
            Some(c) => {
                if c.status != ConditionStatus::Unknown {
                    c.status = ConditionStatus::Unknown;
                    changes.push(ConditionChange {
                        type_,
                        reason: NODE_STATUS_UNKNOWN_REASON,
                        message: NODE_STATUS_UNKNOWN_MESSAGE,
                        appended: false,
                    });
                }
            }
            None => {
                out.push(NodeCondition {
                    type_: String::from(type_),
                    status: ConditionStatus::Unknown,
                });
                changes.push(ConditionChange {
                    type_,
                    reason: NODE_STATUS_NEVER_UPDATED_REASON,
                    message: NODE_STATUS_NEVER_UPDATED_MESSAGE,
                    appended: true,
                });
            }
        }
    }
    (out, changes)
}

/// The node lifecycle controller's health-check timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeMonitorTiming {
    /// `--node-monitor-grace-period`, seconds: how long after the last observed
    /// heartbeat the node is still trusted. Default by release:
    /// [`default_node_monitor_grace_period`].
    pub grace_period: i64,
    /// `--node-monitor-period`, seconds: the health check runs this often (default 5).
    /// Values below 1 are treated as 1.
    pub monitor_period: i64,
    /// The phase of the health-check loop: one pass runs at this second and the others
    /// every `monitor_period` before and after it (default 0).
    pub monitor_phase: i64,
}

impl NodeMonitorTiming {
    /// The defaults of a release: its grace period, a 5 s period, phase 0.
    pub fn defaults(version: KubeVersion) -> Self {
        Self {
            grace_period: default_node_monitor_grace_period(version),
            monitor_period: DEFAULT_NODE_MONITOR_PERIOD,
            monitor_phase: 0,
        }
    }

    /// The effective period (at least 1 s).
    pub fn period(&self) -> i64 {
        self.monitor_period.max(1)
    }

    /// The first monitor pass at or after `t` (saturating at `i64::MAX`).
    pub fn pass_at_or_after(&self, t: i64) -> i64 {
        let period = i128::from(self.period());
        let phase = i128::from(self.monitor_phase);
        let k = (i128::from(t) - phase + period - 1).div_euclid(period);
        clamp_i64(phase + k * period)
    }

    /// The first monitor pass strictly after `t`.
    pub fn pass_after(&self, t: i64) -> i64 {
        if t == i64::MAX {
            return i64::MAX;
        }
        self.pass_at_or_after(t + 1)
    }

    /// Whether a pass at `now` finds the grace period over for a node whose heartbeat
    /// the controller last observed at `probe`: upstream's strict
    /// `now.After(probe + grace)`.
    pub fn grace_expired(&self, now: i64, probe: i64) -> bool {
        i128::from(now) > i128::from(probe) + i128::from(self.grace_period)
    }

    /// The first pass that marks a node `Unknown` when its last observed heartbeat was at
    /// `probe` and nothing arrives afterwards.
    pub fn ready_unknown_at(&self, probe: i64) -> i64 {
        self.pass_after(probe.saturating_add(self.grace_period))
    }
}

impl Default for NodeMonitorTiming {
    fn default() -> Self {
        Self::defaults(KubeVersion::default())
    }
}

fn clamp_i64(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

/// Health of a zone, as the controller classifies it each pass (`ComputeZoneState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZoneState {
    /// Few nodes are not Ready: tainting at [`NODE_EVICTION_RATE`].
    Normal,
    /// More than 2 nodes and at least [`UNHEALTHY_ZONE_THRESHOLD`] of them not Ready.
    PartialDisruption,
    /// No node of the zone is Ready.
    FullDisruption,
}

/// `ComputeZoneState` from the number of Ready and not-Ready nodes of a zone (nodes
/// labelled `node.kubernetes.io/exclude-disruption` are not counted upstream).
pub fn compute_zone_state(ready: usize, not_ready: usize) -> ZoneState {
    if ready == 0 && not_ready > 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2
        && (not_ready as f32) / ((not_ready + ready) as f32) >= UNHEALTHY_ZONE_THRESHOLD
    {
        ZoneState::PartialDisruption
    } else {
        ZoneState::Normal
    }
}

/// The tainter's rate (taintings per second) for a zone: [`NODE_EVICTION_RATE`] when
/// normal; [`SECONDARY_NODE_EVICTION_RATE`] when partially disrupted and larger than
/// [`LARGE_CLUSTER_SIZE_THRESHOLD`], else 0; when fully disrupted the normal rate, unless
/// `all_zones_fully_disrupted`, in which case tainting stops (0) and the controller
/// removes the `NoExecute` taints from every node.
pub fn zone_tainting_rate(
    state: ZoneState,
    zone_size: usize,
    all_zones_fully_disrupted: bool,
) -> f32 {
    if all_zones_fully_disrupted {
        return 0.0;
    }
    match state {
        ZoneState::Normal | ZoneState::FullDisruption => NODE_EVICTION_RATE,
        ZoneState::PartialDisruption if zone_size > LARGE_CLUSTER_SIZE_THRESHOLD => {
            SECONDARY_NODE_EVICTION_RATE
        }
        ZoneState::PartialDisruption => 0.0,
    }
}

#[cfg(test)]
mod tests;
