//! The cluster settings bar: the Kubernetes release (message wording, the `Lt`/`Gt`
//! gate), and the admission plugins whose result the explanations show.

use std::rc::Rc;

use taintlab_core::KubeVersion;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::i18n::{K, use_t};
use crate::store::{Action, Admission};

/// Releases offered, newest first, with their labels. 1.34.3 is the first 1.34 patch
/// with the generic taint message.
pub const VERSIONS: &[(&str, &str)] = &[
    ("1.37.0", "1.37"),
    ("1.36.0", "1.36"),
    ("1.35.0", "1.35"),
    ("1.34.3", "1.34.3+"),
    ("1.34.0", "1.34.0–1.34.2"),
    ("1.33.0", "1.33"),
    ("1.32.0", "1.32"),
    ("1.31.0", "1.31"),
    ("1.30.0", "1.30"),
    ("1.29.0", "1.29"),
    ("1.28.0", "1.28"),
    ("1.27.0", "1.27"),
    ("1.26.0", "1.26"),
    ("1.25.0", "1.25"),
];

/// Properties of [`Settings`].
#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The release.
    pub version: String,
    /// The gate.
    pub gate: bool,
    /// Admission settings.
    pub admission: Admission,
    /// Problems in the admission configuration.
    pub errors: Rc<Vec<String>>,
    /// State changes.
    pub dispatch: Callback<Action>,
}

fn checked(e: &Event) -> bool {
    e.target_dyn_into::<HtmlInputElement>()
        .map(|i| i.checked())
        .unwrap_or(false)
}

fn int(e: &Event) -> Option<i64> {
    e.target_dyn_into::<HtmlInputElement>()
        .and_then(|i| i.value().trim().parse().ok())
}

fn text(e: &InputEvent) -> Rc<str> {
    Rc::from(
        e.target_dyn_into::<HtmlTextAreaElement>()
            .map(|t| t.value())
            .unwrap_or_default(),
    )
}

