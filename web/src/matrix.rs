//! The pod × node matrix: schedulable, PreferNoSchedule penalty, blocked (naming the
//! filter that rejected the node: taint, cordon, affinity, nodeName, ports, or the
//! resource that runs short and by how much), would be evicted, with the normalized
//! TaintToleration score; node labels in the column headers; per node, requested /
//! allocatable bars for the resources the pasted pods use. A keyboard grid: one cell is
//! in the tab order, the arrow keys move, Enter selects the cell to explain.

use std::collections::HashMap;
use std::rc::Rc;

use taintlab_core::eviction::{EvictionDelay, NoExecuteVerdict};
use taintlab_core::scheduling::filter::FilterPlugin;
use taintlab_core::scheduling::placement::{NodeState, PodOutcome};
use taintlab_core::scheduling::placement_cluster::GroupingKeys;
use taintlab_scenario::Hold;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::analysis::{Analysis, CellKind, CellView, PodOrigin};
use crate::i18n::{K, T, use_t};
use crate::store::{Action, Selection};

/// Above this many nodes, columns are node classes (nodes the modelled filters cannot
/// tell apart: taints, cordon, the labels selectors read, running pods, allocatable).
pub const GROUP_ABOVE: usize = 60;
/// Rows drawn at most.
pub const MAX_ROWS: usize = 500;

/// A column: one node, or a class of identical nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The node used for the column's cells (the class's first node).
    pub node: usize,
    /// Header text.
    pub label: String,
    /// Nodes in the column.
    pub count: usize,
    /// Node names, for the tooltip.
    pub title: String,
    /// The column node's labels as `key=value`, well-known ones left out.
    pub labels: Vec<String>,
}

/// Labels every node carries (set by the kubelet or the cloud provider); the column
/// headers leave them out so the ones a selector would read stand out.
fn well_known(key: &str) -> bool {
    matches!(
        key,
        "kubernetes.io/hostname"
            | "kubernetes.io/os"
            | "kubernetes.io/arch"
            | "beta.kubernetes.io/os"
            | "beta.kubernetes.io/arch"
            | "beta.kubernetes.io/instance-type"
            | "node.kubernetes.io/instance-type"
    ) || key.starts_with("topology.kubernetes.io/")
        || key.starts_with("failure-domain.beta.kubernetes.io/")
        || key.starts_with("node-role.kubernetes.io/")
}

/// A node's labels for its column header.
pub fn header_labels(a: &Analysis, n: usize) -> Vec<String> {
    a.nodes
        .get(n)
        .map(|e| {
            e.node
                .labels
                .iter()
                .filter(|(k, _)| !well_known(k))
                .map(|(k, v)| format!("{k}={v}"))
                .collect()
        })
        .unwrap_or_default()
}

/// The columns of the matrix.
pub fn columns(a: &Analysis) -> Vec<Column> {
    if a.nodes.len() <= GROUP_ABOVE {
        return a
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| Column {
                node: i,
                label: n.node.name.clone(),
                count: 1,
                title: n.node.name.clone(),
                labels: header_labels(a, i),
            })
            .collect();
    }
    // Nodes the modelled filters cannot tell apart: the same taints and cordon (the
    // taint classes), the same values for the label keys some pod's selector reads (and
    // the same name when one reads names), and the same running pods, ports and
    // allocatable.
    let classes = a.result.node_classes();
    let keys = GroupingKeys::of(&a.placement.pods, a.placement.options);
    type Key<'a> = (
        usize,
        Vec<Option<&'a str>>,
        Option<&'a str>,
        Option<&'a NodeState>,
    );
    let mut index: HashMap<Key<'_>, usize> = HashMap::new();
    // (first node, up to five names, count)
    let mut groups: Vec<(usize, Vec<&str>, usize)> = Vec::new();
    for (n, entry) in a.nodes.iter().enumerate() {
        let node = &entry.node;
        let key: Key<'_> = (
            classes.class_of(n).unwrap_or(usize::MAX),
            keys.labels
                .iter()
                .map(|k| node.labels.get(k).map(String::as_str))
                .collect(),
            keys.names.then_some(node.name.as_str()),
            a.placement.states.get(n),
        );
        let g = *index.entry(key).or_insert_with(|| {
            groups.push((n, Vec::new(), 0));
            groups.len() - 1
        });
        let group = &mut groups[g];
        if group.1.len() < 5 {
            group.1.push(node.name.as_str());
        }
        group.2 += 1;
    }
    groups
        .into_iter()
        .map(|(first_node, names, count)| {
            let first = names.first().map(|s| s.to_string()).unwrap_or_default();
            let more = if count > names.len() { ", …" } else { "" };
            Column {
                node: first_node,
                label: if count > 1 {
                    format!("{first} +{}", count - 1)
                } else {
                    first
                },
                count,
                title: format!("{}{more}", names.join(", ")),
                labels: header_labels(a, first_node),
            }
        })
        .collect()
}

