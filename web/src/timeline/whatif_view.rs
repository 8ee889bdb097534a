//! The timeline tab's cluster-wide "What if": actions picked per node (or typed in the
//! shared line form), the simulation run in the worker, a swim lane per node with pods
//! as bars, a scrubber showing the cluster and the matrix at any second, the summary,
//! the events and `kubectl drain`'s printed lines.
//!
//! This component is the shell: the form, the action lines, the scrubber and the
//! containers. The results are HTML the worker renders
//! ([`super::whatif_html`], see [`crate::whatif`]), so their code loads with the worker,
//! not with the page. Clicks in them are handled here by their data attributes
//! (`data-pick-node` on a lane's label picks that node in the form).

use std::rc::Rc;

use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::analysis::Analysis;
use crate::i18n::{K, Lang, use_lang, use_t};
use crate::panes::Text;
use crate::store::{Action, State};
use crate::whatif::Answer;

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
    let lang = use_lang();
    let answer = use_state(|| None::<Result<(Rc<Answer>, f64), String>>);
    // The cluster and matrix at the scrubbed second, when asked for after the answer.
    let now_html = use_state(|| None::<Rc<str>>);
    let pending = use_state(|| false);
    let seq = use_mut_ref(crate::glue::worker::Tickets::default);
    let at_seq = use_mut_ref(|| 0u64);
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
            lang,
        );
        let state = props.state.clone();
        let answer = answer.clone();
        let now_html = now_html.clone();
        let pending = pending.clone();
        let seq = seq.clone();
        let at_seq = at_seq.clone();
        let analysis = props.analysis.clone();
        let second = *scrub;
        use_effect_with(deps, move |_| {
            if state.scenario.actions.trim().is_empty() {
                // A reply still on its way answers lines that are gone.
                seq.borrow_mut().drop_all();
                pending.set(false);
                answer.set(None);
                return;
            }
            let json = crate::glue::worker::state_without_texts(&state);
            let (nodes, pods) = (state.nodes.clone(), state.pods.clone());
            crate::glue::worker::ask_newest(
                &seq,
                &pending,
                |done| {
                    crate::glue::worker::what_if_job(json, &nodes, &pods, second, lang.tag(), done)
                },
                move |r| {
                    let r = match r {
                        Ok((out, ms)) => Ok((Rc::new(Answer::parse(&out)), ms)),
                        Err(e) => local(&analysis, &state, second, lang).ok_or(e),
                    };
                    // A scrub answer still on its way is about the run before this one.
                    *at_seq.borrow_mut() += 1;
                    now_html.set(None);
                    answer.set(Some(r));
                    crate::perf::set("whatIfAnswered", crate::perf::now());
                },
            );
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

    let result = match &*answer {
        None if props.state.scenario.actions.trim().is_empty() => {
            html! { <p class="muted">{t.s(K::WiEmpty)}</p> }
        }
        None => html! { <p class="muted">{t.s(K::WiRunning)}</p> },
        Some(Err(e)) => html! { <p class="bad-text">{e.clone()}</p> },
        Some(Ok((a, ms))) => {
            let raw = |class: &str, html: &str| {
                Html::from_html_unchecked(AttrValue::from(format!(
                    "<div class=\"{class}\">{html}</div>"
                )))
            };
            match a.until {
                None => {
                    html! { <div class="wi-result" data-ms={format!("{ms:.1}")}>{raw("wi-head", &a.head)}</div> }
                }
                Some(until) => {
                    let now = (*scrub).clamp(0, until);
                    let on_scrub = {
                        let (scrub, now_html, at_seq) =
                            (scrub.clone(), now_html.clone(), at_seq.clone());
                        Callback::from(move |e: InputEvent| {
                            let Some(x) = input_value(&e).and_then(|x| x.parse::<i64>().ok())
                            else {
                                return;
                            };
                            scrub.set(x);
                            let my = {
                                let mut s = at_seq.borrow_mut();
                                *s += 1;
                                *s
                            };
                            let done = {
                                let (now_html, at_seq) = (now_html.clone(), at_seq.clone());
                                Callback::from(move |r: crate::glue::worker::Reply| {
                                    if *at_seq.borrow() != my {
                                        return;
                                    }
                                    let html = match r {
                                        Ok((out, _)) => out,
                                        Err(_) => local_at(x, lang),
                                    };
                                    now_html.set(Some(Rc::from(html)));
                                })
                            };
                            if !crate::glue::worker::what_if_at_job(x, lang.tag(), done.clone()) {
                                done.emit(Err(String::new()));
                            }
                        })
                    };
                    let now_part = (*now_html)
                        .clone()
                        .unwrap_or_else(|| Rc::from(a.now.as_str()));
                    html! {
                        <div class="wi-result" data-ms={format!("{ms:.1}")} data-until={until.to_string()}>
                            {raw("wi-head", &a.head)}
                            <label class="scrubber">{t.f(K::WiAt, &[&now.to_string()])}
                                <input class="wi-scrub" type="range" min="0" max={until.to_string()} value={now.to_string()} oninput={on_scrub} />
                            </label>
                            <div class="wi-lanes" style={format!("--scrub:{:.2}%", pct(now, until))}>{raw("wi-lanes-in", &a.lanes)}</div>
                            {raw("wi-at", &now_part)}
                            {raw("wi-tail", &a.tail)}
                        </div>
                    }
                }
            }
        }
    };
    let on_click = {
        let picked = picked.clone();
        Callback::from(move |e: MouseEvent| {
            let node = e
                .target_dyn_into::<Element>()
                .and_then(|el| el.closest("[data-pick-node]").ok().flatten())
                .and_then(|el| el.get_attribute("data-pick-node"));
            if let Some(n) = node {
                picked.set(n);
            }
        })
    };

    html! {
        <section class="whatif" aria-labelledby="whatif-heading" aria-busy={if *pending { "true" } else { "false" }}>
            <h3 id="whatif-heading">{t.s(K::WiTitle)}</h3>
            <p class="muted">{t.s(K::WiIntro)}</p>
            {form}
            <div class="grid-form">{actions_box}{until_box}</div>
            <div class="wi-out" onclick={on_click}>{result}</div>
        </section>
    }
}

/// The simulation on the page's own thread, when the worker cannot answer (builds that
/// read texts only: the page built for tests). It reads the state's own texts as the
/// worker does: the analysis may still be the one before the texts changed (a loaded
/// example is being read), and this answer is not asked again when it catches up.
fn local(analysis: &Analysis, state: &State, at: i64, lang: Lang) -> Option<(Rc<Answer>, f64)> {
    let _ = analysis;
    #[cfg(feature = "reader")]
    {
        let t0 = crate::perf::now();
        let json = crate::glue::worker::state_without_texts(state);
        let out = crate::policy::PolicyWorker::default().what_if(
            &json,
            Some(state.nodes.to_string()),
            Some(state.pods.to_string()),
            at,
            lang,
            &crate::perf::now,
        );
        Some((Rc::new(Answer::parse(&out)), crate::perf::now() - t0))
    }
    #[cfg(not(feature = "reader"))]
    {
        let _ = (state, at, lang);
        None
    }
}

/// The cluster at second `at` of the last run on the page's own thread (empty without
/// the `reader` feature).
fn local_at(at: i64, lang: Lang) -> String {
    #[cfg(feature = "reader")]
    {
        crate::whatif::at_text(at, lang)
    }
    #[cfg(not(feature = "reader"))]
    {
        let _ = (at, lang);
        String::new()
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
