//! TaintToleration PreScore/Score and `DefaultNormalizeScore`
//! (`plugins/tainttoleration`, `plugins/helper/normalize_score.go`).

use alloc::vec::Vec;

use crate::helpers::tolerations_tolerate_taint;
use crate::model::{Taint, TaintEffect, Toleration};
use crate::version::Semantics;

/// `framework.MaxNodeScore`.
pub const MAX_NODE_SCORE: i64 = 100;
/// TaintToleration's weight in the default profile.
pub const TAINT_TOLERATION_WEIGHT: i64 = 3;

/// Whether PreScore keeps this toleration: only an empty or `PreferNoSchedule` effect.
pub fn is_pre_score_toleration(toleration: &Toleration) -> bool {
    matches!(
        toleration.effect,
        TaintEffect::Empty | TaintEffect::PreferNoSchedule
    )
}

/// PreScore: the pod's tolerations with an empty or `PreferNoSchedule` effect, in order.
pub fn pre_score_tolerations(tolerations: &[Toleration]) -> Vec<Toleration> {
    tolerations
        .iter()
        .filter(|t| is_pre_score_toleration(t))
        .cloned()
        .collect()
}

/// Score with the PreScore list already taken: the number of `PreferNoSchedule` taints
/// that no toleration in `pre_score` tolerates (`countIntolerableTaintsPreferNoSchedule`).
pub fn count_intolerable_prefer_no_schedule(
    taints: &[Taint],
    pre_score: &[Toleration],
    gate: bool,
) -> i64 {
    let count = taints
        .iter()
        .filter(|t| {
            t.effect == TaintEffect::PreferNoSchedule
                && !tolerations_tolerate_taint(pre_score, t, gate)
        })
        .count();
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// TaintToleration's raw score for one node: PreScore then Score. A `NoSchedule`
/// toleration does not help, even when its key and value match.
pub fn taint_toleration_score(
    taints: &[Taint],
    tolerations: &[Toleration],
    semantics: Semantics,
) -> i64 {
    count_intolerable_prefer_no_schedule(
        taints,
        &pre_score_tolerations(tolerations),
        semantics.comparison_operators_enabled(),
    )
}

/// `DefaultNormalizeScore(maxPriority, reverse, scores)`, in place.
///
/// The maximum starts at 0, so all-zero (or negative) scores become `max_priority`
/// when `reverse` and stay unchanged otherwise. Otherwise each score becomes
/// `max_priority * score / max` with integer division, then `max_priority - that` when
/// `reverse`: raw `[1, 2, 3]` gives `[67, 34, 0]`. Arithmetic wraps like Go's int64.
pub fn default_normalize_score(max_priority: i64, reverse: bool, scores: &mut [i64]) {
    let max = scores.iter().copied().fold(0, i64::max);
    if max == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max_priority);
        }
        return;
    }
    for s in scores.iter_mut() {
        *s = normalize_one(max_priority, reverse, *s, max);
    }
}

/// One score of [`default_normalize_score`] given the list's maximum (`max > 0`).
pub fn normalize_one(max_priority: i64, reverse: bool, score: i64, max: i64) -> i64 {
    if max <= 0 {
        return if reverse { max_priority } else { score };
    }
    // Upstream quirk: integer division happens before the subtraction.
    let scaled = max_priority.wrapping_mul(score).wrapping_div(max);
    if reverse {
        max_priority.wrapping_sub(scaled)
    } else {
        scaled
    }
}

/// TaintToleration's NormalizeScore: `DefaultNormalizeScore(100, reverse=true)`.
pub fn normalize_reverse(raw: &[i64]) -> Vec<i64> {
    let mut scores = raw.to_vec();
    default_normalize_score(MAX_NODE_SCORE, true, &mut scores);
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Operator;

    #[test]
    fn integer_division_before_subtraction() {
        assert_eq!(normalize_reverse(&[1, 2, 3]), [67, 34, 0]);
        assert_eq!(normalize_reverse(&[0, 1, 3]), [100, 67, 0]);
        assert_eq!(normalize_reverse(&[1, 7]), [86, 0]);
        assert_eq!(normalize_reverse(&[0, 0]), [100, 100]);
        assert_eq!(normalize_reverse(&[]), Vec::<i64>::new());
    }

    #[test]
    fn forward_normalization_and_negatives() {
        let mut s = [0, 5, 10];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [0, 50, 100]);
        let mut s = [-3, 0];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [-3, 0]);
        let mut s = [-3, 0];
        default_normalize_score(100, true, &mut s);
        assert_eq!(s, [100, 100]);
    }

    #[test]
    fn score_counts_only_prefer_no_schedule_with_empty_or_prefer_tolerations() {
        let taints = [
            Taint::new("cpu", "arm64", TaintEffect::PreferNoSchedule),
            Taint::new("disk", "ssd", TaintEffect::PreferNoSchedule),
            Taint::new("hard", "", TaintEffect::NoSchedule),
        ];
        let no_schedule_tols = [
            Toleration::new("cpu", Operator::Equal, "arm64", TaintEffect::NoSchedule),
            Toleration::new("disk", Operator::Equal, "ssd", TaintEffect::NoSchedule),
        ];
        let sem = Semantics::newest();
        assert_eq!(taint_toleration_score(&taints, &no_schedule_tols, sem), 2);
        let any_effect = [Toleration::new(
            "cpu",
            Operator::Exists,
            "",
            TaintEffect::Empty,
        )];
        assert_eq!(taint_toleration_score(&taints, &any_effect, sem), 1);
        let prefer = [Toleration::new(
            "",
            Operator::Exists,
            "",
            TaintEffect::PreferNoSchedule,
        )];
        assert_eq!(taint_toleration_score(&taints, &prefer, sem), 0);
        assert_eq!(pre_score_tolerations(&no_schedule_tols), []);
    }
}