/// Why a blocked cell is blocked, beyond its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Nothing to add (the pod fits, or is bound).
    Nothing,
    /// This filter plugin rejected the node.
    Plugin(FilterPlugin),
    /// Outside NodeAffinity's PreFilter result (or rejected by the PreFilter).
    PreFilter,
    /// NodeResourcesFit: the first resource that runs short.
    Short {
        /// The resource (`cpu`, `nvidia.com/gpu`, `pods`, …).
        resource: String,
        /// By how much, in the resource's unit (`400m`, `1`, `512Mi`).
        shortfall: String,
        /// The scheduler's reason (`Insufficient cpu`, `Too many pods`).
        reason: String,
        /// Other resources that also run short.
        more: usize,
    },
    /// The scheduler does not evaluate the pod here.
    Hold(Hold),
}

/// One cell: the scenario's view and why it is blocked.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The scenario's cell.
    pub view: CellView,
    /// Why it is blocked.
    pub why: Why,
}

/// A quantity in its resource's unit: cpu in cores or milli-cores (`2`, `400m`),
/// memory-like resources with the largest exact binary suffix (`512Mi`), others as
/// integers. Integer arithmetic only.
pub fn amount(resource: &str, v: i64) -> String {
    if resource == "cpu" {
        return if v % 1000 == 0 {
            (v / 1000).to_string()
        } else {
            format!("{v}m")
        };
    }
    let bytes =
        matches!(resource, "memory" | "ephemeral-storage") || resource.starts_with("hugepages-");
    if bytes && v != 0 {
        for (shift, suffix) in [(50, "Pi"), (40, "Ti"), (30, "Gi"), (20, "Mi"), (10, "Ki")] {
            let unit = 1i64 << shift;
            if v % unit == 0 {
                return format!("{}{suffix}", v / unit);
            }
        }
    }
    v.to_string()
}

/// Pod `p` on node `n`, with why it is blocked.
pub fn cell_of(a: &Analysis, p: usize, n: usize) -> Option<Cell> {
    let view = a.cell(p, n)?;
    let why = if view.kind != CellKind::Blocked {
        Why::Nothing
    } else if let Some(h) = view.hold.filter(|h| *h != Hold::Bound) {
        Why::Hold(h)
    } else {
        match view.rejected_by {
            Some(FilterPlugin::NodeResourcesFit) => {
                let full = a.placement_cell(p, n);
                match full.as_ref().and_then(|c| c.insufficient.first()) {
                    Some(r) => Why::Short {
                        resource: r.resource.clone(),
                        shortfall: amount(&r.resource, r.shortfall()),
                        reason: r.reason.clone(),
                        more: full.as_ref().map_or(0, |c| c.insufficient.len() - 1),
                    },
                    None => Why::Plugin(FilterPlugin::NodeResourcesFit),
                }
            }
            Some(plugin) => Why::Plugin(plugin),
            None => Why::PreFilter,
        }
    };
    Some(Cell { view, why })
}

fn symbol(c: &CellView) -> &'static str {
    match c.kind {
        CellKind::Schedulable => "✓",
        CellKind::Penalized => "◐",
        CellKind::Blocked => "✗",
        CellKind::Elsewhere => "–",
        CellKind::BoundHere => "●",
    }
}

