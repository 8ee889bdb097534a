//! The Kubewarden tab: the policy's settings (validated exactly as the policy's
//! `validate_settings` does) and the policy's answer for every pasted pod and workload,
//! as the scenario computes them (`Scenario::policy`: a CREATE AdmissionRequest built
//! around each object, decided by the function the policy module runs). The answers
//! are computed in the worker, so the policy's code is not part of the page's initial
//! download.

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use taintlab_core::KubeVersion;
use taintlab_scenario::{PaneKind, Panes, PolicyAnswer, Scenario, UserInfo, read_settings};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::analysis::state_options;
use crate::i18n::{K, use_t};
use crate::panes::Text;
use crate::store::{Action, PolicyTab, State};

/// The simulated requests' user, from the tab (groups comma separated).
pub fn user_info(tab: &PolicyTab) -> UserInfo {
    UserInfo {
        username: tab.user.clone(),
        groups: tab
            .groups
            .split(',')
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .map(str::to_string)
            .collect(),
    }
}

/// One answer, as the tab shows it (what crosses back from the worker).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AnswerView {
    /// Pod label.
    pub label: String,
    /// Object kind.
    pub kind: String,
    /// Admitted.
    pub accepted: bool,
    /// Admitted with a mutation.
    pub mutated: bool,
    /// Rejection message.
    pub message: Option<String>,
    /// HTTP code of a rejection.
    pub code: Option<u16>,
    /// Warnings.
    pub warnings: Vec<String>,
    /// What the mutation did.
    pub mutations: Vec<String>,
    /// The JSON Patch, pretty-printed.
    pub patch: Option<String>,
}

impl AnswerView {
    /// The row for one of the scenario's answers.
    pub fn new(scenario: &Scenario, a: &PolicyAnswer) -> Self {
        let d = &a.decision;
        Self {
            label: scenario
                .pods
                .get(a.pod)
                .map(|p| p.label())
                .unwrap_or_default(),
            kind: a
                .request
                .pointer("/kind/kind")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("Pod")
                .to_string(),
            accepted: d.accepted,
            mutated: d.mutated_object.is_some(),
            message: d.message.clone(),
            code: d.code,
            warnings: d.warnings.clone(),
            mutations: d.mutations.clone(),
            patch: a
                .patch
                .as_ref()
                .map(|p| serde_json::to_string_pretty(p).unwrap_or_default()),
        }
    }
}

/// The worker's answer for the tab.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PolicyReport {
    /// `validate_settings`' message when the settings are rejected.
    pub settings_error: Option<String>,
    /// One answer per pod (empty when the settings are rejected).
    pub answers: Vec<AnswerView>,
}

/// The worker's side: keeps the last pane texts and their parses, so a settings edit
/// does not re-read the panes.
#[derive(Default)]
pub struct PolicyWorker {
    panes: Panes,
}

impl PolicyWorker {
    /// Runs one job: `state` is the state's JSON without pane texts; `nodes` and `pods`
    /// are the pane texts when they changed. Returns the [`PolicyReport`] as JSON.
    pub fn run(&mut self, state: &str, nodes: Option<String>, pods: Option<String>) -> String {
        self.set_texts(nodes, pods);
        let report = match serde_json::from_str::<State>(state) {
            Err(e) => PolicyReport {
                settings_error: Some(e.to_string()),
                answers: Vec::new(),
            },
            Ok(state) => match read_settings(&state.policy.settings) {
                Err(e) => PolicyReport {
                    settings_error: Some(e),
                    answers: Vec::new(),
                },
                Ok(settings) => {
                    let scenario = self.panes.scenario(&state_options(&state));
                    PolicyReport {
                        settings_error: None,
                        answers: scenario
                            .policy(&settings, &user_info(&state.policy))
                            .iter()
                            .map(|a| AnswerView::new(&scenario, a))
                            .collect(),
                    }
                }
            },
        };
        serde_json::to_string(&report).unwrap_or_default()
    }

    fn set_texts(&mut self, nodes: Option<String>, pods: Option<String>) {
        for (kind, text) in [(PaneKind::Nodes, nodes), (PaneKind::Pods, pods)] {
            if let Some(t) = text {
                self.panes.set(kind, &t, KubeVersion::NEWEST);
            }
        }
    }

