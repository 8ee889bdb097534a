//! `tolerates`, `explain` and `schedule`.

use crate::value::V;
use taintlab_core::helpers::tolerations_tolerate_taint;
use taintlab_core::matching::{describe_toleration, taint_to_string, tolerates as core_tolerates};
use taintlab_core::scheduling::explain::{
    Eviction, Explanation, NoExecuteEffect, TaintRole, ToleratedBy, ToleratedVia,
};
use taintlab_core::scheduling::filter::FilterPlugin;
use taintlab_core::scheduling::filter::{NODE_UNSCHEDULABLE_REASON, untolerated_taint_reason};
use taintlab_core::scheduling::placement::PodOutcome;
use taintlab_core::scheduling::{Verdict, explain as core_explain};
use taintlab_core::{Node, Pod, Semantics, Toleration};
use taintlab_scenario::{
    FilterState, Hold, Options, PlacementCell, PlacementExplanation, Scenario,
    UNMODELLED_FILTER_PLUGINS, UNMODELLED_SCORE_PLUGINS,
};

use super::analyze::{Originals, finding, node_pane, pod_pane};
use crate::error::ApiResult;
use crate::read::{self, NodeIn, Obj, PodIn, VERSION_OPTIONS};
use crate::write::{self, J};

/// `tolerates(toleration | toleration[], taint, options?)`: whether the toleration (any
/// of the tolerations) tolerates the taint.
pub fn tolerates(toleration: &V, taint: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let gate = sem.comparison_operators_enabled();
    let taint = read::taint(taint, "taint", sem.version)?;
    let ok = match toleration {
        V::Arr(_) => {
            let list = read::tolerations(toleration, "toleration", "toleration", sem.version)?;
            tolerations_tolerate_taint(&list, &taint, gate)
        }
        single => core_tolerates(
            &read::toleration(single, "toleration", sem.version)?,
            &taint,
            gate,
        ),
    };
    Ok(String::from(if ok { "true" } else { "false" }))
}

/// The kebab-case verdict name.
pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Schedulable => "schedulable",
        Verdict::Penalized { .. } => "penalized",
        Verdict::Unschedulable => "unschedulable",
        Verdict::Untolerated { .. } => "untolerated",
        Verdict::Bypassed => "bypassed",
    }
}

fn via_name(v: ToleratedVia) -> &'static str {
    match v {
        ToleratedVia::ExistsAnyKey => "exists-any-key",
        ToleratedVia::Exists => "exists",
        ToleratedVia::Equal => "equal",
        ToleratedVia::LessThan => "less-than",
        ToleratedVia::GreaterThan => "greater-than",
    }
}

fn role_name(r: TaintRole) -> &'static str {
    match r {
        TaintRole::Filter => "filter",
        TaintRole::FilterAndEviction => "filter-and-eviction",
        TaintRole::Score => "score",
        TaintRole::None => "none",
    }
}

fn tolerated_by(j: &mut J, by: Option<ToleratedBy>, tolerations: &[Toleration]) {
    match by {
        None => {
            j.null();
        }
        Some(b) => {
            let text = tolerations
                .get(b.toleration)
                .map(describe_toleration)
                .unwrap_or_default();
            j.open()
                .c("toleration", b.toleration)
                .s("via", via_name(b.via))
                .b("anyEffect", b.any_effect)
                .s("text", &text)
                .close();
        }
    }
}

/// The eviction summary of an explanation: `{kind, seconds}`.
pub fn eviction(j: &mut J, e: Eviction) {
    let (kind, seconds) = match e {
        Eviction::NotApplicable => ("not-applicable", None),
        Eviction::Immediate => ("immediate", Some(0)),
        Eviction::After(s) => ("after", Some(s)),
        Eviction::Never => ("never", None),
    };
    j.open().s("kind", kind).on("seconds", seconds).close();
}

fn pod_label(pod: &Pod) -> String {
    if pod.namespace.is_empty() || pod.namespace == "default" {
        pod.name.clone()
    } else {
        format!("{}/{}", pod.namespace, pod.name)
    }
}