fn eviction_badge(c: &CellView) -> Option<String> {
    let relevant = matches!(
        c.kind,
        CellKind::Schedulable | CellKind::Penalized | CellKind::BoundHere
    );
    if !relevant {
        return None;
    }
    match c.eviction {
        NoExecuteVerdict::Tolerated(EvictionDelay::After { seconds }) => {
            Some(format!("⏱{seconds}s"))
        }
        NoExecuteVerdict::Tolerated(EvictionDelay::Immediate) | NoExecuteVerdict::Untolerated => {
            Some("⚡".into())
        }
        _ => None,
    }
}

fn hold_word(t: T, h: Hold) -> &'static str {
    t.s(match h {
        Hold::Gated => K::CellGated,
        Hold::OtherScheduler => K::CellOtherScheduler,
        Hold::NoDaemonPod => K::CellNoDaemonPod,
        Hold::SchedulerError | Hold::Bound => K::CellError,
    })
}

/// The sentence a screen reader hears for a cell.
pub fn cell_sentence(t: T, cell: &Cell) -> String {
    let c = &cell.view;
    let mut parts = vec![match c.kind {
        CellKind::Schedulable => t.s(K::Schedulable).to_string(),
        CellKind::Penalized => t.s(K::Penalized).to_string(),
        CellKind::Blocked => t.s(K::Blocked).to_string(),
        CellKind::Elsewhere => t.s(K::Elsewhere).to_string(),
        CellKind::BoundHere => t.s(K::BoundHere).to_string(),
    }];
    match &cell.why {
        Why::Nothing => {}
        Why::Plugin(p) => parts.push(t.f(K::RejectedBy, &[p.name()])),
        Why::PreFilter => parts.push(t.f(K::RejectedBy, &["NodeAffinity (PreFilter)"])),
        Why::Short {
            resource,
            shortfall,
            reason,
            more,
        } => {
            parts.push(t.f(K::RejectedBy, &["NodeResourcesFit"]));
            parts.push(reason.clone());
            parts.push(t.f(K::ShortBy, &[resource, shortfall]));
            if *more > 0 {
                parts.push(format!("+{more}"));
            }
        }
        Why::Hold(h) => parts.push(hold_word(t, *h).to_string()),
    }
    if let Some(s) = c.score {
        parts.push(t.f(K::ScoreLabel, &[&s.to_string()]));
    }
    if eviction_badge(c).is_some() {
        parts.push(match c.eviction {
            NoExecuteVerdict::Tolerated(EvictionDelay::After { seconds }) => {
                t.f(K::EvictedAfter, &[&seconds.to_string()])
            }
            _ => t.s(K::EvictedNow).to_string(),
        });
    }
    parts.join(", ")
}

/// The word or number a cell shows next to its symbol: the normalized score, or why the
/// pod is blocked (the filter, the resource and its shortfall, or why the scheduler
/// does not evaluate it).
fn cell_text(t: T, cell: &Cell) -> String {
    if let Some(s) = cell.view.score {
        return s.to_string();
    }
    match &cell.why {
        Why::Nothing => String::new(),
        Why::Plugin(p) => t
            .s(match p {
                FilterPlugin::NodeUnschedulable => K::CellCordon,
                FilterPlugin::TaintToleration => K::CellTaint,
                FilterPlugin::NodeAffinity => K::CellAffinity,
                FilterPlugin::NodeName => K::CellNodeName,
                FilterPlugin::NodePorts => K::CellPorts,
                FilterPlugin::NodeResourcesFit => K::ColResource,
            })
            .to_string(),
        Why::PreFilter => t.s(K::CellAffinity).to_string(),
        Why::Short {
            resource,
            shortfall,
            more,
            ..
        } => {
            if *more > 0 {
                format!("{resource} −{shortfall} +{more}")
            } else {
                format!("{resource} −{shortfall}")
            }
        }
        Why::Hold(h) => hold_word(t, *h).to_string(),
    }
}

