//! The cluster-wide what-if: the state's action lines run through the core's simulation
//! on the pasted cluster, with the control plane's options the playground's settings
//! imply (`taintlab_scenario::what_if::simulation_options`: DefaultTolerationSeconds as
//! the admission settings say).
//!
//! The simulation and the rendering of its answer both run in the worker
//! (`src/bin/worker.rs`, messages `whatif` and `whatifAt`), so neither the simulator nor
//! the tab's timeline, tables and matrix are part of the page's first download: the
//! worker renders them as HTML ([`crate::timeline::whatif_html`], every string escaped)
//! and the page's tab ([`crate::timeline::WhatIf`]) is a shell that puts that HTML in
//! place. The worker keeps the last run ([`Session`]), so moving the scrubber only
//! renders the cluster and the matrix at the new second.

/// Separates the parts of the worker's answer (see [`Answer`]).
pub const PART: char = '\u{1}';

/// The worker's answer to a `whatif` message, split into the parts the tab places
/// around its scrubber.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The last simulated second; `None` when the run stopped on an error (no scrubber).
    pub until: Option<i64>,
    /// Errors, or the summary, time, notes and pods left Pending.
    pub head: String,
    /// The swim lanes (their scrub line follows the `--scrub` CSS variable the page sets).
    pub lanes: String,
    /// The cluster and the matrix at the scrubbed second.
    pub now: String,
    /// Capacity, `kubectl drain`'s lines and the events.
    pub tail: String,
}

impl Answer {
    /// Reads the text [`Answer::to_text`] wrote.
    pub fn parse(text: &str) -> Self {
        let mut parts = text.split(PART);
        let mut next = || parts.next().unwrap_or_default().to_string();
        let until = next().parse().ok();
        Self {
            until,
            head: next(),
            lanes: next(),
            now: next(),
            tail: next(),
        }
    }

    /// The answer as one text (what crosses from the worker).
    pub fn to_text(&self) -> String {
        let until = self.until.map(|u| u.to_string()).unwrap_or_default();
        [
            until.as_str(),
            &self.head,
            &self.lanes,
            &self.now,
            &self.tail,
        ]
        .join(&PART.to_string())
    }
}

/// The last second simulated for `actions` when the state leaves it at 0: the last
/// action's second plus 600 s (ten minutes covers the default 300 s tolerations after
/// the node-monitor grace period, and a drain's evictions and grace periods).
pub fn auto_until(last_action: i64) -> i64 {
    last_action.saturating_add(600)
}

#[cfg(feature = "reader")]
pub use compute::{Failed, MAX_MATRIX_NODES, MAX_MATRIX_PODS, Matrix, Session, at_text, run_text};

/// The simulation itself, linked only into builds that read texts (the worker, and the
/// page built for tests, which runs it on its own thread when no worker can start).
#[cfg(feature = "reader")]
mod compute {
    use std::cell::RefCell;

    use taintlab_core::daemonset::add_or_update_daemon_pod_tolerations;
    use taintlab_core::model::{Node, SchedulingPod};
    use taintlab_core::node_lifecycle::apply_default_toleration_seconds;
    use taintlab_core::scheduling::filter::{FilterPlugin, Status};
    use taintlab_core::scheduling::placement::{
        PlacementOptions, PreparedPod, node_states_with_allocatable,
    };
    use taintlab_core::simulation::{self, Cluster, ControllerKind, Timeline, WhatIf};
    use taintlab_scenario::what_if::simulation_options;
    use taintlab_scenario::{Scenario, parse_actions};

    use super::{Answer, auto_until};
    use crate::i18n::Lang;
    use crate::timeline::whatif_html as html;

    /// Pods (rows) the matrix at a second shows at most.
    pub const MAX_MATRIX_PODS: usize = 60;
    /// Nodes (columns) the matrix at a second shows at most.
    pub const MAX_MATRIX_NODES: usize = 40;

    /// The filter plugins that reject a pod on one node, with their statuses (empty:
    /// it fits).
    pub type Failed = Vec<(FilterPlugin, Status)>;

    /// A finished run: what the scrubber needs to show any second again.
    pub struct Session {
        /// The timeline.
        pub timeline: Timeline,
        /// The starting cluster (pod specs, node labels and allocatable).
        pub start: Cluster,
        /// The control plane's options the run used.
        pub options: simulation::Options,
        /// The scheduler's options for the matrix.
        pub placement: PlacementOptions,
        /// The assumptions made to build the starting cluster.
        pub notes: Vec<String>,
        /// Milliseconds the simulation took.
        pub ms: f64,
    }

