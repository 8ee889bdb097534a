//! DaemonSet controller: the tolerations every daemon pod gets
//! (`AddOrUpdateDaemonPodTolerations`, `pkg/controller/daemon/util`) and the taint part of
//! `NodeShouldRunDaemonPod` (`pkg/controller/daemon/daemon_controller.go`), and the
//! per-node node affinity the controller writes into each daemon pod
//! (`ReplaceDaemonSetPodNodeNameNodeAffinity`).

use alloc::string::String;
use alloc::vec::Vec;

use crate::admission::add_or_update_toleration;
use crate::helpers::{TaintFilter, find_matching_untolerated_taint};
use crate::model::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Operator,
    Taint, TaintEffect, Toleration, keys,
};

/// The tolerations the controller adds to every daemon pod template, in the order it
/// applies them: all `Exists` without `tolerationSeconds`, so they last forever.
/// `network-unavailable` only for `hostNetwork: true` pods.
pub fn daemon_pod_default_tolerations(host_network: bool) -> Vec<Toleration> {
    let mut defaults = Vec::with_capacity(7);
    let mut add = |key: &str, effect: TaintEffect| {
        defaults.push(Toleration::new(key, Operator::Exists, "", effect));
    };
    add(keys::NOT_READY, TaintEffect::NoExecute);
    add(keys::UNREACHABLE, TaintEffect::NoExecute);
    add(keys::DISK_PRESSURE, TaintEffect::NoSchedule);
    add(keys::MEMORY_PRESSURE, TaintEffect::NoSchedule);
    add(keys::PID_PRESSURE, TaintEffect::NoSchedule);
    add(keys::UNSCHEDULABLE, TaintEffect::NoSchedule);
    if host_network {
        add(keys::NETWORK_UNAVAILABLE, TaintEffect::NoSchedule);
    }
    defaults
}

/// `AddOrUpdateDaemonPodTolerations`: applies [`daemon_pod_default_tolerations`] one by
/// one with [`add_or_update_toleration`].
///
/// Consequences of upstream's unconditional in-place replacement: a user's
/// `{not-ready, Exists, NoExecute, 300s}` becomes the infinite one, while
/// `{not-ready, Equal, "", NoExecute, 300s}` (another operator) stays next to it and, being
/// first, is the one eviction uses. A wildcard user toleration does not stop the explicit
/// ones from being appended.
pub fn add_or_update_daemon_pod_tolerations(tolerations: &mut Vec<Toleration>, host_network: bool) {
    for toleration in daemon_pod_default_tolerations(host_network) {
        add_or_update_toleration(tolerations, &toleration);
    }
}

/// The taint part of `NodeShouldRunDaemonPod`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DaemonTaintCheck {
    /// A daemon pod may be created on the node: no untolerated `NoSchedule` or
    /// `NoExecute` taint.
    pub should_run: bool,
    /// An existing daemon pod stays: no untolerated `NoExecute` taint. A node that gains
    /// an untolerated `NoSchedule` taint keeps its daemon pod.
    pub should_continue_running: bool,
    /// The first untolerated `NoSchedule`/`NoExecute` taint in node order, if any.
    pub blocking_taint: Option<Taint>,
    /// The first untolerated `NoExecute` taint in node order, if any.
    pub evicting_taint: Option<Taint>,
}

/// The taint part of `NodeShouldRunDaemonPod` for a pod template whose tolerations
/// already went through [`add_or_update_daemon_pod_tolerations`]. `gate` is the
/// `TaintTolerationComparisonOperators` feature gate.
///
/// Node name and node affinity are not modelled: when they do not fit, upstream answers
/// `(false, false)` whatever the taints.
pub fn daemon_taint_check(
    taints: &[Taint],
    tolerations: &[Toleration],
    gate: bool,
) -> DaemonTaintCheck {
    let blocking = find_matching_untolerated_taint(
        taints,
        tolerations,
        TaintFilter::NoScheduleOrNoExecute,
        gate,
    );
    let evicting =
        find_matching_untolerated_taint(taints, tolerations, TaintFilter::NoExecute, gate);
    DaemonTaintCheck {
        should_run: blocking.is_none(),
        should_continue_running: evicting.is_none(),
        blocking_taint: blocking.cloned(),
        evicting_taint: evicting.cloned(),
    }
}

