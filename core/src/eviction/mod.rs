//! The NoExecute taint-eviction controller (`taint-eviction-controller`, formerly the
//! node lifecycle controller's "taint manager"), upstream
//! `pkg/controller/tainteviction/{taint_eviction,timed_workers}.go`.
//!
//! Two layers:
//!
//! * the pure functions the controller is built on: [`get_matching_tolerations`],
//!   [`get_min_toleration_time`], [`toleration_delay`] and the one-shot summary
//!   [`no_execute_verdict`];
//! * a deterministic, second-by-second simulator of the controller
//!   ([`simulate`] for a whole event list, [`EvictionSimulator`] to step through one),
//!   which reproduces the controller's handlers and its timer queue exactly, including
//!   the quirks listed below.
//!
//! Behaviour worth knowing (every item is tested):
//!
//! * Only `NoExecute` taints matter. Other taint changes do not even wake the controller.
//! * For each taint (node order) only the *first* tolerating toleration in *pod* order is
//!   used; the delay is the minimum `tolerationSeconds` over those, `0` as soon as one is
//!   zero or negative, forever when all are unset.
//! * The clock starts when the controller *observes* the taint; `Taint.timeAdded` is never
//!   read.
//! * A pending timer is never moved while the pod stays tolerated with a finite delay:
//!   neither lengthening nor shortening `tolerationSeconds`, nor a new taint tolerated for
//!   0 s, nor swapping `not-ready` for `unreachable` resets it (upstream's
//!   `existing.createdAt < now` keep rule).
//! * A timer is cancelled (with a `Cancelling deletion of Pod ns/name` event) when every
//!   NoExecute taint disappears, when the delay becomes infinite, or when the pod is
//!   deleted. Deleting the *node* cancels nothing.
//! * An untolerated NoExecute taint deletes the pod at once (`Marking for deletion Pod
//!   ns/name`), after cancelling a pending timer if there was one.

mod simulator;

pub use simulator::{
    Action, ActionKind, EventKind, EvictionSimulator, OutOfOrderEvent, PendingEviction, PodId,
    PodKey, RecordedEvent, SimEvent, SimulationResult, TimedEvent, simulate,
};

use alloc::vec::Vec;

use crate::matching::tolerates;
use crate::model::{Taint, TaintEffect, Toleration};

/// Reason of every Kubernetes Event the controller records.
pub const EVENT_REASON: &str = "TaintManagerEviction";
/// Type of every Kubernetes Event the controller records.
pub const EVENT_TYPE: &str = "Normal";
/// Reason of the `DisruptionTarget` pod condition patched in before the deletion.
pub const DISRUPTION_TARGET_REASON: &str = "DeletionByTaintManager";
/// Message of the `DisruptionTarget` pod condition patched in before the deletion.
pub const DISRUPTION_TARGET_MESSAGE: &str = "Taint manager: deleting due to NoExecute taint";
/// [`get_min_toleration_time`]'s value for "tolerated forever".
pub const FOREVER: i64 = -1;

/// Nanoseconds per second, for Go's `time.Duration(seconds) * time.Second`.
const NANOS_PER_SECOND: i64 = 1_000_000_000;

/// Upstream `getNoExecuteTaints`: the node's `NoExecute` taints, in node order.
pub fn no_execute_taints(taints: &[Taint]) -> Vec<Taint> {
    taints
        .iter()
        .filter(|t| t.effect == TaintEffect::NoExecute)
        .cloned()
        .collect()
}

/// `GetMatchingTolerations(taints, tolerations, gate)`: for every taint (node order) the
/// first toleration in **pod order** that tolerates it.
///
/// `Some(used)` when every taint is tolerated (`used` has one entry per taint, so the
/// same toleration can appear several times); `None` when some taint is not. No taints
/// gives `Some(vec![])`; taints but no tolerations gives `None`. `gate` is the
/// `TaintTolerationComparisonOperators` feature gate.
pub fn get_matching_tolerations<'a>(
    taints: &[Taint],
    tolerations: &'a [Toleration],
    gate: bool,
) -> Option<Vec<&'a Toleration>> {
    let mut used = Vec::with_capacity(taints.len());
    for taint in taints {
        used.push(tolerations.iter().find(|t| tolerates(t, taint, gate))?);
    }
    Some(used)
}

