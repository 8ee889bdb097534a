//! The timeline tab's cluster-wide "What if": actions picked per node (or typed in the
//! shared line form), the simulation run in the worker, a swim lane per node with pods
//! as bars, a scrubber showing the cluster at any second, the summary, the events and
//! `kubectl drain`'s printed lines.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::analysis::Analysis;
use crate::i18n::{K, use_t};
use crate::panes::Text;
use crate::store::{Action, State};
use crate::whatif::{PENDING, TERMINATING, WhatIfView};

/// Lanes drawn at most (the summary, scrubber and events cover every node).
const MAX_LANES: usize = 80;
/// Bars drawn per lane at most.
const MAX_BARS: usize = 200;

/// Properties of [`WhatIf`].
#[derive(Properties, PartialEq)]
pub struct WhatIfProps {
    /// The analysis (node names for the pickers).
    pub analysis: Rc<Analysis>,
    /// The state (the worker rebuilds the cluster from it).
    pub state: State,
    /// State changes.
    pub dispatch: Callback<Action>,
}

fn input_value(e: &InputEvent) -> Option<String> {
    e.target_dyn_into::<HtmlInputElement>().map(|i| i.value())
}

/// The action line the node form builds, in the shared form.
pub fn action_line(at: &str, kind: &str, node: &str, taint: &str, flags: &[&str]) -> String {
    let at = at.trim().parse::<i64>().unwrap_or(0).max(0);
    let mut line = format!("at {at} {kind} {node}");
    match kind {
        "taint" | "untaint" => {
            line.push(' ');
            line.push_str(taint.trim());
        }
        "drain" => {
            for f in flags {
                line.push(' ');
                line.push_str(f);
            }
        }
        _ => {}
    }
    line
}

/// Drain flags offered by the form.
const DRAIN_FLAGS: [&str; 4] = [
    "--ignore-daemonsets",
    "--delete-emptydir-data",
    "--force",
    "--disable-eviction",
];

fn pct(x: i64, until: i64) -> f64 {
    if until <= 0 {
        0.0
    } else {
        (x as f64 * 100.0 / until as f64).clamp(0.0, 100.0)
    }
}

