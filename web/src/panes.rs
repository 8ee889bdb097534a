//! The Nodes and Pods panes: a text box that accepts every form of the input layer,
//! file upload and drop, errors marked at their line, kubectl's output for `kubectl
//! taint` lines, what each block of the text was read as, and small forms to add one
//! taint, add or remove one node label, add one toleration or one nodeSelector /
//! node-affinity term without writing YAML or commands.

use std::collections::BTreeMap;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{DragEvent, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::analysis::CommandEntry;
use crate::i18n::{K, T, use_t};
use taintlab_core::{KubeVersion, Node};
use taintlab_input::{Diagnostic, Severity};
use taintlab_scenario::{Block, Fact, PaneKind, ParsedPane, form_label, join_facts};

use crate::parse::SharedPane;
use crate::store::Action;

/// Line height of the text box in pixels; the gutter and the error marks use it too.
pub const LINE_PX: f64 = 20.0;
/// Top padding of the text box in pixels.
pub const PAD_PX: f64 = 8.0;
/// Line numbers are drawn up to this many lines.
const MAX_GUTTER_LINES: usize = 20_000;
/// Diagnostics listed under the text box.
const MAX_LISTED: usize = 200;
/// Above this size the text box is hidden behind a summary: laying out megabytes of
/// text would stall the page on every change.
pub const BIG_EDIT_BYTES: usize = 1_000_000;

/// A pane's text, compared by pointer first (pastes can be tens of megabytes).
#[derive(Clone, Debug)]
pub struct Text(pub Rc<str>);

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

/// What a pane shows about its text: the parse and whether a newer one is under way.
#[derive(Clone, Debug, PartialEq)]
pub struct PaneView {
    /// The latest parse (possibly of an older text while `pending`).
    pub parse: SharedPane,
    /// Bytes being read in the background, if any.
    pub pending: Option<usize>,
    /// How long the last background read took, in milliseconds.
    pub worker_ms: Option<f64>,
}

/// Human size: `78.3 MB`, `12 KB`, `300 B`.
pub fn human_bytes(n: usize) -> String {
    if n >= 1_000_000 {
        // Integer arithmetic: no float formatting code in the wasm.
        let tenths = (n + 50_000) / 100_000;
        format!("{}.{} MB", tenths / 10, tenths % 10)
    } else if n >= 1_000 {
        format!("{} KB", n / 1_000)
    } else {
        format!("{n} B")
    }
}

/// Properties of [`Pane`].
#[derive(Properties, PartialEq)]
pub struct PaneProps {
    /// Nodes or Pods.
    pub kind: PaneKind,
    /// The text.
    pub text: Text,
    /// Bumped when the text was replaced from outside the text box.
    pub rev: u64,
    /// The parse.
    pub view: PaneView,
    /// `kubectl taint` commands of this pane, with kubectl's output.
    pub commands: Rc<Vec<CommandEntry>>,
    /// Names of the nodes (for the add-a-taint and add-a-label forms).
    pub node_names: Rc<Vec<String>>,
    /// Labels of the nodes, in the order of `node_names` (for the add-a-label form).
    pub node_labels: Rc<Vec<BTreeMap<String, String>>>,
    /// The release whose `kubectl label` checks the add-a-label form runs.
    pub version: KubeVersion,
    /// Names of the pods (to propose a free name in the add-a-toleration form).
    pub pod_names: Rc<Vec<String>>,
    /// State changes.
    pub dispatch: Callback<Action>,
}

fn pane_id(kind: PaneKind) -> &'static str {
    match kind {
        PaneKind::Nodes | PaneKind::Combined => "nodes",
        PaneKind::Pods => "pods",
    }
}

/// UTF-16 offset of (line, column), both 1-based, and the end of that line.
fn offsets(text: &str, line: usize, column: usize) -> (u32, u32) {
    let mut offset = 0u32;
    for (i, l) in text.split('\n').enumerate() {
        let len: u32 = l.chars().map(|c| c.len_utf16() as u32).sum();
        if i + 1 == line {
            let col: u32 = l
                .chars()
                .take(column.saturating_sub(1))
                .map(|c| c.len_utf16() as u32)
                .sum();
            return (offset + col, offset + len);
        }
        offset += len + 1;
    }
    (offset, offset)
}

/// Reads a dropped or chosen file and hands its text over.
fn read_file(file: web_sys::File, done: Callback<Rc<str>>) {
    wasm_bindgen_futures::spawn_local(async move {
        if let Ok(v) = wasm_bindgen_futures::JsFuture::from(file.text()).await
            && let Some(s) = v.as_string()
        {
            crate::perf::note_edit();
            done.emit(Rc::from(s));
        }
    });
}

/// What a pane read; a bare taint list is one node and a bare toleration list one pod
/// (the scenario's rule for anonymous lists).
fn summary(t: T, p: &ParsedPane) -> String {
    let mut parts = Vec::new();
    let p = &p.parsed;
    let nodes = p.nodes.len() + p.taint_lists.len();
    let pods = p.workloads.len() + p.toleration_lists.len();
    if nodes > 0 {
        parts.push(t.f(K::CountNodes, &[&nodes.to_string()]));
    }
    if pods > 0 {
        parts.push(t.f(K::CountPods, &[&pods.to_string()]));
    }
    let labels = p
        .taint_commands
        .iter()
        .filter(|c| !c.verb.is_taint())
        .count();
    let taints = p.taint_commands.len() - labels;
    if taints > 0 {
        parts.push(t.f(K::CountCommands, &[&taints.to_string()]));
    }
    if labels > 0 {
        parts.push(t.f(K::FactLabelCommands, &[&labels.to_string()]));
    }
    if !p.events.is_empty() {
        parts.push(t.f(K::CountEvents, &[&p.events.len().to_string()]));
    }
    if parts.is_empty() {
        parts.push(t.s(K::NothingRead).to_string());
    }
    t.f(K::Read, &[&parts.join(", ")])
}

