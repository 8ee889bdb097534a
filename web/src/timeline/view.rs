//! The timeline tab: scenario editing (taint steps, the node-failure preset) and the
//! per-pod timelines. This component is the shell: the form and the steps. The
//! timelines (one SVG per pod, the narrative, the controller's Events) are HTML the
//! worker renders ([`super::pods_html`], message `timeline`), so the timeline's model,
//! its drawing and the core's eviction simulators load with the worker, not with the
//! page.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use taintlab_core::node_lifecycle::default_node_monitor_grace_period;

use crate::analysis::Analysis;
use crate::i18n::{K, Lang, use_lang, use_t};
use crate::panes::Text;
use crate::store::{Action, Failure, State, Step, StepOp};

fn num(e: &Event) -> Option<i64> {
    e.target_dyn_into::<HtmlInputElement>()
        .and_then(|i| i.value().trim().parse().ok())
}

/// Properties of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The analysis (node names for the pickers).
    pub analysis: Rc<Analysis>,
    /// The state (the worker rebuilds the cluster from it).
    pub state: State,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// The worker's answer: the node the failure preset failed and the timelines' HTML.
type Rendered = Rc<(String, String)>;

/// The timeline tab.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let t = use_t();
    let lang = use_lang();
    let a = props.analysis.clone();
    let scenario = &props.state.scenario;
    let rendered = use_state(|| None::<Result<Rendered, String>>);
    let pending = use_state(|| false);
    let seq = use_mut_ref(crate::glue::worker::Tickets::default);
    {
        let st = &props.state;
        let deps = (
            Text(st.nodes.clone()),
            Text(st.pods.clone()),
            st.version.clone(),
            st.comparison_operators,
            st.admission.clone(),
            st.scenario.steps.clone(),
            st.scenario.failure.clone(),
            lang,
        );
        let state = props.state.clone();
        let rendered = rendered.clone();
        let pending = pending.clone();
        use_effect_with(deps, move |_| {
            let json = crate::glue::worker::state_without_texts(&state);
            let (nodes, pods) = (state.nodes.clone(), state.pods.clone());
            crate::glue::worker::ask_newest(
                &seq,
                &pending,
                |done| {
                    use crate::glue::worker::{Rendered, rendered_job};
                    rendered_job(Rendered::Timeline, json, &nodes, &pods, lang.tag(), done)
                },
                move |r| {
                    let r = match r {
                        Ok((out, _)) => Ok(split(&out)),
                        Err(e) => local(&state, lang).ok_or(e),
                    };
                    rendered.set(Some(r));
                    crate::perf::set("timelineAnswered", crate::perf::now());
                },
            );
        });
    }
    let at = use_state(|| "60".to_string());
    let node = use_state(String::new);
    let op = use_state(|| StepOp::Add);
    let spec = use_state(|| "node.kubernetes.io/unreachable:NoExecute".to_string());

    if a.nodes.is_empty() || a.pods.is_empty() {
        return html! { <p class="empty">{t.s(K::NoTimeline)}</p> };
    }
    let dispatch = props.dispatch.clone();
    let failure = scenario.failure.clone();
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
                    if scenario.steps.is_empty() {
                        <p class="muted">{t.s(K::StepsEmpty)}</p>
                    } else {
                        <ol class="steps">
                            { for scenario.steps.iter().enumerate().map(|(i, s)| {
                                let remove = { let dispatch = dispatch.clone(); Callback::from(move |_| { crate::perf::note_edit(); dispatch.emit(Action::RemoveStep(i)) }) };
                                html!{ <li>
                                    <code>{format!("t={}s  {} {} {}", s.at, match s.op { StepOp::Add => t.s(K::StepAdd), StepOp::Remove => t.s(K::StepRemove) }, s.node, s.taint)}</code>
                                    {" "}<button type="button" class="button subtle small" onclick={remove} aria-label={format!("{} t={}s {}", t.s(K::RemoveStep), s.at, s.taint)}>{t.s(K::RemoveStep)}</button>
                                </li> }
                            }) }
                        </ol>
                    }
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
            // The node the worker failed (the first placed pod's when the preset names
            // none), the preset's own until the worker has answered.
            let chosen = match &*rendered {
                Some(Ok(r)) if !r.0.is_empty() => r.0.clone(),
                _ => f.node.clone(),
            };
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

    let body = match &*rendered {
        None => html! { <p class="muted" role="status">{t.s(K::WiRunning)}</p> },
        Some(Err(e)) => html! { <p class="bad-text">{e.clone()}</p> },
        Some(Ok(r)) => Html::from_html_unchecked(AttrValue::from(format!(
            "<div class=\"tl-out\">{}</div>",
            r.1
        ))),
    };

    html! {
        <section class="timeline-tab" aria-labelledby="timeline-heading" aria-busy={if *pending { "true" } else { "false" }}>
            <h3 id="timeline-heading">{t.s(K::TimelineTitle)}</h3>
            <p class="muted">{t.s(K::TimelineIntro)}</p>
            <div class="segmented" role="radiogroup" aria-label={t.s(K::TimelineTitle)}>
                <label><input type="radio" name="tl-mode" checked={failure.is_none()} onchange={{ let s = set_mode.clone(); Callback::from(move |_| s.emit(false)) }} />{t.s(K::ModeTaints)}</label>
                <label><input type="radio" name="tl-mode" checked={failure.is_some()} onchange={{ let s = set_mode.clone(); Callback::from(move |_| s.emit(true)) }} />{t.s(K::ModeFailure)}</label>
            </div>
            {controls}
            {body}
        </section>
    }
}

/// Separates the failed node's name from the HTML in the worker's answer.
pub(super) const PART: char = '\u{1}';

fn split(text: &str) -> Rendered {
    let (failed, html) = text.split_once(PART).unwrap_or(("", text));
    Rc::new((failed.to_string(), html.to_string()))
}

/// The timelines rendered on the page's own thread, when the worker cannot answer
/// (builds that read texts only: the page built for tests), from the state's own texts
/// as the worker reads them.
fn local(state: &State, lang: Lang) -> Option<Rendered> {
    #[cfg(feature = "reader")]
    {
        let json = crate::glue::worker::state_without_texts(state);
        let out = crate::policy::PolicyWorker::default().timeline(
            &json,
            Some(state.nodes.to_string()),
            Some(state.pods.to_string()),
            lang,
        );
        Some(split(&out))
    }
    #[cfg(not(feature = "reader"))]
    {
        let _ = (state, lang);
        None
    }
}
