//! Everything derived from the state is a [`taintlab_scenario::Scenario`]: this module
//! only turns the playground's settings into the scenario's options and gives the
//! components a value they can compare cheaply.

use std::ops::Deref;

use taintlab_core::Semantics;
use taintlab_core::admission::default_toleration_seconds::DefaultTolerationSecondsConfig;
use taintlab_scenario::{
    AdmissionOptions, Options, ParsedPane, RestrictionOptions, Scenario, TolerationsInput,
    annotation_from_json,
};

pub use taintlab_scenario::{
    CellKind, CellView, CommandEntry, EventEntry, NodeEntry, Origin, PodEntry, PodOrigin,
};

use crate::store::{Admission, State};

/// PodTolerationRestriction's cluster `default` and `whitelist` tolerations, as the
/// scenario takes them.
pub type ClusterTolerations = [TolerationsInput; 2];

/// The cluster tolerations as texts, read while the scenario is built (in builds with
/// the input layer's readers: the worker, the tests). The page passes the worker's
/// readings instead ([`crate::hooks::use_tolerations`]).
pub fn cluster_texts(a: &Admission) -> ClusterTolerations {
    [
        TolerationsInput::Text(a.cluster_default.to_string()),
        TolerationsInput::Text(a.cluster_whitelist.to_string()),
    ]
}

/// The scenario's options for the playground's settings, the cluster tolerations read
/// as texts (see [`cluster_texts`]).
pub fn options(semantics: Semantics, a: &Admission) -> Options {
    options_with(semantics, a, &cluster_texts(a))
}

/// The scenario's options for the playground's settings, with the cluster tolerations
/// of PodTolerationRestriction as given.
pub fn options_with(semantics: Semantics, a: &Admission, cluster: &ClusterTolerations) -> Options {
    let admission = a.enabled.then(|| AdmissionOptions {
        default_toleration_seconds: a.default_toleration_seconds.then_some(
            DefaultTolerationSecondsConfig {
                not_ready_seconds: a.not_ready_seconds,
                unreachable_seconds: a.unreachable_seconds,
            },
        ),
        pod_toleration_restriction: a.pod_toleration_restriction.then(|| RestrictionOptions {
            default: cluster[0].clone(),
            whitelist: cluster[1].clone(),
        }),
        extended_resource_toleration: a.extended_resource_toleration,
        namespace_default: annotation_from_json(a.namespace_default.as_deref()),
        namespace_whitelist: annotation_from_json(a.namespace_whitelist.as_deref()),
        ..AdmissionOptions::default()
    });
    Options {
        semantics,
        admission,
        // The toggle makes every pod a DaemonSet pod; off, DaemonSet workloads still are.
        daemon_set: a.daemonset.then_some(true),
    }
}

/// The scenario's options for a state.
pub fn state_options(state: &State) -> Options {
    options(
        Semantics::at(state.kube_version()).with_comparison_operators(state.comparison_operators),
        &state.admission,
    )
}

/// The scenario, compared by identity: an analysis is only equal to itself, so
/// components re-render when a new one is computed and never compare thousands of
/// nodes.
pub struct Analysis(pub Scenario);

impl Deref for Analysis {
    type Target = Scenario;

    fn deref(&self) -> &Scenario {
        &self.0
    }
}

impl PartialEq for Analysis {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Analysis {}

/// Derives everything from the two parsed panes and the options.
pub fn analyse(nodes: &ParsedPane, pods: &ParsedPane, options: &Options) -> Analysis {
    Analysis(Scenario::build(&[nodes, pods], options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_pane;
    use taintlab_scenario::PaneKind;

    #[test]
    fn settings_become_options() {
        let mut a = Admission::default();
        let o = options(Semantics::newest(), &a);
        assert!(o.admission.is_some() && o.daemon_set.is_none());
        a.enabled = false;
        a.daemonset = true;
        let o = options(Semantics::newest(), &a);
        assert!(o.admission.is_none());
        assert_eq!(o.daemon_set, Some(true));
    }

    #[test]
    fn cluster_tolerations_read_elsewhere_give_the_same_scenario() {
        let mut a = Admission {
            pod_toleration_restriction: true,
            cluster_whitelist: "- {key: zone, operator: Exists}\n".into(),
            ..Admission::default()
        };
        let nodes = parse_pane("kubectl taint nodes n1 a=b:NoSchedule\n", PaneKind::Nodes);
        let pods = parse_pane(
            "tolerations: [{key: a, operator: Exists}]\n",
            PaneKind::Pods,
        );
        let read = |a: &Admission| {
            [&a.cluster_default, &a.cluster_whitelist]
                .map(|t| TolerationsInput::Read(taintlab_scenario::read_tolerations(t)))
        };
        for whitelist in [
            "- {key: zone, operator: Exists}\n",
            "- {key: a, effect: NoSchedul}\n",
        ] {
            a.cluster_whitelist = whitelist.into();
            let texts = analyse(&nodes, &pods, &options(Semantics::newest(), &a));
            let elsewhere = analyse(
                &nodes,
                &pods,
                &options_with(Semantics::newest(), &a, &read(&a)),
            );
            assert_eq!(texts.config_errors, elsewhere.config_errors);
            assert_eq!(texts.config_errors.is_empty(), whitelist.contains("zone"));
            assert_eq!(texts.findings.len(), elsewhere.findings.len());
            assert_eq!(
                texts.cell(0, 0).map(|c| c.kind),
                elsewhere.cell(0, 0).map(|c| c.kind)
            );
        }
    }

    #[test]
    fn the_playground_renders_the_scenario() {
        let nodes = parse_pane("kubectl taint nodes n1 a=b:NoSchedule\n", PaneKind::Nodes);
        let pods = parse_pane(
            "tolerations: [{key: a, operator: Exists}]\n---\ntolerations: []\n",
            PaneKind::Pods,
        );
        let a = analyse(&nodes, &pods, &state_options(&State::default()));
        assert_eq!(a.pods.len(), 2);
        assert_eq!(a.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
        assert_eq!(a.cell(1, 0).map(|c| c.kind), Some(CellKind::Blocked));
        assert!(a == a && analyse(&nodes, &pods, &state_options(&State::default())) != a);
    }
}
