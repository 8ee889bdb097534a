//! The Eviction API (`POST pods/<name>/eviction`): `EvictionREST.Create`,
//! `canIgnorePDB`, `getPodDisruptionBudgets` and `checkAndDecrement` of
//! `pkg/registry/core/pod/storage/eviction.go`.
//!
//! Not modelled: resourceVersion conflicts and their retries (the simulation applies one
//! request at a time, so none occur), and the `Eviction` object's own validation.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::status::update_disruption_allowed_condition;
use super::{PodDisruptionBudget, PodPhase, PodRecord, UnhealthyPodEvictionPolicy};
use crate::version::KubeVersion;

/// `MaxDisruptedPodSize`: evictions approved but not yet seen by the controller, beyond
/// which the API refuses.
pub const MAX_DISRUPTED_POD_SIZE: usize = 2000;

/// Release from which `unhealthyPodEvictionPolicy` is honoured by default (the
/// `PDBUnhealthyPodEvictionPolicy` gate: alpha and off in 1.26, beta and on from 1.27,
/// GA in 1.31). Before, a not-ready pod is handled as with `IfHealthyBudget`.
pub const UNHEALTHY_POLICY_MINOR: u16 = 27;

/// Release from which an eviction first adds the `DisruptionTarget` condition
/// (`PodDisruptionConditions`: beta and on by default from 1.26, GA in 1.31).
pub const DISRUPTION_CONDITION_MINOR: u16 = 26;

/// The first release whose Eviction API honours a budget with an empty selector (`{}`,
/// every pod of the namespace): kubernetes PR #119732, merged for 1.29 and cherry-picked
/// to 1.28 (#121131, merged 2023-10-16; the first 1.28 patch carrying it is inferred as
/// 1.28.4). Before, the API skipped such a budget although the disruption controller
/// counted every pod for it.
pub const EMPTY_SELECTOR_HONOURED: KubeVersion = KubeVersion::new(29, 0);
/// The 1.28 patch release assumed to carry the empty-selector fix.
pub const EMPTY_SELECTOR_HONOURED_1_28: KubeVersion = KubeVersion::new(28, 4);

/// The 429 message of a budget that allows no disruption.
pub const VIOLATES_BUDGET: &str =
    "Cannot evict pod as it would violate the pod's disruption budget.";

/// The 500 message for a pod under several budgets.
pub const MULTIPLE_BUDGETS: &str = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

/// An API error (`metav1.Status` of a failed request).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status: 429, 403 or 500.
    pub code: u16,
    /// `reason`: `TooManyRequests`, `Forbidden`, or `""` for the 500.
    pub reason: &'static str,
    /// `message`: what `err.Error()` returns and kubectl prints.
    pub message: String,
    /// `details.causes[].message`, in order.
    pub causes: Vec<String>,
}

impl ApiError {
    /// The string upstream's `eviction_test.go` compares (`errToString`): the message,
    /// `: <reason>`, then `: <cause>` for each cause.
    pub fn test_string(&self) -> String {
        let mut s = format!("{}: {}", self.message, self.reason);
        for c in &self.causes {
            if !s.ends_with(':') {
                s.push(':');
            }
            s.push(' ');
            s.push_str(c);
        }
        s
    }

    /// True for 429, the answer kubectl drain retries after 5 s.
    pub fn is_too_many_requests(&self) -> bool {
        self.code == 429
    }

    fn too_many_requests(cause: String) -> Self {
        Self {
            code: 429,
            reason: "TooManyRequests",
            message: String::from(VIOLATES_BUDGET),
            causes: alloc::vec![cause],
        }
    }

    fn forbidden(pdb: &str, err: &str) -> Self {
        Self {
            code: 403,
            reason: "Forbidden",
            message: format!(
                "poddisruptionbudget.policy {} is forbidden: {err}",
                crate::validation::go_quote(pdb)
            ),
            causes: Vec::new(),
        }
    }
}

/// What the Eviction API did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvictionOutcome {
    /// The pod was deleted (gracefully: it gets a `deletionTimestamp` and terminates).
    Evicted {
        /// The budget whose `disruptionsAllowed` was decremented (and `disruptedPods`
        /// extended), if any.
        decremented: Option<String>,
        /// Why no budget was consulted or decremented.
        reason: EvictedBecause,
        /// The pod got `DisruptionTarget=True` (reason `EvictionByEvictionAPI`, message
        /// `Eviction API: evicting`) before the delete.
        disruption_condition: bool,
    },
    /// The request failed; nothing changed.
    Rejected(ApiError),
}