/// One sentence saying what the explanation means: the taint view, or the plugin of the
/// full filter chain that rejects the node.
fn summary(x: &Explanation, full: Option<&PlacementCell>, pod: &Pod, node: &Node) -> String {
    let p = pod_label(pod);
    let n = &node.name;
    let other = full.and_then(|c| {
        let plugin = c.rejected_by?;
        (x.verdict.passes_filter() && c.hold.is_none()).then_some((plugin, c))
    });
    let mut s = match (x.verdict, other) {
        (_, Some((plugin, c))) => {
            let mut s = format!(
                "{p} cannot be scheduled on {n}: {} rejects it ({}).",
                plugin.name(),
                c.reasons.join("; ")
            );
            for r in &c.insufficient {
                s.push_str(&format!(
                    " {}: requests {}, {} of {} in use, short by {}.",
                    r.resource,
                    r.requested,
                    r.used,
                    r.capacity,
                    r.shortfall()
                ));
            }
            s
        }
        (Verdict::Bypassed, _) => format!(
            "{p} has spec.nodeName set, so the scheduler never checks it; the kubelet on {n} {}.",
            if x.kubelet_admits {
                "admits it"
            } else {
                "rejects it (an untolerated NoExecute taint)"
            }
        ),
        (Verdict::Schedulable, _) if node.taints.is_empty() && !node.unschedulable => {
            format!("{p} can be scheduled on {n}: the node has no taints.")
        }
        (Verdict::Schedulable, _) => format!(
            "{p} can be scheduled on {n}: every NoSchedule and NoExecute taint is tolerated."
        ),
        (
            Verdict::Penalized {
                untolerated_prefer_no_schedule: k,
            },
            _,
        ) => format!(
            "{p} can be scheduled on {n}, but {k} untolerated PreferNoSchedule taint{} lower{} the node's score.",
            if k == 1 { "" } else { "s" },
            if k == 1 { "s" } else { "" }
        ),
        (Verdict::Unschedulable, _) => format!(
            "{p} cannot be scheduled on {n}: the node is cordoned (spec.unschedulable) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule."
        ),
        (Verdict::Untolerated { first_untolerated }, _) => format!(
            "{p} cannot be scheduled on {n}: it does not tolerate the taint {}.",
            node.taints
                .get(first_untolerated)
                .map(taint_to_string)
                .unwrap_or_default()
        ),
    };
    if let Some(h) = full.and_then(|c| c.hold).filter(|h| *h != Hold::Bound) {
        s = format!(
            "{p} is not scheduled by the default scheduler ({}). {s}",
            h.name()
        );
    }
    match x.eviction {
        Eviction::NotApplicable => {}
        Eviction::Immediate => {
            s.push_str(&format!(" Running on {n}, it would be evicted at once."))
        }
        Eviction::After(secs) => s.push_str(&format!(
            " Running on {n}, it would be evicted {secs} s after the NoExecute taint appears."
        )),
        Eviction::Never => s.push_str(&format!(
            " Running on {n}, it tolerates the NoExecute taints forever."
        )),
    }
    s
}

/// The node's reason in the FailedScheduling message for a verdict.
fn reason_of(v: Verdict, node: &Node, sem: Semantics) -> Option<String> {
    match v {
        Verdict::Untolerated { first_untolerated } => node
            .taints
            .get(first_untolerated)
            .map(|t| untolerated_taint_reason(t, sem.version)),
        Verdict::Unschedulable => Some(NODE_UNSCHEDULABLE_REASON.to_string()),
        _ => None,
    }
}

/// Whether the full chain lets the pod land on the node (a bound pod: whether its
/// taints let it be admitted, as before).
fn cell_fits(c: &PlacementCell, taints: Verdict) -> bool {
    match c.hold {
        Some(Hold::Bound) => taints.passes_filter(),
        Some(_) => false,
        None => c.scores.is_some(),
    }
}

/// The full chain's answer for one cell: rejecting plugin(s), status code, reasons,
/// hold, scores and the resources that fall short.
fn placement_cell_fields(j: &mut J, c: &PlacementCell) {
    j.os("rejectedBy", c.rejected_by.map(|p| p.name()))
        .key("rejectedByAll")
        .arr();
    for p in &c.rejected_by_all {
        j.str(p.name());
    }
    j.end()
        .os("code", c.code.map(|c| c.as_str()))
        .strs("reasons", &c.reasons)
        .os("hold", c.hold.map(Hold::name))
        .b("resourcesChecked", c.resources_checked)
        .key("scores");
    match &c.scores {
        Some(s) => {
            j.open()
                .n("taintToleration", s.taint_toleration)
                .n("nodeAffinity", s.node_affinity)
                .on("nodeResourcesFit", s.node_resources_fit)
                .on("balancedAllocation", s.balanced_allocation)
                .n("combined", s.combined)
                .close();
        }
        None => {
            j.null();
        }
    }
    j.key("insufficient").arr();
    for r in &c.insufficient {
        j.open()
            .s("resource", &r.resource)
            .s("reason", &r.reason)
            .n("requested", r.requested)
            .n("used", r.used)
            .n("capacity", r.capacity)
            .n("shortfall", r.shortfall())
            .close();
    }
    j.end();
}

