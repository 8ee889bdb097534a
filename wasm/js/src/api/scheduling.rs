//! `tolerates`, `explain` and `schedule`.

use crate::value::V;
use taintlab_core::helpers::tolerations_tolerate_taint;
use taintlab_core::matching::{describe_toleration, taint_to_string, tolerates as core_tolerates};
use taintlab_core::scheduling::explain::{
    Eviction, Explanation, NoExecuteEffect, TaintRole, ToleratedBy, ToleratedVia,
};
use taintlab_core::scheduling::filter::{NODE_UNSCHEDULABLE_REASON, untolerated_taint_reason};
use taintlab_core::scheduling::{
    ClusterResult, Verdict, explain as core_explain, schedule as core_schedule,
};
use taintlab_core::{Node, Pod, Semantics, Toleration};

use crate::error::ApiResult;
use crate::read::{self, Obj, VERSION_OPTIONS};
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

/// One sentence saying what the explanation means.
fn summary(x: &Explanation, pod: &Pod, node: &Node) -> String {
    let p = pod_label(pod);
    let n = &node.name;
    let mut s = match x.verdict {
        Verdict::Bypassed => format!(
            "{p} has spec.nodeName set, so the scheduler never checks it; the kubelet on {n} {}.",
            if x.kubelet_admits {
                "admits it"
            } else {
                "rejects it (an untolerated NoExecute taint)"
            }
        ),
        Verdict::Schedulable if node.taints.is_empty() && !node.unschedulable => {
            format!("{p} can be scheduled on {n}: the node has no taints.")
        }
        Verdict::Schedulable => format!(
            "{p} can be scheduled on {n}: every NoSchedule and NoExecute taint is tolerated."
        ),
        Verdict::Penalized {
            untolerated_prefer_no_schedule: k,
        } => format!(
            "{p} can be scheduled on {n}, but {k} untolerated PreferNoSchedule taint{} lower{} the node's score.",
            if k == 1 { "" } else { "s" },
            if k == 1 { "s" } else { "" }
        ),
        Verdict::Unschedulable => format!(
            "{p} cannot be scheduled on {n}: the node is cordoned (spec.unschedulable) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule."
        ),
        Verdict::Untolerated { first_untolerated } => format!(
            "{p} cannot be scheduled on {n}: it does not tolerate the taint {}.",
            node.taints
                .get(first_untolerated)
                .map(taint_to_string)
                .unwrap_or_default()
        ),
    };
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

/// The explanation of one pod on one node.
pub fn explanation(j: &mut J, pod: &Pod, node: &Node, sem: Semantics) {
    let x = core_explain(pod, node, sem);
    let tols = &pod.tolerations;
    j.open()
        .key("pod")
        .open()
        .s("namespace", &pod.namespace)
        .s("name", &pod.name)
        .close()
        .s("node", &node.name)
        .s("verdict", verdict_name(x.verdict))
        .b("fits", x.verdict.passes_filter())
        .b("bypassesScheduler", x.bypasses_scheduler)
        .s("summary", &summary(&x, pod, node))
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
    let unused: Vec<usize> = (0..tols.len())
        .filter(|i| {
            !x.taints
                .iter()
                .any(|t| t.outcomes.get(*i).is_some_and(|o| o.is_tolerated()))
        })
        .collect();
    let reason = reason_of(x.verdict, node, sem).or_else(|| x.filter.reason.clone());
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
    j.s("kubernetesVersion", &sem.version.to_string()).close();
}

/// `explain(pod, node, options?)`.
pub fn explain(pod: &V, node: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let pod = read::pod(pod, "pod", sem.version)?;
    let node = read::node(node, "node", sem.version)?;
    let mut j = J::new();
    explanation(&mut j, &pod.pod, &node.node, sem);
    Ok(j.finish())
}

/// One pod of a schedule result.
pub fn pod_schedule(
    j: &mut J,
    r: &ClusterResult<'_>,
    pi: usize,
    pod: &Pod,
    nodes: &[Node],
    sem: Semantics,
) {
    let mut best: Option<i64> = None;
    for ni in 0..nodes.len() {
        if let Some(w) = r.weighted_score(pi, ni) {
            best = Some(best.map_or(w, |b| b.max(w)));
        }
    }
    let feasible = r.feasible_nodes(pi).unwrap_or(0);
    let bypass = !pod.node_name.is_empty();
    j.open()
        .s("namespace", &pod.namespace)
        .s("name", &pod.name)
        .b("bypassesScheduler", bypass)
        .b("scheduled", feasible > 0 || bypass)
        .c("feasibleNodes", feasible)
        .key("bestNodes")
        .arr();
    if let Some(b) = best {
        for (ni, node) in nodes.iter().enumerate() {
            if r.weighted_score(pi, ni) == Some(b) {
                j.str(&node.name);
            }
        }
    }
    j.end().os("message", r.message(pi)).key("event");
    match r.failed_scheduling(pi) {
        Some(f) => {
            j.open()
                .s("type", f.event_type)
                .s("reason", f.reason)
                .s("action", f.action)
                .s("message", &f.message)
                .s("conditionReason", f.condition_reason)
                .s("conditionMessage", &f.condition_message)
                .close();
        }
        None => {
            j.null();
        }
    }
    j.key("nodes").arr();
    for (ni, node) in nodes.iter().enumerate() {
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
        j.open()
            .s("node", &node.name)
            .s("verdict", verdict_name(cell.verdict))
            .b("fits", cell.verdict.passes_filter())
            .on("score", cell.score)
            .on("weightedScore", r.weighted_score(pi, ni))
            .c("untoleratedPreferNoSchedule", penalty)
            .oc("firstUntolerated", first)
            .os("reason", reason_of(cell.verdict, node, sem).as_deref())
            .close();
    }
    j.end().close();
}

/// The schedule result for core pods and nodes.
pub fn schedule_result(j: &mut J, pods: &[Pod], nodes: &[Node], sem: Semantics) {
    let r = core_schedule(pods, nodes, sem);
    j.open().key("nodes").arr();
    for n in nodes {
        j.str(&n.name);
    }
    j.end().key("pods").arr();
    for (pi, pod) in pods.iter().enumerate() {
        pod_schedule(j, &r, pi, pod, nodes, sem);
    }
    j.end()
        .s("kubernetesVersion", &sem.version.to_string())
        .close();
}

/// `schedule(pods, nodes, options?)`.
pub fn schedule(pods: &V, nodes: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let pods = read::pods(pods, "pods", sem.version)?;
    let nodes = read::nodes(nodes, "nodes", sem.version)?;
    let mut j = J::new();
    schedule_result(
        &mut j,
        &read::core_pods(&pods),
        &read::core_nodes(&nodes),
        sem,
    );
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
}
