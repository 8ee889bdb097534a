//! The cluster-wide what-if: the state's action lines run through the core's simulation
//! (`taintlab_scenario::Scenario::what_if`) on the pasted cluster, and the compact view
//! of its timeline that crosses back from the worker.
//!
//! The simulation runs in the worker (`src/bin/worker.rs`, message `whatif`), so the
//! simulator's code is part of the worker's module, fetched on demand, not of the
//! page's first download. The page only decodes [`WhatIfView`] (numbers and strings) and
//! derives the cluster at a chosen second from its spans and node changes
//! ([`WhatIfView::at`]).

use serde::{Deserialize, Serialize};

/// Pod state codes in [`SpanView`].
pub const PENDING: u8 = 0;
/// Running on the span's node.
pub const RUNNING: u8 = 1;
/// Terminating on the span's node.
pub const TERMINATING: u8 = 2;

/// One stretch of a pod's life: `(pod, node or -1, state, from, to or -1 while open)`.
pub type SpanView = (u32, i32, u8, i64, i64);

/// A node's state from a second on: `(at, node, taints as text, cordoned, ready, exists)`.
pub type NodeChangeView = (i64, u32, Vec<String>, bool, bool, bool);

/// One event or drain line: `(at, source (0 event, 1 drain stdout, 2 drain stderr),
/// type, reason, object, message)`.
pub type EventView = (i64, u8, String, String, String, String);

/// The summary's capacity row: `(node, open, cpu free, memory free, pods free)`
/// (empty when unknown).
pub type CapacityView = (String, bool, String, String, String);

/// What the tab shows: the timeline, or the error that stopped it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WhatIfView {
    /// Errors in the action lines or the cluster (each names its line or field).
    pub errors: Vec<String>,
    /// Notes on the cluster as read (objects left out, ...).
    pub notes: Vec<String>,
    /// The last simulated second.
    pub until: i64,
    /// Node names.
    pub nodes: Vec<String>,
    /// Pods as `namespace/name`.
    pub pods: Vec<String>,
    /// For each pod, the pod it replaces (-1: none).
    pub replaces: Vec<i32>,
    /// Pod spans.
    pub spans: Vec<SpanView>,
    /// Node states, in time order (one at 0 for every node first).
    pub node_changes: Vec<NodeChangeView>,
    /// Events and drain lines in order.
    pub events: Vec<EventView>,
    /// Pods evicted or deleted by the actions' consequences.
    pub evicted: usize,
    /// Replacement pods created.
    pub replaced: usize,
    /// Replacements that were scheduled.
    pub rescheduled: usize,
    /// Pods still Pending at the end with their FailedScheduling text.
    pub pending: Vec<(String, String)>,
    /// Capacity left per node.
    pub capacity: Vec<CapacityView>,
    /// A drain had not finished at the end.
    pub drains_unfinished: bool,
}

/// A node at one second, as [`WhatIfView::at`] gives it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeNow {
    /// Name.
    pub name: String,
    /// Taints as `key=value:Effect`.
    pub taints: Vec<String>,
    /// Cordoned.
    pub cordoned: bool,
    /// Ready (reporting).
    pub ready: bool,
    /// The Node object exists.
    pub exists: bool,
    /// Pods on it: `(pod, terminating)`.
    pub pods: Vec<(usize, bool)>,
}

impl WhatIfView {
    /// The cluster at second `t`: every node with its state and pods, and the pods not
    /// bound to any node (Pending) at that second.
    pub fn at(&self, t: i64) -> (Vec<NodeNow>, Vec<usize>) {
        let mut nodes: Vec<NodeNow> = self
            .nodes
            .iter()
            .map(|n| NodeNow {
                name: n.clone(),
                ready: true,
                exists: true,
                ..NodeNow::default()
            })
            .collect();
        for (at, node, taints, cordoned, ready, exists) in &self.node_changes {
            if *at > t {
                break;
            }
            if let Some(n) = nodes.get_mut(*node as usize) {
                n.taints = taints.clone();
                n.cordoned = *cordoned;
                n.ready = *ready;
                n.exists = *exists;
            }
        }
        let mut pending = Vec::new();
        for &(pod, node, state, from, to) in &self.spans {
            if from > t || (to >= 0 && to <= t) {
                continue;
            }
            match (state, usize::try_from(node).ok()) {
                (PENDING, _) | (_, None) => pending.push(pod as usize),
                (s, Some(n)) => {
                    if let Some(n) = nodes.get_mut(n) {
                        n.pods.push((pod as usize, s == TERMINATING));
                    }
                }
            }
        }
        (nodes, pending)
    }