    /// The per-pod eviction timelines of `state` (its JSON without pane texts; the texts
    /// as for [`Self::run`], which shares them) in `lang`: the worker's answer to a
    /// `timeline` message ([`crate::timeline::pods_html::answer`]).
    #[cfg(feature = "reader")]
    pub fn timeline(
        &mut self,
        state: &str,
        nodes: Option<String>,
        pods: Option<String>,
        lang: crate::i18n::Lang,
    ) -> String {
        self.set_texts(nodes, pods);
        match serde_json::from_str::<State>(state) {
            Err(e) => format!(
                "\u{1}<p class=\"bad-text\">{}</p>",
                crate::timeline::whatif_html::esc(&e.to_string())
            ),
            Ok(state) => {
                let analysis =
                    crate::analysis::Analysis(self.panes.scenario(&state_options(&state)));
                crate::timeline::pods_html::answer(&analysis, &state.scenario, lang)
            }
        }
    }

    /// Runs the what-if of `state` (its JSON without pane texts; the texts as for
    /// [`Self::run`], which shares them) and returns [`crate::whatif::Answer`]'s text in
    /// `lang`, showing second `at`; `now` reads a clock in milliseconds.
    #[cfg(feature = "reader")]
    pub fn what_if(
        &mut self,
        state: &str,
        nodes: Option<String>,
        pods: Option<String>,
        at: i64,
        lang: crate::i18n::Lang,
        now: &dyn Fn() -> f64,
    ) -> String {
        self.set_texts(nodes, pods);
        match serde_json::from_str::<State>(state) {
            Err(e) => crate::whatif::Answer {
                head: crate::timeline::whatif_html::errors(&[e.to_string()], &[]),
                ..Default::default()
            }
            .to_text(),
            Ok(state) => {
                let options = state_options(&state);
                let scenario = self.panes.what_if_scenario(&options);
                crate::whatif::run_text(
                    &scenario,
                    &options,
                    &state.scenario.actions,
                    state.scenario.until,
                    at,
                    lang,
                    now,
                )
            }
        }
    }
}