/// A cell's accessible name. It starts with the text the cell shows (score or reason,
/// then the eviction badge without its symbol), so speech-input users can say what they
/// see (WCAG 2.5.3 Label in Name; axe-core's `label-content-name-mismatch`), then the
/// pod, the node and the full sentence.
pub fn cell_name(t: T, pod: &str, node: &str, cell: &Cell) -> String {
    let c = &cell.view;
    let mut shown = cell_text(t, cell);
    if let Some(b) = eviction_badge(c) {
        let b = b.trim_start_matches(['⏱', '⚡']);
        if !b.is_empty() {
            if !shown.is_empty() {
                shown.push(' ');
            }
            shown.push_str(b);
        }
    }
    let sentence = cell_sentence(t, cell);
    if shown.is_empty() {
        format!("{pod} — {node}: {sentence}")
    } else {
        format!("{shown} — {pod} — {node}: {sentence}")
    }
}

fn cell_class(c: &CellView) -> &'static str {
    match c.kind {
        CellKind::Schedulable => "ok",
        CellKind::Penalized => "warn",
        CellKind::Blocked => "bad",
        CellKind::Elsewhere => "none",
        CellKind::BoundHere => "bound",
    }
}

/// Properties of [`Matrix`].
#[derive(Properties, PartialEq)]
pub struct MatrixProps {
    /// The analysis.
    pub analysis: Rc<Analysis>,
    /// The selected cell.
    pub selected: Option<Selection>,
    /// State changes.
    pub dispatch: Callback<Action>,
}

/// One row's content; rows whose content did not change are not re-rendered, so typing
/// in one pod's YAML redraws one row, not the whole grid.
#[derive(Clone, Debug, PartialEq)]
pub struct RowData {
    /// Row index.
    pub row: usize,
    /// Pod label.
    pub label: String,
    /// Object kind.
    pub kind: String,
    /// Feasible nodes, or `None` when the pod is pending / rejected / bound.
    pub badge: Badge,
    /// The cells, one per column.
    pub cells: Vec<Option<Cell>>,
}

/// The row header's badge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Badge {
    /// Rejected at admission.
    Rejected,
    /// Fits nowhere.
    Pending,
    /// Fits on this many of that many nodes.
    Fits(usize, usize),
    /// Not scheduled by the default scheduler here: gated, another scheduler, an error.
    Held(Hold),
    /// Bound with spec.nodeName.
    None,
}

/// Properties of [`MatrixRow`].
#[derive(Properties, PartialEq)]
pub struct MatrixRowProps {
    /// The row.
    pub data: RowData,
    /// Column labels (shared).
    pub columns: Rc<Vec<Column>>,
    /// The selected column in this row, if the selection is here.
    pub selected: Option<usize>,
    /// The column in the tab order, if it is in this row.
    pub focus: Option<usize>,
    /// A cell was chosen: (row, column index).
    pub on_pick: Callback<(usize, usize)>,
}

/// One row of the matrix.
#[function_component(MatrixRow)]
pub fn matrix_row(props: &MatrixRowProps) -> Html {
    let t = use_t();
    let d = &props.data;
    let r = d.row;
    let badge = match d.badge {
        Badge::Rejected => html! { <span class="badge bad">{t.s(K::Rejected)}</span> },
        Badge::Pending => html! { <span class="badge bad">{t.s(K::Pending)}</span> },
        Badge::Fits(n, of) => {
            html! { <span class="badge">{t.f(K::FitsOn, &[&n.to_string(), &of.to_string()])}</span> }
        }
        Badge::Held(h) => html! { <span class="badge">{hold_word(t, h)}</span> },
        Badge::None => Html::default(),
    };
    html! {
        <tr>
            <th scope="row" class="pod-name">
                <span class="name">{d.label.clone()}</span>
                <span class="kind">{d.kind.clone()}</span>
                {badge}
            </th>
            { for d.cells.iter().enumerate().map(|(ci, cell)| {
                let Some(cell) = cell else { return html!{ <td></td> } };
                let col = props.columns.get(ci).map(|c| c.label.as_str()).unwrap_or_default();
                let selected = props.selected == Some(ci);
                let onclick = {
                    let pick = props.on_pick.clone();
                    Callback::from(move |_| pick.emit((r, ci)))
                };
                let shown = cell_text(t, cell);
                let short = matches!(cell.why, Why::Short { .. });
                html! {
                    <td role="gridcell" aria-selected={if selected { "true" } else { "false" }}>
                        <button type="button" id={format!("cell-{r}-{ci}")}
                            class={classes!("cell", cell_class(&cell.view), selected.then_some("selected"))}
                            tabindex={if props.focus == Some(ci) { "0" } else { "-1" }}
                            aria-label={cell_name(t, &d.label, col, cell)} {onclick}>
                            <span class="sym" aria-hidden="true">{symbol(&cell.view)}</span>
                            <span class={classes!("score", short.then_some("short"))} aria-hidden="true">{shown}</span>
                            if let Some(b) = eviction_badge(&cell.view) { <span class="evict" aria-hidden="true">{b}</span> }
                        </button>
                    </td>
                }
            }) }
        </tr>
    }
}