/// A fact of the blocks view in the interface language.
fn fact_words(t: T, fact: Fact, n: usize) -> String {
    let key = match fact {
        Fact::Nodes => K::CountNodes,
        Fact::Cordoned => K::FactCordoned,
        Fact::Pods => K::CountPods,
        Fact::Bound => K::FactBound,
        Fact::Pending => K::FactPending,
        Fact::Workloads => K::FactWorkloads,
        Fact::Taints => K::FactTaints,
        Fact::Tolerations => K::FactTolerations,
        Fact::TaintCommands => K::CountCommands,
        Fact::LabelCommands => K::FactLabelCommands,
        Fact::Events => K::CountEvents,
        Fact::PriorityClasses => K::FactPriorityClasses,
        Fact::DisruptionBudgets => K::FactDisruptionBudgets,
    };
    t.f(key, &[&n.to_string()])
}

/// One line of the blocks view: where, what it was read as, what was read from it
/// (the scenario's blocks view, in the interface language).
fn block_html(t: T, b: &Block, jump: &Callback<(usize, usize)>) -> Html {
    let lines = if b.end_line > b.line {
        t.f(
            K::LinesRange,
            &[&b.line.to_string(), &b.end_line.to_string()],
        )
    } else {
        t.f(K::LineOnly, &[&b.line.to_string()])
    };
    let read = join_facts(
        &b.facts,
        |f, n| fact_words(t, f, n),
        t.s(K::BlockNothingRead),
    );
    let onclick = {
        let (jump, line) = (jump.clone(), b.line);
        Callback::from(move |_| jump.emit((line, 1)))
    };
    html! {
        <li data-form={form_label(b.form)}>
            <button type="button" class="link" {onclick}>{lines}</button>
            {" "}<span class="form">{form_label(b.form)}</span>{": "}<span class="read">{read}</span>
            if b.errors + b.warnings > 0 {
                <span class={if b.errors > 0 { "count error" } else { "count warning" }}>{" · "}{t.f(K::ErrorsCount, &[&b.errors.to_string(), &b.warnings.to_string()])}</span>
            }
        </li>
    }
}

