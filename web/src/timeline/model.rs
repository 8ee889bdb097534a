//! The timeline's model: what happens to each pod over time, computed by the core's
//! taint-eviction controller simulator (taint-change scenarios) and node-lifecycle
//! simulation (the node-failure preset). No rendering here.

use taintlab_core::eviction::{
    ActionKind, PodKey, SimEvent, SimulationResult, TimedEvent, simulate,
};
use taintlab_core::kubectl::{delete_taint, delete_taints_by_key, parse_taint};
use taintlab_core::matching::{match_taint, taint_to_string};
use taintlab_core::node_lifecycle::{
    DefaultTolerationSeconds, NodeChange, NodeFailureScenario, PodOutcome, simulate_node_failure,
};
use taintlab_core::{Pod, Taint, TaintEffect};

use crate::analysis::Analysis;
use crate::store::{Failure, Scenario, Step, StepOp};

/// Longest simulated span, in seconds.
const MAX_UNTIL: i64 = 10_000_000;

/// Something drawn on a pod's time axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A taint appeared on the pod's node.
    TaintAdded(String),
    /// A taint disappeared.
    TaintRemoved(String),
    /// Ready became Unknown (node failure).
    ReadyUnknown,
    /// The kubelet reported again.
    Recovered,
    /// A pending eviction was cancelled.
    Cancelled,
    /// The pod was evicted.
    Evicted,
}

/// One pod's story.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodLine {
    /// `namespace/name`.
    pub label: String,
    /// The node it runs on, if any.
    pub node: Option<String>,
    /// Tolerated windows: from when a timer was armed to when it fired or was cancelled
    /// (`None`: still pending at the end).
    pub windows: Vec<(i64, Option<i64>)>,
    /// Marks, in time order.
    pub marks: Vec<(i64, Mark)>,
    /// When it was evicted, if it was.
    pub evicted_at: Option<i64>,
    /// A timer still pending at the end.
    pub pending_at: Option<i64>,
}

/// The whole timeline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    /// End of the axis.
    pub until: i64,
    /// One line per pod.
    pub pods: Vec<PodLine>,
    /// The controller's Kubernetes Events, `(second, message)`.
    pub events: Vec<(i64, String)>,
    /// Steps that could not be read.
    pub errors: Vec<String>,
    /// Node failure: the grace period used.
    pub grace: Option<i64>,
    /// Node failure: when the NoExecute taint arrived.
    pub tainted_at: Option<i64>,
    /// Node failure: the node.
    pub failed_node: Option<String>,
}

/// The node each pod runs on: `spec.nodeName` when it names a pasted node, otherwise the
/// feasible node with the best score (first in order on ties), as the scheduler would
/// pick among equals.
pub fn placements(a: &Analysis) -> Vec<Option<usize>> {
    (0..a.pods.len())
        .map(|p| {
            let pod = &a.pods[p];
            if pod.rejection.is_some() {
                return None;
            }
            if !pod.pod.node_name.is_empty() {
                return a
                    .nodes
                    .iter()
                    .position(|n| n.node.name == pod.pod.node_name);
            }
            let mut best: Option<(usize, i64)> = None;
            for n in 0..a.nodes.len() {
                if let Some(s) = a.result.weighted_score(p, n)
                    && best.is_none_or(|(_, b)| s > b)
                {
                    best = Some((n, s));
                }
            }
            best.map(|(n, _)| n)
        })
        .collect()
}

fn finite_max_seconds(pods: &[Pod]) -> i64 {
    pods.iter()
        .flat_map(|p| p.tolerations.iter())
        .filter(|t| matches!(t.effect, TaintEffect::NoExecute | TaintEffect::Empty))
        .filter_map(|t| t.toleration_seconds)
        .filter(|&s| s > 0)
        .max()
        .unwrap_or(0)
        .min(MAX_UNTIL)
}

