//! `taintlab why POD`: per node, the first filter that rejects the pod and why, the
//! FailedScheduling text the scheduler records, and what to change.

use taintlab_core::matching::{describe_toleration, taint_to_string};
use taintlab_core::scheduling::explain::{Eviction, Explanation, NoExecuteEffect, TaintRole};
use taintlab_core::scheduling::placement::PodOutcome;
use taintlab_core::scheduling::{FilterPlugin, Verdict};
use taintlab_core::{Operator, Taint, Toleration};
use taintlab_scenario::{CellKind, FilterState, Hold, Scenario};

use super::{analyze, emit};
use crate::load::{Loaded, find_node, find_pod};
use crate::out::{Style, print_error, raw_field, raw_items};
use crate::{EXIT_INPUT, EXIT_NO, Format, WhyArgs};

/// Runs `why`.
pub fn run(a: &WhyArgs) -> u8 {
    let (l, s) = match super::load_for(&a.common, Some(&a.pod)) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let p = match find_pod(&s, &a.pod, a.common.namespace.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            print_error(&l.err_style, &e);
            return EXIT_INPUT;
        }
    };
    let node = match a.node.as_deref().map(|n| find_node(&s, n)).transpose() {
        Ok(n) => n,
        Err(e) => {
            print_error(&l.err_style, &e);
            return EXIT_INPUT;
        }
    };
    let fits = match node {
        Some(n) => s.cell(p, n).is_some_and(|c| {
            matches!(
                c.kind,
                CellKind::Schedulable | CellKind::Penalized | CellKind::BoundHere
            )
        }),
        None => matches!(
            s.pod_scheduling(p).map(|x| x.outcome),
            Some(PodOutcome::Feasible { .. } | PodOutcome::Bypassed)
        ),
    };
    let code = if fits { 0 } else { EXIT_NO };
    if a.common.verbose {
        eprint!("{}", blocks_text(&l));
    }
    match a.output {
        Format::Text => {
            let style = Style::stdout(a.common.color);
            let text = match node {
                Some(n) => node_in_depth(&l, &s, p, n, &style),
                None => summary(&l, &s, p, &style),
            };
            crate::say!("{text}");
            code
        }
        Format::Json | Format::Yaml => {
            let json = match analyze(&l) {
                Ok(j) => j,
                Err(c) => return c,
            };
            match pod_json(&json, p, node) {
                Ok(part) => match emit(&l, &part, a.output == Format::Yaml) {
                    0 => code,
                    c => c,
                },
                Err(e) => {
                    print_error(&l.err_style, &e);
                    EXIT_INPUT
                }
            }
        }
    }
}

/// npm `analyze`'s object of pod `p` (and of its node `n`), text unchanged.
pub fn pod_json(json: &str, p: usize, n: Option<usize>) -> Result<String, String> {
    let pods = raw_items(raw_field(json, "pods")?.get())?;
    let pod = pods.get(p).ok_or("pod out of range")?;
    match n {
        None => Ok(pod.get().to_string()),
        Some(n) => {
            let nodes = raw_items(raw_field(pod.get(), "nodes")?.get())?;
            Ok(nodes.get(n).ok_or("node out of range")?.get().to_string())
        }
    }
}

/// `kind name (namespace)`, located.
fn header(l: &Loaded, s: &Scenario, p: usize, style: &Style) -> String {
    let e = &s.pods[p];
    let at = l
        .locate(Some(e.source.pane), &e.source.location)
        .filter(|a| a.line > 0)
        .map(|a| format!(" ({}:{})", a.file.name, a.line))
        .unwrap_or_default();
    format!(
        "{} {} in namespace {}{}\n",
        e.kind,
        style.bold(&e.pod.name),
        e.pod.namespace,
        style.dim(&at)
    )
}

