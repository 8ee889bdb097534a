//! Pod accounting of the workload controllers: which pods a controller counts and when a
//! deleted or evicted pod is replaced.
//!
//! * ReplicaSet (`pkg/controller/replicaset/replica_set.go` `manageReplicas`, with
//!   `controller.FilterActivePods` / `IsPodActive` of `pkg/controller/controller_utils.go`):
//!   terminating and finished pods are not counted, so a replacement is created as soon
//!   as a pod gets its `deletionTimestamp`; creations go in slow-start batches 1, 2, 4, …
//!   capped at `burstReplicas` (500).
//! * StatefulSet (`pkg/controller/statefulset/stateful_set_control.go`
//!   `processReplica`): a terminating pod holds its ordinal until it is gone; a finished
//!   one is deleted first; the replacement reuses the name `<set>-<ordinal>`.
//! * Job (`pkg/controller/job/job_controller.go` `isPodFailed`, `manageJob`,
//!   `backoff_utils.go`): whether a terminating pod counts as failed and frees its slot,
//!   and the failure backoff before a replacement.
//! * DaemonSet: see [`crate::daemonset`] for which nodes should run a daemon pod; its
//!   pods on a node are replaced only once the old object is gone ([`daemon_pod_slot_free`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{PodPhase, PodRecord};

/// `controller.IsPodActive`: not Succeeded, not Failed, no `deletionTimestamp`.
pub fn is_pod_active(pod: &PodRecord) -> bool {
    !pod.phase.is_terminal() && pod.deletion_timestamp.is_none()
}

/// `controller.FilterActivePods`.
pub fn filter_active_pods(pods: &[PodRecord]) -> Vec<&PodRecord> {
    pods.iter().filter(|p| is_pod_active(p)).collect()
}

/// `BurstReplicas` of the ReplicaSet and ReplicationController managers.
pub const BURST_REPLICAS: i32 = 500;

/// `controller.SlowStartInitialBatchSize`.
pub const SLOW_START_INITIAL_BATCH_SIZE: i32 = 1;

/// `manageReplicas`: how many pods a ReplicaSet with `replicas` desired creates (positive)
/// or deletes (negative) in one sync, given its pods (only active ones count), capped at
/// [`BURST_REPLICAS`].
pub fn replica_set_diff(pods: &[PodRecord], replicas: i32) -> i32 {
    let active = pods.iter().filter(|p| is_pod_active(p)).count() as i32;
    let diff = active - replicas;
    diff.clamp(-BURST_REPLICAS, BURST_REPLICAS)
}

/// `slowStartBatch`: the sizes of the creation batches for `count` pods (1, 2, 4, …; a
/// failed batch stops the rest, which this pure model never sees).
pub fn slow_start_batches(count: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let mut remaining = count.max(0);
    let mut batch = SLOW_START_INITIAL_BATCH_SIZE;
    while remaining > 0 {
        let size = batch.min(remaining);
        out.push(size);
        remaining -= size;
        batch = batch.saturating_mul(2);
    }
    out
}

/// The name of a StatefulSet's pod: `<set>-<ordinal>` (`getPodName`).
pub fn stateful_set_pod_name(set: &str, ordinal: i32) -> String {
    format!("{set}-{ordinal}")
}

/// What the StatefulSet controller does for one ordinal (`processReplica`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatefulSetAction {
    /// No pod with that name: create it (same name as before).
    Create,
    /// The pod is terminating: wait until it is gone; nothing is created meanwhile.
    WaitForDeletion,
    /// The pod failed or succeeded: delete it, then create it again on a later sync.
    DeleteAndRecreate,
    /// The pod is there and running: nothing to do for replacement.
    Keep,
}

/// `processReplica` for the pod currently holding the ordinal's name.
pub fn stateful_set_action(existing: Option<&PodRecord>) -> StatefulSetAction {
    match existing {
        None => StatefulSetAction::Create,
        Some(p) if p.deletion_timestamp.is_some() => StatefulSetAction::WaitForDeletion,
        Some(p) if p.phase.is_terminal() => StatefulSetAction::DeleteAndRecreate,
        Some(_) => StatefulSetAction::Keep,
    }
}

/// The DaemonSet controller counts a terminating daemon pod as existing on its node, so a
/// replacement on that node is created only once the old object is gone.
pub fn daemon_pod_slot_free(pods_on_node: &[PodRecord]) -> bool {
    pods_on_node.is_empty()
}

/// `spec.restartPolicy` of a Job's pod template.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RestartPolicy {
    /// `Never`: a failed container fails the pod, the Job creates a new pod.
    #[default]
    Never,
    /// `OnFailure`: the kubelet restarts the container in place; the pod fails only when
    /// it is deleted or its node is lost.
    OnFailure,
}