/// Upstream `getMinTolerationTime`, in seconds: [`FOREVER`] (`-1`) when no used
/// toleration has `tolerationSeconds`, otherwise the smallest value.
///
/// * An empty list gives `0`, not forever (unreachable in the controller, which never
///   calls it without taints).
/// * The first value `<= 0` returns `0` at once, even after a smaller positive value.
/// * Upstream quirk: the running minimum starts at `i64::MAX` and `i64::MAX` doubles as
///   "none seen", so `tolerationSeconds: 9223372036854775807` counts as forever.
pub fn get_min_toleration_time<'a>(used: impl IntoIterator<Item = &'a Toleration>) -> i64 {
    let mut any = false;
    let mut min = i64::MAX;
    for t in used {
        any = true;
        if let Some(secs) = t.toleration_seconds {
            if secs <= 0 {
                return 0;
            }
            min = min.min(secs);
        }
    }
    if !any {
        0
    } else if min == i64::MAX {
        FOREVER
    } else {
        min
    }
}

/// How long the controller waits before deleting a pod, once the minimum toleration time
/// is converted to a Go `time.Duration`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvictionDelay {
    /// The pod is never deleted for these taints (the delay is negative).
    Forever,
    /// The pod is deleted at the moment of observation (the delay is zero).
    Immediate,
    /// A timer fires this many whole seconds after the observation. `0` is possible only
    /// through the overflow quirk of [`toleration_delay`]: a positive delay of less than
    /// a second, which still goes through a timer.
    After {
        /// Whole seconds (a sub-second remainder is dropped).
        seconds: i64,
    },
}

/// Converts [`get_min_toleration_time`]'s seconds the way upstream does:
/// `time.Duration(seconds) * time.Second`, a wrapping int64 multiplication in
/// nanoseconds, then `< 0` means forever and `<= 0` means immediate.
///
/// Upstream quirk: above 9,223,372,036 s (about 292 years) the multiplication wraps, so
/// a huge `tolerationSeconds` may turn into "forever", "immediately" or a short timer.
pub fn toleration_delay(min_seconds: i64) -> EvictionDelay {
    let nanos = min_seconds.wrapping_mul(NANOS_PER_SECOND);
    match nanos {
        n if n < 0 => EvictionDelay::Forever,
        0 => EvictionDelay::Immediate,
        n => EvictionDelay::After {
            seconds: n / NANOS_PER_SECOND,
        },
    }
}

/// What the controller would do with a pod it sees for the first time (no pending timer)
/// on a node with these taints: a one-call summary for explanations and UIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoExecuteVerdict {
    /// The node has no `NoExecute` taint: the controller leaves the pod alone.
    NotAffected,
    /// Some `NoExecute` taint is not tolerated: deleted at once.
    Untolerated,
    /// Every `NoExecute` taint is tolerated; the pod is deleted after this delay (which
    /// may be [`EvictionDelay::Forever`] or [`EvictionDelay::Immediate`]).
    Tolerated(EvictionDelay),
}

/// Classifies a pod against a node's taints (all effects may be passed; only `NoExecute`
/// ones count), as `processPodOnNode` would for a pod without a pending timer.
pub fn no_execute_verdict(
    node_taints: &[Taint],
    tolerations: &[Toleration],
    gate: bool,
) -> NoExecuteVerdict {
    let taints = no_execute_taints(node_taints);
    if taints.is_empty() {
        return NoExecuteVerdict::NotAffected;
    }
    match min_toleration_for(&taints, tolerations, gate) {
        None => NoExecuteVerdict::Untolerated,
        Some(secs) => NoExecuteVerdict::Tolerated(toleration_delay(secs)),
    }
}

/// [`get_matching_tolerations`] followed by [`get_min_toleration_time`] without building
/// the `used` list: `None` when some taint is untolerated. The simulator's hot path.
pub(crate) fn min_toleration_for(
    taints: &[Taint],
    tolerations: &[Toleration],
    gate: bool,
) -> Option<i64> {
    // Same order of decisions as upstream: every taint must be tolerated before the
    // `<= 0` short-circuit can apply.
    let mut nonpositive = false;
    let mut min = i64::MAX;
    for taint in taints {
        let used = tolerations.iter().find(|t| tolerates(t, taint, gate))?;
        if let Some(secs) = used.toleration_seconds {
            if secs <= 0 {
                nonpositive = true;
            } else {
                min = min.min(secs);
            }
        }
    }
    Some(if taints.is_empty() || nonpositive {
        0
    } else if min == i64::MAX {
        FOREVER
    } else {
        min
    })
}

#[cfg(test)]
mod tests;