fn apply_step(
    taints: &mut Vec<Taint>,
    step: &Step,
    a: &Analysis,
) -> Result<(Vec<Taint>, Vec<Taint>), String> {
    let spec = step.taint.trim();
    match step.op {
        StepOp::Add => {
            let taint = parse_taint(spec, a.semantics.version)?;
            let before = taints.clone();
            if let Some(t) = taints.iter_mut().find(|t| match_taint(t, &taint)) {
                *t = taint.clone();
            } else {
                taints.push(taint.clone());
            }
            Ok((
                if before.contains(&taint) {
                    vec![]
                } else {
                    vec![taint]
                },
                vec![],
            ))
        }
        StepOp::Remove => {
            let spec = spec.strip_suffix('-').unwrap_or(spec);
            let (next, _) = match spec.split_once(':') {
                Some((key, effect)) => {
                    delete_taint(taints, &Taint::new(key, "", TaintEffect::parse(effect)))
                }
                None => delete_taints_by_key(taints, spec),
            };
            let removed: Vec<Taint> = taints
                .iter()
                .filter(|t| !next.contains(t))
                .cloned()
                .collect();
            *taints = next;
            Ok((vec![], removed))
        }
    }
}

fn key_of(p: &Pod) -> PodKey {
    PodKey::new(&p.namespace, &p.name)
}

/// The eviction windows (scheduled at, ends at) of pod `id` in a simulation and when it
/// was first evicted; cancellations and evictions are added to `marks`.
fn pod_actions(
    sim: &SimulationResult,
    id: Option<usize>,
    marks: &mut Vec<(i64, Mark)>,
) -> (Vec<(i64, Option<i64>)>, Option<i64>) {
    let mut windows: Vec<(i64, Option<i64>)> = Vec::new();
    let mut evicted_at = None;
    for act in sim.actions.iter().filter(|x| Some(x.pod.index()) == id) {
        match act.kind {
            ActionKind::Schedule { fire_at } => windows.push((act.at, Some(fire_at))),
            ActionKind::Keep { .. } => {}
            ActionKind::Cancel => {
                if let Some(w) = windows.last_mut() {
                    w.1 = Some(act.at);
                }
                marks.push((act.at, Mark::Cancelled));
            }
            ActionKind::Evict => {
                evicted_at.get_or_insert(act.at);
                marks.push((act.at, Mark::Evicted));
            }
        }
    }
    (windows, evicted_at)
}

/// The Kubernetes Events of a simulation with their times.
fn events_of(sim: &SimulationResult) -> Vec<(i64, String)> {
    sim.events
        .iter()
        .map(|e| (e.at, sim.event_message(e)))
        .collect()
}

/// The timeline of the taint-change scenario.
pub fn taint_scenario(a: &Analysis, scenario: &Scenario) -> Model {
    let place = placements(a);
    let mut events = Vec::new();
    for n in &a.nodes {
        events.push(TimedEvent::new(
            0,
            SimEvent::CreateNode {
                name: n.node.name.clone(),
                taints: n.node.taints.clone(),
            },
        ));
    }
    let mut placed: Vec<(usize, Pod)> = Vec::new();
    for (p, at) in place.iter().enumerate() {
        if let Some(n) = at {
            let mut pod = a.pods[p].pod.clone();
            pod.node_name = a.nodes[*n].node.name.clone();
            events.push(TimedEvent::new(0, SimEvent::CreatePod(pod.clone())));
            placed.push((p, pod));
        }
    }
    let mut steps: Vec<&Step> = scenario.steps.iter().collect();
    steps.sort_by_key(|s| s.at);
    let mut taints: Vec<Vec<Taint>> = a.nodes.iter().map(|n| n.node.taints.clone()).collect();
    let mut node_marks: Vec<Vec<(i64, Mark)>> = vec![Vec::new(); a.nodes.len()];
    let mut errors = Vec::new();
    let mut last = 0i64;
    for step in steps {
        let at = step.at.clamp(0, MAX_UNTIL);
        let Some(ni) = a.nodes.iter().position(|n| n.node.name == step.node) else {
            errors.push(format!("{}: {}", step.node, step.taint));
            continue;
        };
        match apply_step(&mut taints[ni], step, a) {
            Ok((added, removed)) => {
                for t in added {
                    node_marks[ni].push((at, Mark::TaintAdded(taint_to_string(&t))));
                }
                for t in removed {
                    node_marks[ni].push((at, Mark::TaintRemoved(taint_to_string(&t))));
                }
                events.push(TimedEvent::new(
                    at,
                    SimEvent::UpdateNode {
                        name: step.node.clone(),
                        taints: taints[ni].clone(),
                    },
                ));
                last = last.max(at);
            }
            Err(e) => errors.push(e),
        }
    }
    let pods: Vec<Pod> = placed.iter().map(|(_, p)| p.clone()).collect();
    let until = (last + finite_max_seconds(&pods) + 60).clamp(120, MAX_UNTIL);
    let result = simulate(events, until, a.semantics);
    let mut lines = Vec::new();
    for (p, at) in place.iter().enumerate() {
        let label = a.pods[p].label();
        let Some(ni) = at else {
            lines.push(PodLine {
                label,
                node: None,
                windows: vec![],
                marks: vec![],
                evicted_at: None,
                pending_at: None,
            });
            continue;
        };
        let key = key_of(
            &placed
                .iter()
                .find(|(i, _)| *i == p)
                .map(|(_, x)| x.clone())
                .unwrap_or_default(),
        );
        let id = result.pods.iter().position(|k| *k == key);
        let mut marks = node_marks[*ni].clone();
        let (mut windows, evicted_at) = pod_actions(&result, id, &mut marks);
        let pending_at = result
            .pending_evictions
            .iter()
            .find(|pe| Some(pe.pod.index()) == id)
            .map(|pe| pe.fire_at);
        if let (Some(w), Some(f)) = (windows.last_mut(), pending_at) {
            w.1 = Some(f);
        }
        marks.sort_by_key(|m| m.0);
        lines.push(PodLine {
            label,
            node: Some(a.nodes[*ni].node.name.clone()),
            windows,
            marks,
            evicted_at,
            pending_at,
        });
    }
    let events = events_of(&result);
    Model {
        until,
        pods: lines,
        events,
        errors,
        grace: None,
        tainted_at: None,
        failed_node: None,
    }
}

