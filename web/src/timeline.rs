//! The eviction timeline: one SVG per pod with the taint changes of its node, the window
//! in which a NoExecute taint is tolerated, the eviction or "stays bound", and
//! cancellations, computed by the core's taint-eviction controller simulator. Scenario
//! editing adds or removes a taint at a chosen second; the node-failure preset shows the
//! node-monitor grace period and the default 300 s tolerations.

use std::rc::Rc;

use taintlab_core::eviction::{ActionKind, PodKey, SimEvent, TimedEvent, simulate};
use taintlab_core::kubectl::{delete_taint, delete_taints_by_key, parse_taint};
use taintlab_core::matching::{match_taint, taint_to_string};
use taintlab_core::node_lifecycle::{
    DefaultTolerationSeconds, NodeChange, NodeFailureScenario, PodOutcome,
    default_node_monitor_grace_period, simulate_node_failure,
};
use taintlab_core::{Pod, Taint, TaintEffect};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::analysis::Analysis;
use crate::i18n::{K, T, use_t};
use crate::store::{Action, Failure, Scenario, Step, StepOp};

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
        let mut windows: Vec<(i64, Option<i64>)> = Vec::new();
        let mut evicted_at = None;
        for act in result.actions.iter().filter(|x| Some(x.pod.index()) == id) {
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
                    if evicted_at.is_none() {
                        evicted_at = Some(act.at);
                    }
                    marks.push((act.at, Mark::Evicted));
                }
            }
        }
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
    let events = result
        .events
        .iter()
        .map(|e| (e.at, result.event_message(e)))
        .collect();
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
    let events = sim
        .events
        .iter()
        .map(|e| (e.at, sim.event_message(e)))
        .collect();
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

/// A tick step giving about six ticks.
fn tick_step(until: i64) -> i64 {
    let raw = (until as f64 / 6.0).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    (nice * mag) as i64
}

/// Left and right margins of the axis, in percent of the width.
const LEFT: f64 = 1.0;
const RIGHT: f64 = 1.5;

/// Position of second `t` on the axis, in percent of the width (percentages keep
/// circles round and text undistorted at any width).
fn x(t: i64, until: i64) -> f64 {
    LEFT + (t as f64 / until.max(1) as f64) * (100.0 - LEFT - RIGHT)
}

/// A percentage for an SVG attribute, with one decimal (integer arithmetic keeps float
/// formatting code out of the wasm).
fn pct(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    format!("{}.{}%", tenths / 10, (tenths % 10).abs())
}

fn mark_text(t: T, at: i64, m: &Mark) -> String {
    let s = at.to_string();
    match m {
        Mark::TaintAdded(taint) => t.f(K::TaintAddedAt, &[taint, &s]),
        Mark::TaintRemoved(taint) => t.f(K::TaintRemovedAt, &[taint, &s]),
        Mark::ReadyUnknown => t.f(K::ReadyUnknownAt, &[&s]),
        Mark::Recovered => t.f(K::RecoveredAt, &[&s]),
        Mark::Cancelled => t.f(K::Cancelled, &[&s]),
        Mark::Evicted => t.f(K::EvictedAt, &[&s]),
    }
}

