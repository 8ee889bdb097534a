//! What if: a cluster-wide, second-by-second simulation of what Kubernetes does after a
//! taint, a cordon, a `kubectl drain`, a node that stops reporting or is deleted, or a
//! workload created or scaled.
//!
//! [`simulate`] takes a [`WhatIf`] (the starting [`Cluster`], the [`Semantics`], timed
//! [`Action`]s and an end time) and returns a [`Timeline`]: the Kubernetes Events and
//! `kubectl drain` lines in order with their seconds, per-pod [`PodSpan`]s per node, the
//! cluster at any second ([`Timeline::at`]) and a [`Summary`].
//!
//! The controllers, each reusing the crate's model of it:
//!
//! * the taint-eviction controller: [`crate::eviction::EvictionSimulator`] is fed every
//!   node and pod change, and its deletions become graceful pod deletions;
//! * the node lifecycle controller: a node that stops reporting turns `Unknown` at the
//!   first monitor pass after the grace period ([`crate::node_lifecycle::NodeMonitorTiming`]),
//!   gets `node.kubernetes.io/unreachable:NoSchedule` at once and
//!   `unreachable:NoExecute` from its zone's rate-limited tainter
//!   ([`crate::node_lifecycle::compute_zone_state`], [`crate::node_lifecycle::zone_tainting_rate`]);
//! * DefaultTolerationSeconds admission ([`crate::node_lifecycle::apply_default_toleration_seconds`])
//!   on every pod, so pods tolerate `not-ready`/`unreachable` for 300 s by default;
//! * the workload controllers ([`controllers`](self)): ReplicaSet/Deployment/RC replace a
//!   pod as soon as it is terminating, StatefulSet only once it is gone (same name),
//!   Job per its pod replacement policy, DaemonSet one pod per node it should run on;
//! * the scheduler: the full filter chain, scores and preemption of
//!   [`crate::scheduling::placement`], with a queue retried when the cluster changes;
//! * `kubectl drain` and the Eviction API's PodDisruptionBudget check.
//!
//! Time is whole seconds. Work that happens "at once" upstream (informer round trips,
//! controller syncs, binding, container start) happens within the same second here, in a
//! fixed order: timers of the taint-eviction controller, then actions and due work in
//! the order they were queued, then the workload controllers, then the scheduler.
//! A terminating pod is gone `terminationGracePeriodSeconds` after its deletion (the
//! application is taken to use its whole grace period), except on a node whose kubelet
//! is not reporting: there it stays terminating until the node returns (nothing confirms
//! the deletion), or until pod GC removes it once the Node object is deleted.

mod actions;
mod cluster;
mod controllers;
mod drain_step;
mod engine;
mod events;
mod scheduler_queue;
mod timeline;

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;

pub use actions::{Action, ActionKind, DrainOptions};
pub use cluster::{
    Cluster, ClusterNode, ClusterPod, ControllerKind, DisruptionBudget, IntOrPercent, Owner,
    PodReplacementPolicy, PodTemplate, Workload,
};
pub use events::{
    DRAIN, Event, FAILED_SCHEDULING, KILLING, NODE_NOT_READY, NORMAL, ObjectKind, ObjectRef,
    PREEMPTED, SCHEDULED, SUCCESSFUL_CREATE, SUCCESSFUL_DELETE, Source, WARNING,
    created_pod_message, deleted_pod_message, killing_message, preempted_message,
    scheduled_message, stateful_create_message, stateful_delete_message,
};
pub use timeline::{
    ClusterAt, NodeAt, NodeCapacity, NodeChange, PodAt, PodRecord, PodSpan, PodState, StillPending,
    Summary, TerminationCause, Timeline,
};

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::node_lifecycle::{DefaultTolerationSeconds, NodeMonitorTiming};
use crate::version::Semantics;

/// The pod's `terminationGracePeriodSeconds` when unset (the API default).
pub const DEFAULT_TERMINATION_GRACE_PERIOD: i64 = 30;

/// Settings of the simulated control plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The node lifecycle controller's grace period, monitor period and phase.
    pub node_monitor: NodeMonitorTiming,
    /// DefaultTolerationSeconds admission's flags; `None` when the plugin is off. Applied
    /// to every pod (starting pods too: a pod read back from the API already has the
    /// tolerations, and the plugin adds nothing twice).
    pub default_toleration_seconds: Option<DefaultTolerationSeconds>,
    /// The `DynamicResourceAllocation` gate when set explicitly (FailedScheduling text).
    pub dynamic_resource_allocation: Option<bool>,
}

impl Options {
    /// The defaults of a release: its node monitor timing and DefaultTolerationSeconds
    /// at 300 s.
    pub fn defaults(semantics: Semantics) -> Self {
        Self {
            node_monitor: NodeMonitorTiming::defaults(semantics.version),
            default_toleration_seconds: Some(DefaultTolerationSeconds::default()),
            dynamic_resource_allocation: None,
        }
    }
}

/// Everything a simulation needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhatIf {
    /// The starting cluster.
    pub cluster: Cluster,
    /// Release and feature gates.
    pub semantics: Semantics,
    /// Control-plane settings.
    pub options: Options,
    /// The actions, at their seconds (any order; equal seconds keep list order).
    pub actions: Vec<Action>,
    /// The last simulated second (inclusive).
    pub until: i64,
}

impl WhatIf {
    /// A simulation of `cluster` under `semantics` with the release's default options.
    pub fn new(cluster: Cluster, semantics: Semantics, actions: Vec<Action>, until: i64) -> Self {
        Self {
            cluster,
            semantics,
            options: Options::defaults(semantics),
            actions,
            until,
        }
    }
}

/// Input the simulation refuses, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputError {
    /// Where, e.g. `actions[2].node` or `cluster.pods[5].name`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Runs the simulation from second 0 to [`WhatIf::until`].
///
/// Errors (never a panic) for input it cannot run: an action naming a node that does not
/// exist at that point, a negative time or end, two pods or two nodes with one name, a
/// pod bound to a node that does not exist.
pub fn simulate(what_if: &WhatIf) -> Result<Timeline, InputError> {
    engine::run(what_if, false)
}

/// [`simulate`] with every scheduling cycle run as the full per-node evaluation
/// ([`crate::scheduling::placement::schedule_one`] over every node, without the
/// per-class filter cache or the failure memo): the naive baseline the benchmarks and
/// the equivalence property compare against. Same result, slower.
pub fn simulate_naive(what_if: &WhatIf) -> Result<Timeline, InputError> {
    engine::run(what_if, true)
}