/// One pane.
#[function_component(Pane)]
pub fn pane(props: &PaneProps) -> Html {
    let t = use_t();
    let ta = use_node_ref();
    let show_big = use_state(|| false);
    let gutter = use_node_ref();
    let marks = use_node_ref();
    let dragging = use_state(|| false);
    let id = pane_id(props.kind);

    // The text box is not controlled: it keeps what the user types, and takes the
    // state's text only when that was replaced from outside (gallery, file, form).
    {
        let ta = ta.clone();
        let text = props.text.0.clone();
        use_effect_with((props.rev, *show_big), move |(_, shown)| {
            let Some(el) = ta.cast::<HtmlTextAreaElement>() else {
                return;
            };
            // A large text stays out of the text box until asked for: the browser
            // would lay out megabytes of text.
            let wanted: &str = if text.len() > BIG_EDIT_BYTES && !*shown {
                ""
            } else {
                &text
            };
            if el.value() != wanted {
                el.set_value(wanted);
            }
        });
    }

    let on_input = {
        let dispatch = props.dispatch.clone();
        let kind = props.kind;
        Callback::from(move |e: InputEvent| {
            let Some(el) = e.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            crate::perf::note_edit();
            let text: Rc<str> = Rc::from(el.value());
            dispatch.emit(match kind {
                PaneKind::Nodes | PaneKind::Combined => Action::SetNodes(text),
                PaneKind::Pods => Action::SetPods(text),
            });
        })
    };

    // A large paste replaces the pane without ever entering the text box.
    let on_paste = {
        let dispatch = props.dispatch.clone();
        let kind = props.kind;
        let show_big = show_big.clone();
        Callback::from(move |e: Event| {
            let Some(data) = e
                .dyn_ref::<web_sys::ClipboardEvent>()
                .and_then(|c| c.clipboard_data())
                .and_then(|d| d.get_data("text/plain").ok())
            else {
                return;
            };
            if data.len() <= BIG_EDIT_BYTES {
                return;
            }
            e.prevent_default();
            crate::perf::note_edit();
            show_big.set(false);
            let text: Rc<str> = Rc::from(data);
            dispatch.emit(match kind {
                PaneKind::Nodes | PaneKind::Combined => Action::LoadNodes(text),
                PaneKind::Pods => Action::LoadPods(text),
            });
        })
    };

    let on_scroll = {
        let gutter = gutter.clone();
        let marks = marks.clone();
        Callback::from(move |e: Event| {
            let Some(el) = e.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            let top = el.scroll_top();
            if let Some(g) = gutter.cast::<HtmlElement>() {
                g.set_scroll_top(top);
            }
            if let Some(m) = marks.cast::<HtmlElement>() {
                let _ = m
                    .style()
                    .set_property("transform", &format!("translateY({}px)", -top));
            }
        })
    };

    let load = {
        let dispatch = props.dispatch.clone();
        let kind = props.kind;
        Callback::from(move |text: Rc<str>| {
            dispatch.emit(match kind {
                PaneKind::Nodes | PaneKind::Combined => Action::LoadNodes(text),
                PaneKind::Pods => Action::LoadPods(text),
            })
        })
    };

    let on_drop = {
        let load = load.clone();
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(file) = e
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|f| f.get(0))
            {
                read_file(file, load.clone());
            }
        })
    };
    let on_drag_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if !*dragging {
                crate::glue::worker::warm();
                dragging.set(true);
            }
        })
    };
    let on_drag_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let on_file = {
        let load = load.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                read_file(file, load.clone());
            }
            input.set_value("");
        })
    };
    let on_clear = {
        let load = load.clone();
        Callback::from(move |_| {
            crate::perf::note_edit();
            load.emit(Rc::from(""))
        })
    };

    let jump = {
        let ta = ta.clone();
        let text = props.text.0.clone();
        Callback::from(move |(line, column): (usize, usize)| {
            let Some(el) = ta.cast::<HtmlTextAreaElement>() else {
                return;
            };
            let _ = el.focus();
            if line == 0 {
                return;
            }
            let (start, end) = offsets(&text, line, column.max(1));
            let _ = el.set_selection_range(start, end);
            let target = (line as f64 - 1.0) * LINE_PX - f64::from(el.client_height()) / 3.0;
            el.set_scroll_top(target.max(0.0) as i32);
        })
    };

    let p = &props.view.parse;
    let big = props.text.0.len() > BIG_EDIT_BYTES && !*show_big;
    // Line numbers are only drawn for texts that stay in the text box.
    let lines = *use_memo(props.text.clone(), |t| {
        if t.0.len() > BIG_EDIT_BYTES {
            usize::MAX
        } else {
            t.0.bytes().filter(|&b| b == b'\n').count() + 1
        }
    });
    let show_gutter = lines <= MAX_GUTTER_LINES && !big;
    let numbers = use_memo(if show_gutter { lines } else { 0 }, |&n| {
        let n = n.min(MAX_GUTTER_LINES);
        let mut s = String::with_capacity(n * 4);
        for i in 1..=n {
            s.push_str(&i.to_string());
            s.push('\n');
        }
        s
    });

    let blocks = use_memo(p.clone(), |p| p.blocks());
    let diagnostics = &p.parsed.diagnostics;
    let errors = p.errors().count();
    let warnings = diagnostics.len() - errors;
    let list_id = format!("{id}-diagnostics");
    let heading_id = format!("{id}-heading");
    let hint_id = format!("{id}-hint");
    let (title, hint) = match props.kind {
        PaneKind::Nodes | PaneKind::Combined => (t.s(K::NodesPane), t.s(K::NodesHint)),
        PaneKind::Pods => (t.s(K::PodsPane), t.s(K::PodsHint)),
    };

    let mark_html = |d: &Diagnostic| -> Html {
        let line = d.location.line;
        if line == 0 || !show_gutter {
            return Html::default();
        }
        let top = (PAD_PX + (line as f64 - 1.0) * LINE_PX) as i64;
        let class = if d.severity == Severity::Error {
            "mark error"
        } else {
            "mark warning"
        };
        html! { <div class={class} style={format!("top:{top}px")} title={d.message.clone()}></div> }
    };

    let diag_item = |d: &Diagnostic| -> Html {
        let (line, column) = (d.location.line, d.location.column);
        let where_ = if line == 0 {
            t.s(K::WholeInput).to_string()
        } else if column > 0 {
            t.f(K::LineCol, &[&line.to_string(), &column.to_string()])
        } else {
            t.f(K::LineOnly, &[&line.to_string()])
        };
        let (class, word) = if d.severity == Severity::Error {
            ("diag error", t.s(K::ErrorWord))
        } else {
            ("diag warning", t.s(K::WarningWord))
        };
        let onclick = {
            let jump = jump.clone();
            let at = (line, column);
            Callback::from(move |_| jump.emit(at))
        };
        html! {
            <li class={class}>
                <span class="sev">{word}</span>
                <button type="button" class="link" {onclick}>{where_}</button>
                <span class="msg">{d.message.clone()}</span>
                if !d.location.path.is_empty() { <code class="path">{d.location.path.clone()}</code> }
            </li>
        }
    };

    let commands = props
        .commands
        .iter()
        .filter(|c| c.source.pane == props.kind)
        .collect::<Vec<_>>();

    html! {
        <section class="pane" aria-labelledby={heading_id.clone()}>
            <div class="pane-head">
                <h2 id={heading_id.clone()}><label for={format!("{id}-text")}>{title}</label></h2>
                <div class="pane-tools">
                    <label class="button file">
                        <input type="file" accept=".yaml,.yml,.json,.txt,.log,text/*,application/json" onchange={on_file} aria-label={format!("{} — {}", title, t.s(K::UploadFile))} />
                        <span aria-hidden="true">{t.s(K::UploadFile)}</span>
                    </label>
                    <button type="button" class="button subtle" onclick={on_clear}>{t.s(K::Clear)}</button>
                </div>
            </div>
            <p class="hint" id={hint_id.clone()}>{hint}{" · "}{t.s(K::DropHere)}</p>
            if big {
                <div class="big-text" role="note">
                    <p>{t.f(K::BigText, &[&human_bytes(props.text.0.len())])}</p>
                    <button type="button" class="button subtle small" onclick={{ let s = show_big.clone(); Callback::from(move |_| s.set(true)) }}>{t.s(K::ShowText)}</button>
                </div>
            }
            <div class={classes!("editor", dragging.then_some("dragging"), (!show_gutter).then_some("no-gutter"), big.then_some("collapsed"))}
                 ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
                <div class="marks" aria-hidden="true"><div class="marks-inner" ref={marks}>{ for diagnostics.iter().map(mark_html) }</div></div>
                if show_gutter {
                    <pre class="gutter" aria-hidden="true" ref={gutter}>{ (*numbers).clone() }</pre>
                }
                <textarea id={format!("{id}-text")} ref={ta} wrap="off" spellcheck="false" autocomplete="off"
                    autocapitalize="off" aria-describedby={format!("{hint_id} {id}-status {list_id}")}
                    oninput={on_input} onpaste={on_paste} onscroll={on_scroll} onfocus={Callback::from(|_: FocusEvent| crate::glue::worker::warm())} />
            </div>
            <div class="pane-status" id={format!("{id}-status")} role="status" aria-live="polite">
                if let Some(bytes) = props.view.pending {
                    <span class="progress"><progress aria-label={t.f(K::Parsing, &[&human_bytes(bytes)])}></progress>{" "}{t.f(K::Parsing, &[&human_bytes(bytes)])}</span>
                } else {
                    <span>{summary(t, p)}</span>
                    if let Some(ms) = props.view.worker_ms {
                        <span class="muted">{" · "}{t.f(K::ParsedIn, &[&human_bytes(p.bytes), &(ms.round() as i64).to_string()])}</span>
                    }
                    if errors + warnings > 0 {
                        <span class={if errors > 0 { "count error" } else { "count warning" }}>{" · "}{t.f(K::ErrorsCount, &[&errors.to_string(), &warnings.to_string()])}</span>
                    }
                }
            </div>
            if !diagnostics.is_empty() {
                <ul class="diags" id={list_id}>
                    { for diagnostics.iter().take(MAX_LISTED).map(diag_item) }
                    if diagnostics.len() > MAX_LISTED {
                        <li class="muted">{format!("… +{}", diagnostics.len() - MAX_LISTED)}</li>
                    }
                </ul>
            }
            if !blocks.is_empty() && props.view.pending.is_none() {
                <details class="blocks" id={format!("{id}-blocks")}>
                    <summary>{t.f(K::BlocksTitle, &[&blocks.len().to_string()])}</summary>
                    <ol>{ for blocks.iter().take(MAX_LISTED).map(|b| block_html(t, b, &jump)) }</ol>
                </details>
            }
            if !commands.is_empty() {
                <details class="kubectl" open={commands.len() <= 6}>
                    <summary>{t.s(K::KubectlOutput)}</summary>
                    { for commands.iter().take(50).map(|c| command_html(t, c)) }
                </details>
            }
            { match props.kind {
                PaneKind::Nodes | PaneKind::Combined => html! {
                    <>
                        <AddTaint node_names={props.node_names.clone()} dispatch={props.dispatch.clone()} />
                        <AddLabel node_names={props.node_names.clone()} node_labels={props.node_labels.clone()} version={props.version} dispatch={props.dispatch.clone()} />
                    </>
                },
                PaneKind::Pods => html! {
                    <>
                        <AddToleration pod_names={props.pod_names.clone()} dispatch={props.dispatch.clone()} />
                        <AddPlacement pod_names={props.pod_names.clone()} dispatch={props.dispatch.clone()} />
                    </>
                },
            } }
        </section>
    }
}