/// Every filter in order with the arithmetic and checks behind it.
fn placement_explanation(j: &mut J, x: &PlacementExplanation) {
    j.open();
    placement_cell_fields(j, &x.cell);
    j.key("filters").arr();
    for f in &x.filters {
        j.open().s("plugin", f.plugin.name());
        match &f.state {
            FilterState::Failed(st) => {
                j.s("state", "failed")
                    .s("code", st.code.as_str())
                    .strs("reasons", &st.reasons);
            }
            other => {
                j.s(
                    "state",
                    match other {
                        FilterState::Passed => "passed",
                        FilterState::NotChecked => "not-checked",
                        _ => "not-evaluated",
                    },
                )
                .os("code", None)
                .strs("reasons", &[]);
            }
        }
        j.close();
    }
    j.end().key("resources");
    match &x.resources {
        Some(lines) => {
            j.arr();
            for l in lines {
                j.open()
                    .s("resource", &l.resource)
                    .n("requested", l.requested)
                    .n("used", l.used)
                    .n("allocatable", l.allocatable)
                    .n("headroom", l.headroom())
                    .close();
            }
            j.end();
        }
        None => {
            j.null();
        }
    }
    j.key("nodeSelector").arr();
    for l in &x.node_selector {
        j.open()
            .s("key", &l.key)
            .s("wanted", &l.wanted)
            .os("nodeValue", l.node_value.as_deref())
            .b("matches", l.matches())
            .close();
    }
    j.end().key("affinityTerms").arr();
    for t in &x.affinity_terms {
        j.bool(*t);
    }
    j.end().key("portConflicts").arr();
    for p in &x.port_conflicts {
        j.open()
            .n("hostPort", i64::from(p.host_port))
            .s(
                "protocol",
                if p.protocol.is_empty() {
                    "TCP"
                } else {
                    &p.protocol
                },
            )
            .s(
                "hostIP",
                if p.host_ip.is_empty() {
                    "0.0.0.0"
                } else {
                    &p.host_ip
                },
            )
            .close();
    }
    j.end().close();
}

/// The explanation of pod `p` on node `n` of a scenario: the taint view, the full
/// filter chain's first rejection (`filter`) and every filter in order (`placement`).
/// `values`: also list the findings of this scenario of values (for `explain`, whose
/// scenario is this one pair).
pub fn explanation(j: &mut J, s: &Scenario, p: usize, n: usize, values: Option<&ValueScenario>) {
    let (Some(entry), Some(node_entry)) = (s.pods.get(p), s.nodes.get(n)) else {
        j.null();
        return;
    };
    let (pod, node, sem) = (&entry.pod, &node_entry.node, s.semantics);
    let x = s
        .explain(p, n)
        .unwrap_or_else(|| core_explain(pod, node, sem));
    let full = s.explain_placement(p, n);
    let cell = full.as_ref().map(|f| &f.cell);
    let tols = &pod.tolerations;
    j.open()
        .key("pod")
        .open()
        .s("namespace", &pod.namespace)
        .s("name", &pod.name)
        .close()
        .s("node", &node.name)
        .s("verdict", verdict_name(x.verdict))
        .b(
            "fits",
            cell.map_or(x.verdict.passes_filter(), |c| cell_fits(c, x.verdict)),
        )
        .b("bypassesScheduler", x.bypasses_scheduler)
        .s("summary", &summary(&x, cell, pod, node))
        .key("tolerations");
    write::tolerations(j, tols);
    j.key("cordon")
        .open()
        .b("nodeUnschedulable", x.cordon.node_unschedulable)
        .key("toleratedBy");
    tolerated_by(j, x.cordon.tolerated_by, tols);
    j.key("outcomes");
    write::outcomes(j, &x.cordon.outcomes);
    j.close().key("taints").arr();
    let mut untolerated = Vec::new();
    for t in &x.taints {
        if t.tolerated_by.is_none() {
            untolerated.push(t.index);
        }
        j.open().c("index", t.index).key("taint");
        write::taint(j, &t.taint);
        j.s("text", &taint_to_string(&t.taint))
            .s("role", role_name(t.role))
            .b("tolerated", t.tolerated_by.is_some())
            .key("toleratedBy");
        tolerated_by(j, t.tolerated_by, tols);
        j.key("outcomes");
        write::outcomes(j, &t.outcomes);
        j.b("blocksScheduling", t.blocks_scheduling)
            .b("scorePenalty", t.score_penalty)
            .key("noExecute");
        let (kind, seconds) = match t.no_execute {
            None => ("", None),
            Some(NoExecuteEffect::Untolerated) => ("untolerated", None),
            Some(NoExecuteEffect::ToleratedForever) => ("tolerated-forever", None),
            Some(NoExecuteEffect::ToleratedFor(s)) => ("tolerated-for", Some(s)),
        };
        if kind.is_empty() {
            j.null();
        } else {
            j.open().s("kind", kind).on("seconds", seconds).close();
        }
        j.close();
    }
    j.end();
    let mut unused: Vec<usize> = Vec::new();
    for i in 0..tols.len() {
        if !x
            .taints
            .iter()
            .any(|t| t.outcomes.get(i).is_some_and(|o| o.is_tolerated()))
        {
            unused.push(i);
        }
    }
    let taint_plugin = matches!(
        x.filter.rejected_by,
        None | Some(FilterPlugin::TaintToleration | FilterPlugin::NodeUnschedulable)
    );
    let reason = if taint_plugin {
        reason_of(x.verdict, node, sem).or_else(|| x.filter.reason.clone())
    } else {
        x.filter.reason.clone()
    };
    j.counts("untoleratedTaints", &untolerated)
        .counts("unusedTolerations", &unused)
        .key("filter")
        .open()
        .os("rejectedBy", x.filter.rejected_by.map(|p| p.name()))
        .s("code", x.filter.code.as_str())
        .os("reason", reason.as_deref())
        .oc("firstUntolerated", x.filter.first_untolerated)
        .close()
        .n("rawScore", x.raw_score)
        .n("scoreWeight", x.score_weight)
        .b("kubeletAdmits", x.kubelet_admits)
        .key("eviction");
    eviction(j, x.eviction);
    j.key("placement");
    match &full {
        Some(f) => placement_explanation(j, f),
        None => {
            j.null();
        }
    }
    if let Some(v) = values {
        findings(j, v);
    }
    j.s("kubernetesVersion", &sem.version.to_string()).close();
}