/// The Job fields that decide replacement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobRules {
    /// `spec.backoffLimit` (default 6).
    pub backoff_limit: i32,
    /// `spec.podFailurePolicy` is set.
    pub pod_failure_policy: bool,
    /// `spec.podReplacementPolicy: Failed` (gate `JobPodReplacementPolicy`).
    pub replace_only_failed: bool,
    /// `spec.template.spec.restartPolicy`.
    pub restart_policy: RestartPolicy,
}

impl Default for JobRules {
    fn default() -> Self {
        Self {
            backoff_limit: 6,
            pod_failure_policy: false,
            replace_only_failed: false,
            restart_policy: RestartPolicy::Never,
        }
    }
}

impl JobRules {
    /// `onlyReplaceFailedPods`: a podFailurePolicy or `podReplacementPolicy: Failed`.
    pub fn only_replace_failed_pods(&self) -> bool {
        self.replace_only_failed || self.pod_failure_policy
    }

    /// `isPodFailed`: phase Failed, or (by default) terminating and not Succeeded.
    pub fn is_pod_failed(&self, pod: &PodRecord) -> bool {
        if pod.phase == PodPhase::Failed {
            return true;
        }
        if self.only_replace_failed_pods() {
            return false;
        }
        pod.deletion_timestamp.is_some() && pod.phase != PodPhase::Succeeded
    }

    /// `manageJob`'s count of pods holding a slot: active pods, plus terminating ones
    /// when only failed pods are replaced.
    pub fn pods_holding_slots(&self, pods: &[PodRecord]) -> i32 {
        pods.iter()
            .filter(|p| {
                is_pod_active(p)
                    || (self.only_replace_failed_pods()
                        && p.deletion_timestamp.is_some()
                        && !p.phase.is_terminal())
            })
            .count() as i32
    }

    /// The Job has failed: more non-ignored failures than `backoffLimit`
    /// (`BackoffLimitExceeded`, "Job has reached the specified backoff limit").
    pub fn backoff_limit_exceeded(&self, failed: i32) -> bool {
        failed > self.backoff_limit
    }
}

/// `DefaultJobPodFailureBackOff` (10 s).
pub const JOB_BACKOFF_BASE_SECONDS: i64 = 10;
/// `MaxJobPodFailureBackOff` (10 min). Releases before the backoff-record rewrite capped
/// the delay at 360 s (`MaxJobBackOff`); pass that to [`job_backoff_seconds`] to model
/// them.
pub const JOB_BACKOFF_MAX_SECONDS: i64 = 600;

/// `getRemainingTimeForFailuresCount`'s delay: `10 s × 2^(failures−1)` capped at `max`,
/// 0 without failures since the last success.
pub fn job_backoff_seconds(failures_after_last_success: i32, max: i64) -> i64 {
    if failures_after_last_success <= 0 {
        return 0;
    }
    let mut d = JOB_BACKOFF_BASE_SECONDS;
    for _ in 1..failures_after_last_success {
        d = d.saturating_mul(2);
        if d >= max {
            return max;
        }
    }
    d.min(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminating_pods_do_not_count_for_a_replica_set() {
        let mut pods = alloc::vec![
            PodRecord::running("d", "a"),
            PodRecord::running("d", "b"),
            PodRecord::running("d", "c"),
        ];
        assert_eq!(replica_set_diff(&pods, 3), 0);
        pods[0].deletion_timestamp = Some(5);
        assert_eq!(replica_set_diff(&pods, 3), -1);
    }

    #[test]
    fn slow_start_doubles() {
        assert_eq!(slow_start_batches(10), [1, 2, 4, 3]);
        assert!(slow_start_batches(0).is_empty());
    }

    #[test]
    fn stateful_set_waits_for_the_old_pod() {
        let mut p = PodRecord::running("d", "web-0");
        assert_eq!(stateful_set_action(Some(&p)), StatefulSetAction::Keep);
        p.deletion_timestamp = Some(1);
        assert_eq!(
            stateful_set_action(Some(&p)),
            StatefulSetAction::WaitForDeletion
        );
        assert_eq!(stateful_set_action(None), StatefulSetAction::Create);
        assert_eq!(stateful_set_pod_name("web", 0), "web-0");
    }

    #[test]
    fn job_backoff_doubles_to_the_cap() {
        let got: Vec<i64> = (0..9).map(|n| job_backoff_seconds(n, 600)).collect();
        assert_eq!(got, [0, 10, 20, 40, 80, 160, 320, 600, 600]);
        assert_eq!(job_backoff_seconds(7, 360), 360);
    }

    #[test]
    fn job_failure_depends_on_the_replacement_policy() {
        let mut p = PodRecord::running("d", "j");
        p.deletion_timestamp = Some(3);
        let default = JobRules::default();
        assert!(default.is_pod_failed(&p));
        assert_eq!(default.pods_holding_slots(core::slice::from_ref(&p)), 0);
        let strict = JobRules {
            pod_failure_policy: true,
            ..JobRules::default()
        };
        assert!(!strict.is_pod_failed(&p));
        assert_eq!(strict.pods_holding_slots(core::slice::from_ref(&p)), 1);
    }
}
