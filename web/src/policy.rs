//! The Kubewarden tab: the policy's settings (validated exactly as the policy's
//! `validate_settings` does) and the policy's answer for every pasted pod and workload,
//! computed by the same decision function the policy module runs
//! (`taintlab_policy::evaluate`) on a CREATE AdmissionRequest built around the object.

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use taintlab_core::Semantics;
use taintlab_policy::{Decision, Settings};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::analysis::{Analysis, Config, PodEntry, analyse};
use crate::i18n::{K, use_t};
use crate::panes::Text;
use crate::parse::{PaneKind, PaneParse, parse_pane};
use crate::store::{Action, PolicyTab, State};

/// RFC 6901 escaping of one path segment.
fn seg(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<Value>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            // Sorted keys: the patch must not depend on whether serde_json preserves
            // insertion order (a feature another crate in the workspace may turn on).
            let mut xs: Vec<(&String, &Value)> = x.iter().collect();
            xs.sort_by_key(|(k, _)| *k);
            let mut ys: Vec<(&String, &Value)> = y.iter().collect();
            ys.sort_by_key(|(k, _)| *k);
            for (k, va) in xs {
                let p = format!("{path}/{}", seg(k));
                match y.get(k) {
                    None => out.push(json!({"op": "remove", "path": p})),
                    Some(vb) if va != vb => diff(va, vb, &p, out),
                    Some(_) => {}
                }
            }
            for (k, vb) in ys {
                if !x.contains_key(k) {
                    out.push(
                        json!({"op": "add", "path": format!("{path}/{}", seg(k)), "value": vb}),
                    );
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            let n = x.len().min(y.len());
            for i in 0..n {
                if x[i] != y[i] {
                    diff(&x[i], &y[i], &format!("{path}/{i}"), out);
                }
            }
            for (i, v) in y.iter().enumerate().skip(n) {
                out.push(json!({"op": "add", "path": format!("{path}/{i}"), "value": v}));
            }
            for i in (n..x.len()).rev() {
                out.push(json!({"op": "remove", "path": format!("{path}/{i}")}));
            }
        }
        _ if a != b => out.push(json!({"op": "replace", "path": path, "value": b})),
        _ => {}
    }
}

/// The JSON Patch (RFC 6902) that turns `from` into `to`.
pub fn json_patch(from: &Value, to: &Value) -> Value {
    let mut out = Vec::new();
    diff(from, to, "", &mut out);
    Value::Array(out)
}

fn group_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => (
            "",
            if api_version.is_empty() {
                "v1"
            } else {
                api_version
            },
        ),
    }
}

fn plural(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if lower.ends_with('s') {
        format!("{lower}es")
    } else {
        format!("{lower}s")
    }
}

/// The object the API server would pass to the policy for this pod entry. Pods carry
/// their tolerations after the built-in admission plugins (which run before webhooks);
/// workloads carry their template as written.
pub fn object_for(p: &PodEntry) -> Value {
    let mut w = p.workload.clone().unwrap_or_default();
    let is_pod = p.workload.is_none() || w.kind == "Pod";
    if p.workload.is_none() {
        w.kind = "Pod".into();
        w.api_version = "v1".into();
        w.name = p.pod.name.clone();
        w.namespace = p.pod.namespace.clone();
    }
    w.pod.tolerations = if is_pod {
        p.pod.tolerations.clone()
    } else {
        p.submitted.clone()
    };
    let pod = taintlab_input::emit::pod_json(&w.to_input());
    if is_pod {
        return pod;
    }
    let spec = pod.get("spec").cloned().unwrap_or(Value::Null);
    let mut meta = Map::new();
    meta.insert("name".into(), json!(w.name));
    if !w.namespace.is_empty() {
        meta.insert("namespace".into(), json!(w.namespace));
    }
    let template = json!({"metadata": {"labels": {"app": w.name}}, "spec": spec});
    let body = if w.kind == "CronJob" {
        json!({"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": template}}})
    } else {
        json!({"template": template})
    };
    json!({"apiVersion": w.api_version, "kind": w.kind, "metadata": Value::Object(meta), "spec": body})
}