/// The scenario of pods and nodes given as values (the `schedule` and `explain`
/// arguments): the scenario pipeline the playground and `analyze` use, without
/// admission or the DaemonSet controller, so every placement field is run through the
/// full filter chain.
pub fn value_scenario(pods: Vec<PodIn>, nodes: Vec<NodeIn>, sem: Semantics) -> ValueScenario {
    let (mut node_originals, mut pod_originals) = (Vec::new(), Vec::new());
    let panes = [
        node_pane(nodes, &mut node_originals),
        pod_pane(pods, &mut pod_originals),
    ];
    let options = Options {
        semantics: sem,
        admission: None,
        daemon_set: Some(false),
    };
    ValueScenario {
        scenario: Scenario::build(&[&panes[0], &panes[1]], &options),
        nodes: node_originals,
        pods: pod_originals,
    }
}

/// A scenario of values with where each value was read.
pub struct ValueScenario {
    /// The scenario.
    pub scenario: Scenario,
    /// Where each node value was read.
    pub nodes: Originals,
    /// Where each pod value was read.
    pub pods: Originals,
}

fn findings(j: &mut J, v: &ValueScenario) {
    j.key("diagnostics").arr();
    for f in &v.scenario.findings {
        finding(j, f, &v.nodes, &v.pods);
    }
    j.end();
}

/// `explain(pod, node, options?)`.
pub fn explain(pod: &V, node: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let pod = read::pod(pod, "pod", sem.version)?;
    let node = read::node(node, "node", sem.version)?;
    let v = value_scenario(vec![pod], vec![node], sem);
    let mut j = J::new();
    explanation(&mut j, &v.scenario, 0, 0, Some(&v));
    Ok(j.finish())
}

fn outcome_name(o: &PodOutcome) -> &'static str {
    match o {
        PodOutcome::Gated => "gated",
        PodOutcome::Bypassed => "bound",
        PodOutcome::OtherScheduler => "other-scheduler",
        PodOutcome::Feasible { .. } => "feasible",
        PodOutcome::Unschedulable { .. } => "unschedulable",
        PodOutcome::SchedulerError { .. } => "scheduler-error",
        PodOutcome::PreScoreError => "pre-score-error",
        PodOutcome::SchedulerPanic { .. } => "scheduler-panic",
    }
}