/// The timeline of the node-failure preset.
pub fn node_failure(a: &Analysis, f: &Failure) -> Model {
    let place = placements(a);
    let ni = a
        .nodes
        .iter()
        .position(|n| n.node.name == f.node)
        .or_else(|| place.iter().flatten().next().copied())
        .or(if a.nodes.is_empty() { None } else { Some(0) });
    let Some(ni) = ni else {
        return Model::default();
    };
    let node = a.nodes[ni].node.clone();
    let on_node: Vec<usize> = (0..a.pods.len())
        .filter(|&p| place[p] == Some(ni))
        .collect();
    let pods: Vec<Pod> = on_node.iter().map(|&p| a.pods[p].pod.clone()).collect();
    let mut scenario = NodeFailureScenario::new(node.clone(), pods, 0, a.semantics);
    if let Some(g) = f.grace_period {
        scenario.timing.grace_period = g.clamp(0, MAX_UNTIL);
    }
    scenario.heartbeat_resumes_at = f.recovers_at.map(|r| r.clamp(1, MAX_UNTIL));
    if f.default_tolerations {
        scenario.default_toleration_seconds = Some(DefaultTolerationSeconds {
            not_ready: f.not_ready_seconds,
            unreachable: f.unreachable_seconds,
        });
    }
    let tl = simulate_node_failure(&scenario);
    let mut node_marks = Vec::new();
    let mut last = 0;
    for e in &tl.node {
        last = last.max(e.at);
        match &e.change {
            NodeChange::ReadyUnknown => node_marks.push((e.at, Mark::ReadyUnknown)),
            NodeChange::TaintAdded(t) => {
                node_marks.push((e.at, Mark::TaintAdded(taint_to_string(t))))
            }
            NodeChange::TaintRemoved(t) => {
                node_marks.push((e.at, Mark::TaintRemoved(taint_to_string(t))))
            }
            NodeChange::HeartbeatResumed => node_marks.push((e.at, Mark::Recovered)),
            NodeChange::LastHeartbeat | NodeChange::QueuedForNoExecuteTainting => {}
        }
    }
    for fate in &tl.pods {
        if let Some((_, due)) = fate.first_scheduled {
            last = last.max(due);
        }
        if let PodOutcome::Evicted { at } = fate.outcome {
            last = last.max(at);
        }
    }
    let until = (last + 60).clamp(120, MAX_UNTIL);
    let sim = &tl.eviction;
    let mut lines = Vec::new();
    for (p, at) in place.iter().enumerate() {
        let label = a.pods[p].label();
        if *at != Some(ni) {
            continue;
        }
        let key = PodKey::new(&a.pods[p].pod.namespace, &a.pods[p].pod.name);
        let id = sim.pods.iter().position(|k| *k == key);
        let mut marks = node_marks.clone();
        let (windows, evicted_at) = pod_actions(sim, id, &mut marks);
        marks.sort_by_key(|m| m.0);
        lines.push(PodLine {
            label,
            node: Some(node.name.clone()),
            windows,
            marks,
            evicted_at,
            pending_at: None,
        });
    }
    let events = events_of(sim);
    Model {
        until,
        pods: lines,
        events,
        errors: vec![],
        grace: Some(tl.grace_period),
        tainted_at: tl.no_execute_tainted_at,
        failed_node: Some(node.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse, options};
    use crate::parse::parse_pane;
    use crate::store::Admission;
    use taintlab_core::Semantics;
    use taintlab_scenario::PaneKind;

    fn analysis(nodes: &str, pods: &str) -> Analysis {
        analyse(
            &parse_pane(nodes, PaneKind::Nodes),
            &parse_pane(pods, PaneKind::Pods),
            &options(Semantics::newest(), &Admission::default()),
        )
    }

    const PODS: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: x}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: quick}\nspec:\n  containers: [{name: c, image: x}]\n  tolerations:\n  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}\n";

    #[test]
    fn unreachable_taint_evicts_after_the_toleration() {
        let a = analysis("kubectl taint nodes n1 a=b:PreferNoSchedule\n", PODS);
        let s = Scenario {
            steps: vec![Step {
                at: 60,
                node: "n1".into(),
                op: StepOp::Add,
                taint: "node.kubernetes.io/unreachable:NoExecute".into(),
            }],
            failure: None,
            ..Scenario::default()
        };
        let m = taint_scenario(&a, &s);
        assert_eq!(m.pods.len(), 2);
        // web got the 300 s default toleration from admission.
        assert_eq!(m.pods[0].evicted_at, Some(360));
        assert_eq!(m.pods[0].windows, vec![(60, Some(360))]);
        assert_eq!(m.pods[1].evicted_at, Some(90));
        assert!(
            m.events
                .iter()
                .any(|(at, msg)| *at == 90 && msg == "Marking for deletion Pod default/quick")
        );
    }

    #[test]
    fn removing_the_taint_cancels() {
        let a = analysis("kubectl taint nodes n1 a=b:PreferNoSchedule\n", PODS);
        let s = Scenario {
            steps: vec![
                Step {
                    at: 10,
                    node: "n1".into(),
                    op: StepOp::Add,
                    taint: "node.kubernetes.io/unreachable:NoExecute".into(),
                },
                Step {
                    at: 20,
                    node: "n1".into(),
                    op: StepOp::Remove,
                    taint: "node.kubernetes.io/unreachable:NoExecute".into(),
                },
            ],
            failure: None,
            ..Scenario::default()
        };
        let m = taint_scenario(&a, &s);
        assert_eq!(m.pods[1].evicted_at, None);
        assert_eq!(m.pods[1].windows, vec![(10, Some(20))]);
        assert!(
            m.pods[1]
                .marks
                .iter()
                .any(|(at, mk)| *at == 20 && *mk == Mark::Cancelled)
        );
    }

    #[test]
    fn node_failure_preset_uses_the_grace_period_and_defaults() {
        let a = analysis("kubectl taint nodes n1 a=b:PreferNoSchedule\n", PODS);
        let m = node_failure(&a, &Failure::default());
        assert_eq!(m.grace, Some(50));
        let tainted = m.tainted_at.expect("tainted");
        assert!(tainted >= 50, "{tainted}");
        assert_eq!(m.pods[0].evicted_at, Some(tainted + 300));
        assert_eq!(m.pods[1].evicted_at, Some(tainted + 30));
    }

    #[test]
    fn bad_steps_are_reported() {
        let a = analysis("kubectl taint nodes n1 a=b:PreferNoSchedule\n", PODS);
        let s = Scenario {
            steps: vec![Step {
                at: 5,
                node: "n1".into(),
                op: StepOp::Add,
                taint: "no effect".into(),
            }],
            failure: None,
            ..Scenario::default()
        };
        assert_eq!(taint_scenario(&a, &s).errors.len(), 1);
    }
}
