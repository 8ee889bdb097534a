//! The `DefaultTolerationSeconds` admission plugin
//! (`plugin/pkg/admission/defaulttolerationseconds`), enabled by default.
//!
//! On pod CREATE and UPDATE it appends `node.kubernetes.io/not-ready:NoExecute` and
//! `node.kubernetes.io/unreachable:NoExecute` tolerations (operator `Exists`, limited to
//! `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds`,
//! both 300 by default) unless the pod already has a toleration that "covers" them.

use alloc::vec::Vec;

use super::Operation;
use crate::model::{Operator, TaintEffect, Toleration, keys};

/// The kube-apiserver default of both `--default-*-toleration-seconds` flags.
pub const DEFAULT_TOLERATION_SECONDS: i64 = 300;

/// The plugin's configuration: the two kube-apiserver flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DefaultTolerationSecondsConfig {
    /// `--default-not-ready-toleration-seconds` (default 300).
    pub not_ready_seconds: i64,
    /// `--default-unreachable-toleration-seconds` (default 300).
    pub unreachable_seconds: i64,
}

impl Default for DefaultTolerationSecondsConfig {
    fn default() -> Self {
        Self {
            not_ready_seconds: DEFAULT_TOLERATION_SECONDS,
            unreachable_seconds: DEFAULT_TOLERATION_SECONDS,
        }
    }
}

/// Which of the two default tolerations [`admit`] appended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DefaultTolerationsAdded {
    /// `node.kubernetes.io/not-ready:NoExecute` was appended.
    pub not_ready: bool,
    /// `node.kubernetes.io/unreachable:NoExecute` was appended.
    pub unreachable: bool,
}

impl DefaultTolerationsAdded {
    /// True when nothing was appended.
    pub fn is_empty(self) -> bool {
        !self.not_ready && !self.unreachable
    }
}

/// Whether `toleration` counts as a toleration for the NoExecute taint with `taint_key`:
/// its key is `taint_key` or empty, and its effect is `NoExecute` or empty.
///
/// Upstream quirk: operator, value and `tolerationSeconds` are ignored, so
/// `{not-ready, Equal, "foo", NoExecute}` counts although it tolerates nothing, and so does
/// an `Lt`/`Gt` toleration on that key.
pub fn covers(toleration: &Toleration, taint_key: &str) -> bool {
    (toleration.key == taint_key || toleration.key.is_empty())
        && matches!(
            toleration.effect,
            TaintEffect::NoExecute | TaintEffect::Empty
        )
}

/// [`covers`] for `node.kubernetes.io/not-ready`.
pub fn covers_not_ready(toleration: &Toleration) -> bool {
    covers(toleration, keys::NOT_READY)
}

/// [`covers`] for `node.kubernetes.io/unreachable`.
pub fn covers_unreachable(toleration: &Toleration) -> bool {
    covers(toleration, keys::UNREACHABLE)
}

/// The toleration appended for `node.kubernetes.io/not-ready`.
pub fn not_ready_toleration(seconds: i64) -> Toleration {
    Toleration::new(
        keys::NOT_READY,
        Operator::Exists,
        "",
        TaintEffect::NoExecute,
    )
    .with_seconds(Some(seconds))
}

/// The toleration appended for `node.kubernetes.io/unreachable`.
pub fn unreachable_toleration(seconds: i64) -> Toleration {
    Toleration::new(
        keys::UNREACHABLE,
        Operator::Exists,
        "",
        TaintEffect::NoExecute,
    )
    .with_seconds(Some(seconds))
}

/// Which default tolerations the plugin would append to these tolerations (on CREATE or
/// UPDATE).
pub fn missing_defaults(tolerations: &[Toleration]) -> DefaultTolerationsAdded {
    DefaultTolerationsAdded {
        not_ready: !tolerations.iter().any(covers_not_ready),
        unreachable: !tolerations.iter().any(covers_unreachable),
    }
}