    /// Which pod could be scheduled on which node at one second: the filters of the
    /// default profile (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
    /// NodePorts, NodeResourcesFit) run for each pod that exists then, as a new pod with
    /// its spec would meet them, against the nodes as they are then and the pods bound
    /// to them (the pod's own place counts as taken).
    pub struct Matrix {
        /// The nodes that exist then (index into [`Timeline::nodes`]), first
        /// [`MAX_MATRIX_NODES`].
        pub nodes: Vec<usize>,
        /// Nodes that exist then but are not shown.
        pub more_nodes: usize,
        /// Per pod (index into [`Timeline::pods`]), per shown node, the failing filter
        /// plugins (empty: the pod fits).
        pub rows: Vec<(usize, Vec<Failed>)>,
        /// Pods that exist then but are not shown (or whose spec is not known).
        pub more_pods: usize,
    }

    impl Session {
        /// The spec of pod `i` as the scheduler would see a new copy of it: a starting
        /// pod's own, or its controller's template; with the DaemonSet controller's
        /// tolerations and DefaultTolerationSeconds' as the simulation adds them.
        /// `None` for a pod of an owner the cluster does not hold.
        pub fn pod_spec(&self, i: usize) -> Option<SchedulingPod> {
            let rec = self.timeline.pods.get(i)?;
            let workload = |kind: ControllerKind, name: &str| {
                self.start
                    .workloads
                    .iter()
                    .find(|w| w.kind == kind && w.name == name && w.namespace == rec.namespace)
            };
            let (mut spec, host_network) = match self.start.pods.get(i) {
                Some(p) if p.pod.pod.name == rec.name && p.pod.pod.namespace == rec.namespace => {
                    (p.pod.clone(), false)
                }
                _ => {
                    // The owner's template: the pod's controller, or for a ReplicaSet
                    // `<deployment>-<hash>` the Deployment that made it; else the spec
                    // of the pod it replaces.
                    let o = rec.owner.as_ref()?;
                    let w = workload(o.kind, &o.name).or_else(|| {
                        let (dep, _) = o.name.rsplit_once('-')?;
                        (o.kind == ControllerKind::ReplicaSet)
                            .then(|| workload(ControllerKind::Deployment, dep))
                            .flatten()
                    });
                    match w {
                        Some(w) => {
                            let mut s = w.template.spec.clone();
                            s.pod.name = rec.name.clone();
                            s.pod.namespace = rec.namespace.clone();
                            (s, w.template.host_network)
                        }
                        None => {
                            let r = rec.replaces.filter(|&r| r < i)?;
                            let mut s = self.pod_spec(r)?;
                            s.pod.name = rec.name.clone();
                            (s, false)
                        }
                    }
                }
            };
            if rec
                .owner
                .as_ref()
                .is_some_and(|o| o.kind == ControllerKind::DaemonSet)
            {
                add_or_update_daemon_pod_tolerations(&mut spec.pod.tolerations, host_network);
            }
            if let Some(d) = self.options.default_toleration_seconds {
                spec.pod.tolerations = apply_default_toleration_seconds(&spec.pod.tolerations, d);
            }
            spec.pod.node_name.clear();
            Some(spec)
        }