/// The settings bar.
#[function_component(Settings)]
pub fn settings(props: &SettingsProps) -> Html {
    let t = use_t();
    let d = props.dispatch.clone();
    let on_version = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() {
                crate::perf::note_edit();
                d.emit(Action::SetVersion(s.value()));
            }
        })
    };
    let on_gate = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            crate::perf::note_edit();
            d.emit(Action::SetGate(checked(&e)))
        })
    };
    let a = props.admission.clone();
    let upd = |f: fn(&mut Admission, &Event)| {
        let d = d.clone();
        let a = a.clone();
        Callback::from(move |e: Event| {
            let mut n = a.clone();
            f(&mut n, &e);
            crate::perf::note_edit();
            d.emit(Action::SetAdmission(n));
        })
    };
    let upd_text = |f: fn(&mut Admission, Rc<str>)| {
        let d = d.clone();
        let a = a.clone();
        Callback::from(move |e: InputEvent| {
            let mut n = a.clone();
            f(&mut n, text(&e));
            crate::perf::note_edit();
            d.emit(Action::SetAdmission(n));
        })
    };
    let release = KubeVersion::parse(&props.version).unwrap_or(KubeVersion::NEWEST);
    let known = VERSIONS.iter().any(|(v, _)| *v == props.version);
    html! {
        <section class="settings" aria-label={t.s(K::Settings)}>
            <div class="settings-row">
                <label class="inline-select">
                    <span>{t.s(K::Version)}</span>
                    <select id="version-select" onchange={on_version}>
                        if !known { <option value={props.version.clone()} selected=true>{props.version.clone()}</option> }
                        { for VERSIONS.iter().map(|(v, label)| html!{ <option value={*v} selected={props.version == *v}>{*label}</option> }) }
                    </select>
                </label>
                <label class="check">
                    <input id="gate" type="checkbox" checked={props.gate} onchange={on_gate} />
                    {t.s(K::Gate)}
                </label>
                if props.gate && !release.at_least(35) { <span class="warn-text small">{t.s(K::GateNeeds135)}</span> }
            </div>
            <details class="admission">
                <summary>{t.s(K::AdmissionTitle)}</summary>
                <div class="admission-grid">
                    <label class="check"><input type="checkbox" checked={a.enabled} onchange={upd(|a, e| a.enabled = checked(e))} />{t.s(K::AdmissionEnabled)}</label>
                    <p class="muted small">{t.s(K::AdmissionHint)}</p>
                    <fieldset disabled={!a.enabled}>
                        <legend><label class="check"><input type="checkbox" checked={a.default_toleration_seconds} onchange={upd(|a, e| a.default_toleration_seconds = checked(e))} />{t.s(K::DefaultTolerationSeconds)}</label></legend>
                        <label>{t.s(K::NotReadySeconds)}<input type="number" inputmode="numeric" value={a.not_ready_seconds.to_string()} onchange={upd(|a, e| if let Some(v) = int(e) { a.not_ready_seconds = v })} /></label>
                        <label>{t.s(K::UnreachableSeconds)}<input type="number" inputmode="numeric" value={a.unreachable_seconds.to_string()} onchange={upd(|a, e| if let Some(v) = int(e) { a.unreachable_seconds = v })} /></label>
                    </fieldset>
                    <fieldset disabled={!a.enabled}>
                        <legend><label class="check"><input type="checkbox" checked={a.pod_toleration_restriction} onchange={upd(|a, e| a.pod_toleration_restriction = checked(e))} />{t.s(K::PodTolerationRestriction)}</label></legend>
                        <label>{t.s(K::ClusterDefault)}<textarea class="code small" rows="3" spellcheck="false" value={a.cluster_default.to_string()} oninput={upd_text(|a, v| a.cluster_default = v)} placeholder="- {key: team, operator: Equal, value: a, effect: NoSchedule}" /></label>
                        <label>{t.s(K::ClusterWhitelist)}<textarea class="code small" rows="3" spellcheck="false" value={a.cluster_whitelist.to_string()} oninput={upd_text(|a, v| a.cluster_whitelist = v)} /></label>
                        <label class="check"><input type="checkbox" checked={a.namespace_default.is_some()} onchange={upd(|a, e| a.namespace_default = if checked(e) { Some(Rc::from("[]")) } else { None })} />{t.s(K::NamespaceDefault)}{" "}{t.s(K::AnnotationPresent)}</label>
                        if let Some(v) = &a.namespace_default {
                            <textarea class="code small" rows="2" spellcheck="false" aria-label={t.s(K::NamespaceDefault)} value={v.to_string()} oninput={upd_text(|a, v| a.namespace_default = Some(v))} />
                        }
                        <label class="check"><input type="checkbox" checked={a.namespace_whitelist.is_some()} onchange={upd(|a, e| a.namespace_whitelist = if checked(e) { Some(Rc::from("[]")) } else { None })} />{t.s(K::NamespaceWhitelist)}{" "}{t.s(K::AnnotationPresent)}</label>
                        if let Some(v) = &a.namespace_whitelist {
                            <textarea class="code small" rows="2" spellcheck="false" aria-label={t.s(K::NamespaceWhitelist)} value={v.to_string()} oninput={upd_text(|a, v| a.namespace_whitelist = Some(v))} />
                        }
                    </fieldset>
                    <label class="check"><input type="checkbox" disabled={!a.enabled} checked={a.extended_resource_toleration} onchange={upd(|a, e| a.extended_resource_toleration = checked(e))} />{t.s(K::ExtendedResourceToleration)}</label>
                    <label class="check"><input id="daemonset-toggle" type="checkbox" checked={a.daemonset} onchange={upd(|a, e| a.daemonset = checked(e))} />{t.s(K::DaemonSetToggle)}</label>
                </div>
                if !props.errors.is_empty() {
                    <div class="error-block" role="alert">
                        <p>{t.s(K::ConfigErrors)}</p>
                        <ul>{ for props.errors.iter().map(|e| html!{ <li><code>{e.clone()}</code></li> }) }</ul>
                    </div>
                }
            </details>
        </section>
    }
}
