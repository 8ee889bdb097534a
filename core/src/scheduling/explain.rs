//! Why one pod does or does not fit one node, taint by taint, as plain data a UI can
//! render: which toleration tolerated each taint and by which rule, why every other
//! toleration did not, the filter verdict, the score contribution and what the
//! NoExecute taints mean for a running pod.

use alloc::string::String;
use alloc::vec::Vec;

use super::cluster::{Verdict, evaluate_pair};
use super::filter::{Code, FilterPlugin, bypasses_scheduler, run_filters, unschedulable_taint};
use super::kubelet::kubelet_admit;
use super::score::{TAINT_TOLERATION_WEIGHT, is_pre_score_toleration};
use crate::matching::{MatchOutcome, check_toleration};
use crate::model::{Node, Operator, Pod, Taint, TaintEffect, Toleration};
use crate::version::Semantics;

/// The rule by which a toleration tolerated a taint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToleratedVia {
    /// Empty key with `Exists`: every key.
    ExistsAnyKey,
    /// Same key with `Exists` (the value is ignored).
    Exists,
    /// `Equal` (or an empty operator, which matches as `Equal`) with the same value.
    /// With an empty key this matches any key with that value (only validation forbids it).
    Equal,
    /// `Lt`: the taint value is a smaller integer.
    LessThan,
    /// `Gt`: the taint value is a larger integer.
    GreaterThan,
}

/// The first toleration, in pod order, that tolerates a taint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToleratedBy {
    /// Index in `pod.tolerations`.
    pub toleration: usize,
    /// The matching rule.
    pub via: ToleratedVia,
    /// True when the toleration's effect is empty (it matches every effect).
    pub any_effect: bool,
}

/// Which part of the scheduler a taint matters to, by its effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaintRole {
    /// `NoSchedule`: Filter only.
    Filter,
    /// `NoExecute`: Filter, kubelet admission and eviction.
    FilterAndEviction,
    /// `PreferNoSchedule`: Score only.
    Score,
    /// An empty or unknown effect: nothing reads it (validation rejects such taints).
    None,
}

impl TaintRole {
    fn of(effect: &TaintEffect) -> Self {
        match effect {
            TaintEffect::NoSchedule => Self::Filter,
            TaintEffect::NoExecute => Self::FilterAndEviction,
            TaintEffect::PreferNoSchedule => Self::Score,
            TaintEffect::Empty | TaintEffect::Other(_) => Self::None,
        }
    }
}

/// What a NoExecute taint means for a pod already running on the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoExecuteEffect {
    /// Not tolerated: the kubelet rejects the pod and the eviction controller evicts it now.
    Untolerated,
    /// Tolerated with no `tolerationSeconds`: the pod stays.
    ToleratedForever,
    /// Tolerated for this many seconds (zero or negative means immediately).
    ToleratedFor(i64),
}

/// One node taint, seen from the pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaintExplanation {
    /// Index in `node.taints`.
    pub index: usize,
    /// The taint.
    pub taint: Taint,
    /// Which part of the scheduler reads it.
    pub role: TaintRole,
    /// `check_toleration` for every toleration, in pod order: why each did or did not match.
    pub outcomes: Vec<MatchOutcome>,
    /// The first toleration in pod order that tolerates the taint.
    pub tolerated_by: Option<ToleratedBy>,
    /// True when it is a NoSchedule/NoExecute taint no toleration tolerates.
    pub blocks_scheduling: bool,
    /// True when it is a PreferNoSchedule taint that counts in the raw score.
    pub score_penalty: bool,
    /// For NoExecute taints: the eviction consequence (first tolerating toleration's
    /// seconds, as the taint-eviction controller uses).
    pub no_execute: Option<NoExecuteEffect>,
}

/// When a pod running on the node would be evicted for its NoExecute taints
/// (`getMinTolerationTime` over the first tolerating toleration of each taint).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eviction {
    /// The node has no NoExecute taints.
    NotApplicable,
    /// Some NoExecute taint is untolerated, or a tolerating toleration has zero or
    /// negative seconds.
    Immediate,
    /// After this many seconds (the smallest positive `tolerationSeconds` used).
    After(i64),
    /// Every NoExecute taint is tolerated without a time limit.
    Never,
}

/// The cordon check (NodeUnschedulable).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CordonExplanation {
    /// `spec.unschedulable`.
    pub node_unschedulable: bool,
    /// `check_toleration` of every toleration against the synthetic
    /// `node.kubernetes.io/unschedulable:NoSchedule` taint (empty value).
    pub outcomes: Vec<MatchOutcome>,
    /// The first toleration that tolerates the synthetic taint.
    pub tolerated_by: Option<ToleratedBy>,
}