/// A CREATE AdmissionRequest for the entry.
pub fn request_for(i: usize, p: &PodEntry, tab: &PolicyTab) -> Value {
    let object = object_for(p);
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("Pod")
        .to_string();
    let api_version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("v1")
        .to_string();
    let (group, version) = group_version(&api_version);
    let groups: Vec<&str> = tab
        .groups
        .split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .collect();
    json!({
        "uid": format!("playground-{i}"),
        "kind": {"group": group, "version": version, "kind": kind},
        "resource": {"group": group, "version": version, "resource": plural(&kind)},
        "requestKind": {"group": group, "version": version, "kind": kind},
        "requestResource": {"group": group, "version": version, "resource": plural(&kind)},
        "name": p.pod.name,
        "namespace": p.pod.namespace,
        "operation": "CREATE",
        "userInfo": {"username": tab.user, "groups": groups},
        "object": object,
        "oldObject": null,
        "dryRun": false,
        "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"}
    })
}

/// The settings, read and validated as `validate_settings` does.
pub fn settings(text: &str) -> Result<Settings, String> {
    let s = Settings::from_json(text.as_bytes())?;
    s.validate()?;
    Ok(s)
}

/// One row of the tab.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Pod label.
    pub label: String,
    /// Object kind.
    pub kind: String,
    /// The policy's decision.
    pub decision: Decision,
    /// The JSON Patch of the mutation, if any.
    pub patch: Option<Value>,
}

/// The policy's answer for every pod.
pub fn answers(a: &Analysis, tab: &PolicyTab, s: &Settings) -> Vec<Answer> {
    a.pods
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let request = request_for(i, p, tab);
            let decision = taintlab_policy::evaluate(&request, s, Some(&a.node_list));
            let patch = decision
                .mutated_object
                .as_ref()
                .map(|m| json_patch(request.get("object").unwrap_or(&Value::Null), m));
            Answer {
                label: p.label(),
                kind: request
                    .pointer("/kind/kind")
                    .and_then(Value::as_str)
                    .unwrap_or("Pod")
                    .to_string(),
                decision,
                patch,
            }
        })
        .collect()
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