/// With `-v`: what each block of the input was read as and what was read from it (the
/// scenario's blocks view, as the playground and npm show it), one line per block at
/// its file and line.
fn blocks_text(l: &Loaded) -> String {
    let mut out = String::new();
    for pane in &l.panes {
        for b in pane.blocks() {
            let at = taintlab_input::Location::at(b.document, b.line, 0);
            let end = taintlab_input::Location::at(b.last_document, b.end_line, 0);
            let place = match (
                l.locate(Some(pane.kind), &at).filter(|a| a.line > 0),
                l.locate(Some(pane.kind), &end).filter(|a| a.line > 0),
            ) {
                (Some(a), Some(e)) if e.line > a.line => {
                    format!("{}:{}-{}", a.file.name, a.line, e.line)
                }
                (Some(a), _) => format!("{}:{}", a.file.name, a.line),
                _ => format!("line {}", b.line),
            };
            out.push_str(&format!(
                "read {place}: {}: {}\n",
                taintlab_scenario::form_label(b.form),
                b.read_english()
            ));
        }
    }
    out
}

/// The toleration that tolerates exactly `taint`.
fn toleration_for(taint: &Taint) -> Toleration {
    let op = if taint.value.is_empty() {
        Operator::Exists
    } else {
        Operator::Equal
    };
    Toleration::new(&taint.key, op, &taint.value, taint.effect.clone())
}

/// A toleration as the YAML to add under the pod's `tolerations:`, fields in the
/// API's order.
fn toleration_yaml(t: &Toleration, indent: &str) -> String {
    use taintlab_input::emit::quoted;
    let mut out = format!("{indent}tolerations:\n{indent}- key: {}\n", quoted(&t.key));
    out.push_str(&format!("{indent}  operator: {}\n", t.operator.as_str()));
    if !t.value.is_empty() {
        out.push_str(&format!("{indent}  value: {}\n", quoted(&t.value)));
    }
    if !t.effect.is_empty() {
        out.push_str(&format!("{indent}  effect: {}\n", t.effect.as_str()));
    }
    out
}

/// Why the node rejects the pod, in the scheduler's words, with the taint named.
fn reason(e: &Explanation, node_taints: &[Taint]) -> String {
    let mut r = e.filter.reason.clone().unwrap_or_default();
    if let Some(t) = e.filter.first_untolerated.and_then(|i| node_taints.get(i)) {
        r.push_str(&format!(" ({})", taint_to_string(t)));
    }
    r
}

/// What to change so that node `n` takes pod `p`; `None` when nothing in the pod can.
///
/// `named` names the node in commands (`kubectl uncordon NODE`); `None` keeps the text
/// the same for every node, so that nodes with the same remedy group.
fn remedy(s: &Scenario, p: usize, e: &Explanation, n: usize, named: bool) -> Option<String> {
    let node = if named {
        s.nodes[n].node.name.as_str()
    } else {
        "NODE"
    };
    match e.filter.rejected_by? {
        FilterPlugin::TaintToleration => {
            // Every untolerated NoSchedule/NoExecute taint, not only the first reported.
            let missing: Vec<&Taint> = e
                .taints
                .iter()
                .filter(|t| t.blocks_scheduling)
                .map(|t| &t.taint)
                .collect();
            let mut out = format!(
                "add to the pod's tolerations ({} untolerated taint{}):\n",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" }
            );
            for t in missing {
                out.push_str(&toleration_yaml(&toleration_for(t), "      "));
            }
            Some(out)
        }
        FilterPlugin::NodeUnschedulable => Some(format!(
            "uncordon the node (kubectl uncordon {node}) or add to the pod's tolerations:\n{}",
            toleration_yaml(
                &toleration_for(&taintlab_core::scheduling::filter::unschedulable_taint()),
                "      "
            )
        )),
        FilterPlugin::NodeName => Some(format!(
            "spec.nodeName binds the pod to another node; clear it or set it to {node}"
        )),
        FilterPlugin::NodeAffinity => {
            let placement = s.placement.pods.get(p).map(|x| &x.placement);
            let mut out = String::from(
                "change the pod's nodeSelector / required node affinity, or the node's labels",
            );
            // The nodeSelector entries this node's labels lack (the required node
            // affinity terms are in the pod's spec).
            let missing: Vec<(&String, &String)> = placement
                .map(|pl| {
                    pl.node_selector
                        .iter()
                        .filter(|(k, v)| s.nodes[n].node.labels.get(*k) != Some(*v))
                        .collect()
                })
                .unwrap_or_default();
            if missing.is_empty() {
                out.push_str(" (the required node affinity matches none of its labels)\n");
            } else {
                out.push_str(":\n");
                for (k, v) in missing {
                    let has = s.nodes[n]
                        .node
                        .labels
                        .get(k)
                        .map_or("no such label".to_string(), |x| format!("{k}={x}"));
                    out.push_str(&format!(
                        "      nodeSelector {k}={v}: the node has {has} (kubectl label node {node} {k}={v})\n"
                    ));
                }
            }
            Some(out)
        }
        FilterPlugin::NodePorts => {
            let ports: Vec<String> = s
                .placement
                .pods
                .get(p)
                .map(|x| {
                    x.placement
                        .host_ports
                        .iter()
                        .map(|h| {
                            let protocol = if h.protocol.is_empty() {
                                "TCP"
                            } else {
                                h.protocol.as_str()
                            };
                            format!("{}/{protocol}", h.host_port)
                        })
                        .collect()
                })
                .unwrap_or_default();
            Some(format!(
                "a pod on the node already uses a host port this pod asks for ({}); change the pod's hostPort or free it\n",
                ports.join(", ")
            ))
        }
        FilterPlugin::NodeResourcesFit => {
            let mut out = String::from("lower the pod's requests or free room on the node:\n");
            for r in s
                .placement_cell(p, n)
                .map(|c| c.insufficient)
                .unwrap_or_default()
            {
                out.push_str(&format!(
                    "      {}: requests {}, {} of {} allocatable in use (short by {})\n",
                    r.resource,
                    amount(&r.resource, r.requested),
                    amount(&r.resource, r.used),
                    amount(&r.resource, r.capacity),
                    amount(&r.resource, r.shortfall())
                ));
            }
            Some(out)
        }
    }
}