/// [`daemon_taint_check`] for the user's template tolerations: adds the daemon
/// tolerations first, as the controller does (`NewPod`).
pub fn daemon_pod_taint_check(
    taints: &[Taint],
    template_tolerations: &[Toleration],
    host_network: bool,
    gate: bool,
) -> DaemonTaintCheck {
    let mut tolerations = template_tolerations.to_vec();
    add_or_update_daemon_pod_tolerations(&mut tolerations, host_network);
    daemon_taint_check(taints, &tolerations, gate)
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity` (`pkg/controller/daemon/util`): the
/// affinity of the daemon pod the controller creates for `node_name`. The required
/// node affinity becomes one term, `matchFields metadata.name In [node_name]`: set when
/// there was none, replacing every term otherwise (the controller already checked the
/// template's terms in `NodeShouldRunDaemonPod`). Preferred terms and `nodeSelector`
/// stay as they are.
pub fn replace_node_name_node_affinity(affinity: Option<Affinity>, node_name: &str) -> Affinity {
    let term = NodeSelectorTerm {
        match_expressions: Vec::new(),
        match_fields: alloc::vec![NodeSelectorRequirement {
            key: String::from("metadata.name"),
            operator: String::from("In"),
            values: alloc::vec![String::from(node_name)],
        }],
    };
    let mut affinity = affinity.unwrap_or_default();
    let node_affinity = affinity
        .node_affinity
        .get_or_insert_with(NodeAffinity::default);
    node_affinity.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: alloc::vec![term],
    });
    affinity
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
        Toleration::new(key, Operator::parse(op), value, TaintEffect::parse(effect))
    }

    #[test]
    fn daemon_pod_affinity_names_its_node_and_keeps_preferred_terms() {
        use crate::model::PreferredSchedulingTerm;
        let fresh = replace_node_name_node_affinity(None, "n1");
        let req = fresh
            .node_affinity
            .as_ref()
            .and_then(|a| {
                a.required_during_scheduling_ignored_during_execution
                    .as_ref()
            })
            .expect("required");
        assert_eq!(req.node_selector_terms.len(), 1);
        assert_eq!(
            req.node_selector_terms[0].match_fields,
            vec![NodeSelectorRequirement::new("metadata.name", "In", &["n1"])]
        );
        let preferred = PreferredSchedulingTerm {
            weight: 5,
            preference: NodeSelectorTerm::default(),
        };
        let template = Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                    node_selector_terms: vec![
                        NodeSelectorTerm {
                            match_expressions: vec![NodeSelectorRequirement::new(
                                "zone",
                                "In",
                                &["a"],
                            )],
                            match_fields: Vec::new(),
                        },
                        NodeSelectorTerm::default(),
                    ],
                }),
                preferred_during_scheduling_ignored_during_execution: vec![preferred.clone()],
            }),
        };
        let replaced = replace_node_name_node_affinity(Some(template), "n2");
        let na = replaced.node_affinity.expect("node affinity");
        let terms = na
            .required_during_scheduling_ignored_during_execution
            .expect("required")
            .node_selector_terms;
        assert_eq!(terms.len(), 1);
        assert!(terms[0].match_expressions.is_empty());
        assert_eq!(terms[0].match_fields[0].values, vec![String::from("n2")]);
        assert_eq!(
            na.preferred_during_scheduling_ignored_during_execution,
            vec![preferred]
        );
    }

    #[test]
    fn defaults_in_order_and_host_network() {
        let plain = daemon_pod_default_tolerations(false);
        assert_eq!(plain.len(), 6);
        assert_eq!(plain[0], tol(keys::NOT_READY, "Exists", "", "NoExecute"));
        assert_eq!(
            plain[5],
            tol(keys::UNSCHEDULABLE, "Exists", "", "NoSchedule")
        );
        let host = daemon_pod_default_tolerations(true);
        assert_eq!(&host[..6], &plain[..]);
        assert_eq!(
            host[6],
            tol(keys::NETWORK_UNAVAILABLE, "Exists", "", "NoSchedule")
        );
        assert!(host.iter().all(|t| t.toleration_seconds.is_none()));
    }

    #[test]
    fn same_operator_replaced_other_operator_kept() {
        let mut tols =
            vec![tol(keys::NOT_READY, "Exists", "", "NoExecute").with_seconds(Some(300))];
        add_or_update_daemon_pod_tolerations(&mut tols, false);
        assert_eq!(tols, daemon_pod_default_tolerations(false));

        let equal = tol(keys::NOT_READY, "Equal", "", "NoExecute").with_seconds(Some(300));
        let mut tols = vec![equal.clone()];
        add_or_update_daemon_pod_tolerations(&mut tols, false);
        assert_eq!(tols.len(), 7);
        assert_eq!(tols[0], equal);
    }

    #[test]
    fn existing_default_keeps_its_position() {
        let mut tols = vec![
            tol(keys::UNSCHEDULABLE, "Exists", "", "NoSchedule"),
            tol("x", "Exists", "", "NoSchedule"),
        ];
        add_or_update_daemon_pod_tolerations(&mut tols, false);
        assert_eq!(
            tols[0],
            tol(keys::UNSCHEDULABLE, "Exists", "", "NoSchedule")
        );
        assert_eq!(tols[1], tol("x", "Exists", "", "NoSchedule"));
        assert_eq!(tols.len(), 7);
    }

    #[test]
    fn taint_check() {
        let cordoned = [Taint::new(keys::UNSCHEDULABLE, "", TaintEffect::NoSchedule)];
        let c = daemon_pod_taint_check(&cordoned, &[], false, false);
        assert!(c.should_run && c.should_continue_running);

        let cp = Taint::new(keys::CONTROL_PLANE, "", TaintEffect::NoSchedule);
        let c = daemon_pod_taint_check(core::slice::from_ref(&cp), &[], false, false);
        assert!(!c.should_run && c.should_continue_running);
        assert_eq!(c.blocking_taint, Some(cp));
        assert_eq!(c.evicting_taint, None);

        let net = [Taint::new(
            keys::NETWORK_UNAVAILABLE,
            "",
            TaintEffect::NoSchedule,
        )];
        assert!(!daemon_pod_taint_check(&net, &[], false, false).should_run);
        assert!(daemon_pod_taint_check(&net, &[], true, false).should_run);

        let evict = Taint::new("dedicated", "db", TaintEffect::NoExecute);
        let c = daemon_pod_taint_check(core::slice::from_ref(&evict), &[], false, false);
        assert!(!c.should_run && !c.should_continue_running);
        assert_eq!(c.evicting_taint, Some(evict));

        // PreferNoSchedule never blocks.
        let soft = [Taint::new("soft", "", TaintEffect::PreferNoSchedule)];
        assert!(daemon_pod_taint_check(&soft, &[], false, false).should_run);
    }

    #[test]
    fn taint_check_honours_the_comparison_gate() {
        let taints = [Taint::new("sla", "3", TaintEffect::NoExecute)];
        let tols = [tol("sla", "Lt", "5", "NoExecute")];
        assert!(!daemon_taint_check(&taints, &tols, false).should_continue_running);
        assert!(daemon_taint_check(&taints, &tols, true).should_continue_running);
    }

    fn arb_toleration() -> impl Strategy<Value = Toleration> {
        (
            prop::sample::select(vec![
                "",
                keys::NOT_READY,
                keys::UNSCHEDULABLE,
                keys::NETWORK_UNAVAILABLE,
            ]),
            prop::sample::select(vec!["", "Equal", "Exists"]),
            prop::sample::select(vec!["", "NoSchedule", "NoExecute"]),
            prop::option::of(0i64..600),
        )
            .prop_map(|(k, o, e, s)| tol(k, o, "", e).with_seconds(s))
    }

    proptest! {
        #[test]
        fn idempotent_and_complete(tols in prop::collection::vec(arb_toleration(), 0..6), host in any::<bool>()) {
            let mut once = tols.clone();
            add_or_update_daemon_pod_tolerations(&mut once, host);
            let mut twice = once.clone();
            add_or_update_daemon_pod_tolerations(&mut twice, host);
            prop_assert_eq!(&once, &twice);
            // Every default is present exactly as defined (no seconds).
            for d in daemon_pod_default_tolerations(host) {
                prop_assert!(once.contains(&d));
            }
            // Existing entries keep their positions; only appends after them.
            prop_assert!(once.len() >= tols.len());
        }
    }
}