/// Properties of [`Kubewarden`].
#[derive(Properties, PartialEq)]
pub struct KubewardenProps {
    /// The state (the worker recomputes the pods from it).
    pub state: State,
    /// Number of pods (for the empty message).
    pub pods: usize,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// The Kubewarden tab.
#[function_component(Kubewarden)]
pub fn kubewarden(props: &KubewardenProps) -> Html {
    let t = use_t();
    let report = use_state(|| None::<Result<PolicyReport, String>>);
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
            st.policy.clone(),
        );
        let state = props.state.clone();
        let report = report.clone();
        let pending = pending.clone();
        use_effect_with(deps, move |_| {
            let my = seq.borrow_mut().issue();
            let json = crate::glue::worker::state_without_texts(&state);
            pending.set(true);
            let done = {
                let report = report.clone();
                let pending = pending.clone();
                Callback::from(move |r: crate::glue::worker::Reply| {
                    let Some(newest) = seq.borrow_mut().take(my) else {
                        return;
                    };
                    if newest {
                        pending.set(false);
                    }
                    report.set(Some(r.and_then(|(out, _)| {
                        serde_json::from_str::<PolicyReport>(&out).map_err(|e| e.to_string())
                    })));
                    crate::perf::set("policyAnswered", crate::perf::now());
                })
            };
            if !crate::glue::worker::policy_job(json, &state.nodes, &state.pods, done) {
                pending.set(false);
                report.set(Some(Err("the background worker could not start".into())));
            }
        });
    }
    let tab = props.state.policy.clone();
    let set = |f: fn(&mut PolicyTab, String)| {
        let dispatch = props.dispatch.clone();
        let tab = tab.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_dyn_into::<HtmlTextAreaElement>()
                .map(|x| x.value())
                .or_else(|| e.target_dyn_into::<HtmlInputElement>().map(|x| x.value()))
                .unwrap_or_default();
            let mut tab = tab.clone();
            f(&mut tab, v);
            crate::perf::note_edit();
            dispatch.emit(Action::SetPolicy(tab));
        })
    };
    let (settings_status, rows): (Html, &[AnswerView]) = match &*report {
        None => (html! { <p class="muted">{t.s(K::KwEvaluating)}</p> }, &[]),
        Some(Err(e)) => (html! { <p class="bad-text">{e.clone()}</p> }, &[]),
        Some(Ok(r)) => match &r.settings_error {
            Some(e) => (
                html! { <p class="bad-text">{t.s(K::KwSettingsInvalid)}{" "}<code class="engine">{e.clone()}</code></p> },
                &[],
            ),
            None => (
                html! { <p class="ok-text">{t.s(K::KwSettingsValid)}</p> },
                &r.answers,
            ),
        },
    };
    html! {
        <section class="kubewarden" aria-labelledby="kw-heading" aria-busy={if *pending { "true" } else { "false" }}>
            <h3 id="kw-heading">{t.s(K::KwTitle)}</h3>
            <p class="muted">{t.s(K::KwIntro)}</p>
            <div class="kw-settings">
                <label for="kw-settings" class="block-label">{t.s(K::KwSettings)}</label>
                <textarea id="kw-settings" class="code small" rows="8" spellcheck="false" value={tab.settings.to_string()}
                    oninput={set(|tab, v| tab.settings = Rc::from(v))} aria-describedby="kw-settings-status" />
                <div id="kw-settings-status" role="status">{settings_status}</div>
                <div class="grid-form">
                    <label>{t.s(K::KwUser)}<input value={tab.user.clone()} oninput={set(|tab, v| tab.user = v)} /></label>
                    <label>{t.s(K::KwGroups)}<input value={tab.groups.clone()} oninput={set(|tab, v| tab.groups = v)} /></label>
                </div>
            </div>
            if props.pods == 0 {
                <p class="empty">{t.s(K::KwNoWorkloads)}</p>
            }
            <ul class={classes!("kw-answers", pending.then_some("stale"))}>
                { for rows.iter().take(300).map(|r| {
                    let (class, word) = if !r.accepted {
                        ("bad", t.s(K::KwRejected))
                    } else if r.mutated {
                        ("warn", t.s(K::KwMutated))
                    } else {
                        ("ok", t.s(K::KwAccepted))
                    };
                    html!{
                        <li class={classes!("kw-answer", class)}>
                            <p><strong>{r.label.clone()}</strong>{" "}<span class="kind">{r.kind.clone()}</span>{" — "}<span class={format!("badge {class}")}>{word}</span>
                                if let Some(c) = r.code { {" "}<span class="muted">{t.f(K::KwCode, &[&c.to_string()])}</span> }
                            </p>
                            if let Some(m) = &r.message { <pre class="engine console">{m.clone()}</pre> }
                            if !r.warnings.is_empty() {
                                <p>{t.s(K::KwWarnings)}</p>
                                <ul>{ for r.warnings.iter().map(|w| html!{ <li><code class="engine">{w.clone()}</code></li> }) }</ul>
                            }
                            if !r.mutations.is_empty() {
                                <p>{t.s(K::KwMutations)}</p>
                                <ul>{ for r.mutations.iter().map(|m| html!{ <li>{m.clone()}</li> }) }</ul>
                            }
                            if let Some(p) = &r.patch {
                                <details open=true>
                                    <summary>{t.s(K::KwPatch)}</summary>
                                    <pre class="console">{p.clone()}</pre>
                                </details>
                            }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_side_reads_the_state_and_keeps_parses() {
        let mut w = PolicyWorker::default();
        let pods = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: nginx}]\n      tolerations:\n      - operator: Exists\n";
        let state = serde_json::to_string(&State::default()).expect("json");
        let r: PolicyReport =
            serde_json::from_str(&w.run(&state, Some(String::new()), Some(pods.into())))
                .expect("report");
        assert_eq!(r.answers.len(), 1);
        assert!(!r.answers[0].accepted);
        assert_eq!(r.answers[0].kind, "Deployment");
        assert_eq!(r.answers[0].label, "shop/web");
        // Same texts: not sent again, still answered.
        let r2: PolicyReport = serde_json::from_str(&w.run(&state, None, None)).expect("report");
        assert_eq!(r, r2);
        let mut bad = State::default();
        bad.policy.settings = Rc::from("{\"nope\": 1}");
        let r3: PolicyReport =
            serde_json::from_str(&w.run(&serde_json::to_string(&bad).expect("json"), None, None))
                .expect("report");
        assert!(r3.settings_error.is_some());
    }

    #[test]
    fn groups_are_comma_separated() {
        let tab = PolicyTab {
            groups: " a, ,b ".into(),
            ..PolicyTab::default()
        };
        assert_eq!(user_info(&tab).groups, vec!["a".to_string(), "b".into()]);
    }
}