/// Why a toleration does not tolerate a taint (`TolerationsTolerateTaint`'s checks).
fn outcome_text(o: taintlab_core::matching::MatchOutcome) -> &'static str {
    use taintlab_core::matching::MatchOutcome as M;
    match o {
        M::Tolerated => "tolerates it",
        M::EffectMismatch => "another effect",
        M::KeyMismatch => "another key",
        M::ValueMismatch => "another value",
        M::ComparisonGateOff => "Lt/Gt while the TaintTolerationComparisonOperators gate is off",
        M::NotAnInteger => "Lt/Gt with a value that is not a canonical decimal integer",
        M::ComparisonFalse => "Lt/Gt comparison is false",
        M::UnknownOperator => "unknown operator: never tolerates",
    }
}

fn eviction_note(e: &Explanation) -> Option<String> {
    match e.eviction {
        Eviction::NotApplicable | Eviction::Never => None,
        Eviction::Immediate => Some("a running pod is evicted at once (NoExecute)".into()),
        Eviction::After(s) => Some(format!("a running pod is evicted after {s}s (NoExecute)")),
    }
}

/// One line per node, then what to change.
fn summary(l: &Loaded, s: &Scenario, p: usize, style: &Style) -> String {
    let mut out = header(l, s, p, style);
    let e = &s.pods[p];
    if let Some(r) = &e.rejection {
        out.push_str(&format!("{} {r}\n", style.red("admission rejects it:")));
    }
    if let Some(m) = &e.status_message {
        out.push_str(&format!(
            "{} {m}\n",
            style.red("the API server rejects it:")
        ));
    }
    let scheduling = s.pod_scheduling(p);
    match scheduling.as_ref().map(|x| &x.outcome) {
        Some(PodOutcome::Unschedulable { .. }) => {
            out.push_str(&format!(
                "{} it fits no node; the scheduler records:\n  Warning  FailedScheduling  {}\n",
                style.red(&style.bold("Pending:")),
                s.message(p).unwrap_or_default()
            ));
            if let Some(n) = scheduling.as_ref().and_then(|x| x.nomination.as_ref()) {
                out.push_str(&format!(
                    "  preemption nominates {} (evicting {} pod(s))\n",
                    n.node,
                    n.victims.len()
                ));
            }
        }
        Some(PodOutcome::Feasible { nodes }) => out.push_str(&format!(
            "{} it fits {nodes} of {} nodes\n",
            style.green(&style.bold("Schedulable:")),
            s.nodes.len()
        )),
        Some(PodOutcome::Bypassed) => out.push_str(&format!(
            "{} spec.nodeName binds it; the scheduler does not place it\n",
            style.green("Bound:")
        )),
        Some(PodOutcome::Gated) => out.push_str(&format!(
            "{} spec.schedulingGates hold it: no scheduling cycle, no FailedScheduling event\n",
            style.yellow(&style.bold("Pending:"))
        )),
        Some(PodOutcome::OtherScheduler) => out.push_str(&format!(
            "{} spec.schedulerName names another scheduler; the default scheduler does not place it\n",
            style.yellow(&style.bold("Not modelled:"))
        )),
        Some(PodOutcome::SchedulerError { message } | PodOutcome::SchedulerPanic { message }) => {
            out.push_str(&format!("{} {message}\n", style.red("scheduler error:")))
        }
        Some(PodOutcome::PreScoreError) => {
            out.push_str(&format!("{}\n", style.red("scheduler error in PreScore")))
        }
        None if s.nodes.is_empty() => out.push_str("no nodes in the input\n"),
        None => {}
    }
    // One row per node; above GROUP_ABOVE nodes, one row per distinct answer.
    let mut rows: Vec<Row> = Vec::new();
    let mut remedies: Vec<(Vec<usize>, Option<String>, String)> = Vec::new();
    for n in 0..s.nodes.len() {
        let Some(cell) = s.cell(p, n) else { continue };
        let Some(ex) = s.explain(p, n) else { continue };
        let (result, filter, why) = match cell.kind {
            CellKind::Blocked if cell.rejected_by.is_none() && cell.hold.is_some() => (
                "held",
                String::new(),
                hold_text(cell.hold.unwrap_or(Hold::SchedulerError)).to_string(),
            ),
            CellKind::Schedulable | CellKind::Penalized => {
                let mut why = format!(
                    "score {} (TaintToleration {})",
                    cell.combined_score.unwrap_or_default(),
                    cell.score.unwrap_or_default()
                );
                if !cell.resources_checked {
                    why.push_str("; resources not checked (allocatable unknown)");
                }
                if let Verdict::Penalized {
                    untolerated_prefer_no_schedule: k,
                } = cell.verdict
                {
                    why.push_str(&format!(", {k} untolerated PreferNoSchedule taint(s)"));
                }
                if let Some(ev) = eviction_note(&ex) {
                    why.push_str(&format!("; {ev}"));
                }
                ("fits", String::new(), why)
            }
            CellKind::BoundHere => (
                "bound",
                String::new(),
                "spec.nodeName names this node; the scheduler is bypassed".into(),
            ),
            CellKind::Elsewhere => (
                "elsewhere",
                String::new(),
                "spec.nodeName names another node".into(),
            ),
            CellKind::Blocked => {
                // Remedies are grouped by their text for any node.
                if let Some(generic) = remedy(s, p, &ex, n, false) {
                    match remedies.iter_mut().find(|(_, _, g)| *g == generic) {
                        Some((nodes, _, _)) => nodes.push(n),
                        None => remedies.push((vec![n], remedy(s, p, &ex, n, true), generic)),
                    }
                }
                (
                    "rejected",
                    ex.filter
                        .rejected_by
                        .map(FilterPlugin::name)
                        .unwrap_or_default()
                        .to_string(),
                    reason(&ex, &s.nodes[n].node.taints),
                )
            }
        };
        let group = s.nodes.len() > GROUP_ABOVE;
        match rows
            .iter_mut()
            .find(|r| group && r.result == result && r.filter == filter && r.why == why)
        {
            Some(r) => r.nodes.push(n),
            None => rows.push(Row {
                nodes: vec![n],
                result,
                filter,
                why,
            }),
        }
    }
    let label = |nodes: &[usize]| match nodes {
        [one] => s.nodes[*one].node.name.clone(),
        [first, rest @ ..] => format!("{} and {} more", s.nodes[*first].node.name, rest.len()),
        [] => String::new(),
    };
    let labels: Vec<String> = rows.iter().map(|r| label(&r.nodes)).collect();
    let width = labels
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    if !rows.is_empty() {
        out.push_str(&format!(
            "\n{:width$}  {:9}  {:17}  {}\n",
            "NODE", "RESULT", "FILTER", "WHY"
        ));
    }
    for (r, name) in rows.iter().zip(&labels) {
        let painted = match r.result {
            "fits" | "bound" => style.green(r.result),
            "rejected" => style.red(r.result),
            other => style.dim(other),
        };
        // Pad on the visible width (the colour codes take none).
        let pad = " ".repeat(9usize.saturating_sub(r.result.len()));
        out.push_str(&format!(
            "{name:width$}  {painted}{pad}  {:17}  {}\n",
            r.filter, r.why
        ));
    }
    if !remedies.is_empty() {
        out.push_str(&format!("\n{}\n", style.bold("What to change:")));
        for (nodes, specific, generic) in remedies {
            let text = match (nodes.len(), specific) {
                (1, Some(t)) => t,
                _ => generic,
            };
            out.push_str(&format!("  to run on {}: {text}", label(&nodes)));
            if !text.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

/// Why the scheduler does not evaluate a pod on a node.
fn hold_text(h: Hold) -> &'static str {
    match h {
        Hold::Bound => "spec.nodeName binds the pod",
        Hold::Gated => "held by spec.schedulingGates",
        Hold::OtherScheduler => "another scheduler (spec.schedulerName)",
        Hold::SchedulerError => "the scheduling cycle failed",
        Hold::NoDaemonPod => "the DaemonSet controller creates no pod for this node",
    }
}

/// A quantity in its resource's unit (cpu in milli-cores).
fn amount(resource: &str, v: i64) -> String {
    if resource == "cpu" {
        format!("{v}m")
    } else {
        v.to_string()
    }
}

/// Above this many nodes, `why` prints one row per distinct answer.
const GROUP_ABOVE: usize = 20;

/// One row of `why`'s table.
struct Row {
    nodes: Vec<usize>,
    result: &'static str,
    filter: String,
    why: String,
}

/// One node in depth: the cordon check, every taint and which toleration covers it,
/// the filters, the score and eviction.
fn node_in_depth(l: &Loaded, s: &Scenario, p: usize, n: usize, style: &Style) -> String {
    let mut out = header(l, s, p, style);
    let node = &s.nodes[n].node;
    let pod = &s.pods[p].pod;
    let Some(ex) = s.explain(p, n) else {
        return out;
    };
    out.push_str(&format!("on node {}\n\n", style.bold(&node.name)));
    out.push_str(&format!(
        "{}\n",
        style.bold("Tolerations (final, after admission):")
    ));
    if pod.tolerations.is_empty() {
        out.push_str("  none\n");
    }
    for (i, t) in s.pods[p].tolerations.iter().enumerate() {
        out.push_str(&format!(
            "  [{i}] {}  {}\n",
            describe_toleration(&t.toleration),
            style.dim(&format!("({})", t.origin.name()))
        ));
    }
    out.push_str(&format!("\n{}\n", style.bold("NodeUnschedulable:")));
    if ex.cordon.node_unschedulable {
        match ex.cordon.tolerated_by {
            Some(b) => out.push_str(&format!(
                "  the node is cordoned; toleration [{}] tolerates node.kubernetes.io/unschedulable:NoSchedule\n",
                b.toleration
            )),
            None => out.push_str(&format!(
                "  {}\n",
                style.red("the node is cordoned and no toleration tolerates node.kubernetes.io/unschedulable:NoSchedule")
            )),
        }
    } else {
        out.push_str("  the node is not cordoned\n");
    }
    out.push_str(&format!("\n{}\n", style.bold("Taints:")));
    if ex.taints.is_empty() {
        out.push_str("  none\n");
    }
    for t in &ex.taints {
        let role = match t.role {
            TaintRole::Filter => "filter",
            TaintRole::FilterAndEviction => "filter and eviction",
            TaintRole::Score => "score",
            TaintRole::None => "ignored",
        };
        let status = match (&t.tolerated_by, t.blocks_scheduling, t.score_penalty) {
            (Some(b), _, _) => style.green(&format!("tolerated by [{}]", b.toleration)),
            (None, true, _) => style.red("untolerated: blocks scheduling"),
            (None, _, true) => style.yellow("untolerated: lowers the score"),
            (None, _, _) => "untolerated".into(),
        };
        out.push_str(&format!(
            "  {}  {}  {status}\n",
            taint_to_string(&t.taint),
            style.dim(&format!("({role})"))
        ));
        for (i, o) in t.outcomes.iter().enumerate() {
            if !o.is_tolerated() {
                out.push_str(&format!("      [{i}] {}\n", outcome_text(*o)));
            }
        }
        if let Some(ne) = t.no_execute {
            let what = match ne {
                NoExecuteEffect::Untolerated => "a running pod is evicted at once".to_string(),
                NoExecuteEffect::ToleratedForever => "a running pod stays".to_string(),
                NoExecuteEffect::ToleratedFor(s) => format!("a running pod is evicted after {s}s"),
            };
            out.push_str(&format!("      NoExecute: {what}\n"));
        }
    }
    if let Some(pe) = s.explain_placement(p, n) {
        out.push_str(&format!(
            "\n{}\n",
            style.bold("Filters (default profile order):")
        ));
        for step in &pe.filters {
            let state = match &step.state {
                FilterState::Passed => style.green("passed"),
                FilterState::Failed(st) => {
                    format!("{}: {}", style.red("failed"), st.reasons.join("; "))
                }
                FilterState::NotEvaluated => style.dim("not evaluated"),
                FilterState::NotChecked => style.dim("not checked (allocatable unknown)"),
            };
            out.push_str(&format!("  {:18} {state}\n", step.plugin.name()));
        }
        if let Some(lines) = &pe.resources {
            out.push_str(&format!(
                "\n{}\n",
                style.bold("Resources (requested + in use / allocatable):")
            ));
            for r in lines {
                let line = format!(
                    "  {:18} {} + {} / {}",
                    r.resource,
                    amount(&r.resource, r.requested),
                    amount(&r.resource, r.used),
                    amount(&r.resource, r.allocatable)
                );
                out.push_str(&if r.headroom() < 0 {
                    style.red(&line)
                } else {
                    line
                });
                out.push('\n');
            }
        }
        if let Some(sc) = pe.cell.scores {
            out.push_str(&format!(
                "\n{} TaintToleration {} ×3, NodeAffinity {} ×2, NodeResourcesFit {}, BalancedAllocation {}: {}\n",
                style.bold("Scores:"),
                sc.taint_toleration,
                sc.node_affinity,
                sc.node_resources_fit.map_or("-".into(), |v| v.to_string()),
                sc.balanced_allocation.map_or("-".into(), |v| v.to_string()),
                sc.combined
            ));
        }
    }
    out.push_str(&format!("\n{}\n", style.bold("Filter:")));
    match ex.filter.rejected_by {
        Some(f) => {
            out.push_str(&format!(
                "  {} {}: {}\n",
                style.red("rejected by"),
                f.name(),
                reason(&ex, &node.taints)
            ));
            if let Some(r) = remedy(s, p, &ex, n, true) {
                out.push_str(&format!("\n{}\n  {r}", style.bold("What to change:")));
            }
        }
        None if ex.bypasses_scheduler => {
            out.push_str("  spec.nodeName is set: the scheduler's filters never run\n")
        }
        None => {
            let score = s.cell(p, n).and_then(|c| c.score);
            out.push_str(&format!(
                "  {} (raw TaintToleration score {}, normalized {}, weight {})\n",
                style.green("passes"),
                ex.raw_score,
                score.map_or("-".into(), |s| s.to_string()),
                ex.score_weight
            ));
        }
    }
    out.push_str(&format!(
        "\n{} kubelet {}; {}\n",
        style.bold("Running there:"),
        if ex.kubelet_admits {
            "admits it"
        } else {
            "rejects it (untolerated NoExecute taint)"
        },
        eviction_note(&ex).unwrap_or_else(|| "never evicted for taints".into())
    ));
    if let Some(m) = s.message(p) {
        out.push_str(&format!("\nFailedScheduling (whole cluster): {m}\n"));
    }
    out
}