fn command_html(t: T, c: &CommandEntry) -> Html {
    html! {
        <div class="command">
            <pre class="console"><span class="prompt">{"$ "}</span>{c.text.clone()}{"\n"}{c.stdout.clone()}<span class="stderr">{c.stderr.clone()}</span>{ for c.warnings.iter().map(|w| html!{ <span class="stderr">{format!("Warning: {w}\n")}</span> }) }</pre>
            if !c.created.is_empty() {
                <p class="note">{t.f(K::CreatedNodes, &[&c.created.join(", ")])}</p>
            }
        </div>
    }
}

fn input_value(e: &Event) -> String {
    e.target()
        .and_then(|t| {
            if let Some(i) = t.dyn_ref::<HtmlInputElement>() {
                Some(i.value())
            } else {
                t.dyn_ref::<HtmlSelectElement>().map(|s| s.value())
            }
        })
        .unwrap_or_default()
}

/// Quotes a YAML string as the input layer's emitter does (a JSON string literal that
/// the YAML reader accepts back, DEL and C1 controls escaped).
fn q(s: &str) -> String {
    taintlab_input::emit::quoted(s)
}

const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// Properties of [`AddTaint`].
#[derive(Properties, PartialEq)]
pub struct AddTaintProps {
    /// Existing node names.
    pub node_names: Rc<Vec<String>>,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// The add-a-taint form: appends a `kubectl taint` line to the Nodes pane.
#[function_component(AddTaint)]
pub fn add_taint(props: &AddTaintProps) -> Html {
    let t = use_t();
    let node = use_state(String::new);
    let key = use_state(String::new);
    let value = use_state(String::new);
    let effect = use_state(|| EFFECTS[0].to_string());
    let error = use_state(|| false);
    let set =
        |h: UseStateHandle<String>| Callback::from(move |e: InputEvent| h.set(input_value(&e)));
    let pick = |h: UseStateHandle<String>| Callback::from(move |e: Event| h.set(input_value(&e)));
    let onsubmit = {
        let (node, key, value, effect, error, dispatch, names) = (
            node.clone(),
            key.clone(),
            value.clone(),
            effect.clone(),
            error.clone(),
            props.dispatch.clone(),
            props.node_names.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let k = key.trim();
            if k.is_empty() {
                error.set(true);
                return;
            }
            error.set(false);
            let n = if node.trim().is_empty() {
                names.first().cloned().unwrap_or_else(|| "node-1".into())
            } else {
                node.trim().to_string()
            };
            let spec = if value.trim().is_empty() {
                format!("{k}:{}", *effect)
            } else {
                format!("{k}={}:{}", value.trim(), *effect)
            };
            crate::perf::note_edit();
            dispatch.emit(Action::AppendNodes(format!(
                "kubectl taint nodes {n} {spec}\n"
            )));
        })
    };
    html! {
        <details class="add-form">
            <summary>{t.s(K::AddTaint)}</summary>
            <form {onsubmit} class="grid-form">
                <label>{t.s(K::FieldNode)}
                    <input list="node-names" value={(*node).clone()} oninput={set(node.clone())} placeholder={props.node_names.first().cloned().unwrap_or_else(|| "node-1".into())} />
                </label>
                <datalist id="node-names">{ for props.node_names.iter().take(500).map(|n| html!{ <option value={n.clone()} /> }) }</datalist>
                <label>{t.s(K::FieldKey)}<input value={(*key).clone()} oninput={set(key.clone())} placeholder="dedicated" aria-invalid={error.then_some("true")} /></label>
                <label>{t.s(K::FieldValue)}<input value={(*value).clone()} oninput={set(value.clone())} placeholder="gpu" /></label>
                <label>{t.s(K::FieldEffect)}
                    <select onchange={pick(effect.clone())}>
                        { for EFFECTS.iter().map(|e| html!{ <option value={*e} selected={*effect == *e}>{*e}</option> }) }
                    </select>
                </label>
                <button type="submit" class="button">{t.s(K::AddButton)}</button>
                if *error { <p class="error-text" role="alert">{t.s(K::KeyRequired)}</p> }
            </form>
        </details>
    }
}