fn pod_svg(t: T, m: &Model, i: usize, line: &PodLine) -> Html {
    let until = m.until;
    let end = line.evicted_at.unwrap_or(until);
    let title_id = format!("tl-title-{i}");
    let desc_id = format!("tl-desc-{i}");
    let outcome = match (line.evicted_at, line.pending_at) {
        (Some(e), _) => t.f(K::EvictedAt, &[&e.to_string()]),
        (None, Some(p)) => t.f(K::PendingAt, &[&p.to_string()]),
        (None, None) => t.s(K::StaysBound).to_string(),
    };
    let mut desc: Vec<String> = vec![t.f(K::PodCreatedAt, &["0"])];
    if let Some(g) = m.grace {
        desc.push(format!("{} {g} s", t.s(K::GracePeriod)));
    }
    for (s, e) in &line.windows {
        desc.push(t.f(
            K::ToleratedWindow,
            &[
                &s.to_string(),
                &e.map(|e| e.to_string()).unwrap_or_else(|| "∞".into()),
            ],
        ));
    }
    // The eviction itself is the outcome, listed last.
    desc.extend(
        line.marks
            .iter()
            .filter(|(_, mk)| *mk != Mark::Evicted)
            .map(|(a, mk)| mark_text(t, *a, mk)),
    );
    desc.push(outcome.clone());
    let step = tick_step(until);
    let ticks: Vec<i64> = (0..=until / step.max(1)).map(|k| k * step).collect();
    html! {
        <figure class="timeline">
            <figcaption>
                <strong>{line.label.clone()}</strong>
                { match &line.node { Some(n) => format!(" · {}", t.f(K::OnNode, &[n])), None => String::new() } }
                {" · "}
                <span class={if line.evicted_at.is_some() { "bad-text" } else if line.pending_at.is_some() { "warn-text" } else { "ok-text" }}>{outcome}</span>
            </figcaption>
            <svg width="100%" height="96" role="img" aria-labelledby={format!("{title_id} {desc_id}")} class="tl-svg">
                <title id={title_id}>{line.label.clone()}</title>
                <desc id={desc_id}>{desc.join("; ")}</desc>
                if let Some(g) = m.grace {
                    <rect class="tl-grace" x={pct(x(0, until))} y="30" width={pct((x(g, until) - x(0, until)).max(0.0))} height="28" />
                }
                <rect class="tl-bound" x={pct(x(0, until))} y="44" width={pct((x(end, until) - x(0, until)).max(0.2))} height="8" rx="3" />
                { for line.windows.iter().map(|(s, e)| {
                    let e = e.unwrap_or(until).min(until);
                    html!{ <rect class="tl-window" x={pct(x(*s, until))} y="40" width={pct((x(e, until) - x(*s, until)).max(0.3))} height="16" rx="3" /> }
                }) }
                { for line.marks.iter().map(|(a, mk)| {
                    let at = pct(x(*a, until));
                    let class = match mk {
                        Mark::TaintAdded(_) | Mark::ReadyUnknown => "tl-mark add",
                        Mark::TaintRemoved(_) | Mark::Recovered => "tl-mark remove",
                        Mark::Cancelled => "tl-mark cancel",
                        Mark::Evicted => "tl-mark evict",
                    };
                    html!{ <g class={class}><line x1={at.clone()} x2={at.clone()} y1="16" y2="64" /><circle cx={at} cy="16" r="5" /></g> }
                }) }
                <line class="tl-axis" x1={pct(LEFT)} x2={pct(100.0 - RIGHT)} y1="74" y2="74" />
                { for ticks.iter().map(|&k| {
                    let at_x = x(k, until);
                    let at = pct(at_x);
                    html!{ <g class="tl-tick"><line x1={at.clone()} x2={at.clone()} y1="74" y2="79" /><text x={at} y="92" text-anchor={if k == 0 { "start" } else if at_x > 94.0 { "end" } else { "middle" }}>{format!("{k}s")}</text></g> }
                }) }
            </svg>
            <ul class="tl-list">{ for desc.iter().map(|d| html!{ <li>{d.clone()}</li> }) }</ul>
        </figure>
    }
}

fn num(e: &Event) -> Option<i64> {
    e.target_dyn_into::<HtmlInputElement>()
        .and_then(|i| i.value().trim().parse().ok())
}