impl From<&Answer> for AnswerView {
    fn from(a: &Answer) -> Self {
        Self {
            label: a.label.clone(),
            kind: a.kind.clone(),
            accepted: a.decision.accepted,
            mutated: a.decision.mutated_object.is_some(),
            message: a.decision.message.clone(),
            code: a.decision.code,
            warnings: a.decision.warnings.clone(),
            mutations: a.decision.mutations.clone(),
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
    texts: [String; 2],
    parses: [Option<PaneParse>; 2],
}

impl PolicyWorker {
    /// Runs one job: `state` is the state's JSON without pane texts; `nodes` and `pods`
    /// are the pane texts when they changed. Returns the [`PolicyReport`] as JSON.
    pub fn run(&mut self, state: &str, nodes: Option<String>, pods: Option<String>) -> String {
        for (i, text) in [nodes, pods].into_iter().enumerate() {
            if let Some(t) = text
                && t != self.texts[i]
            {
                self.texts[i] = t;
                self.parses[i] = None;
            }
        }
        let report = match serde_json::from_str::<State>(state) {
            Err(e) => PolicyReport {
                settings_error: Some(e.to_string()),
                answers: Vec::new(),
            },
            Ok(state) => {
                let kinds = [PaneKind::Nodes, PaneKind::Pods];
                for ((parse, text), kind) in self.parses.iter_mut().zip(&self.texts).zip(kinds) {
                    if parse.is_none() {
                        *parse = Some(parse_pane(text, kind));
                    }
                }
                let empty = PaneParse::default();
                let a = analyse(
                    self.parses[0].as_ref().unwrap_or(&empty),
                    self.parses[1].as_ref().unwrap_or(&empty),
                    &Config {
                        semantics: Semantics::at(state.kube_version())
                            .with_comparison_operators(state.comparison_operators),
                        admission: state.admission.clone(),
                    },
                );
                match settings(&state.policy.settings) {
                    Err(e) => PolicyReport {
                        settings_error: Some(e),
                        answers: Vec::new(),
                    },
                    Ok(s) => PolicyReport {
                        settings_error: None,
                        answers: answers(&a, &state.policy, &s)
                            .iter()
                            .map(AnswerView::from)
                            .collect(),
                    },
                }
            }
        };
        serde_json::to_string(&report).unwrap_or_default()
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
    let seq = use_mut_ref(|| (0u64, 0u64));
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
                let report = report.clone();
                let pending = pending.clone();
                Callback::from(move |r: crate::worker::Reply| {
                    let mut s = seq.borrow_mut();
                    if my < s.1 {
                        return;
                    }
                    s.1 = my;
                    if my == s.0 {
                        pending.set(false);
                    }
                    report.set(Some(r.and_then(|(out, _)| {
                        serde_json::from_str::<PolicyReport>(&out).map_err(|e| e.to_string())
                    })));
                    crate::perf::set("policyAnswered", crate::perf::now());
                })
            };
            if !crate::worker::policy_job(json, &state.nodes, &state.pods, done) {
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
    use crate::analysis::{Config, analyse};
    use crate::parse::{PaneKind, parse_pane};
    use crate::store::Admission;
    use taintlab_core::Semantics;

    #[test]
    fn patch_adds_replaces_and_removes() {
        let a = json!({"spec": {"tolerations": [{"key": "a"}], "x/y": 1, "gone": true}});
        let b = json!({"spec": {"tolerations": [{"key": "a", "tolerationSeconds": 60}, {"key": "b"}], "x/y": 2}});
        let p = json_patch(&a, &b);
        assert_eq!(
            p,
            json!([
                {"op": "remove", "path": "/spec/gone"},
                {"op": "add", "path": "/spec/tolerations/0/tolerationSeconds", "value": 60},
                {"op": "add", "path": "/spec/tolerations/1", "value": {"key": "b"}},
                {"op": "replace", "path": "/spec/x~1y", "value": 2}
            ])
        );
    }

    #[test]
    fn wildcard_is_rejected_by_default_and_workloads_are_wrapped() {
        let pods = parse_pane(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: nginx}]\n      tolerations:\n      - operator: Exists\n",
            PaneKind::Pods,
        );
        let a = analyse(
            &parse_pane("", PaneKind::Nodes),
            &pods,
            &Config {
                semantics: Semantics::newest(),
                admission: Admission::default(),
            },
        );
        let req = request_for(0, &a.pods[0], &PolicyTab::default());
        assert_eq!(req.pointer("/kind/group"), Some(&json!("apps")));
        assert_eq!(
            req.pointer("/object/spec/template/spec/tolerations/0/operator"),
            Some(&json!("Exists"))
        );
        let s = settings("{}").expect("default settings");
        let ans = answers(&a, &PolicyTab::default(), &s);
        assert!(!ans[0].decision.accepted, "{:?}", ans[0].decision);
    }

    #[test]
    fn the_worker_side_reads_the_state_and_keeps_parses() {
        let mut w = PolicyWorker::default();
        let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n  tolerations: [{operator: Exists}]\n";
        let state = serde_json::to_string(&State::default()).expect("json");
        let r: PolicyReport =
            serde_json::from_str(&w.run(&state, Some(String::new()), Some(pods.into())))
                .expect("report");
        assert_eq!(r.answers.len(), 1);
        assert!(!r.answers[0].accepted);
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
    fn invalid_settings_are_reported() {
        assert!(settings("{\"noSuchField\": 1}").is_err());
        assert!(settings("not json").is_err());
    }
}