        /// The matrix at second `t`.
        pub fn matrix(&self, t: i64) -> Matrix {
            let at = self.timeline.at(t);
            let known: Vec<(usize, Node, Option<_>)> = at
                .nodes
                .iter()
                .filter_map(|n| {
                    let base = self.start.nodes.get(n.node)?;
                    let mut node = base.node.clone();
                    node.taints = n.taints.clone();
                    node.unschedulable = n.unschedulable;
                    Some((n.node, node, base.allocatable.clone()))
                })
                .collect();
            let more_nodes = at.nodes.len().saturating_sub(MAX_MATRIX_NODES);
            let shown = &known[..known.len().min(MAX_MATRIX_NODES)];
            let nodes: Vec<Node> = shown.iter().map(|(_, n, _)| n.clone()).collect();
            let allocatable: Vec<_> = shown.iter().map(|(_, _, a)| a.clone()).collect();
            let shown_index: Vec<usize> = shown.iter().map(|(i, _, _)| *i).collect();
            // Only the pods bound to the shown nodes load them (a cluster of 50,000 pods
            // builds 40 nodes' worth of specs, not 50,000).
            let bound: Vec<SchedulingPod> = at
                .pods
                .iter()
                .filter(|p| p.node.is_some_and(|n| shown_index.contains(&n)))
                .filter_map(|p| {
                    let name = self.timeline.nodes.get(p.node?)?;
                    let mut spec = self.pod_spec(p.pod)?;
                    spec.pod.node_name = name.clone();
                    Some(spec)
                })
                .collect();
            let states = node_states_with_allocatable(&nodes, &allocatable, &bound, self.placement);
            let mut rows = Vec::new();
            for p in &at.pods {
                if rows.len() == MAX_MATRIX_PODS {
                    break;
                }
                let Some(spec) = self.pod_spec(p.pod) else {
                    continue;
                };
                let prepared = PreparedPod::new(&spec, self.placement);
                let cells = nodes
                    .iter()
                    .zip(&states)
                    .map(|(n, s)| prepared.filter(n, &s.used_ports, s.usage.as_ref()))
                    .collect();
                rows.push((p.pod, cells));
            }
            Matrix {
                nodes: shown_index,
                more_nodes,
                more_pods: at.pods.len() - rows.len(),
                rows,
            }
        }
    }

    thread_local! {
        /// The last run, for [`at_text`].
        static LAST: RefCell<Option<Session>> = const { RefCell::new(None) };
    }

    /// Runs `actions` (the shared line form) on `scenario`'s cluster up to `until` (0:
    /// automatic, see [`auto_until`]) with the control plane `options` imply, keeps the
    /// run for [`at_text`], and returns the [`Answer`] in `lang`, showing second `at`.
    /// `now` reads a clock in milliseconds (the time shown).
    pub fn run_text(
        scenario: &Scenario,
        options: &taintlab_scenario::Options,
        actions: &str,
        until: i64,
        at: i64,
        lang: Lang,
        now: &dyn Fn() -> f64,
    ) -> String {
        let t0 = now();
        let start = scenario.what_if_cluster();
        let notes: Vec<String> = start.notes.iter().map(|n| n.message.clone()).collect();
        let fail = |e: String| {
            LAST.with(|l| *l.borrow_mut() = None);
            Answer {
                head: html::errors(&[e], &notes),
                ..Answer::default()
            }
            .to_text()
        };
        let actions = match parse_actions(actions, scenario.semantics.version) {
            Ok(a) => a,
            Err(e) => return fail(e),
        };
        let until = if until > 0 {
            until
        } else {
            auto_until(actions.iter().map(|a| a.at).max().unwrap_or(0))
        };
        let mut w = WhatIf::new(start.cluster, scenario.semantics, actions, until);
        w.options = simulation_options(options);
        let timeline = match simulation::simulate(&w) {
            Ok(t) => t,
            Err(e) => return fail(e.to_string()),
        };
        let session = Session {
            timeline,
            start: w.cluster,
            options: w.options,
            placement: PlacementOptions::new(scenario.semantics),
            notes,
            ms: now() - t0,
        };
        let answer = html::answer(&session, at, lang);
        LAST.with(|l| *l.borrow_mut() = Some(session));
        answer.to_text()
    }