/// A shell word as typed: plain when it holds only characters a shell leaves alone,
/// single-quoted otherwise.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/=:@%+,".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The `kubectl label` line the add-a-label form appends to the Nodes pane: `key=value`
/// to set, `key-` when `value` is `None`; `--overwrite` when the node already has the
/// key with another value. The line is first run as kubectl runs it (core's `kubectl
/// label`, of `version`) on the node with its current `labels`: `Err` is what kubectl
/// would print on stderr (a bad value as kubectl reports it, a bad key as the API
/// server rejects it), and then nothing is appended.
pub fn label_line(
    node: &str,
    labels: &BTreeMap<String, String>,
    key: &str,
    value: Option<&str>,
    version: KubeVersion,
) -> Result<String, String> {
    let spec = match value {
        Some(v) => format!("{key}={v}"),
        None => format!("{key}-"),
    };
    let mut args = vec!["nodes".to_string(), node.to_string(), spec];
    if value.is_some_and(|v| labels.get(key).is_some_and(|old| old != v)) {
        args.push("--overwrite".into());
    }
    let target = Node {
        name: node.to_string(),
        labels: labels.clone(),
        ..Node::default()
    };
    let run = taintlab_core::kubectl::run_kubectl_label(&args, &[target], version);
    if run.exit_code != 0 {
        return Err(run.stderr.trim_end().to_string());
    }
    let words: Vec<String> = args.iter().map(|a| shell_word(a)).collect();
    Ok(format!("kubectl label {}", words.join(" ")))
}

/// Properties of [`AddLabel`].
#[derive(Properties, PartialEq)]
pub struct AddLabelProps {
    /// Existing node names.
    pub node_names: Rc<Vec<String>>,
    /// Their labels, in the same order.
    pub node_labels: Rc<Vec<BTreeMap<String, String>>>,
    /// The release whose `kubectl label` checks the line.
    pub version: KubeVersion,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// The add-a-label form: shows the chosen node's labels (each with a button that
/// appends the `kubectl label ... key-` line removing it) and appends a `kubectl label`
/// line setting one, checked first as kubectl checks it ([`label_line`]). Like the
/// add-a-taint form it edits the Nodes pane's text, so the share link and the scenario
/// see exactly what was added.
#[function_component(AddLabel)]
pub fn add_label(props: &AddLabelProps) -> Html {
    let t = use_t();
    let node = use_state(String::new);
    let key = use_state(String::new);
    let value = use_state(String::new);
    let missing = use_state(|| false);
    let set =
        |h: UseStateHandle<String>| Callback::from(move |e: InputEvent| h.set(input_value(&e)));
    let name = match node.trim() {
        "" => props
            .node_names
            .first()
            .cloned()
            .unwrap_or_else(|| "node-1".into()),
        n => n.to_string(),
    };
    let labels = props
        .node_names
        .iter()
        .position(|n| *n == name)
        .and_then(|i| props.node_labels.get(i).cloned())
        .unwrap_or_default();
    let k = key.trim().to_string();
    let line =
        (!k.is_empty()).then(|| label_line(&name, &labels, &k, Some(value.trim()), props.version));
    let onsubmit = {
        let (line, missing, dispatch, key, value) = (
            line.clone(),
            missing.clone(),
            props.dispatch.clone(),
            key.clone(),
            value.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            missing.set(line.is_none());
            if let Some(Ok(l)) = &line {
                crate::perf::note_edit();
                dispatch.emit(Action::AppendNodes(format!("{l}\n")));
                key.set(String::new());
                value.set(String::new());
            }
        })
    };
    let remove = |k: &str| {
        let line = label_line(&name, &labels, k, None, props.version);
        let dispatch = props.dispatch.clone();
        Callback::from(move |_| {
            if let Ok(l) = &line {
                crate::perf::note_edit();
                dispatch.emit(Action::AppendNodes(format!("{l}\n")));
            }
        })
    };
    html! {
        <details class="add-form add-label">
            <summary>{t.s(K::AddLabel)}</summary>
            <form {onsubmit} class="grid-form">
                <label>{t.s(K::FieldNode)}
                    <input class="label-node" list="node-names" value={(*node).clone()} oninput={set(node.clone())} placeholder={name.clone()} />
                </label>
                <label>{t.s(K::FieldKey)}<input class="label-key" value={(*key).clone()} oninput={set(key.clone())} placeholder="disktype" aria-invalid={matches!(line, Some(Err(_))).then_some("true")} /></label>
                <label>{t.s(K::FieldValue)}<input class="label-value" value={(*value).clone()} oninput={set(value.clone())} placeholder="ssd" /></label>
                <button type="submit" class="button">{t.s(K::AddButton)}</button>
                <p class="wide labels-of">
                    if labels.is_empty() { <span class="muted">{t.s(K::NoLabels)}</span> } else { {t.f(K::LabelsOf, &[&name])}{" "} }
                    { for labels.iter().take(50).map(|(k, v)| html! {
                        <span class="label-chip" data-key={k.clone()}><code>{format!("{k}={v}")}</code>
                            <button type="button" class="link" onclick={remove(k)} aria-label={t.f(K::RemoveLabel, &[k])} title={t.f(K::RemoveLabel, &[k])}>{"×"}</button>
                        </span>
                    }) }
                </p>
                { match &line {
                    Some(Ok(l)) => html! { <pre class="wide console label-line">{l.clone()}</pre> },
                    Some(Err(e)) => html! { <p class="wide error-text label-error" role="alert">{t.s(K::LabelRejected)}<br /><code>{e.clone()}</code></p> },
                    None if *missing => html! { <p class="wide error-text" role="alert">{t.s(K::LabelKeyRequired)}</p> },
                    None => Html::default(),
                } }
            </form>
        </details>
    }
}