/// One pod of a schedule result: the full filter chain's answer (feasible nodes, best
/// nodes by the combined modelled score, FailedScheduling event, preemption) and each
/// node's cell; `verdict`, `score` and `weightedScore` stay the taint filters' view.
pub fn pod_schedule(j: &mut J, s: &Scenario, pi: usize) {
    let Some(entry) = s.pods.get(pi) else {
        j.null();
        return;
    };
    let pod = &entry.pod;
    let r = &s.result;
    let ps = s.pod_scheduling(pi);
    let mut cells: Vec<Option<PlacementCell>> = Vec::with_capacity(s.nodes.len());
    for ni in 0..s.nodes.len() {
        cells.push(s.placement_cell(pi, ni));
    }
    let combined = |c: &Option<PlacementCell>| {
        c.as_ref()
            .filter(|c| c.hold.is_none())
            .and_then(|c| c.scores)
            .map(|s| s.combined)
    };
    let best = cells.iter().filter_map(combined).max();
    let feasible = s.feasible_nodes(pi).unwrap_or(0);
    let bypass = !pod.node_name.is_empty();
    j.open()
        .s("namespace", &pod.namespace)
        .s("name", &pod.name)
        .b("bypassesScheduler", bypass)
        .os("outcome", ps.as_ref().map(|p| outcome_name(&p.outcome)))
        .b("scheduled", feasible > 0 || bypass)
        .c("feasibleNodes", feasible)
        .key("bestNodes")
        .arr();
    if let Some(b) = best {
        for (ni, node) in s.nodes.iter().enumerate() {
            if cells.get(ni).and_then(combined) == Some(b) {
                j.str(&node.node.name);
            }
        }
    }
    j.end().os("message", s.message(pi)).key("event");
    match ps.as_ref().map(|p| &p.outcome) {
        Some(PodOutcome::Unschedulable { event: f, .. }) => {
            j.open()
                .s("type", f.event_type)
                .s("reason", f.reason)
                .s("action", f.action)
                .s("message", &f.message)
                .s("conditionReason", f.condition_reason)
                .s("conditionMessage", &f.condition_message)
                .close();
        }
        _ => {
            j.null();
        }
    }
    j.os(
        "preemption",
        ps.as_ref().and_then(|p| p.preemption.as_deref()),
    )
    .key("nomination");
    match ps.as_ref().and_then(|p| p.nomination.as_ref()) {
        Some(nom) => {
            j.open().s("node", &nom.node).key("victims").arr();
            for v in &nom.victims {
                j.open()
                    .s("namespace", &v.namespace)
                    .s("name", &v.name)
                    .n("priority", i64::from(v.priority))
                    .close();
            }
            j.end().close();
        }
        None => {
            j.null();
        }
    }
    j.key("nodes").arr();
    for (ni, node_entry) in s.nodes.iter().enumerate() {
        let node = &node_entry.node;
        let Some(cell) = r.cell(pi, ni) else { continue };
        let penalty = match cell.verdict {
            Verdict::Penalized {
                untolerated_prefer_no_schedule: k,
            } => k,
            _ => 0,
        };
        let first = match cell.verdict {
            Verdict::Untolerated { first_untolerated } => Some(first_untolerated),
            _ => None,
        };
        let full = cells.get(ni).and_then(Option::as_ref);
        let reason = full
            .and_then(|c| c.reasons.first().cloned())
            .or_else(|| reason_of(cell.verdict, node, s.semantics));
        j.open()
            .s("node", &node.name)
            .s("verdict", verdict_name(cell.verdict))
            .b(
                "fits",
                full.map_or(cell.verdict.passes_filter(), |c| cell_fits(c, cell.verdict)),
            )
            .on("score", cell.score)
            .on("weightedScore", r.weighted_score(pi, ni))
            .c("untoleratedPreferNoSchedule", penalty)
            .oc("firstUntolerated", first)
            .os("reason", reason.as_deref());
        if let Some(c) = full {
            placement_cell_fields(j, c);
        }
        j.close();
    }
    j.end().close();
}

/// The requested/allocatable bars of every node (the pod count and each resource a
/// pod requests), aligned with the scenario's nodes.
pub fn node_resources(j: &mut J, s: &Scenario, n: usize) {
    let Some(r) = s.node_resources(n) else {
        j.null();
        return;
    };
    j.open()
        .b("allocatableKnown", r.allocatable_known)
        .c("runningPods", r.running_pods)
        .key("bars")
        .arr();
    for b in &r.bars {
        j.open()
            .s("resource", &b.resource)
            .n("requested", b.requested)
            .n("allocatable", b.allocatable)
            .close();
    }
    j.end().close();
}

/// The schedule result of a scenario of values.
pub fn schedule_result(j: &mut J, v: &ValueScenario) {
    let s = &v.scenario;
    j.open().key("nodes").arr();
    for n in &s.nodes {
        j.str(&n.node.name);
    }
    j.end().key("nodeResources").arr();
    for n in 0..s.nodes.len() {
        node_resources(j, s, n);
    }
    j.end().key("pods").arr();
    for pi in 0..s.pods.len() {
        pod_schedule(j, s, pi);
    }
    j.end()
        .names("unmodelledScorePlugins", &UNMODELLED_SCORE_PLUGINS)
        .names("unmodelledFilterPlugins", &UNMODELLED_FILTER_PLUGINS);
    findings(j, v);
    j.s("kubernetesVersion", &s.semantics.version.to_string())
        .close();
}