/// The rows' content.
pub fn rows(a: &Analysis, cols: &[Column]) -> Vec<RowData> {
    (0..a.pods.len().min(MAX_ROWS))
        .map(|r| {
            let pod = &a.pods[r];
            let badge = if pod.rejection.is_some() {
                Badge::Rejected
            } else if a.message(r).is_some() {
                Badge::Pending
            } else if !pod.pod.node_name.is_empty() {
                Badge::None
            } else if let Some(n) = a.feasible_nodes(r) {
                Badge::Fits(n, a.nodes.len())
            } else {
                match a.pod_scheduling(r).map(|s| s.outcome) {
                    Some(PodOutcome::Gated) => Badge::Held(Hold::Gated),
                    Some(PodOutcome::OtherScheduler) => Badge::Held(Hold::OtherScheduler),
                    _ => Badge::Held(Hold::SchedulerError),
                }
            };
            RowData {
                row: r,
                label: pod.label(),
                // A bare toleration list is shown as such.
                kind: if pod.origin == PodOrigin::TolerationList {
                    "Tolerations".to_string()
                } else {
                    pod.kind.clone()
                },
                badge,
                cells: cols.iter().map(|c| cell_of(a, r, c.node)).collect(),
            }
        })
        .collect()
}

/// The matrix.
#[function_component(Matrix)]
pub fn matrix(props: &MatrixProps) -> Html {
    let t = use_t();
    let a = &props.analysis;
    // Columns keep their identity while their content is unchanged, so rows whose
    // content is unchanged are not re-rendered.
    let cols_cache = use_mut_ref(|| Rc::new(Vec::<Column>::new()));
    let cols: Rc<Vec<Column>> = {
        let fresh = columns(a);
        let mut cache = cols_cache.borrow_mut();
        if **cache != fresh {
            *cache = Rc::new(fresh);
        }
        cache.clone()
    };
    let data = use_memo((props.analysis.clone(), cols.clone()), |(a, c)| rows(a, c));
    let focus = use_state(|| (0usize, 0usize));
    let on_pick = {
        let set_focus = focus.setter();
        use_callback(
            (props.dispatch.clone(), cols.clone()),
            move |(r, ci): (usize, usize), (dispatch, cols)| {
                set_focus.set((r, ci));
                if let Some(c) = cols.get(ci) {
                    dispatch.emit(Action::Select(Some(Selection {
                        pod: r,
                        node: c.node,
                    })));
                }
            },
        )
    };
    if a.nodes.is_empty() || a.pods.is_empty() {
        return html! {
            <p class="empty">{ if a.nodes.is_empty() && a.pods.is_empty() { t.s(K::EmptyResults) } else if a.nodes.is_empty() { t.s(K::NoNodes) } else { t.s(K::NoPods) } }</p>
        };
    }
    let rows_n = data.len();
    let ncols = cols.len();
    let (fr, fc) = (
        focus.0.min(rows_n - 1),
        focus.1.min(ncols.saturating_sub(1)),
    );

    let onkeydown = {
        let focus = focus.clone();
        Callback::from(move |e: KeyboardEvent| {
            let (r, c) = (fr, fc);
            let next = match e.key().as_str() {
                "ArrowUp" => (r.saturating_sub(1), c),
                "ArrowDown" => ((r + 1).min(rows_n - 1), c),
                "ArrowLeft" => (r, c.saturating_sub(1)),
                "ArrowRight" => (r, (c + 1).min(ncols - 1)),
                "Home" => (r, 0),
                "End" => (r, ncols - 1),
                _ => return,
            };
            e.prevent_default();
            focus.set(next);
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&format!("cell-{}-{}", next.0, next.1)))
                .and_then(|el| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(el).ok())
            {
                let _ = el.focus();
            }
        })
    };
    let selected_col = |r: usize| -> Option<usize> {
        let s = props.selected?;
        (s.pod == r)
            .then(|| cols.iter().position(|c| c.node == s.node))
            .flatten()
    };
    let grouped = a.nodes.len() > GROUP_ABOVE;

    html! {
        <div class="matrix-wrap">
            if grouped {
                <p class="note">{t.f(K::GroupedNodes, &[&a.nodes.len().to_string(), &ncols.to_string()])}</p>
            }
            <div class="matrix-scroll">
                <table class="matrix" role="grid" aria-describedby="matrix-caption" {onkeydown}>
                    <caption id="matrix-caption">{t.s(K::MatrixCaption)}</caption>
                    <thead>
                        <tr>
                            <td></td>
                            { for cols.iter().map(|c| html!{
                                <th scope="col" title={c.title.clone()}>
                                    <span class="node-name">{c.label.clone()}</span>
                                    if c.count > 1 { <span class="kind">{t.f(K::NodesInClass, &[&c.count.to_string()])}</span> }
                                    if !c.labels.is_empty() {
                                        <ul class="node-labels" aria-label={t.f(K::NodeLabelsOf, &[&c.label])}>
                                            { for c.labels.iter().take(3).map(|l| html!{ <li title={l.clone()}>{l.clone()}</li> }) }
                                            if c.labels.len() > 3 { <li title={c.labels[3..].join(", ")}>{format!("+{}", c.labels.len() - 3)}</li> }
                                        </ul>
                                    }
                                </th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for data.iter().map(|d| html!{
                            <MatrixRow key={d.row} data={d.clone()} columns={cols.clone()} selected={selected_col(d.row)}
                                focus={(d.row == fr).then_some(fc)} on_pick={on_pick.clone()} />
                        }) }
                    </tbody>
                </table>
            </div>
            if a.pods.len() > rows_n {
                <p class="note">{format!("… +{}", a.pods.len() - rows_n)}</p>
            }
            {legend(t)}
            {node_bars(t, a)}
        </div>
    }
}

/// Fraction in percent, clamped to 0..=100 (integer arithmetic).
fn percent(requested: i64, allocatable: i64) -> i64 {
    if allocatable <= 0 {
        return if requested > 0 { 100 } else { 0 };
    }
    (i128::from(requested.max(0)) * 100 / i128::from(allocatable)).min(100) as i64
}

/// Nodes listed in the resources section at most.
pub const MAX_BAR_NODES: usize = 60;

/// Per node, requested / allocatable for each resource the pasted pods use. A function
/// of the matrix rather than a component of its own, as is [`legend`]: each component
/// type costs the page its own copy of Yew's lifecycle code.
pub fn node_bars(t: T, a: &Analysis) -> Html {
    let resources = &a.placement.resources;
    // Only the pod count: no pod requests anything, and no node says what it holds.
    let any_known = (0..a.nodes.len()).any(|n| a.placement.allocatable[n].is_some());
    if a.nodes.is_empty() || (resources.len() <= 1 && !any_known) {
        return Html::default();
    }
    html! {
        <section class="node-resources" aria-labelledby="node-resources-heading">
            <h3 id="node-resources-heading">{t.s(K::NodeResourcesTitle)}</h3>
            <p class="muted small">{t.s(K::NodeResourcesIntro)}</p>
            <div class="table-scroll">
                <table class="bars">
                    <thead><tr>
                        <th scope="col">{t.s(K::FieldNode)}</th>
                        { for resources.iter().map(|r| html!{ <th scope="col"><code>{r.clone()}</code></th> }) }
                    </tr></thead>
                    <tbody>
                        { for (0..a.nodes.len().min(MAX_BAR_NODES)).map(|n| {
                            let name = a.nodes[n].node.name.clone();
                            let Some(nr) = a.node_resources(n) else { return Html::default() };
                            html!{
                                <tr data-node={name.clone()}>
                                    <th scope="row">{name}</th>
                                    if !nr.allocatable_known {
                                        <td colspan={resources.len().to_string()} class="muted unknown">{t.s(K::AllocatableUnknown)}</td>
                                    } else {
                                        { for nr.bars.iter().map(|b| {
                                            let pct = percent(b.requested, b.allocatable);
                                            let full = b.allocatable <= b.requested;
                                            html!{
                                                <td class={classes!("bar", full.then_some("full"))} data-resource={b.resource.clone()}>
                                                    <span class="bar-track" aria-hidden="true"><span class="bar-fill" style={format!("width:{pct}%")}></span></span>
                                                    <span class="bar-text">{t.f(K::BarText, &[&amount(&b.resource, b.requested), &amount(&b.resource, b.allocatable)])}</span>
                                                </td>
                                            }
                                        }) }
                                    }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
            if a.nodes.len() > MAX_BAR_NODES {
                <p class="note">{format!("… +{}", a.nodes.len() - MAX_BAR_NODES)}</p>
            }
        </section>
    }
}

/// The symbols of the matrix, explained.
pub fn legend(t: T) -> Html {
    html! {
        <details class="legend">
            <summary>{t.s(K::Legend)}</summary>
            <ul>
                <li><span class="cell ok inline">{"✓ 100"}</span>{" "}{t.s(K::Schedulable)}{" · "}{t.f(K::ScoreLabel, &["0–100"])}</li>
                <li><span class="cell warn inline">{"◐ 50"}</span>{" "}{t.s(K::Penalized)}</li>
                <li><span class="cell bad inline">{"✗"}</span>{" "}{t.s(K::Blocked)}{format!(" ({} / {} / {} / {} / {})", t.s(K::CellTaint), t.s(K::CellCordon), t.s(K::CellAffinity), t.s(K::CellPorts), "cpu −500m")}</li>
                <li>{t.s(K::LegendFilters)}</li>
                <li><span class="cell ok inline">{"⏱300s"}</span>{" "}{t.f(K::EvictedAfter, &["300"])}</li>
                <li><span class="cell bad inline">{"⚡"}</span>{" "}{t.s(K::EvictedNow)}</li>
                <li><span class="cell bound inline">{"●"}</span>{" "}{t.s(K::BoundHere)}{" · "}<span class="cell none inline">{"–"}</span>{" "}{t.s(K::Elsewhere)}</li>
            </ul>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse, options};
    use crate::i18n::Lang;
    use crate::parse::parse_pane;
    use crate::store::Admission;
    use taintlab_core::Semantics;
    use taintlab_scenario::PaneKind;

    /// Words as axe-core compares them: letters and digits, symbols dropped.
    fn tokens(s: &str) -> Vec<String> {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn grouped_columns_keep_apart_nodes_a_selector_tells_apart() {
        let mut nodes = String::new();
        for i in 0..(GROUP_ABOVE + 10) {
            let disk = if i % 2 == 0 { "ssd" } else { "hdd" };
            nodes.push_str(&format!(
                "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n{i}\n  labels: {{disk: {disk}, kubernetes.io/hostname: n{i}}}\n"
            ));
        }
        let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {disk: ssd}\n  containers: [{name: c, image: x}]\n";
        let a = analyse(
            &parse_pane(&nodes, PaneKind::Nodes),
            &parse_pane(pods, PaneKind::Pods),
            &options(Semantics::newest(), &Admission::default()),
        );
        let cols = columns(&a);
        assert_eq!(cols.len(), 2, "{cols:?}");
        assert_eq!(cols[0].count + cols[1].count, GROUP_ABOVE + 10);
        let kinds: Vec<CellKind> = cols
            .iter()
            .map(|c| a.cell(0, c.node).expect("a cell").kind)
            .collect();
        assert_eq!(kinds, [CellKind::Schedulable, CellKind::Blocked]);
    }

    #[test]
    fn amounts_read_as_kubernetes_quantities() {
        assert_eq!(amount("cpu", 400), "400m");
        assert_eq!(amount("cpu", 2000), "2");
        assert_eq!(amount("memory", 512 << 20), "512Mi");
        assert_eq!(amount("memory", 3 << 30), "3Gi");
        assert_eq!(amount("memory", 1000), "1000");
        assert_eq!(amount("hugepages-2Mi", 4 << 20), "4Mi");
        assert_eq!(amount("nvidia.com/gpu", 2), "2");
        assert_eq!(amount("pods", 110), "110");
    }

    #[test]
    fn blocked_cells_name_their_filter_and_resource_cells_their_shortfall() {
        let nodes = "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  labels: {disk: ssd}\nstatus:\n  allocatable: {cpu: '1', pods: '110'}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\nspec: {unschedulable: true}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: c\n  labels: {disk: ssd}\n";
        let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {disk: ssd}\n  containers: [{name: c, image: x, resources: {requests: {cpu: 1500m}}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: gated}\nspec:\n  schedulingGates: [{name: wait}]\n  containers: [{name: c, image: x}]\n";
        let a = analyse(
            &parse_pane(nodes, PaneKind::Nodes),
            &parse_pane(pods, PaneKind::Pods),
            &options(Semantics::newest(), &Admission::default()),
        );
        let t = T(Lang::En);
        let c = cell_of(&a, 0, 0).expect("a cell");
        assert_eq!(cell_text(t, &c), "cpu −500m");
        let name = cell_name(t, "p", "a", &c);
        assert!(
            name.contains("Insufficient cpu") && name.contains("cpu short by 500m"),
            "{name}"
        );
        assert_eq!(cell_text(t, &cell_of(&a, 0, 1).expect("a cell")), "cordon");
        // c: allocatable unknown, resources not checked: it fits.
        assert_eq!(cell_of(&a, 0, 2).expect("a cell").why, Why::Nothing);
        assert_eq!(cell_text(t, &cell_of(&a, 1, 0).expect("a cell")), "gated");
        let rows = rows(&a, &columns(&a));
        assert_eq!(rows[1].badge, Badge::Held(Hold::Gated));
        assert_eq!(rows[0].badge, Badge::Fits(1, 3));
        assert_eq!(columns(&a)[0].labels, ["disk=ssd"]);
    }

    #[test]
    fn every_cell_name_starts_with_what_the_cell_shows() {
        let nodes = "kubectl taint nodes a dedicated=x:NoSchedule\nkubectl taint nodes b k=v:NoExecute\nkubectl taint nodes c soft=y:PreferNoSchedule\n---\napiVersion: v1\nkind: Node\nmetadata: {name: d}\nspec: {unschedulable: true}\n";
        let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n  tolerations:\n  - {key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 300}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  containers: [{name: c, image: x}]\n";
        let a = analyse(
            &parse_pane(nodes, PaneKind::Nodes),
            &parse_pane(pods, PaneKind::Pods),
            &options(Semantics::newest(), &Admission::default()),
        );
        let mut seen = 0;
        for lang in Lang::ALL {
            let t = T(lang);
            for r in 0..a.pods.len() {
                for n in 0..a.nodes.len() {
                    let Some(c) = cell_of(&a, r, n) else { continue };
                    let mut shown = cell_text(t, &c);
                    if let Some(b) = eviction_badge(&c.view) {
                        shown.push_str(&b);
                    }
                    let name = cell_name(t, "pod", "node", &c);
                    let (want, got) = (
                        tokens(&format!("{} {shown}", symbol(&c.view))),
                        tokens(&name),
                    );
                    assert!(
                        got.starts_with(&want),
                        "{lang:?}: {name:?} does not start with {want:?}"
                    );
                    seen += usize::from(!want.is_empty());
                }
            }
        }
        assert!(seen > 0, "no cell shows text");
    }
}