/// Properties of [`AddToleration`].
#[derive(Properties, PartialEq)]
pub struct AddTolerationProps {
    /// Existing pod names.
    pub pod_names: Rc<Vec<String>>,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// The add-a-toleration form: appends a Pod with that toleration to the Pods pane.
#[function_component(AddToleration)]
pub fn add_toleration(props: &AddTolerationProps) -> Html {
    let t = use_t();
    let name = use_state(String::new);
    let key = use_state(String::new);
    let op = use_state(|| "Equal".to_string());
    let value = use_state(String::new);
    let effect = use_state(String::new);
    let seconds = use_state(String::new);
    let error = use_state(|| false);
    let set =
        |h: UseStateHandle<String>| Callback::from(move |e: InputEvent| h.set(input_value(&e)));
    let pick = |h: UseStateHandle<String>| Callback::from(move |e: Event| h.set(input_value(&e)));
    let free_name = {
        let mut i = props.pod_names.len() + 1;
        while props.pod_names.iter().any(|n| *n == format!("pod-{i}")) {
            i += 1;
        }
        format!("pod-{i}")
    };
    let onsubmit = {
        let (name, key, op, value, effect, seconds, error, dispatch, free) = (
            name.clone(),
            key.clone(),
            op.clone(),
            value.clone(),
            effect.clone(),
            seconds.clone(),
            error.clone(),
            props.dispatch.clone(),
            free_name.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let k = key.trim();
            if k.is_empty() && *op != "Exists" {
                error.set(true);
                return;
            }
            error.set(false);
            let n = if name.trim().is_empty() {
                free.clone()
            } else {
                name.trim().to_string()
            };
            let mut item = String::new();
            if !k.is_empty() {
                item.push_str(&format!("  - key: {}\n    operator: {}\n", q(k), q(&op)));
            } else {
                item.push_str(&format!("  - operator: {}\n", q(&op)));
            }
            if *op != "Exists" || !value.trim().is_empty() {
                item.push_str(&format!("    value: {}\n", q(value.trim())));
            }
            if !effect.is_empty() {
                item.push_str(&format!("    effect: {}\n", q(&effect)));
            }
            if let Ok(s) = seconds.trim().parse::<i64>() {
                item.push_str(&format!("    tolerationSeconds: {s}\n"));
            }
            let doc = format!(
                "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {}\nspec:\n  containers:\n  - name: app\n    image: registry.k8s.io/pause:3.10\n  tolerations:\n{item}",
                q(&n)
            );
            crate::perf::note_edit();
            dispatch.emit(Action::AppendPods(doc));
        })
    };
    html! {
        <details class="add-form">
            <summary>{t.s(K::AddToleration)}</summary>
            <form {onsubmit} class="grid-form">
                <label>{t.s(K::FieldPod)}<input value={(*name).clone()} oninput={set(name.clone())} placeholder={free_name.clone()} /></label>
                <label>{t.s(K::FieldKey)}<input value={(*key).clone()} oninput={set(key.clone())} placeholder="dedicated" aria-invalid={error.then_some("true")} /></label>
                <label>{t.s(K::FieldOperator)}
                    <select onchange={pick(op.clone())}>
                        { for ["Equal", "Exists", "Lt", "Gt"].iter().map(|o| html!{ <option value={*o} selected={*op == *o}>{*o}</option> }) }
                    </select>
                </label>
                <label>{t.s(K::FieldValue)}<input value={(*value).clone()} oninput={set(value.clone())} placeholder="gpu" /></label>
                <label>{t.s(K::FieldEffect)}
                    <select onchange={pick(effect.clone())}>
                        <option value="" selected={effect.is_empty()}>{t.s(K::AnyEffect)}</option>
                        { for EFFECTS.iter().map(|e| html!{ <option value={*e} selected={*effect == *e}>{*e}</option> }) }
                    </select>
                </label>
                <label>{t.s(K::FieldSeconds)}<input type="number" inputmode="numeric" value={(*seconds).clone()} oninput={set(seconds.clone())} /></label>
                <button type="submit" class="button">{t.s(K::AddButton)}</button>
                if *error { <p class="error-text" role="alert">{t.s(K::KeyRequired)}</p> }
            </form>
        </details>
    }
}