/// The Filter phase's result on this node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterExplanation {
    /// The first failing plugin in default order; `None` when the node passes.
    pub rejected_by: Option<FilterPlugin>,
    /// The status code.
    pub code: Code,
    /// The node's reason in the FailedScheduling histogram, in this release's wording.
    pub reason: Option<String>,
    /// Index in `node.taints` of the taint TaintToleration reported.
    pub first_untolerated: Option<usize>,
}

/// Why one pod does or does not fit one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The overall verdict (as in the cluster matrix).
    pub verdict: Verdict,
    /// True when the pod has `spec.nodeName` preset: Filter and Score never run, and
    /// `filter` says what they would have said.
    pub bypasses_scheduler: bool,
    /// The NodeUnschedulable check.
    pub cordon: CordonExplanation,
    /// Every taint, in node order.
    pub taints: Vec<TaintExplanation>,
    /// The Filter phase.
    pub filter: FilterExplanation,
    /// Raw TaintToleration score: the number of `score_penalty` taints. Normalization
    /// over the feasible nodes (see the cluster result) turns it into 0..=100.
    pub raw_score: i64,
    /// The plugin weight applied after normalization (3).
    pub score_weight: i64,
    /// Whether the kubelet admits the pod (NoExecute taints only).
    pub kubelet_admits: bool,
    /// When a running pod would be evicted.
    pub eviction: Eviction,
}

fn via(toleration: &Toleration) -> ToleratedVia {
    match toleration.operator {
        Operator::Exists if toleration.key.is_empty() => ToleratedVia::ExistsAnyKey,
        Operator::Exists => ToleratedVia::Exists,
        Operator::Lt => ToleratedVia::LessThan,
        Operator::Gt => ToleratedVia::GreaterThan,
        // Only Equal and "" can still be here: Other never tolerates.
        Operator::Empty | Operator::Equal | Operator::Other(_) => ToleratedVia::Equal,
    }
}

fn first_tolerating(tolerations: &[Toleration], outcomes: &[MatchOutcome]) -> Option<ToleratedBy> {
    let index = outcomes.iter().position(|o| o.is_tolerated())?;
    let t = tolerations.get(index)?;
    Some(ToleratedBy {
        toleration: index,
        via: via(t),
        any_effect: t.effect.is_empty(),
    })
}