/// The what-if section.
#[function_component(WhatIf)]
pub fn what_if(props: &WhatIfProps) -> Html {
    let t = use_t();
    let view = use_state(|| None::<Result<(Rc<WhatIfView>, f64), String>>);
    let pending = use_state(|| false);
    let seq = use_mut_ref(|| (0u64, 0u64));
    let scrub = use_state(|| 0i64);
    let picked = use_state(String::new);
    let at = use_state(|| "0".to_string());
    let kind = use_state(|| "drain".to_string());
    let taint = use_state(|| "example.com/maintenance=true:NoExecute".to_string());
    let flags = use_state(|| vec![DRAIN_FLAGS[0]]);
    {
        let st = &props.state;
        let deps = (
            Text(st.nodes.clone()),
            Text(st.pods.clone()),
            st.version.clone(),
            st.comparison_operators,
            st.admission.clone(),
            st.scenario.actions.clone(),
            st.scenario.until,
        );
        let state = props.state.clone();
        let view = view.clone();
        let pending = pending.clone();
        let seq = seq.clone();
        let analysis = props.analysis.clone();
        use_effect_with(deps, move |_| {
            if state.scenario.actions.trim().is_empty() {
                view.set(None);
                return;
            }
            let my = {
                let mut s = seq.borrow_mut();
                s.0 += 1;
                s.0
            };
            let mut bare = state.clone();
            bare.nodes = Rc::from("");
            bare.pods = Rc::from("");
            let json = serde_json::to_string(&bare).unwrap_or_default();
            pending.set(true);
            let done = {
                let view = view.clone();
                let pending = pending.clone();
                let state = state.clone();
                Callback::from(move |r: crate::glue::worker::Reply| {
                    let mut s = seq.borrow_mut();
                    if my < s.1 {
                        return;
                    }
                    s.1 = my;
                    if my == s.0 {
                        pending.set(false);
                    }
                    let r = match r {
                        Ok((out, ms)) => serde_json::from_str::<WhatIfView>(&out)
                            .map(|v| (Rc::new(v), ms))
                            .map_err(|e| e.to_string()),
                        Err(e) => local(&analysis, &state).ok_or(e),
                    };
                    view.set(Some(r));
                    crate::perf::set("whatIfAnswered", crate::perf::now());
                })
            };
            if !crate::glue::worker::what_if_job(json, &state.nodes, &state.pods, done.clone()) {
                done.emit(Err("the background worker could not start".into()));
            }
        });
    }

    let dispatch = props.dispatch.clone();
    let node_names: Vec<String> = props
        .analysis
        .nodes
        .iter()
        .map(|n| n.node.name.clone())
        .collect();
    let chosen = if picked.is_empty() {
        node_names.first().cloned().unwrap_or_default()
    } else {
        (*picked).clone()
    };

    let add = {
        let (at, kind, taint, flags, dispatch, chosen) = (
            at.clone(),
            kind.clone(),
            taint.clone(),
            flags.clone(),
            dispatch.clone(),
            chosen.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if chosen.is_empty() {
                return;
            }
            crate::perf::note_edit();
            dispatch.emit(Action::AddAction(action_line(
                &at, &kind, &chosen, &taint, &flags,
            )));
        })
    };
    let kinds: [(&str, K); 8] = [
        ("drain", K::WiDrain),
        ("taint", K::WiTaint),
        ("untaint", K::WiUntaint),
        ("cordon", K::WiCordon),
        ("uncordon", K::WiUncordon),
        ("fail", K::WiFail),
        ("recover", K::WiRecover),
        ("delete", K::WiDelete),
    ];
    let form = html! {
        <form class="grid-form whatif-form" onsubmit={add}>
            <label>{t.s(K::FieldNode)}
                <select class="wi-node" onchange={{ let picked = picked.clone(); Callback::from(move |e: Event| if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() { picked.set(s.value()) }) }}>
                    { for node_names.iter().take(2000).map(|n| html!{ <option value={n.clone()} selected={chosen == *n}>{n.clone()}</option> }) }
                </select>
            </label>
            <label>{t.s(K::WiAction)}
                <select class="wi-kind" onchange={{ let kind = kind.clone(); Callback::from(move |e: Event| if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() { kind.set(s.value()) }) }}>
                    { for kinds.iter().map(|(k, label)| html!{ <option value={*k} selected={*kind == *k}>{t.s(*label)}</option> }) }
                </select>
            </label>
            <label>{t.s(K::StepAt)}<input class="wi-at" type="number" min="0" inputmode="numeric" value={(*at).clone()} oninput={{ let at = at.clone(); Callback::from(move |e: InputEvent| if let Some(v) = input_value(&e) { at.set(v) }) }} /></label>
            if *kind == "taint" || *kind == "untaint" {
                <label class="wide">{t.s(K::StepTaint)}<input class="wi-taint" value={(*taint).clone()} oninput={{ let taint = taint.clone(); Callback::from(move |e: InputEvent| if let Some(v) = input_value(&e) { taint.set(v) }) }} /></label>
            }
            if *kind == "drain" {
                <fieldset class="wide drain-flags">
                    { for DRAIN_FLAGS.iter().map(|f| {
                        let on = flags.contains(f);
                        let flags = flags.clone();
                        let f = *f;
                        html!{ <label class="check"><input type="checkbox" checked={on} onchange={Callback::from(move |_| {
                            let mut v = (*flags).clone();
                            if let Some(i) = v.iter().position(|x| *x == f) { v.remove(i); } else { v.push(f); }
                            flags.set(v);
                        })} /><code>{f}</code></label> }
                    }) }
                </fieldset>
            }
            <button type="submit" class="button wi-add">{t.s(K::WiAdd)}</button>
        </form>
    };
    let actions_box = {
        let dispatch = dispatch.clone();
        html! {
            <label class="wide whatif-actions">{t.s(K::WiActions)}
                <textarea class="wi-actions engine" rows="4" spellcheck="false"
                    placeholder="at 0 drain node-1 --ignore-daemonsets\nat 60 taint node-2 k=v:NoExecute\nat 0 fail node-3"
                    value={props.state.scenario.actions.clone()}
                    oninput={Callback::from(move |e: InputEvent| if let Some(a) = e.target_dyn_into::<HtmlTextAreaElement>() { crate::perf::note_edit(); dispatch.emit(Action::SetActions(a.value())) })} />
                <span class="muted small">{t.s(K::WiActionsHelp)}</span>
            </label>
        }
    };
    let until_box = {
        let dispatch = dispatch.clone();
        html! {
            <label>{t.s(K::WiUntil)}
                <input class="wi-until" type="number" min="0" inputmode="numeric" placeholder="auto"
                    value={if props.state.scenario.until > 0 { props.state.scenario.until.to_string() } else { String::new() }}
                    onchange={Callback::from(move |e: Event| if let Some(i) = e.target_dyn_into::<HtmlInputElement>() { dispatch.emit(Action::SetUntil(i.value().trim().parse().unwrap_or(0))) })} />
            </label>
        }
    };

    let result = match &*view {
        None if props.state.scenario.actions.trim().is_empty() => {
            html! { <p class="muted">{t.s(K::WiEmpty)}</p> }
        }
        None => html! { <p class="muted">{t.s(K::WiRunning)}</p> },
        Some(Err(e)) => html! { <p class="bad-text">{e.clone()}</p> },
        Some(Ok((v, ms))) if !v.errors.is_empty() => html! {
            <div class="wi-errors" data-ms={ms.to_string()}>
                { for v.errors.iter().map(|e| html!{ <p class="error-text engine">{e.clone()}</p> }) }
            </div>
        },
        Some(Ok((v, ms))) => result_view(t, v, *ms, &scrub),
    };

    html! {
        <section class="whatif" aria-labelledby="whatif-heading" aria-busy={if *pending { "true" } else { "false" }}>
            <h3 id="whatif-heading">{t.s(K::WiTitle)}</h3>
            <p class="muted">{t.s(K::WiIntro)}</p>
            {form}
            <div class="grid-form">{actions_box}{until_box}</div>
            {result}
        </section>
    }
}