/// Where the add-a-placement form puts its term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermKind {
    /// `spec.nodeSelector`.
    NodeSelector,
    /// `requiredDuringSchedulingIgnoredDuringExecution`.
    Required,
    /// `preferredDuringSchedulingIgnoredDuringExecution` with weight 50.
    Preferred,
}

/// Operators of a node selector requirement.
pub const SELECTOR_OPERATORS: [&str; 6] = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];

/// The Pod document the add-a-placement form appends, or `None` when the term is not
/// complete: a key, one value for a nodeSelector, values for In/NotIn/Gt/Lt and none
/// for Exists/DoesNotExist.
pub fn placement_pod(
    name: &str,
    kind: TermKind,
    key: &str,
    op: &str,
    values: &str,
) -> Option<String> {
    let key = key.trim();
    let values: Vec<&str> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    if key.is_empty() {
        return None;
    }
    let head = format!(
        "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {}\nspec:\n  containers:\n  - name: app\n    image: registry.k8s.io/pause:3.10\n",
        q(name)
    );
    if kind == TermKind::NodeSelector {
        let [value] = values.as_slice() else {
            return None;
        };
        return Some(format!(
            "{head}  nodeSelector:\n    {}: {}\n",
            q(key),
            q(value)
        ));
    }
    let needs_values = !matches!(op, "Exists" | "DoesNotExist");
    if needs_values == values.is_empty() || !SELECTOR_OPERATORS.contains(&op) {
        return None;
    }
    let mut expr = format!("- key: {}\n  operator: {}\n", q(key), q(op));
    if needs_values {
        expr.push_str("  values:\n");
        for v in &values {
            expr.push_str(&format!("  - {}\n", q(v)));
        }
    }
    let indent = |text: &str, n: usize| -> String {
        text.lines()
            .map(|l| format!("{}{l}\n", " ".repeat(n)))
            .collect()
    };
    Some(match kind {
        TermKind::Required => format!(
            "{head}  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n{}",
            indent(&expr, 10)
        ),
        _ => format!(
            "{head}  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: 50\n        preference:\n          matchExpressions:\n{}",
            indent(&expr, 10)
        ),
    })
}