/// `schedule(pods, nodes, options?)`.
pub fn schedule(pods: &V, nodes: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let pods = read::pods(pods, "pods", sem.version)?;
    let nodes = read::nodes(nodes, "nodes", sem.version)?;
    let v = value_scenario(pods, nodes, sem);
    let mut j = J::new();
    schedule_result(&mut j, &v);
    Ok(j.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::{v, val};
    use serde_json::json;

    #[test]
    fn tolerates_accepts_objects_text_and_lists() {
        let t = val(
            json!({"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}),
        );
        let yes = |t: &V, taint: serde_json::Value, o: serde_json::Value| {
            v(tolerates(t, &val(taint), &val(o)))
        };
        assert_eq!(
            yes(
                &t,
                json!("dedicated=gpu:NoSchedule"),
                serde_json::Value::Null
            ),
            json!(true)
        );
        assert_eq!(
            yes(
                &t,
                json!("dedicated=cpu:NoSchedule"),
                serde_json::Value::Null
            ),
            json!(false)
        );
        let list =
            val(json!([{"key": "x", "operator": "Exists"}, "{key: dedicated, operator: Exists}"]));
        assert_eq!(
            yes(
                &list,
                json!({"key": "dedicated", "effect": "NoExecute"}),
                serde_json::Value::Null
            ),
            json!(true)
        );
        let lt =
            val(json!({"key": "sla", "operator": "Lt", "value": "1000", "effect": "NoSchedule"}));
        assert_eq!(
            yes(&lt, json!("sla=950:NoSchedule"), serde_json::Value::Null),
            json!(false)
        );
        assert_eq!(
            yes(
                &lt,
                json!("sla=950:NoSchedule"),
                json!({"comparisonOperators": true})
            ),
            json!(true)
        );
        let old = json!({"comparisonOperators": true, "kubernetesVersion": "1.34"});
        assert_eq!(yes(&lt, json!("sla=950:NoSchedule"), old), json!(false));
    }

    #[test]
    fn explain_names_the_toleration_and_what_is_left() {
        let pod = val(json!({"name": "web", "tolerations": [
            {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
            {"key": "unused", "operator": "Exists"},
        ]}));
        let node = val(
            json!({"name": "gpu-1", "taints": "dedicated=gpu:NoSchedule spot:PreferNoSchedule"}),
        );
        let x = v(explain(&pod, &node, &V::Null));
        assert_eq!(x["verdict"], "penalized");
        assert_eq!(x["taints"][0]["toleratedBy"]["toleration"], 0);
        assert_eq!(x["taints"][0]["toleratedBy"]["via"], "equal");
        assert_eq!(
            x["taints"][1]["outcomes"],
            json!(["effect-mismatch", "key-mismatch"])
        );
        assert_eq!(x["untoleratedTaints"], json!([1]));
        assert_eq!(x["unusedTolerations"], json!([1]));
        assert_eq!(x["eviction"]["kind"], "not-applicable");
        let bare = v(explain(
            &val(json!({"name": "web"})),
            &node,
            &val(json!({"kubernetesVersion": "1.30"})),
        ));
        assert_eq!(bare["verdict"], "untolerated");
        assert_eq!(
            bare["filter"]["reason"],
            "node(s) had untolerated taint {dedicated: gpu}"
        );
        assert_eq!(
            bare["summary"],
            "web cannot be scheduled on gpu-1: it does not tolerate the taint dedicated=gpu:NoSchedule."
        );
    }

    #[test]
    fn schedule_reports_messages_and_scores() {
        let nodes = val(
            json!([{"name": "a", "taints": "k=v:NoSchedule"}, {"name": "b"}, {"name": "c", "taints": "p:PreferNoSchedule"}]),
        );
        let pods = val(json!([{"name": "web"}]));
        let r = v(schedule(&pods, &nodes, &V::Null));
        let p = &r["pods"][0];
        assert_eq!(p["feasibleNodes"], 2);
        assert_eq!(p["bestNodes"], json!(["b"]));
        assert_eq!(p["nodes"][0]["verdict"], "untolerated");
        assert_eq!(p["nodes"][2]["verdict"], "penalized");
        assert_eq!(p["message"], serde_json::Value::Null);
        let r = v(schedule(
            &pods,
            &val(json!([{"name": "a", "taints": "k=v:NoSchedule"}])),
            &V::Null,
        ));
        assert_eq!(
            r["pods"][0]["message"],
            "0/1 nodes are available: 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
        );
        assert_eq!(r["pods"][0]["event"]["reason"], "FailedScheduling");
    }

    /// The dedicated nodes: `payments-1` (label and taint), `general-1`.
    fn dedicated_nodes() -> V {
        val(json!([
            {"name": "payments-1", "labels": {"dedicated": "payments"},
             "taints": "dedicated=payments:NoSchedule"},
            {"name": "general-1"},
        ]))
    }

    const LOST: &str = "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";

    #[test]
    fn schedule_runs_node_selectors_through_the_full_chain() {
        let pods = val(json!([
            {"name": "api", "nodeSelector": {"dedicated": "payments"},
             "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "payments", "effect": "NoSchedule"}]},
            {"name": "lost", "nodeSelector": {"disktype": "ssd"}},
        ]));
        let r = v(schedule(&pods, &dedicated_nodes(), &V::Null));
        let api = &r["pods"][0];
        assert_eq!(api["feasibleNodes"], 1);
        assert_eq!(api["bestNodes"], json!(["payments-1"]));
        assert_eq!(api["nodes"][1]["fits"], false);
        assert_eq!(api["nodes"][1]["rejectedBy"], "NodeAffinity");
        assert_eq!(api["nodes"][1]["code"], "UnschedulableAndUnresolvable");
        assert_eq!(
            api["nodes"][1]["reasons"],
            json!(["node(s) didn't match Pod's node affinity/selector"])
        );
        // The taint view alone still says the taints allow it.
        assert_eq!(api["nodes"][1]["verdict"], "schedulable");
        assert_eq!(api["nodes"][0]["scores"]["taintToleration"], 100);
        let lost = &r["pods"][1];
        assert_eq!(lost["scheduled"], false);
        assert_eq!(lost["outcome"], "unschedulable");
        assert_eq!(lost["message"], LOST);
        assert_eq!(lost["event"]["message"], LOST);
        assert_eq!(
            lost["preemption"],
            "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        );
        assert_eq!(lost["nodes"][0]["rejectedBy"], "TaintToleration");
        assert_eq!(lost["nodes"][1]["rejectedBy"], "NodeAffinity");
        // The same pods as Kubernetes objects and as YAML: the same answer.
        let yaml = val(json!(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: lost}\nspec:\n  nodeSelector: {disktype: ssd}\n"
        ));
        let t = v(schedule(&yaml, &dedicated_nodes(), &V::Null));
        assert_eq!(t["pods"][0]["message"], LOST);
        // 1.33 has no DynamicResources text.
        let old = v(schedule(
            &pods,
            &dedicated_nodes(),
            &val(json!({"kubernetesVersion": "1.33"})),
        ));
        assert!(
            !old["pods"][1]["message"]
                .as_str()
                .unwrap()
                .contains("no new claims"),
            "{}",
            old["pods"][1]["message"]
        );
    }

    #[test]
    fn explain_lists_every_filter_in_order() {
        let pod = val(
            json!({"name": "api", "nodeSelector": {"dedicated": "payments"},
            "tolerations": "[{key: dedicated, operator: Equal, value: payments, effect: NoSchedule}]"}),
        );
        let x = v(explain(&pod, &val(json!({"name": "general-1"})), &V::Null));
        assert_eq!(x["fits"], false);
        assert_eq!(x["filter"]["rejectedBy"], "NodeAffinity");
        assert_eq!(
            x["filter"]["reason"],
            "node(s) didn't match Pod's node affinity/selector"
        );
        assert!(
            x["summary"]
                .as_str()
                .unwrap()
                .contains("NodeAffinity rejects it"),
            "{}",
            x["summary"]
        );
        let states: Vec<(String, String)> = x["placement"]["filters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["plugin"].as_str().unwrap().to_string(),
                    f["state"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want = [
            ("NodeUnschedulable", "passed"),
            ("NodeName", "passed"),
            ("TaintToleration", "passed"),
            ("NodeAffinity", "failed"),
            ("NodePorts", "not-evaluated"),
            ("NodeResourcesFit", "not-evaluated"),
        ];
        assert_eq!(states, want.map(|(a, b)| (a.to_string(), b.to_string())));
        assert_eq!(
            x["placement"]["nodeSelector"],
            json!([{"key": "dedicated", "wanted": "payments", "nodeValue": null, "matches": false}])
        );
    }

    #[test]
    fn resources_name_the_shortfall() {
        let nodes = val(json!([
            {"name": "small", "allocatable": {"cpu": "1", "memory": "4Gi", "pods": 110}},
            {"name": "unknown"},
        ]));
        let pods = val(json!([
            {"name": "busy", "nodeName": "small",
             "containers": [{"name": "c", "resources": {"requests": {"cpu": "900m"}}}]},
            {"name": "web", "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]},
        ]));
        let r = v(schedule(
            &pods,
            &nodes,
            &val(json!({"kubernetesVersion": "1.34"})),
        ));
        let web = &r["pods"][1];
        let small = &web["nodes"][0];
        assert_eq!(small["rejectedBy"], "NodeResourcesFit");
        assert_eq!(small["code"], "Unschedulable");
        assert_eq!(
            small["insufficient"],
            json!([{"resource": "cpu", "reason": "Insufficient cpu", "requested": 500, "used": 900, "capacity": 1000, "shortfall": 400}])
        );
        assert_eq!(web["nodes"][1]["resourcesChecked"], false);
        assert_eq!(web["nodes"][1]["fits"], true);
        assert_eq!(r["nodeResources"][0]["allocatableKnown"], true);
        let cpu = r["nodeResources"][0]["bars"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["resource"] == "cpu")
            .unwrap()
            .clone();
        assert_eq!(
            cpu,
            json!({"resource": "cpu", "requested": 900, "allocatable": 1000})
        );
        assert!(
            r["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["code"] == "scheduling"
                    && d["message"].as_str().unwrap().contains("unknown")),
            "{}",
            r["diagnostics"]
        );
        // Only the node with room: the message names the resource.
        let one = v(schedule(
            &pods,
            &val(json!([{"name": "small", "allocatable": {"cpu": "1", "pods": "110"}}])),
            &V::Null,
        ));
        assert!(
            one["pods"][1]["message"]
                .as_str()
                .unwrap()
                .starts_with("0/1 nodes are available: 1 Insufficient cpu."),
            "{}",
            one["pods"][1]["message"]
        );
        // A quantity the API server would refuse is reported at the plain field.
        let e = schedule(
            &val(
                json!({"name": "p", "containers": [{"name": "c", "resources": {"requests": {"cpu": "lots"}}}]}),
            ),
            &nodes,
            &V::Null,
        );
        let e = e.unwrap_err();
        assert!(
            e.location.path.starts_with("pods.containers[0]"),
            "{}",
            e.location.path
        );
        let e = schedule(
            &pods,
            &val(json!({"name": "n", "allocatable": {"cpu": true}})),
            &V::Null,
        )
        .unwrap_err();
        assert!(
            e.location.path.starts_with("nodes.allocatable"),
            "{}",
            e.location.path
        );
    }

    #[test]
    fn placement_fields_of_parsed_pods_read_back() {
        // `parse` returns containers as {name, image, requests, limits}.
        let pod = json!({"name": "p", "containers": [{"name": "c", "image": "x", "requests": {"nvidia.com/gpu": "2"}, "limits": {"nvidia.com/gpu": "2"}}],
            "schedulingGates": [{"name": "wait"}]});
        let r = v(schedule(
            &val(json!([pod])),
            &val(json!([{"name": "g", "allocatable": {"nvidia.com/gpu": "1", "pods": "10"}}])),
            &V::Null,
        ));
        assert_eq!(r["pods"][0]["outcome"], "gated");
        assert_eq!(r["pods"][0]["message"], serde_json::Value::Null);
        assert_eq!(r["pods"][0]["nodes"][0]["hold"], "gated");
        let ungated = val(
            json!({"name": "p", "containers": [{"name": "c", "requests": {"nvidia.com/gpu": "2"}}]}),
        );
        let r = v(schedule(
            &ungated,
            &val(json!([{"name": "g", "allocatable": {"nvidia.com/gpu": "1", "pods": "10"}}])),
            &V::Null,
        ));
        assert_eq!(r["pods"][0]["nodes"][0]["insufficient"][0]["shortfall"], 1);
    }

    #[test]
    fn unreadable_text_is_reported_once_not_thrown() {
        let pod = "My pod is stuck, here it is:\n$ kubectl get pod api -o yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: api}\nspec:\n  nodeSelector: {dedicated: payments}\n";
        let x = v(explain(
            &val(json!(pod)),
            &val(json!({"name": "general-1"})),
            &V::Null,
        ));
        assert_eq!(x["pod"]["name"], "api");
        assert_eq!(x["filter"]["rejectedBy"], "NodeAffinity");
        let notes: Vec<&serde_json::Value> = x["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] != "error")
            .collect();
        assert!(!notes.is_empty(), "{}", x["diagnostics"]);
        assert!(notes.iter().all(|d| d["pane"] == "pods"), "{notes:?}");
        let r = v(schedule(&val(json!(pod)), &dedicated_nodes(), &V::Null));
        assert_eq!(r["pods"][0]["message"], LOST);
        assert!(!r["diagnostics"].as_array().unwrap().is_empty());
    }

    #[test]
    fn values_keep_argument_order_and_their_own_locations() {
        let text = "\n\n\napiVersion: v1\nkind: Pod\nmetadata: {name: late}\n";
        let pods = val(
            json!([text, {"name": "plain"}, "kind: Pod\napiVersion: v1\nmetadata: {name: early}\n"]),
        );
        let r = v(schedule(&pods, &val(json!([{"name": "n"}])), &V::Null));
        let names: Vec<&str> = r["pods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["late", "plain", "early"]);
        let a = v(crate::api::analyze(
            &val(json!({"nodes": [{"name": "n"}], "pods": pods_value()})),
            &V::Null,
        ));
        assert_eq!(a["pods"][0]["name"], "late");
        assert_eq!(a["pods"][0]["location"]["line"], 4);
        assert_eq!(a["pods"][1]["location"], serde_json::Value::Null);
        assert_eq!(a["pods"][2]["location"]["line"], 1);
    }

    fn pods_value() -> serde_json::Value {
        json!(["\n\n\napiVersion: v1\nkind: Pod\nmetadata: {name: late}\n", {"name": "plain"}, "kind: Pod\napiVersion: v1\nmetadata: {name: early}\n"])
    }
}