/// Explains one pod on one node under `semantics`.
pub fn explain(pod: &Pod, node: &Node, semantics: Semantics) -> Explanation {
    let gate = semantics.comparison_operators_enabled();
    let tolerations = &pod.tolerations;
    let outcomes_for = |taint: &Taint| -> Vec<MatchOutcome> {
        tolerations
            .iter()
            .map(|t| check_toleration(t, taint, gate))
            .collect()
    };

    let synthetic = unschedulable_taint();
    let cordon_outcomes = outcomes_for(&synthetic);
    let cordon = CordonExplanation {
        node_unschedulable: node.unschedulable,
        tolerated_by: first_tolerating(tolerations, &cordon_outcomes),
        outcomes: cordon_outcomes,
    };

    let mut raw_score = 0i64;
    let mut eviction_min: Option<i64> = None;
    let mut any_no_execute = false;
    let mut immediate = false;
    let taints = node
        .taints
        .iter()
        .enumerate()
        .map(|(index, taint)| {
            let outcomes = outcomes_for(taint);
            let tolerated_by = first_tolerating(tolerations, &outcomes);
            let role = TaintRole::of(&taint.effect);
            let blocks_scheduling =
                matches!(role, TaintRole::Filter | TaintRole::FilterAndEviction)
                    && tolerated_by.is_none();
            // PreScore keeps only tolerations with an empty or PreferNoSchedule effect.
            let score_penalty = role == TaintRole::Score
                && !tolerations
                    .iter()
                    .zip(&outcomes)
                    .any(|(t, o)| is_pre_score_toleration(t) && o.is_tolerated());
            if score_penalty {
                raw_score = raw_score.saturating_add(1);
            }
            let no_execute = (role == TaintRole::FilterAndEviction).then(|| {
                any_no_execute = true;
                let seconds = tolerated_by
                    .and_then(|b| tolerations.get(b.toleration))
                    .map(|t| t.toleration_seconds);
                match seconds {
                    None => {
                        immediate = true;
                        NoExecuteEffect::Untolerated
                    }
                    Some(None) => NoExecuteEffect::ToleratedForever,
                    Some(Some(s)) => {
                        if s <= 0 {
                            immediate = true;
                        }
                        eviction_min = Some(eviction_min.map_or(s, |m| m.min(s)));
                        NoExecuteEffect::ToleratedFor(s)
                    }
                }
            });
            TaintExplanation {
                index,
                taint: taint.clone(),
                role,
                outcomes,
                tolerated_by,
                blocks_scheduling,
                score_penalty,
                no_execute,
            }
        })
        .collect();

    let eviction = if !any_no_execute {
        Eviction::NotApplicable
    } else if immediate {
        Eviction::Immediate
    } else {
        eviction_min.map_or(Eviction::Never, Eviction::After)
    };

    let filtered = run_filters(pod, node, semantics);
    let filter = FilterExplanation {
        rejected_by: filtered.rejected_by,
        code: filtered.status.code,
        reason: filtered.status.reasons.first().cloned(),
        first_untolerated: filtered
            .first_untolerated
            .and_then(|t| node.taints.iter().position(|x| core::ptr::eq(x, t))),
    };

    Explanation {
        verdict: evaluate_pair(pod, node, semantics),
        bypasses_scheduler: bypasses_scheduler(pod),
        cordon,
        taints,
        filter,
        raw_score,
        score_weight: TAINT_TOLERATION_WEIGHT,
        kubelet_admits: kubelet_admit(&node.taints, tolerations, semantics).is_ok(),
        eviction,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::keys;
    use alloc::vec;

    fn tol(k: &str, op: Operator, v: &str, e: TaintEffect) -> Toleration {
        Toleration::new(k, op, v, e)
    }

    #[test]
    fn explains_each_taint_with_first_toleration_and_misses() {
        let node = Node {
            name: "n".into(),
            taints: vec![
                Taint::new("dedicated", "gpu", TaintEffect::NoSchedule),
                Taint::new("spot", "", TaintEffect::PreferNoSchedule),
                Taint::new(keys::UNREACHABLE, "", TaintEffect::NoExecute),
            ],
            ..Node::default()
        };
        let pod = Pod {
            tolerations: vec![
                tol("dedicated", Operator::Equal, "cpu", TaintEffect::NoSchedule),
                tol("dedicated", Operator::Empty, "gpu", TaintEffect::Empty),
                tol("", Operator::Exists, "", TaintEffect::NoExecute).with_seconds(Some(300)),
                tol("dedicated", Operator::Exists, "", TaintEffect::NoSchedule),
            ],
            ..Pod::default()
        };
        let e = explain(&pod, &node, Semantics::newest());
        let t0 = &e.taints[0];
        assert_eq!(
            t0.outcomes,
            [
                MatchOutcome::ValueMismatch,
                MatchOutcome::Tolerated,
                MatchOutcome::EffectMismatch,
                MatchOutcome::Tolerated
            ]
        );
        assert_eq!(
            t0.tolerated_by,
            Some(ToleratedBy {
                toleration: 1,
                via: ToleratedVia::Equal,
                any_effect: true
            })
        );
        assert!(!t0.blocks_scheduling);
        let t1 = &e.taints[1];
        assert_eq!(t1.role, TaintRole::Score);
        assert!(t1.score_penalty);
        assert_eq!(t1.tolerated_by, None);
        let t2 = &e.taints[2];
        assert_eq!(
            t2.tolerated_by.map(|b| b.via),
            Some(ToleratedVia::ExistsAnyKey)
        );
        assert_eq!(t2.no_execute, Some(NoExecuteEffect::ToleratedFor(300)));
        assert_eq!(e.eviction, Eviction::After(300));
        assert!(e.kubelet_admits);
        assert_eq!(e.raw_score, 1);
        assert_eq!(e.filter.rejected_by, None);
        assert_eq!(
            e.verdict,
            Verdict::Penalized {
                untolerated_prefer_no_schedule: 1
            }
        );
    }

    #[test]
    fn blocked_cordoned_and_bypassed() {
        let node = Node {
            unschedulable: true,
            taints: vec![
                Taint::new(keys::UNSCHEDULABLE, "", TaintEffect::NoSchedule),
                Taint::new("x", "1", TaintEffect::NoExecute),
            ],
            ..Node::default()
        };
        let pod = Pod::default();
        let e = explain(&pod, &node, Semantics::at(crate::KubeVersion::new(30, 0)));
        assert_eq!(e.verdict, Verdict::Unschedulable);
        assert_eq!(e.filter.rejected_by, Some(FilterPlugin::NodeUnschedulable));
        assert_eq!(
            e.filter.reason.as_deref(),
            Some("node(s) were unschedulable")
        );
        assert_eq!(e.filter.first_untolerated, None);
        assert!(e.taints.iter().all(|t| t.blocks_scheduling));
        assert_eq!(e.eviction, Eviction::Immediate);
        assert!(!e.kubelet_admits);
        assert!(e.cordon.node_unschedulable && e.cordon.tolerated_by.is_none());

        let pod = Pod {
            node_name: "n".into(),
            tolerations: vec![tol(
                keys::UNSCHEDULABLE,
                Operator::Exists,
                "",
                TaintEffect::Empty,
            )],
            ..Pod::default()
        };
        let e = explain(&pod, &node, Semantics::at(crate::KubeVersion::new(30, 0)));
        assert_eq!(e.verdict, Verdict::Bypassed);
        assert!(e.bypasses_scheduler);
        assert_eq!(e.filter.rejected_by, Some(FilterPlugin::TaintToleration));
        assert_eq!(e.filter.first_untolerated, Some(1));
        assert_eq!(
            e.filter.reason.as_deref(),
            Some("node(s) had untolerated taint {x: 1}")
        );
        assert_eq!(
            e.cordon.tolerated_by.map(|b| b.via),
            Some(ToleratedVia::Exists)
        );
    }

    #[test]
    fn eviction_rules_follow_min_toleration_time() {
        let node = Node {
            taints: vec![
                Taint::new("a", "", TaintEffect::NoExecute),
                Taint::new("b", "", TaintEffect::NoExecute),
            ],
            ..Node::default()
        };
        let mk = |sa: Option<i64>, sb: Option<i64>| Pod {
            tolerations: vec![
                tol("a", Operator::Exists, "", TaintEffect::NoExecute).with_seconds(sa),
                tol("b", Operator::Exists, "", TaintEffect::NoExecute).with_seconds(sb),
            ],
            ..Pod::default()
        };
        let ev = |p: &Pod| explain(p, &node, Semantics::newest()).eviction;
        assert_eq!(ev(&mk(None, None)), Eviction::Never);
        assert_eq!(ev(&mk(Some(60), None)), Eviction::After(60));
        assert_eq!(ev(&mk(Some(60), Some(30))), Eviction::After(30));
        assert_eq!(ev(&mk(Some(60), Some(0))), Eviction::Immediate);
        assert_eq!(ev(&mk(Some(-5), Some(30))), Eviction::Immediate);
        assert_eq!(
            explain(&Pod::default(), &Node::default(), Semantics::newest()).eviction,
            Eviction::NotApplicable
        );

        // Order dependence: the first tolerating toleration decides.
        let forever_first = Pod {
            tolerations: vec![
                tol("", Operator::Exists, "", TaintEffect::Empty),
                tol("a", Operator::Exists, "", TaintEffect::NoExecute).with_seconds(Some(60)),
            ],
            ..Pod::default()
        };
        assert_eq!(ev(&forever_first), Eviction::Never);
        let mut seconds_first = forever_first.clone();
        seconds_first.tolerations.reverse();
        assert_eq!(ev(&seconds_first), Eviction::After(60));
    }

    #[test]
    fn lt_gt_rules_and_gate_outcomes() {
        let node = Node {
            taints: vec![Taint::new("sla", "900", TaintEffect::NoSchedule)],
            ..Node::default()
        };
        let pod = Pod {
            tolerations: vec![
                tol("sla", Operator::Gt, "950", TaintEffect::NoSchedule),
                tol("sla", Operator::Lt, "950", TaintEffect::NoSchedule),
            ],
            ..Pod::default()
        };
        let on = Semantics::newest().with_comparison_operators(true);
        let e = explain(&pod, &node, on);
        assert_eq!(
            e.taints[0].outcomes,
            [MatchOutcome::ComparisonFalse, MatchOutcome::Tolerated]
        );
        assert_eq!(
            e.taints[0].tolerated_by.map(|b| b.via),
            Some(ToleratedVia::LessThan)
        );
        let e = explain(&pod, &node, Semantics::newest());
        assert_eq!(
            e.taints[0].outcomes,
            [
                MatchOutcome::ComparisonGateOff,
                MatchOutcome::ComparisonGateOff
            ]
        );
        assert_eq!(
            e.verdict,
            Verdict::Untolerated {
                first_untolerated: 0
            }
        );
    }
}