/// Properties of [`AddPlacement`].
#[derive(Properties, PartialEq)]
pub struct AddPlacementProps {
    /// Existing pod names.
    pub pod_names: Rc<Vec<String>>,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// The add-a-nodeSelector / affinity-term form: appends a Pod with that term to the
/// Pods pane.
#[function_component(AddPlacement)]
pub fn add_placement(props: &AddPlacementProps) -> Html {
    let t = use_t();
    let name = use_state(String::new);
    let kind = use_state(|| "selector".to_string());
    let key = use_state(String::new);
    let op = use_state(|| "In".to_string());
    let values = use_state(String::new);
    let error = use_state(|| false);
    let set =
        |h: UseStateHandle<String>| Callback::from(move |e: InputEvent| h.set(input_value(&e)));
    let pick = |h: UseStateHandle<String>| Callback::from(move |e: Event| h.set(input_value(&e)));
    let free_name = {
        let mut i = props.pod_names.len() + 1;
        while props.pod_names.iter().any(|n| *n == format!("pod-{i}")) {
            i += 1;
        }
        format!("pod-{i}")
    };
    let term_kind = |k: &str| match k {
        "required" => TermKind::Required,
        "preferred" => TermKind::Preferred,
        _ => TermKind::NodeSelector,
    };
    let onsubmit = {
        let (name, kind, key, op, values, error, dispatch, free) = (
            name.clone(),
            kind.clone(),
            key.clone(),
            op.clone(),
            values.clone(),
            error.clone(),
            props.dispatch.clone(),
            free_name.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let n = if name.trim().is_empty() {
                free.clone()
            } else {
                name.trim().to_string()
            };
            match placement_pod(&n, term_kind(&kind), &key, &op, &values) {
                Some(doc) => {
                    error.set(false);
                    crate::perf::note_edit();
                    dispatch.emit(Action::AppendPods(doc));
                }
                None => error.set(true),
            }
        })
    };
    let selector = term_kind(&kind) == TermKind::NodeSelector;
    html! {
        <details class="add-form add-placement">
            <summary>{t.s(K::AddPlacement)}</summary>
            <form {onsubmit} class="grid-form">
                <label>{t.s(K::FieldPod)}<input value={(*name).clone()} oninput={set(name.clone())} placeholder={free_name.clone()} /></label>
                <label>{t.s(K::FieldTermKind)}
                    <select class="term-kind" onchange={pick(kind.clone())}>
                        <option value="selector" selected={*kind == "selector"}>{t.s(K::TermNodeSelector)}</option>
                        <option value="required" selected={*kind == "required"}>{t.s(K::TermRequired)}</option>
                        <option value="preferred" selected={*kind == "preferred"}>{t.s(K::TermPreferred)}</option>
                    </select>
                </label>
                <label>{t.s(K::FieldKey)}<input class="term-key" value={(*key).clone()} oninput={set(key.clone())} placeholder="dedicated" aria-invalid={error.then_some("true")} /></label>
                <label>{t.s(K::FieldOperator)}
                    <select class="term-op" onchange={pick(op.clone())} disabled={selector}>
                        { for SELECTOR_OPERATORS.iter().map(|o| html!{ <option value={*o} selected={*op == *o}>{*o}</option> }) }
                    </select>
                </label>
                <label class="wide">{t.s(K::FieldValues)}<input class="term-values" value={(*values).clone()} oninput={set(values.clone())} placeholder="payments" aria-invalid={error.then_some("true")} /></label>
                <button type="submit" class="button">{t.s(K::AddButton)}</button>
                if *error { <p class="error-text" role="alert">{t.s(K::PlacementInvalid)}</p> }
            </form>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_values_read_back_through_the_input_layer() {
        let value = "a\u{7f}b\u{85}c\u{fffe}";
        let text = format!(
            "taints:\n- key: k\n  value: {}\n  effect: NoSchedule\n",
            q(value)
        );
        let p = taintlab_input::parse(&text);
        assert!(p.errors().next().is_none(), "{:?}", p.diagnostics);
        assert_eq!(p.taint_lists[0].taints[0].value, value);
    }

    #[test]
    fn offsets_count_utf16_units() {
        let text = "ab\nçé𝄞x\nlast";
        assert_eq!(offsets(text, 1, 1), (0, 2));
        assert_eq!(offsets(text, 2, 1), (3, 8));
        assert_eq!(offsets(text, 2, 4), (7, 8));
        assert_eq!(offsets(text, 3, 2), (10, 13));
    }

    #[test]
    fn placement_terms_read_back_through_the_input_layer() {
        let sel = placement_pod("a", TermKind::NodeSelector, "dedicated", "In", "payments")
            .expect("a pod");
        let req = placement_pod("b", TermKind::Required, "disk", "In", "ssd, nvme").expect("a pod");
        let ex = placement_pod("c", TermKind::Preferred, "zone", "Exists", "").expect("a pod");
        let p = taintlab_input::parse(&format!("{sel}{req}{ex}"));
        assert!(p.errors().next().is_none(), "{:?}", p.diagnostics);
        assert_eq!(p.workloads.len(), 3);
        let w = &p.workloads;
        assert_eq!(
            w[0].placement
                .node_selector
                .get("dedicated")
                .map(String::as_str),
            Some("payments")
        );
        let terms = &w[1]
            .placement
            .required_node_affinity()
            .expect("required affinity")
            .node_selector_terms;
        assert_eq!(terms[0].match_expressions[0].values, ["ssd", "nvme"]);
        assert!(w[2].placement.affinity.is_some());
        // Incomplete terms are refused.
        assert!(placement_pod("d", TermKind::NodeSelector, "k", "In", "").is_none());
        assert!(placement_pod("d", TermKind::NodeSelector, "k", "In", "a,b").is_none());
        assert!(placement_pod("d", TermKind::Required, "k", "Exists", "x").is_none());
        assert!(placement_pod("d", TermKind::Required, "k", "In", "").is_none());
        assert!(placement_pod("d", TermKind::Required, "", "In", "x").is_none());
    }

    #[test]
    fn label_lines_are_checked_as_kubectl_checks_them_and_read_back() {
        let v = KubeVersion::NEWEST;
        let mut labels = BTreeMap::new();
        labels.insert("disktype".to_string(), "hdd".to_string());
        assert_eq!(
            label_line("n1", &BTreeMap::new(), "disktype", Some("ssd"), v).as_deref(),
            Ok("kubectl label nodes n1 disktype=ssd")
        );
        // The node has the key with another value: --overwrite.
        assert_eq!(
            label_line("n1", &labels, "disktype", Some("ssd"), v).as_deref(),
            Ok("kubectl label nodes n1 disktype=ssd --overwrite")
        );
        assert_eq!(
            label_line("n1", &labels, "disktype", None, v).as_deref(),
            Ok("kubectl label nodes n1 disktype-")
        );
        // A bad value: kubectl's own error. A bad key: the API server's.
        let e = label_line("n1", &labels, "tier", Some("a b"), v).unwrap_err();
        assert!(e.starts_with("error: invalid label value: \"tier=a b\": a valid label must be an empty string or consist of alphanumeric characters"), "{e}");
        let e = label_line("n1", &labels, "bad key", Some("x"), v).unwrap_err();
        assert!(
            e.starts_with(
                "The Node \"n1\" is invalid: metadata.labels: Invalid value: \"bad key\""
            ),
            "{e}"
        );
        // An empty value sets the label to "".
        let line = label_line("my node", &BTreeMap::new(), "gpu", Some(""), v).unwrap();
        assert_eq!(line, "kubectl label nodes 'my node' gpu=");
        // The lines read back as kubectl label commands on that node.
        let p = taintlab_input::parse(&format!("{line}\nkubectl label nodes n1 disktype-\n"));
        assert_eq!(p.taint_commands.len(), 2, "{:?}", p.diagnostics);
        assert_eq!(p.taint_commands[0].args, ["nodes", "my node", "gpu="]);
        assert!(!p.taint_commands[0].verb.is_taint());
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(human_bytes(300), "300 B");
        assert_eq!(human_bytes(12_345), "12 KB");
        assert_eq!(human_bytes(78_317_499), "78.3 MB");
    }
}