    /// Spans on node `n` (`None`: the Pending lane).
    pub fn lane(&self, n: Option<usize>) -> impl Iterator<Item = &SpanView> + '_ {
        self.spans.iter().filter(move |s| match n {
            Some(n) => usize::try_from(s.1).ok() == Some(n) && s.2 != PENDING,
            None => s.2 == PENDING || s.1 < 0,
        })
    }

    /// The view as JSON (what the worker sends).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The last second simulated for `actions` when the state leaves it at 0: the last
/// action's second plus 600 s (ten minutes covers the default 300 s tolerations after
/// the node-monitor grace period, and a drain's evictions and grace periods).
pub fn auto_until(last_action: i64) -> i64 {
    last_action.saturating_add(600)
}

#[cfg(feature = "reader")]
pub use compute::run_text;

/// The simulation itself, linked only into builds that read texts (the worker, and the
/// page built for tests, which runs it on its own thread when no worker can start).
#[cfg(feature = "reader")]
mod compute {
    use taintlab_core::simulation::{PodState, Source, Timeline};
    use taintlab_scenario::{Scenario, parse_actions};

    use super::{PENDING, RUNNING, TERMINATING, WhatIfView, auto_until};

    fn object(o: &taintlab_core::simulation::ObjectRef) -> String {
        if o.namespace.is_empty() {
            format!("{}/{}", o.kind.as_str(), o.name)
        } else {
            format!("{}/{}/{}", o.kind.as_str(), o.namespace, o.name)
        }
    }

    fn view(t: &Timeline) -> WhatIfView {
        let pod_label = |i: usize| {
            t.pods
                .get(i)
                .map(|p| format!("{}/{}", p.namespace, p.name))
                .unwrap_or_default()
        };
        let sum = &t.summary;
        WhatIfView {
            errors: Vec::new(),
            notes: Vec::new(),
            until: t.until,
            nodes: t.nodes.clone(),
            pods: (0..t.pods.len()).map(pod_label).collect(),
            replaces: t
                .pods
                .iter()
                .map(|p| p.replaces.map_or(-1, |r| r as i32))
                .collect(),
            spans: t
                .spans
                .iter()
                .map(|s| {
                    let state = match s.state {
                        PodState::Pending => PENDING,
                        PodState::Running => RUNNING,
                        PodState::Terminating { .. } => TERMINATING,
                    };
                    (
                        s.pod as u32,
                        s.node.map_or(-1, |n| n as i32),
                        state,
                        s.from,
                        s.to.unwrap_or(-1),
                    )
                })
                .collect(),
            node_changes: t
                .node_changes
                .iter()
                .map(|c| {
                    (
                        c.at,
                        c.node as u32,
                        c.taints
                            .iter()
                            .map(taintlab_core::matching::taint_to_string)
                            .collect(),
                        c.unschedulable,
                        c.ready,
                        c.exists,
                    )
                })
                .collect(),
            events: t
                .events
                .iter()
                .map(|e| {
                    let src = match e.source {
                        Source::Event => 0,
                        Source::DrainStdout => 1,
                        Source::DrainStderr => 2,
                    };
                    (
                        e.at,
                        src,
                        e.event_type.clone(),
                        e.reason.clone(),
                        object(&e.object),
                        e.message.clone(),
                    )
                })
                .collect(),
            evicted: sum.evicted,
            replaced: sum.replaced,
            rescheduled: sum.rescheduled,
            pending: sum
                .still_pending
                .iter()
                .map(|p| (pod_label(p.pod), p.message.clone()))
                .collect(),
            capacity: sum
                .capacity
                .iter()
                .map(|c| {
                    let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
                    (
                        t.nodes.get(c.node).cloned().unwrap_or_default(),
                        c.open,
                        c.cpu_milli_free
                            .map(|v| format!("{v}m"))
                            .unwrap_or_default(),
                        opt(c.memory_free),
                        opt(c.pods_free),
                    )
                })
                .collect(),
            drains_unfinished: sum.drains_unfinished,
        }
    }