/// Runs the plugin on a pod's `spec.tolerations`: on CREATE and UPDATE, appends the
/// not-ready toleration and then the unreachable one, each only when nothing covers it
/// (see [`covers`]). Plain appends at the end; existing entries are never touched. Other
/// operations are ignored.
pub fn admit(
    operation: Operation,
    tolerations: &mut Vec<Toleration>,
    config: &DefaultTolerationSecondsConfig,
) -> DefaultTolerationsAdded {
    if !operation.is_create_or_update() {
        return DefaultTolerationsAdded::default();
    }
    let added = missing_defaults(tolerations);
    if added.not_ready {
        tolerations.push(not_ready_toleration(config.not_ready_seconds));
    }
    if added.unreachable {
        tolerations.push(unreachable_toleration(config.unreachable_seconds));
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    fn tol(key: &str, op: Operator, value: &str, effect: TaintEffect) -> Toleration {
        Toleration::new(key, op, value, effect)
    }

    #[test]
    fn appends_both_in_order_with_configured_seconds() {
        let mut tols = vec![tol("foo", Operator::Equal, "bar", TaintEffect::NoSchedule)];
        let cfg = DefaultTolerationSecondsConfig {
            not_ready_seconds: 60,
            unreachable_seconds: 120,
        };
        let added = admit(Operation::Create, &mut tols, &cfg);
        assert!(added.not_ready && added.unreachable);
        assert_eq!(tols.len(), 3);
        assert_eq!(tols[1], not_ready_toleration(60));
        assert_eq!(tols[2], unreachable_toleration(120));
    }

    #[test]
    fn covers_ignores_operator_value_and_seconds() {
        // Matches nothing at match time, yet counts as covering not-ready.
        let odd = tol(
            keys::NOT_READY,
            Operator::Equal,
            "foo",
            TaintEffect::NoExecute,
        )
        .with_seconds(Some(-5));
        assert!(covers_not_ready(&odd));
        assert!(!covers_unreachable(&odd));
        let gt = tol(keys::UNREACHABLE, Operator::Gt, "5", TaintEffect::NoExecute);
        assert!(covers_unreachable(&gt));
        let unknown = tol(
            keys::UNREACHABLE,
            Operator::Other("Bogus".into()),
            "",
            TaintEffect::Empty,
        );
        assert!(covers_unreachable(&unknown));
    }

    #[test]
    fn wildcards_count_only_with_matching_effect() {
        let all = tol("", Operator::Exists, "", TaintEffect::Empty);
        assert!(covers_not_ready(&all) && covers_unreachable(&all));
        let all_noexec = tol("", Operator::Exists, "", TaintEffect::NoExecute);
        assert!(covers_not_ready(&all_noexec) && covers_unreachable(&all_noexec));
        let all_nosched = tol("", Operator::Exists, "", TaintEffect::NoSchedule);
        assert!(!covers_not_ready(&all_nosched) && !covers_unreachable(&all_nosched));
        let nr_nosched = tol(
            keys::NOT_READY,
            Operator::Exists,
            "",
            TaintEffect::NoSchedule,
        );
        assert!(!covers_not_ready(&nr_nosched));
    }

    #[test]
    fn existing_entry_is_not_replaced() {
        let mine = tol(
            keys::NOT_READY,
            Operator::Exists,
            "",
            TaintEffect::NoExecute,
        )
        .with_seconds(Some(700));
        let mut tols = vec![mine.clone()];
        let added = admit(Operation::Update, &mut tols, &Default::default());
        assert!(!added.not_ready && added.unreachable);
        assert_eq!(tols, vec![mine, unreachable_toleration(300)]);
    }

    #[test]
    fn delete_and_connect_are_ignored() {
        for op in [Operation::Delete, Operation::Connect] {
            let mut tols = Vec::new();
            assert!(admit(op, &mut tols, &Default::default()).is_empty());
            assert!(tols.is_empty());
        }
    }

    fn arb_toleration() -> impl Strategy<Value = Toleration> {
        (
            prop::sample::select(vec!["", keys::NOT_READY, keys::UNREACHABLE, "foo"]),
            prop::sample::select(vec!["", "Equal", "Exists", "Gt"]),
            prop::sample::select(vec!["", "NoExecute", "NoSchedule"]),
            prop::option::of(-5i64..1000),
        )
            .prop_map(|(k, o, e, s)| {
                tol(k, Operator::parse(o), "", TaintEffect::parse(e)).with_seconds(s)
            })
    }

    proptest! {
        #[test]
        fn idempotent(tols in prop::collection::vec(arb_toleration(), 0..6), nr in 0i64..1000, ur in 0i64..1000) {
            let cfg = DefaultTolerationSecondsConfig { not_ready_seconds: nr, unreachable_seconds: ur };
            let mut once = tols.clone();
            admit(Operation::Create, &mut once, &cfg);
            let mut twice = once.clone();
            let again = admit(Operation::Create, &mut twice, &cfg);
            prop_assert!(again.is_empty());
            prop_assert_eq!(&once, &twice);
            // Only appends: the original list is a prefix.
            prop_assert_eq!(&once[..tols.len()], &tols[..]);
            prop_assert!(once.iter().any(covers_not_ready));
            prop_assert!(once.iter().any(covers_unreachable));
        }
    }
}
