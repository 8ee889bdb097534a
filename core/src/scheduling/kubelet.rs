//! The kubelet's admission check on taints (`pkg/kubelet/lifecycle/predicate.go`),
//! `noScheduleTaintTolerated` / `generalFilter`: defence in depth for pods that reach a node without the scheduler.

use crate::helpers::{TaintFilter, find_matching_untolerated_taint};
use crate::model::{Taint, Toleration};
use crate::version::Semantics;

/// The rejection reason the kubelet reports.
pub const KUBELET_REJECTION_REASON: &str = "TaintToleration";
/// The rejection message. It still uses the ≤ v1.17 text, because the kubelet reads the
/// plugin's unchanged `ErrReasonNotMatch` constant.
pub const KUBELET_REJECTION_MESSAGE: &str =
    "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate";

/// A kubelet admission rejection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KubeletRejection<'a> {
    /// `TaintToleration`.
    pub reason: &'static str,
    /// [`KUBELET_REJECTION_MESSAGE`].
    pub message: &'static str,
    /// The first NoExecute taint, in node order, that the pod does not tolerate.
    pub taint: &'a Taint,
}

/// Kubelet admission for a non-static pod: only `NoExecute` taints are checked (with the
/// comparison gate). NoSchedule taints are the scheduler's business, so a pod bound
/// with `spec.nodeName` onto a NoSchedule-only node is admitted. Static (mirror) pods
/// skip this check entirely; callers decide that.
pub fn kubelet_admit<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    semantics: Semantics,
) -> Result<(), KubeletRejection<'a>> {
    match find_matching_untolerated_taint(
        taints,
        tolerations,
        TaintFilter::NoExecute,
        semantics.comparison_operators_enabled(),
    ) {
        None => Ok(()),
        Some(taint) => Err(KubeletRejection {
            reason: KUBELET_REJECTION_REASON,
            message: KUBELET_REJECTION_MESSAGE,
            taint,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Operator, TaintEffect};

    #[test]
    fn only_no_execute_is_checked() {
        let sem = Semantics::newest();
        let taints = [
            Taint::new("a", "", TaintEffect::NoSchedule),
            Taint::new("b", "", TaintEffect::NoExecute),
        ];
        let err = kubelet_admit(&taints, &[], sem).unwrap_err();
        assert_eq!(err.taint.key, "b");
        assert_eq!(err.reason, "TaintToleration");
        assert_eq!(
            err.message,
            "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"
        );
        let tols = [
            Toleration::new("b", Operator::Exists, "", TaintEffect::NoExecute)
                .with_seconds(Some(5)),
        ];
        assert_eq!(kubelet_admit(&taints, &tols, sem), Ok(()));
    }
}