    /// Runs `actions` (the shared line form) on `scenario`'s cluster up to `until`
    /// (0: automatic, see [`auto_until`]).
    pub fn run_text(scenario: &Scenario, actions: &str, until: i64) -> WhatIfView {
        let cluster = scenario.what_if_cluster();
        let notes: Vec<String> = cluster.notes.iter().map(|n| n.message.clone()).collect();
        let actions = match parse_actions(actions, scenario.semantics.version) {
            Ok(a) => a,
            Err(e) => {
                return WhatIfView {
                    errors: vec![e.to_string()],
                    notes,
                    ..WhatIfView::default()
                };
            }
        };
        let until = if until > 0 {
            until
        } else {
            auto_until(actions.iter().map(|a| a.at).max().unwrap_or(0))
        };
        match scenario.what_if(&actions, until) {
            Ok(t) => WhatIfView { notes, ..view(&t) },
            Err(e) => WhatIfView {
                errors: vec![e.to_string()],
                notes,
                ..WhatIfView::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WhatIfView {
        WhatIfView {
            until: 100,
            nodes: vec!["a".into(), "b".into()],
            pods: vec!["d/p".into(), "d/q".into()],
            replaces: vec![-1, 0],
            spans: vec![
                (0, 0, RUNNING, 0, 10),
                (0, 0, TERMINATING, 10, 40),
                (1, -1, PENDING, 10, 12),
                (1, 1, RUNNING, 12, -1),
            ],
            node_changes: vec![
                (0, 0, vec![], false, true, true),
                (0, 1, vec![], false, true, true),
                (10, 0, vec!["k=v:NoExecute".into()], true, true, true),
            ],
            ..WhatIfView::default()
        }
    }

    #[test]
    fn the_cluster_at_a_second_follows_spans_and_node_changes() {
        let v = sample();
        let (nodes, pending) = v.at(5);
        assert_eq!(nodes[0].pods, vec![(0, false)]);
        assert!(nodes[0].taints.is_empty() && !nodes[0].cordoned);
        assert!(pending.is_empty());
        let (nodes, pending) = v.at(11);
        assert_eq!(nodes[0].pods, vec![(0, true)]);
        assert_eq!(nodes[0].taints, vec!["k=v:NoExecute".to_string()]);
        assert!(nodes[0].cordoned);
        assert_eq!(pending, vec![1]);
        let (nodes, pending) = v.at(50);
        assert!(nodes[0].pods.is_empty());
        assert_eq!(nodes[1].pods, vec![(1, false)]);
        assert!(pending.is_empty());
    }

    #[test]
    fn lanes_split_bound_and_pending_spans() {
        let v = sample();
        assert_eq!(v.lane(Some(0)).count(), 2);
        assert_eq!(v.lane(Some(1)).count(), 1);
        assert_eq!(v.lane(None).count(), 1);
    }

    #[cfg(feature = "reader")]
    #[test]
    fn a_drain_moves_the_deployment_to_its_pool_and_waits_on_the_budget() {
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
        let scenario = panes.scenario(&taintlab_scenario::Options {
            semantics: Semantics::at(KubeVersion::NEWEST),
            ..Default::default()
        });
        let v = super::run_text(&scenario, "at 0 drain a-1 --ignore-daemonsets", 0);
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        assert_eq!(v.until, 600);
        let (nodes, pending) = v.at(v.until);
        assert!(pending.is_empty(), "{pending:?}");
        assert!(
            nodes[0].cordoned && nodes[0].pods.is_empty(),
            "{:?}",
            nodes[0]
        );
        assert_eq!(
            nodes[1].pods.len(),
            2,
            "both replacements on a-2: {nodes:?}"
        );
        assert!(nodes[2].pods.is_empty(), "nothing on the other pool");
        // The second eviction waited for the budget.
        assert!(
            v.events
                .iter()
                .any(|e| e.1 != 0 && e.5.contains("disruption budget")),
            "{:?}",
            v.events
        );
        assert_eq!(v.evicted, 2);
    }

    #[test]
    fn the_view_round_trips_through_json() {
        let v = sample();
        let back: WhatIfView = serde_json::from_str(&v.to_json()).unwrap();
        assert_eq!(back, v);
    }
}