/// Properties of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The analysis.
    pub analysis: Rc<Analysis>,
    /// The scenario.
    pub scenario: Scenario,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// The timeline tab.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let t = use_t();
    let a = props.analysis.clone();
    let model = use_memo(
        (props.analysis.clone(), props.scenario.clone()),
        |(a, s)| match &s.failure {
            Some(f) => node_failure(a, f),
            None => taint_scenario(a, s),
        },
    );
    let at = use_state(|| "60".to_string());
    let node = use_state(String::new);
    let op = use_state(|| StepOp::Add);
    let spec = use_state(|| "node.kubernetes.io/unreachable:NoExecute".to_string());

    if a.nodes.is_empty() || a.pods.is_empty() {
        return html! { <p class="empty">{t.s(K::NoTimeline)}</p> };
    }
    let dispatch = props.dispatch.clone();
    let failure = props.scenario.failure.clone();
    let set_mode = {
        let dispatch = dispatch.clone();
        Callback::from(move |preset: bool| {
            crate::perf::note_edit();
            dispatch.emit(Action::SetFailure(preset.then(Failure::default)));
        })
    };
    let node_names: Vec<String> = a.nodes.iter().map(|n| n.node.name.clone()).collect();

    let controls = match &failure {
        None => {
            let add = {
                let (at, node, op, spec, dispatch, first) = (
                    at.clone(),
                    node.clone(),
                    op.clone(),
                    spec.clone(),
                    dispatch.clone(),
                    node_names.first().cloned().unwrap_or_default(),
                );
                Callback::from(move |e: SubmitEvent| {
                    e.prevent_default();
                    let n = if node.is_empty() {
                        first.clone()
                    } else {
                        (*node).clone()
                    };
                    crate::perf::note_edit();
                    dispatch.emit(Action::AddStep(Step {
                        at: at.trim().parse().unwrap_or(0),
                        node: n,
                        op: *op,
                        taint: (*spec).clone(),
                    }));
                })
            };
            html! {
                <>
                    <form class="grid-form" onsubmit={add}>
                        <label>{t.s(K::StepAt)}<input type="number" inputmode="numeric" value={(*at).clone()} oninput={{ let at = at.clone(); Callback::from(move |e: InputEvent| if let Some(i) = e.target_dyn_into::<HtmlInputElement>() { at.set(i.value()) }) }} /></label>
                        <label>{t.s(K::FieldNode)}
                            <select onchange={{ let node = node.clone(); Callback::from(move |e: Event| if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() { node.set(s.value()) }) }}>
                                { for node_names.iter().take(500).enumerate().map(|(i, n)| html!{ <option value={n.clone()} selected={*node == *n || (node.is_empty() && i == 0)}>{n.clone()}</option> }) }
                            </select>
                        </label>
                        <label>{t.s(K::FieldOperator)}
                            <select onchange={{ let op = op.clone(); Callback::from(move |e: Event| if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() { op.set(if s.value() == "remove" { StepOp::Remove } else { StepOp::Add }) }) }}>
                                <option value="add" selected={*op == StepOp::Add}>{t.s(K::StepAdd)}</option>
                                <option value="remove" selected={*op == StepOp::Remove}>{t.s(K::StepRemove)}</option>
                            </select>
                        </label>
                        <label class="wide">{t.s(K::StepTaint)}<input value={(*spec).clone()} oninput={{ let spec = spec.clone(); Callback::from(move |e: InputEvent| if let Some(i) = e.target_dyn_into::<HtmlInputElement>() { spec.set(i.value()) }) }} /></label>
                        <button type="submit" class="button">{t.s(K::AddStep)}</button>
                    </form>
                    if props.scenario.steps.is_empty() {
                        <p class="muted">{t.s(K::StepsEmpty)}</p>
                    } else {
                        <ol class="steps">
                            { for props.scenario.steps.iter().enumerate().map(|(i, s)| {
                                let remove = { let dispatch = dispatch.clone(); Callback::from(move |_| { crate::perf::note_edit(); dispatch.emit(Action::RemoveStep(i)) }) };
                                html!{ <li>
                                    <code>{format!("t={}s  {} {} {}", s.at, match s.op { StepOp::Add => t.s(K::StepAdd), StepOp::Remove => t.s(K::StepRemove) }, s.node, s.taint)}</code>
                                    {" "}<button type="button" class="button subtle small" onclick={remove} aria-label={format!("{} t={}s {}", t.s(K::RemoveStep), s.at, s.taint)}>{t.s(K::RemoveStep)}</button>
                                </li> }
                            }) }
                        </ol>
                    }
                    { for model.errors.iter().map(|e| html!{ <p class="error-text">{t.f(K::StepInvalid, &[e])}</p> }) }
                </>
            }
        }
        Some(f) => {
            let upd = |g: fn(&mut Failure, &Event)| {
                let dispatch = dispatch.clone();
                let f = f.clone();
                Callback::from(move |e: Event| {
                    let mut nf = f.clone();
                    g(&mut nf, &e);
                    crate::perf::note_edit();
                    dispatch.emit(Action::SetFailure(Some(nf)));
                })
            };
            let default_grace = default_node_monitor_grace_period(a.semantics.version);
            let chosen = model.failed_node.clone().unwrap_or_default();
            html! {
                <form class="grid-form" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                    <label>{t.s(K::FieldNode)}
                        <select onchange={upd(|f, e| if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() { f.node = s.value() })}>
                            { for node_names.iter().take(500).map(|n| html!{ <option value={n.clone()} selected={chosen == *n}>{n.clone()}</option> }) }
                        </select>
                    </label>
                    <label>{t.s(K::GracePeriod)}
                        <input type="number" inputmode="numeric" placeholder={default_grace.to_string()} value={f.grace_period.map(|g| g.to_string()).unwrap_or_default()} onchange={upd(|f, e| f.grace_period = num(e))} />
                        <span class="muted small">{t.f(K::GraceDefault, &[&default_grace.to_string()])}</span>
                    </label>
                    <label class="check"><input type="checkbox" checked={f.default_tolerations} onchange={upd(|f, e| f.default_tolerations = e.target_dyn_into::<HtmlInputElement>().map(|i| i.checked()).unwrap_or(true))} />{t.s(K::ApplyDefaults)}</label>
                    <label>{t.s(K::NotReadySeconds)}<input type="number" inputmode="numeric" value={f.not_ready_seconds.to_string()} onchange={upd(|f, e| if let Some(v) = num(e) { f.not_ready_seconds = v })} /></label>
                    <label>{t.s(K::UnreachableSeconds)}<input type="number" inputmode="numeric" value={f.unreachable_seconds.to_string()} onchange={upd(|f, e| if let Some(v) = num(e) { f.unreachable_seconds = v })} /></label>
                    <label>{t.s(K::RecoversAt)}<input type="number" inputmode="numeric" value={f.recovers_at.map(|g| g.to_string()).unwrap_or_default()} onchange={upd(|f, e| f.recovers_at = num(e))} /></label>
                </form>
            }
        }
    };

    let narrative = model.grace.map(|g| {
        t.f(
            K::FailureNarrative,
            &[
                &g.to_string(),
                &model
                    .tainted_at
                    .map(|x| t.f(K::AtSeconds, &[&x.to_string()]))
                    .unwrap_or_else(|| t.s(K::NeverWord).to_string()),
            ],
        )
    });

    html! {
        <section class="timeline-tab" aria-labelledby="timeline-heading">
            <h3 id="timeline-heading">{t.s(K::TimelineTitle)}</h3>
            <p class="muted">{t.s(K::TimelineIntro)}</p>
            <div class="segmented" role="radiogroup" aria-label={t.s(K::TimelineTitle)}>
                <label><input type="radio" name="tl-mode" checked={failure.is_none()} onchange={{ let s = set_mode.clone(); Callback::from(move |_| s.emit(false)) }} />{t.s(K::ModeTaints)}</label>
                <label><input type="radio" name="tl-mode" checked={failure.is_some()} onchange={{ let s = set_mode.clone(); Callback::from(move |_| s.emit(true)) }} />{t.s(K::ModeFailure)}</label>
            </div>
            {controls}
            if let Some(n) = narrative { <p class="narrative">{n}</p> }
            { for model.pods.iter().enumerate().map(|(i, l)| if l.node.is_some() {
                pod_svg(t, &model, i, l)
            } else {
                html!{ <p class="muted">{t.f(K::PodNotPlaced, &[&l.label])}</p> }
            }) }
            if !model.events.is_empty() {
                <details class="controller-events">
                    <summary>{t.s(K::ControllerEvents)}</summary>
                    <pre class="engine console">{ model.events.iter().map(|(at, m)| format!("{at:>6}s  Normal  TaintManagerEviction  {m}")).collect::<Vec<_>>().join("\n") }</pre>
                </details>
            }
        </section>
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
        };
        assert_eq!(taint_scenario(&a, &s).errors.len(), 1);
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(600), 100);
        assert_eq!(tick_step(420), 100);
        assert_eq!(tick_step(300), 50);
        assert_eq!(tick_step(120), 20);
    }
}
