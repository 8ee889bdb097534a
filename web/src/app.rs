//! The `App` component: the page's layout, its toolbar (share, export, import, language,
//! theme), the notices, and the wiring of state, parses and analysis to the panes and
//! result tabs. Hooks live in [`crate::hooks`], browser calls in [`crate::glue`].

use std::rc::Rc;

use taintlab_core::Semantics;
use yew::prelude::*;

use crate::analysis::{self, Analysis, analyse};
use crate::glue::dom::{clear_fragment, download, focus, set_document_lang};
use crate::glue::storage::{storage_get, storage_remove, storage_set};
use crate::hooks::{use_pane, use_tolerations};
use crate::i18n::{K, Lang, T};
use crate::panes::{Pane, Text};
use crate::share::{self, LinkError};
use crate::store::{Action, State, Tab};
use crate::theme::{self, Theme};
use crate::{explain, gallery, matrix, perf, policy, settings, timeline};
use taintlab_scenario::PaneKind;

/// Local storage key of the language.
pub const LANG_KEY: &str = "taintlab.lang";

/// The starting language: the stored choice, else the browser's language.
pub fn initial_lang() -> Lang {
    if let Some(stored) = storage_get(LANG_KEY)
        && let Some(l) = Lang::ALL.iter().find(|l| l.tag() == stored)
    {
        return *l;
    }
    let nav = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    Lang::from_tag(&nav)
}

/// Where the starting state came from, and a link problem to report.
#[derive(Clone, Debug, PartialEq)]
pub struct Boot {
    /// The state.
    pub state: State,
    /// A share link that could not be read.
    pub link_error: Option<LinkError>,
}

/// The starting state: a share link in the fragment, else local storage, else the
/// first example.
pub fn boot() -> Boot {
    let window = web_sys::window();
    let hash = window
        .as_ref()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let mut link_error = None;
    match share::decode_fragment(&hash) {
        Ok(Some(state)) => {
            clear_fragment();
            return Boot {
                state,
                link_error: None,
            };
        }
        Ok(None) => {}
        Err(e) => {
            link_error = Some(e);
            clear_fragment();
        }
    }
    let state = storage_get(share::STATE_KEY)
        .and_then(|s| share::from_local(&s))
        .unwrap_or_else(gallery::first_visit);
    Boot { state, link_error }
}

fn link_error_text(t: T, e: &LinkError) -> String {
    match e {
        LinkError::Missing => t.s(K::ShareErrMissing).to_string(),
        LinkError::Version(v) => t.f(K::ShareErrVersion, &[v]),
        LinkError::TooLarge => t.f(
            K::ShareErrTooLarge,
            &[&share::MAX_FRAGMENT_CHARS.to_string()],
        ),
        LinkError::Encoding => t.s(K::ShareErrEncoding).to_string(),
        LinkError::Inflate => t.f(K::ShareErrInflate, &[&share::MAX_STATE_BYTES.to_string()]),
        LinkError::Json(m) => t.f(K::ShareErrJson, &[m]),
    }
}

/// A notice shown under the header.
#[derive(Clone, Debug, PartialEq)]
enum Notice {
    Info(String),
    Error(String, String),
}