/// The simulation on the page's own thread, when the worker cannot answer (builds that
/// read texts only: the page built for tests). It reads the state's own texts as the
/// worker does: the analysis may still be the one before the texts changed (a loaded
/// example is being read), and this answer is not asked again when it catches up.
fn local(analysis: &Analysis, state: &State) -> Option<(Rc<WhatIfView>, f64)> {
    let _ = analysis;
    #[cfg(feature = "reader")]
    {
        let t0 = crate::perf::now();
        let mut bare = state.clone();
        bare.nodes = Rc::from("");
        bare.pods = Rc::from("");
        let json = serde_json::to_string(&bare).ok()?;
        let out = crate::policy::PolicyWorker::default().what_if(
            &json,
            Some(state.nodes.to_string()),
            Some(state.pods.to_string()),
        );
        let v = serde_json::from_str::<WhatIfView>(&out).ok()?;
        Some((Rc::new(v), crate::perf::now() - t0))
    }
    #[cfg(not(feature = "reader"))]
    {
        let _ = state;
        None
    }
}

fn result_view(t: crate::i18n::T, v: &WhatIfView, ms: f64, scrub: &UseStateHandle<i64>) -> Html {
    let now = (**scrub).clamp(0, v.until);
    let (nodes_now, pending_now) = v.at(now);
    let summary = t.f(
        K::WiSummary,
        &[
            &v.evicted.to_string(),
            &v.rescheduled.to_string(),
            &v.pending.len().to_string(),
        ],
    );
    let lane = |n: Option<usize>, label: String, extra: &str| {
        let mut rows: Vec<u32> = v.lane(n).map(|s| s.0).collect();
        rows.sort_unstable();
        rows.dedup();
        rows.truncate(MAX_BARS);
        let height = rows.len().max(1) * 14 + 4;
        html! {
            <div class={classes!("lane", extra.to_string())} data-node={label.clone()}>
                <span class="lane-label">{label}</span>
                <div class="lane-bars" style={format!("height:{height}px")}>
                    { for v.lane(n).filter_map(|s| rows.binary_search(&s.0).ok().map(|r| (r, s))).map(|(r, &(pod, _, state, from, to))| {
                        let end = if to < 0 { v.until } else { to };
                        let class = match state { PENDING => "bar pending", TERMINATING => "bar terminating", _ => "bar running" };
                        let name = v.pods.get(pod as usize).cloned().unwrap_or_default();
                        let gone = to >= 0 && state == TERMINATING;
                        html!{ <span class={classes!(class, gone.then_some("gone"))} data-pod={name.clone()}
                            title={format!("{name}  {from}s–{}", if to < 0 { String::from("…") } else { format!("{to}s") })}
                            style={format!("left:{:.2}%;width:{:.2}%;top:{}px", pct(from, v.until), (pct(end, v.until) - pct(from, v.until)).max(0.3), r * 14 + 2)}>
                            <span class="bar-label">{name}</span>
                        </span> }
                    }) }
                    <span class="scrub-line" style={format!("left:{:.2}%", pct(now, v.until))}></span>
                </div>
            </div>
        }
    };
    let drain_lines: Vec<String> = v
        .events
        .iter()
        .filter(|e| e.1 != 0)
        .map(|e| format!("{:>6}s  {}", e.0, e.5))
        .collect();
    let on_scrub = {
        let scrub = scrub.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(x) = input_value(&e).and_then(|x| x.parse().ok()) {
                scrub.set(x)
            }
        })
    };
    html! {
        <div class="wi-result" data-ms={format!("{ms:.1}")}>
            <p class="wi-summary narrative">{summary}
                if v.drains_unfinished { {" "}<span class="bad-text">{t.s(K::WiDrainUnfinished)}</span> }
            </p>
            <p class="muted small wi-time">{t.f(K::WiTime, &[&format!("{ms:.0}"), &v.until.to_string()])}</p>
            { for v.notes.iter().map(|n| html!{ <p class="muted small">{n.clone()}</p> }) }
            if !v.pending.is_empty() {
                <ul class="wi-pending">
                    { for v.pending.iter().map(|(p, m)| html!{ <li><code>{p.clone()}</code>{" "}<span class="engine">{m.clone()}</span></li> }) }
                </ul>
            }
            <label class="scrubber">{t.f(K::WiAt, &[&now.to_string()])}
                <input class="wi-scrub" type="range" min="0" max={v.until.to_string()} value={now.to_string()} oninput={on_scrub} />
            </label>
            <div class="lanes">
                { for v.nodes.iter().enumerate().take(MAX_LANES).map(|(i, n)| lane(Some(i), n.clone(), "")) }
                { lane(None, t.s(K::WiPendingLane).to_string(), "pending-lane") }
            </div>
            if v.nodes.len() > MAX_LANES { <p class="muted small">{t.f(K::WiMoreLanes, &[&(v.nodes.len() - MAX_LANES).to_string()])}</p> }
            <table class="wi-at-table">
                <caption>{t.f(K::WiAt, &[&now.to_string()])}</caption>
                <thead><tr><th>{t.s(K::FieldNode)}</th><th>{t.s(K::WiNodeState)}</th><th>{t.s(K::WiPodsHere)}</th></tr></thead>
                <tbody>
                    { for nodes_now.iter().filter(|n| n.exists).take(500).map(|n| html!{
                        <tr data-node={n.name.clone()}>
                            <th scope="row">{n.name.clone()}</th>
                            <td>
                                if !n.ready { <span class="badge bad">{"NotReady"}</span>{" "} }
                                if n.cordoned { <span class="badge warn">{"SchedulingDisabled"}</span>{" "} }
                                { for n.taints.iter().map(|x| html!{ <><code class="engine">{x.clone()}</code>{" "}</> }) }
                            </td>
                            <td class="wi-pods">{ for n.pods.iter().map(|(p, term)| html!{ <><span class={classes!("pod-chip", term.then_some("terminating"))}>{v.pods.get(*p).cloned().unwrap_or_default()}</span>{" "}</> }) }</td>
                        </tr>
                    }) }
                    if !pending_now.is_empty() {
                        <tr class="pending-row"><th scope="row">{t.s(K::WiPendingLane)}</th><td></td>
                            <td class="wi-pods">{ for pending_now.iter().map(|p| html!{ <><span class="pod-chip pending">{v.pods.get(*p).cloned().unwrap_or_default()}</span>{" "}</> }) }</td></tr>
                    }
                </tbody>
            </table>
            if !v.capacity.is_empty() {
                <details class="wi-capacity">
                    <summary>{t.s(K::WiCapacity)}</summary>
                    <table><thead><tr><th>{t.s(K::FieldNode)}</th><th>{"cpu"}</th><th>{"memory"}</th><th>{"pods"}</th></tr></thead>
                    <tbody>{ for v.capacity.iter().take(500).map(|(n, open, c, m, p)| html!{ <tr class={classes!((!open).then_some("closed"))}><th scope="row">{n.clone()}</th><td>{c.clone()}</td><td>{m.clone()}</td><td>{p.clone()}</td></tr> }) }</tbody></table>
                </details>
            }
            if !drain_lines.is_empty() {
                <h4>{t.s(K::WiDrainOutput)}</h4>
                <pre class="engine console wi-drain">{drain_lines.join("\n")}</pre>
            }
            <details class="wi-events" open=true>
                <summary>{t.f(K::WiEvents, &[&v.events.iter().filter(|e| e.1 == 0).count().to_string()])}</summary>
                <table class="engine">
                    <thead><tr><th>{"t"}</th><th>{"type"}</th><th>{"reason"}</th><th>{"object"}</th><th>{"message"}</th></tr></thead>
                    <tbody>{ for v.events.iter().filter(|e| e.1 == 0).take(2000).map(|(at, _, ty, reason, obj, msg)| html!{
                        <tr data-reason={reason.clone()}><td>{format!("{at}s")}</td><td>{ty.clone()}</td><td>{reason.clone()}</td><td>{obj.clone()}</td><td>{msg.clone()}</td></tr>
                    }) }</tbody>
                </table>
            </details>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::action_line;

    #[test]
    fn the_form_writes_the_shared_line_form() {
        assert_eq!(
            action_line("30", "drain", "n1", "", &["--ignore-daemonsets", "--force"]),
            "at 30 drain n1 --ignore-daemonsets --force"
        );
        assert_eq!(
            action_line(" 5 ", "taint", "n2", " k=v:NoExecute ", &[]),
            "at 5 taint n2 k=v:NoExecute"
        );
        assert_eq!(
            action_line("x", "fail", "n3", "k", &["--force"]),
            "at 0 fail n3"
        );
    }
}