impl EvictionOutcome {
    /// True when the pod was deleted.
    pub fn is_evicted(&self) -> bool {
        matches!(self, Self::Evicted { .. })
    }
}

/// Which path of `EvictionREST.Create` deleted the pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvictedBecause {
    /// `canIgnorePDB`: the pod is Pending, Succeeded, Failed or already terminating.
    IgnoredBudgets,
    /// No budget selects the pod.
    NoBudget,
    /// Not ready and the budget's policy let it go without a decrement
    /// (`AlwaysAllow`, or `currentHealthy >= desiredHealthy > 0`).
    UnhealthyPod,
    /// The budget allowed a disruption and was decremented.
    BudgetAllowed,
}

/// The budgets of the pod's namespace whose selector picks it, in the given order
/// (`getPodDisruptionBudgets`), as the newest release sees them.
pub fn matching_budgets(pod: &PodRecord, pdbs: &[PodDisruptionBudget]) -> Vec<usize> {
    matching_budgets_for(pod, pdbs, KubeVersion::NEWEST)
}

/// [`matching_budgets`] for a release: before [`EMPTY_SELECTOR_HONOURED`] (and
/// [`EMPTY_SELECTOR_HONOURED_1_28`] on 1.28) a budget whose selector is empty matches
/// no pod here.
pub fn matching_budgets_for(
    pod: &PodRecord,
    pdbs: &[PodDisruptionBudget],
    version: KubeVersion,
) -> Vec<usize> {
    let empty_honoured = version >= EMPTY_SELECTOR_HONOURED
        || (version.minor == 28 && version >= EMPTY_SELECTOR_HONOURED_1_28);
    pdbs.iter()
        .enumerate()
        .filter(|(_, b)| {
            let empty = b
                .spec
                .selector
                .as_ref()
                .is_some_and(|s| s.match_labels.is_empty() && s.match_expressions.is_empty());
            (empty_honoured || !empty) && b.selects(pod)
        })
        .map(|(i, _)| i)
        .collect()
}