/// The playground.
#[function_component(App)]
pub fn app() -> Html {
    let boot = use_memo((), |_| boot());
    let state = {
        let b = boot.clone();
        use_reducer(move || b.state.clone())
    };
    let lang = use_state(initial_lang);
    let theme = use_state(theme::load);
    let gallery_open = use_state(|| false);
    let t = T(*lang);
    let notice = {
        let b = boot.clone();
        use_state(move || {
            b.link_error
                .as_ref()
                .map(|e| Notice::Error(t.s(K::ShareErrorTitle).to_string(), link_error_text(t, e)))
        })
    };
    let not_saved = use_state(|| false);
    // One callback for the app's lifetime, so children's props stay equal.
    let dispatch: Callback<Action> = {
        let d = state.dispatcher();
        (*use_memo((), move |_| Callback::from(move |a: Action| d.dispatch(a)))).clone()
    };

    let nodes_view = use_pane(state.nodes.clone(), PaneKind::Nodes);
    let pods_view = use_pane(state.pods.clone(), PaneKind::Pods);
    let restriction = state.admission.enabled && state.admission.pod_toleration_restriction;
    let cluster = [
        use_tolerations(state.admission.cluster_default.clone(), restriction),
        use_tolerations(state.admission.cluster_whitelist.clone(), restriction),
    ];
    let semantics =
        Semantics::at(state.kube_version()).with_comparison_operators(state.comparison_operators);
    let analysis: Rc<Analysis> = {
        let deps = (
            nodes_view.parse.clone(),
            pods_view.parse.clone(),
            semantics,
            state.admission.clone(),
            cluster,
        );
        let memo = use_memo(deps, |(n, p, s, a, c)| {
            Rc::new(analyse(n, p, &analysis::options_with(*s, a, c)))
        });
        (*memo).clone()
    };

    // Timing marks for the end-to-end suite.
    use_effect_with((), |_| {
        perf::set("firstRender", perf::now());
    });
    use_effect_with(analysis.clone(), |_| {
        if let Some(t0) = perf::take_edit() {
            perf::push("recompute", perf::now() - t0);
        }
        perf::set("renders", perf::now());
    });

    // Keep the last state locally.
    {
        let s = (*state).clone();
        let not_saved = not_saved.clone();
        use_effect_with(state.generation, move |_| match share::to_local(&s) {
            Some(json) => {
                let ok = storage_set(share::STATE_KEY, &json);
                not_saved.set(!ok);
            }
            None => {
                storage_remove(share::STATE_KEY);
                not_saved.set(true);
            }
        });
    }
    use_effect_with(*lang, |l| set_document_lang(l.tag()));
    use_effect_with(*theme, |th| theme::apply(*th));

    let on_share = {
        let state = state.clone();
        let notice = notice.clone();
        Callback::from(move |_| match share::encode_fragment(&state) {
            Ok(fragment) => {
                let Some(w) = web_sys::window() else { return };
                let url = format!(
                    "{}{}{}#{fragment}",
                    w.location().origin().unwrap_or_default(),
                    w.location().pathname().unwrap_or_default(),
                    w.location().search().unwrap_or_default()
                );
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
                }
                let clip = w.navigator().clipboard();
                let notice = notice.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let ok = wasm_bindgen_futures::JsFuture::from(clip.write_text(&url))
                        .await
                        .is_ok();
                    notice.set(Some(Notice::Info(
                        t.s(if ok {
                            K::ShareCopied
                        } else {
                            K::ShareInAddressBar
                        })
                        .to_string(),
                    )));
                });
            }
            Err(len) => notice.set(Some(Notice::Error(
                t.s(K::Share).to_string(),
                t.f(
                    K::ShareTooLarge,
                    &[&len.to_string(), &share::MAX_SHARE_CHARS.to_string()],
                ),
            ))),
        })
    };
    let on_export = {
        let state = state.clone();
        Callback::from(move |_| download(share::export_file_name(), &share::export_yaml(&state)))
    };
    let on_import = {
        let dispatch = dispatch.clone();
        let notice = notice.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            if let Err(err) = share::check_import_size(file.size()) {
                notice.set(Some(Notice::Error(
                    t.s(K::ImportYaml).to_string(),
                    t.f(K::ImportError, &[&err]),
                )));
                return;
            }
            let dispatch = dispatch.clone();
            let notice = notice.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                crate::hooks::import_yaml(&text, move |r| match r {
                    Ok(s) => {
                        perf::note_edit();
                        dispatch.emit(Action::Replace(Box::new(s)));
                        notice.set(Some(Notice::Info(t.s(K::Imported).to_string())));
                    }
                    Err(err) => notice.set(Some(Notice::Error(
                        t.s(K::ImportYaml).to_string(),
                        t.f(K::ImportError, &[&err]),
                    ))),
                });
            });
        })
    };
    let on_lang = {
        let lang = lang.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>()
                && let Some(l) = Lang::ALL.iter().find(|l| l.tag() == s.value())
            {
                storage_set(LANG_KEY, l.tag());
                lang.set(*l);
            }
        })
    };
    let on_theme = {
        let theme = theme.clone();
        Callback::from(move |th: Theme| theme.set(th))
    };
    let toggle_gallery = {
        let g = gallery_open.clone();
        Callback::from(move |_| g.set(!*g))
    };
    let close_gallery = {
        let g = gallery_open.clone();
        Callback::from(move |_| {
            g.set(false);
            focus("gallery-button");
        })
    };

    let lists = use_memo(analysis.clone(), |a| {
        (
            Rc::new(
                a.nodes
                    .iter()
                    .map(|n| n.node.name.clone())
                    .collect::<Vec<_>>(),
            ),
            Rc::new(
                a.pods
                    .iter()
                    .map(|p| p.pod.name.clone())
                    .collect::<Vec<_>>(),
            ),
            Rc::new(a.commands.clone()),
            Rc::new(a.config_errors.clone()),
            Rc::new(
                a.nodes
                    .iter()
                    .map(|n| n.node.labels.clone())
                    .collect::<Vec<_>>(),
            ),
        )
    });
    let (node_names, pod_names, commands, config_errors, node_labels) = (*lists).clone();
    let version = state.kube_version();
    let tab = state.tab;
    let tab_button = |which: Tab, key: K, id: &'static str| {
        let onclick = {
            let dispatch = dispatch.clone();
            Callback::from(move |_| dispatch.emit(Action::SetTab(which)))
        };
        let onkeydown = {
            let dispatch = dispatch.clone();
            Callback::from(move |e: KeyboardEvent| {
                let order = [Tab::Results, Tab::Timeline, Tab::Kubewarden];
                let i = order.iter().position(|x| *x == which).unwrap_or(0);
                let next = match e.key().as_str() {
                    "ArrowRight" => order[(i + 1) % 3],
                    "ArrowLeft" => order[(i + 2) % 3],
                    "Home" => order[0],
                    "End" => order[2],
                    _ => return,
                };
                e.prevent_default();
                dispatch.emit(Action::SetTab(next));
                focus(match next {
                    Tab::Results => "tab-results",
                    Tab::Timeline => "tab-timeline",
                    Tab::Kubewarden => "tab-kubewarden",
                });
            })
        };
        html! {
            <button type="button" role="tab" id={id} aria-selected={if tab == which { "true" } else { "false" }}
                aria-controls="results-panel" tabindex={if tab == which { "0" } else { "-1" }} {onclick} {onkeydown}>{t.s(key)}</button>
        }
    };

    let panel = match tab {
        Tab::Results => html! {
            <>
                <h2 class="results-title">{t.s(K::ResultsTitle)}</h2>
                <matrix::Matrix analysis={analysis.clone()} selected={state.selected} dispatch={dispatch.clone()} />
                <div class="explain-wrap">
                    <h2>{t.s(K::ExplainTitle)}</h2>
                    <explain::Explain analysis={analysis.clone()} selected={state.selected} />
                </div>
                <explain::Events analysis={analysis.clone()} />
            </>
        },
        Tab::Timeline => {
            html! {
                <>
                    <timeline::WhatIf analysis={analysis.clone()} state={(*state).clone()} dispatch={dispatch.clone()} />
                    <timeline::Timeline analysis={analysis.clone()} state={(*state).clone()} dispatch={dispatch.clone()} />
                </>
            }
        }
        Tab::Kubewarden => {
            html! { <policy::Kubewarden state={(*state).clone()} pods={analysis.pods.len()} dispatch={dispatch.clone()} /> }
        }
    };

    html! {
        <ContextProvider<Lang> context={*lang}>
            <a class="skip" href="#results">{t.s(K::SkipToResults)}</a>
            <header class="top">
                <div class="brand">
                    <h1>
                        <svg class="logo" viewBox="0 0 32 32" width="26" height="26" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#2f5bd3"/><path d="M8 10h16v3h-6.5v11h-3V13H8z" fill="#fff"/><circle cx="24" cy="23" r="4" fill="#f2a33a"/></svg>
                        {t.s(K::AppTitle)}
                    </h1>
                    <p class="tagline">{t.s(K::AppTagline)}</p>
                </div>
                <div class="toolbar" role="toolbar" aria-label={t.s(K::AppTitle)}>
                    <button type="button" id="gallery-button" class="button" aria-expanded={if *gallery_open { "true" } else { "false" }} aria-controls="gallery" onclick={toggle_gallery}>{t.s(K::Examples)}</button>
                    <button type="button" id="share-button" class="button" onclick={on_share}>{t.s(K::Share)}</button>
                    <button type="button" id="export-button" class="button subtle" onclick={on_export}>{t.s(K::ExportYaml)}</button>
                    <label class="button subtle file">
                        <input type="file" id="import-input" accept=".yaml,.yml,text/yaml" onchange={on_import} aria-label={t.s(K::ImportYaml)} />
                        <span aria-hidden="true">{t.s(K::ImportYaml)}</span>
                    </label>
                    <label class="inline-select">
                        <span>{t.s(K::Language)}</span>
                        <select id="lang-select" onchange={on_lang}>
                            { for Lang::ALL.iter().map(|l| html!{ <option value={l.tag()} lang={l.tag()} selected={*lang == *l}>{l.native_name()}</option> }) }
                        </select>
                    </label>
                    {theme::theme_select(t, *theme, &on_theme)}
                </div>
            </header>
            <div class="notices" aria-live="polite">
                { match &*notice {
                    Some(Notice::Info(m)) => html!{ <p class="notice info" role="status">{m.clone()}<button type="button" class="button subtle small" onclick={{ let n = notice.clone(); Callback::from(move |_| n.set(None)) }}>{t.s(K::Dismiss)}</button></p> },
                    Some(Notice::Error(title, m)) => html!{ <div class="notice error" role="alert" id="notice-error"><strong>{title.clone()}</strong><p>{m.clone()}</p><button type="button" class="button subtle small" onclick={{ let n = notice.clone(); Callback::from(move |_| n.set(None)) }}>{t.s(K::Dismiss)}</button></div> },
                    None => Html::default(),
                } }
                if *not_saved { <p class="notice muted small">{t.s(K::NotSavedLocally)}</p> }
            </div>
            if *gallery_open {
                <gallery::Gallery dispatch={dispatch.clone()} on_close={close_gallery} />
            }
            <settings::Settings version={state.version.clone()} gate={state.comparison_operators} admission={state.admission.clone()} errors={config_errors} dispatch={dispatch.clone()} />
            <main class="layout">
                <div class="inputs">
                    <Pane kind={PaneKind::Nodes} text={Text(state.nodes.clone())} rev={state.rev} view={nodes_view.clone()} commands={commands.clone()} node_names={node_names.clone()} node_labels={node_labels.clone()} {version} pod_names={pod_names.clone()} dispatch={dispatch.clone()} />
                    <Pane kind={PaneKind::Pods} text={Text(state.pods.clone())} rev={state.rev} view={pods_view.clone()} commands={commands.clone()} node_names={node_names.clone()} node_labels={node_labels.clone()} {version} pod_names={pod_names.clone()} dispatch={dispatch.clone()} />
                </div>
                <div class="results" id="results" tabindex="-1">
                    <div class="tabs" role="tablist" aria-label={t.s(K::ResultsTitle)}>
                        {tab_button(Tab::Results, K::TabResults, "tab-results")}
                        {tab_button(Tab::Timeline, K::TabTimeline, "tab-timeline")}
                        {tab_button(Tab::Kubewarden, K::TabKubewarden, "tab-kubewarden")}
                    </div>
                    <div class="panel" role="tabpanel" id="results-panel" aria-labelledby={match tab { Tab::Results => "tab-results", Tab::Timeline => "tab-timeline", Tab::Kubewarden => "tab-kubewarden" }}>
                        {panel}
                    </div>
                </div>
            </main>
            <footer class="footer"><p>{t.s(K::Footer)}</p></footer>
        </ContextProvider<Lang>>
    }
}