    /// The cluster and the matrix at second `at` of the last run, in `lang` (empty when
    /// there is none).
    pub fn at_text(at: i64, lang: Lang) -> String {
        LAST.with(|l| {
            l.borrow()
                .as_ref()
                .map(|s| html::now(s, at, lang))
                .unwrap_or_default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip_through_text() {
        let a = Answer {
            until: Some(600),
            head: "<p>h</p>".into(),
            lanes: "l".into(),
            now: "n".into(),
            tail: "t".into(),
        };
        assert_eq!(Answer::parse(&a.to_text()), a);
        let e = Answer {
            head: "<p>bad</p>".into(),
            ..Answer::default()
        };
        assert_eq!(Answer::parse(&e.to_text()).until, None);
        assert_eq!(Answer::parse(""), Answer::default());
    }

    #[cfg(feature = "reader")]
    #[test]
    fn a_drain_moves_the_deployment_to_its_pool_and_waits_on_the_budget() {
        use crate::i18n::Lang;
        use taintlab_core::{KubeVersion, Semantics};
        let nodes = "apiVersion: v1\nkind: Node\nmetadata: {name: a-1, labels: {pool: a}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: a-2, labels: {pool: a}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b-1, labels: {pool: b}}\n";
        let mut pods = String::from(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: shop}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      nodeSelector: {pool: a}\n      containers: [{name: c, image: nginx}]\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: api, namespace: shop}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: api}}\n",
        );
        for i in 0..2 {
            pods.push_str(&format!("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: api-5d9c7b-{i}\n  namespace: shop\n  labels: {{app: api}}\n  ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: api-5d9c7b, controller: true, uid: u}}]\nspec:\n  nodeName: a-1\n  nodeSelector: {{pool: a}}\n  containers: [{{name: c, image: nginx}}]\nstatus: {{phase: Running, conditions: [{{type: Ready, status: \"True\"}}]}}\n"));
        }
        let mut panes = taintlab_scenario::Panes::default();
        panes.set(
            taintlab_scenario::PaneKind::Nodes,
            nodes,
            KubeVersion::NEWEST,
        );
        panes.set(
            taintlab_scenario::PaneKind::Pods,
            &pods,
            KubeVersion::NEWEST,
        );
        let options = taintlab_scenario::Options {
            semantics: Semantics::at(KubeVersion::NEWEST),
            ..Default::default()
        };
        let scenario = panes.scenario(&options);
        let text = run_text(
            &scenario,
            &options,
            "at 0 drain a-1 --ignore-daemonsets",
            0,
            600,
            Lang::En,
            &|| 0.0,
        );
        let a = Answer::parse(&text);
        assert_eq!(a.until, Some(600), "{}", a.head);
        assert!(
            a.head
                .contains("Evicted 2, rescheduled 2, still Pending 0."),
            "{}",
            a.head
        );
        // At the end a-1 is cordoned and empty, both replacements run on a-2, none on b-1.
        let row = |html: &str, node: &str| {
            let from = html
                .find(&format!("<tr data-node=\"{node}\">"))
                .expect(node);
            html[from..from + html[from..].find("</tr>").unwrap()].to_string()
        };
        assert!(
            row(&a.now, "a-1").contains("SchedulingDisabled"),
            "{}",
            a.now
        );
        assert!(!row(&a.now, "a-1").contains("pod-chip"), "{}", a.now);
        assert_eq!(
            row(&a.now, "a-2").matches("pod-chip").count(),
            2,
            "{}",
            a.now
        );
        assert!(!row(&a.now, "b-1").contains("pod-chip"), "{}", a.now);
        // The second eviction waited for the budget.
        assert!(a.tail.contains("disruption budget"), "{}", a.tail);
        // The matrix at the end: every pod fits a-2 only (a-1 cordoned, b-1 the
        // wrong pool).
        let m = &a.now[a.now.find("wi-matrix").expect("matrix")..];
        assert!(m.contains("data-node=\"a-1\" data-fit=\"no\""), "{m}");
        assert!(m.contains(">NodeUnschedulable<"), "{m}");
        assert!(m.contains("data-node=\"a-2\" data-fit=\"yes\""), "{m}");
        assert!(m.contains(">NodeAffinity<"), "{m}");
        assert!(!m.contains("data-node=\"b-1\" data-fit=\"yes\""), "{m}");
        // Scrubbing renders another second of the same run: at 0 both pods are on a-1.
        let at0 = at_text(0, Lang::En);
        assert!(at0.contains("data-at=\"0\""), "{at0}");
        assert_eq!(row(&at0, "a-1").matches("pod-chip").count(), 2, "{at0}");
        // The same run in Portuguese.
        let pt = Answer::parse(&run_text(
            &scenario,
            &options,
            "at 0 drain a-1 --ignore-daemonsets",
            0,
            0,
            Lang::PtBr,
            &|| 0.0,
        ));
        assert!(pt.head.contains("Despejados 2"), "{}", pt.head);
    }

    #[cfg(feature = "reader")]
    #[test]
    fn bad_lines_and_names_are_shown_escaped() {
        use crate::i18n::Lang;
        let options = taintlab_scenario::Options::default();
        let scenario = taintlab_scenario::Scenario::from_text(
            "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
            &options,
        );
        let a = Answer::parse(&run_text(
            &scenario,
            &options,
            "at 0 taint n1 <b>=x:NoExecute",
            0,
            0,
            Lang::En,
            &|| 0.0,
        ));
        assert_eq!(a.until, None);
        assert!(a.head.contains("error-text"), "{}", a.head);
        assert!(!a.head.contains("<b>"), "{}", a.head);
        assert!(a.head.contains("&lt;b&gt;"), "{}", a.head);
        assert!(at_text(0, Lang::En).is_empty());
    }
}
