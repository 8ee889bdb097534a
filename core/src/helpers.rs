//! k8s.io/component-helpers `scheduling/corev1`: `TolerationsTolerateTaint` and
//! `FindMatchingUntoleratedTaint`, the building blocks of the scheduler filter, the
//! kubelet admission check and the DaemonSet checks.

use crate::matching::tolerates;
use crate::model::{Taint, TaintEffect, Toleration};

/// `TolerationsTolerateTaint`: true if *any* toleration tolerates the taint.
pub fn tolerations_tolerate_taint(tolerations: &[Toleration], taint: &Taint, gate: bool) -> bool {
    tolerations.iter().any(|t| tolerates(t, taint, gate))
}

/// Which taints `FindMatchingUntoleratedTaint` considers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaintFilter {
    /// Every taint (upstream's `nil` filter).
    All,
    /// `NoSchedule` and `NoExecute`: the scheduler filter and DaemonSet "should run".
    NoScheduleOrNoExecute,
    /// `NoExecute` only: kubelet admission and DaemonSet "should continue running".
    NoExecute,
    /// `PreferNoSchedule` only (the scheduler's score).
    PreferNoSchedule,
    /// No taint at all.
    None,
}

impl TaintFilter {
    /// Whether the filter keeps this taint.
    pub fn includes(self, taint: &Taint) -> bool {
        match self {
            Self::All => true,
            Self::NoScheduleOrNoExecute => {
                matches!(
                    taint.effect,
                    TaintEffect::NoSchedule | TaintEffect::NoExecute
                )
            }
            Self::NoExecute => taint.effect == TaintEffect::NoExecute,
            Self::PreferNoSchedule => taint.effect == TaintEffect::PreferNoSchedule,
            Self::None => false,
        }
    }
}

/// `FindMatchingUntoleratedTaint`: the first taint, in node order, that the filter keeps
/// and no toleration tolerates; `None` when every kept taint is tolerated.
pub fn find_matching_untolerated_taint<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    filter: TaintFilter,
    gate: bool,
) -> Option<&'a Taint> {
    find_untolerated_by(taints, tolerations, |t| filter.includes(t), gate)
}

/// [`find_matching_untolerated_taint`] with an arbitrary inclusion predicate.
pub fn find_untolerated_by<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    mut include: impl FnMut(&Taint) -> bool,
    gate: bool,
) -> Option<&'a Taint> {
    taints
        .iter()
        .find(|taint| include(taint) && !tolerations_tolerate_taint(tolerations, taint, gate))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Operator;

    #[test]
    fn first_untolerated_in_node_order() {
        let taints = [
            Taint::new("a", "", TaintEffect::PreferNoSchedule),
            Taint::new("b", "", TaintEffect::NoSchedule),
            Taint::new("c", "", TaintEffect::NoExecute),
        ];
        let tols = [Toleration::new(
            "b",
            Operator::Exists,
            "",
            TaintEffect::Empty,
        )];
        let found = find_matching_untolerated_taint(
            &taints,
            &tols,
            TaintFilter::NoScheduleOrNoExecute,
            false,
        );
        assert_eq!(found.map(|t| t.key.as_str()), Some("c"));
        assert_eq!(
            find_matching_untolerated_taint(&taints, &tols, TaintFilter::All, false)
                .map(|t| t.key.as_str()),
            Some("a")
        );
        assert!(
            find_matching_untolerated_taint(&taints, &tols, TaintFilter::None, false).is_none()
        );
        assert!(find_matching_untolerated_taint(&[], &[], TaintFilter::All, false).is_none());
    }
}