/// `EvictionREST.Create` for `pod` at second `now`: decides, and on success updates the
/// selected budget's status as the API server does (`disruptionsAllowed - 1`, the
/// `DisruptionAllowed` condition when it reaches 0, `disruptedPods[pod] = now`; a dry run
/// changes nothing). The caller marks the pod terminating.
pub fn evict(
    pod: &PodRecord,
    pdbs: &mut [PodDisruptionBudget],
    now: i64,
    dry_run: bool,
    version: KubeVersion,
) -> EvictionOutcome {
    let disruption_condition = !dry_run && version.at_least(DISRUPTION_CONDITION_MINOR);
    let evicted = |decremented: Option<String>, reason| EvictionOutcome::Evicted {
        decremented,
        reason,
        disruption_condition,
    };
    // canIgnorePDB
    if matches!(
        pod.phase,
        PodPhase::Succeeded | PodPhase::Failed | PodPhase::Pending
    ) || pod.deletion_timestamp.is_some()
    {
        return evicted(None, EvictedBecause::IgnoredBudgets);
    }
    let matching = matching_budgets_for(pod, pdbs, version);
    if matching.len() > 1 {
        return EvictionOutcome::Rejected(ApiError {
            code: 500,
            reason: "",
            message: String::from(MULTIPLE_BUDGETS),
            causes: Vec::new(),
        });
    }
    let Some(&idx) = matching.first() else {
        return evicted(None, EvictedBecause::NoBudget);
    };
    let pdb = &mut pdbs[idx];
    if !pod.ready {
        let policy = if version.at_least(UNHEALTHY_POLICY_MINOR) {
            pdb.spec.unhealthy_pod_eviction_policy.unwrap_or_default()
        } else {
            UnhealthyPodEvictionPolicy::IfHealthyBudget
        };
        if policy == UnhealthyPodEvictionPolicy::AlwaysAllow
            || (pdb.status.current_healthy >= pdb.status.desired_healthy
                && pdb.status.desired_healthy > 0)
        {
            return evicted(None, EvictedBecause::UnhealthyPod);
        }
    }
    // checkAndDecrement
    if pdb.status.observed_generation < pdb.generation {
        return EvictionOutcome::Rejected(ApiError::too_many_requests(format!(
            "The disruption budget {} is still being processed by the server.",
            pdb.name
        )));
    }
    if pdb.status.disruptions_allowed < 0 {
        return EvictionOutcome::Rejected(ApiError::forbidden(
            &pdb.name,
            "pdb disruptions allowed is negative",
        ));
    }
    if pdb.status.disrupted_pods.len() > MAX_DISRUPTED_POD_SIZE {
        return EvictionOutcome::Rejected(ApiError::forbidden(
            &pdb.name,
            "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
        ));
    }
    if pdb.status.disruptions_allowed == 0 {
        return EvictionOutcome::Rejected(ApiError::too_many_requests(format!(
            "The disruption budget {} needs {} healthy pods and has {} currently",
            pdb.name, pdb.status.desired_healthy, pdb.status.current_healthy
        )));
    }
    if !dry_run {
        pdb.status.disruptions_allowed -= 1;
        if pdb.status.disruptions_allowed == 0 {
            update_disruption_allowed_condition(&mut pdb.status);
        }
        pdb.status.disrupted_pods.insert(pod.name.clone(), now);
    }
    evicted(Some(pdb.name.clone()), EvictedBecause::BudgetAllowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disruption::{PdbSpec, PdbStatus};
    use crate::labels::LabelSelector;

    fn budget(allowed: i32, current: i32, desired: i32) -> PodDisruptionBudget {
        PodDisruptionBudget {
            namespace: "default".into(),
            name: "foo".into(),
            generation: 0,
            spec: PdbSpec {
                selector: Some(LabelSelector {
                    match_labels: [("a".into(), "true".into())].into(),
                    ..LabelSelector::default()
                }),
                ..PdbSpec::default()
            },
            status: PdbStatus {
                disruptions_allowed: allowed,
                current_healthy: current,
                desired_healthy: desired,
                ..PdbStatus::default()
            },
        }
    }

    fn pod(ready: bool) -> PodRecord {
        let mut p = PodRecord::running("default", "t1").with_label("a", "true");
        p.ready = ready;
        p
    }

    #[test]
    fn zero_allowed_is_429_with_the_budget_cause() {
        let mut pdbs = [budget(0, 2, 2)];
        let out = evict(&pod(true), &mut pdbs, 0, false, KubeVersion::NEWEST);
        let EvictionOutcome::Rejected(err) = out else {
            panic!("expected a rejection, got {out:?}")
        };
        assert_eq!(
            err.test_string(),
            "Cannot evict pod as it would violate the pod's disruption budget.: TooManyRequests: The disruption budget foo needs 2 healthy pods and has 2 currently"
        );
    }

    #[test]
    fn allowed_decrements_and_records_the_pod() {
        let mut pdbs = [budget(1, 3, 2)];
        let out = evict(&pod(true), &mut pdbs, 42, false, KubeVersion::NEWEST);
        assert!(out.is_evicted());
        assert_eq!(pdbs[0].status.disruptions_allowed, 0);
        assert_eq!(pdbs[0].status.disrupted_pods.get("t1"), Some(&42));
        assert_eq!(pdbs[0].status.conditions[0].reason, "InsufficientPods");
        // The same request again is refused: the budget is spent.
        let again = evict(&pod(true), &mut pdbs, 43, false, KubeVersion::NEWEST);
        assert!(!again.is_evicted());
    }

    #[test]
    fn unhealthy_policy_applies_from_1_27() {
        let mut b = budget(0, 0, 0);
        b.spec.unhealthy_pod_eviction_policy = Some(UnhealthyPodEvictionPolicy::AlwaysAllow);
        let mut pdbs = [b];
        assert!(
            evict(
                &pod(false),
                &mut pdbs.clone(),
                0,
                false,
                KubeVersion::new(27, 0)
            )
            .is_evicted()
        );
        assert!(!evict(&pod(false), &mut pdbs, 0, false, KubeVersion::new(26, 0)).is_evicted());
    }

    #[test]
    fn two_budgets_are_a_500() {
        let mut pdbs = [budget(1, 3, 2), budget(1, 3, 2)];
        pdbs[1].name = "bar".into();
        let out = evict(&pod(true), &mut pdbs, 0, false, KubeVersion::NEWEST);
        assert_eq!(
            out,
            EvictionOutcome::Rejected(ApiError {
                code: 500,
                reason: "",
                message: MULTIPLE_BUDGETS.into(),
                causes: Vec::new()
            })
        );
    }
}
