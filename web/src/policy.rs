//! The Kubewarden tab: the policy's settings (validated exactly as the policy's
//! `validate_settings` does) and the policy's answer for every pasted pod and workload,
//! as the scenario computes them (`Scenario::policy`: a CREATE AdmissionRequest built
//! around each object, decided by the function the policy module runs). The answers
//! are computed in the worker and rendered there as HTML ([`report_html`]), so neither
//! the policy's code nor the rendering of its answers is part of the page's initial
//! download.

use std::rc::Rc;

use taintlab_core::KubeVersion;
use taintlab_scenario::{PaneKind, Panes, PolicyAnswer, Scenario, UserInfo, read_settings};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::analysis::state_options;
use crate::i18n::{K, use_lang, use_t};
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

/// One answer, as the tab shows it.
#[derive(Clone, Debug, Default, PartialEq)]
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

/// The policy's answers for the tab.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// The policy's answers for `state` (its JSON without pane texts); `nodes` and
    /// `pods` are the pane texts when they changed.
    pub fn report(
        &mut self,
        state: &str,
        nodes: Option<String>,
        pods: Option<String>,
    ) -> PolicyReport {
        self.set_texts(nodes, pods);
        match serde_json::from_str::<State>(state) {
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
        }
    }

    /// Runs one `policy` job ([`Self::report`]) and renders it for the tab in `lang`
    /// ([`report_html`]).
    #[cfg(feature = "reader")]
    pub fn run(
        &mut self,
        state: &str,
        nodes: Option<String>,
        pods: Option<String>,
        lang: crate::i18n::Lang,
    ) -> String {
        report_html(&self.report(state, nodes, pods), crate::i18n::T(lang))
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

/// Separates the settings' status from the answers in the worker's reply.
pub const PART: char = '\u{1}';

/// The worker's reply to a `policy` job: the settings' status, [`PART`], the list of
/// answers, both as HTML (every string escaped), so the rendering of the answers is not
/// part of the page's first download.
#[cfg(feature = "reader")]
pub fn report_html(r: &PolicyReport, t: crate::i18n::T) -> String {
    use std::fmt::Write;

    use crate::timeline::whatif_html::esc;

    let mut out = match &r.settings_error {
        Some(e) => format!(
            "<p class=\"bad-text\">{} <code class=\"engine\">{}</code></p>",
            esc(t.s(K::KwSettingsInvalid)),
            esc(e)
        ),
        None => format!("<p class=\"ok-text\">{}</p>", esc(t.s(K::KwSettingsValid))),
    };
    out.push(PART);
    out.push_str("<ul class=\"kw-answers\">");
    for r in r.answers.iter().take(300) {
        let (class, word) = if !r.accepted {
            ("bad", t.s(K::KwRejected))
        } else if r.mutated {
            ("warn", t.s(K::KwMutated))
        } else {
            ("ok", t.s(K::KwAccepted))
        };
        let _ = write!(
            out,
            "<li class=\"kw-answer {class}\"><p><strong>{}</strong> <span class=\"kind\">{}</span> — <span class=\"badge {class}\">{}</span>",
            esc(&r.label),
            esc(&r.kind),
            esc(word)
        );
        if let Some(c) = r.code {
            let _ = write!(
                out,
                " <span class=\"muted\">{}</span>",
                esc(&t.f(K::KwCode, &[&c.to_string()]))
            );
        }
        out.push_str("</p>");
        if let Some(m) = &r.message {
            let _ = write!(out, "<pre class=\"engine console\">{}</pre>", esc(m));
        }
        if !r.warnings.is_empty() {
            let _ = write!(out, "<p>{}</p><ul>", esc(t.s(K::KwWarnings)));
            for w in &r.warnings {
                let _ = write!(out, "<li><code class=\"engine\">{}</code></li>", esc(w));
            }
            out.push_str("</ul>");
        }
        if !r.mutations.is_empty() {
            let _ = write!(out, "<p>{}</p><ul>", esc(t.s(K::KwMutations)));
            for m in &r.mutations {
                let _ = write!(out, "<li>{}</li>", esc(m));
            }
            out.push_str("</ul>");
        }
        if let Some(p) = &r.patch {
            let _ = write!(
                out,
                "<details open><summary>{}</summary><pre class=\"console\">{}</pre></details>",
                esc(t.s(K::KwPatch)),
                esc(p)
            );
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
    out
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
    let lang = use_lang();
    // The worker's HTML: the settings' status and the answers.
    let report = use_state(|| None::<Result<Rc<(String, String)>, String>>);
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
            lang,
        );
        let state = props.state.clone();
        let report = report.clone();
        let pending = pending.clone();
        use_effect_with(deps, move |_| {
            let json = crate::glue::worker::state_without_texts(&state);
            crate::glue::worker::ask_newest(
                &seq,
                &pending,
                |done| {
                    crate::glue::worker::rendered_job(
                        crate::glue::worker::Rendered::Policy,
                        json,
                        &state.nodes,
                        &state.pods,
                        lang.tag(),
                        done,
                    )
                },
                move |r| {
                    report.set(Some(r.map(|(out, _)| {
                        let (status, answers) = out.split_once(PART).unwrap_or(("", &out));
                        Rc::new((status.to_string(), answers.to_string()))
                    })));
                    crate::perf::set("policyAnswered", crate::perf::now());
                },
            );
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
    let raw = |html: &str| Html::from_html_unchecked(AttrValue::from(html.to_string()));
    let (settings_status, answers) = match &*report {
        None => (
            html! { <p class="muted">{t.s(K::KwEvaluating)}</p> },
            Html::default(),
        ),
        Some(Err(e)) => (
            html! { <p class="bad-text">{e.clone()}</p> },
            Html::default(),
        ),
        Some(Ok(r)) => (raw(&r.0), raw(&r.1)),
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
            <div class={classes!("kw-out", pending.then_some("stale"))}>{answers}</div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn the_worker_side_reads_the_state_and_keeps_parses() {
        let mut w = PolicyWorker::default();
        let pods = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: nginx}]\n      tolerations:\n      - operator: Exists\n";
        let state = serde_json::to_string(&State::default()).expect("json");
        let r = w.report(&state, Some(String::new()), Some(pods.into()));
        assert_eq!(r.answers.len(), 1);
        assert!(!r.answers[0].accepted);
        assert_eq!(r.answers[0].kind, "Deployment");
        assert_eq!(r.answers[0].label, "shop/web");
        // Same texts: not sent again, still answered.
        let r2 = w.report(&state, None, None);
        assert_eq!(r, r2);
        let mut bad = State::default();
        bad.policy.settings = Rc::from("{\"nope\": 1}");
        let r3 = w.report(&serde_json::to_string(&bad).expect("json"), None, None);
        assert!(r3.settings_error.is_some());
    }

    #[test]
    fn the_reply_is_escaped_html_in_the_language_asked() {
        let mut w = PolicyWorker::default();
        let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: \"a<b\", namespace: shop}\nspec:\n  containers: [{name: c, image: nginx}]\n  tolerations:\n  - operator: Exists\n";
        let state = serde_json::to_string(&State::default()).expect("json");
        let out = w.run(&state, Some(String::new()), Some(pods.into()), Lang::En);
        let (status, answers) = out.split_once(PART).expect("two parts");
        assert_eq!(status, "<p class=\"ok-text\">Settings are valid.</p>");
        assert!(
            answers.starts_with("<ul class=\"kw-answers\"><li class=\"kw-answer bad\">"),
            "{answers}"
        );
        assert!(
            answers.contains("<strong>shop/a&lt;b</strong>"),
            "{answers}"
        );
        assert!(!answers.contains("a<b"), "{answers}");
        let zh = w.run(&state, None, None, Lang::ZhCn);
        assert_ne!(zh, out);
        let mut bad = State::default();
        bad.policy.settings = Rc::from("{\"nope\": \"<x>\"}");
        let out = w.run(
            &serde_json::to_string(&bad).expect("json"),
            None,
            None,
            Lang::En,
        );
        let (status, answers) = out.split_once(PART).expect("two parts");
        assert!(status.starts_with("<p class=\"bad-text\">"), "{status}");
        assert_eq!(answers, "<ul class=\"kw-answers\"></ul>");
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
