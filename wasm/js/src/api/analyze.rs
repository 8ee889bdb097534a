//! `analyze`: what a documentation example needs in one call. Reads nodes and pods (any
//! form, `kubectl taint` lines applied), gives DaemonSet pods the DaemonSet controller's
//! tolerations, runs the admission plugins as a cluster would (DefaultTolerationSeconds
//! by default), then schedules every pod, explains every pod × node pair and simulates
//! the NoExecute taints of each pair. It is the engine of the `<taint-check>` element.

use crate::value::V;
use taintlab_core::admission::{AdmissionRejection, TolerationOrigin};
use taintlab_core::daemonset::add_or_update_daemon_pod_tolerations;
use taintlab_core::eviction::simulate;
use taintlab_core::scheduling::schedule as core_schedule;
use taintlab_core::{Node, Pod, Semantics, TaintEffect, Toleration};
use taintlab_input::{Form, Location, Parsed, Prefer, Severity};

use super::admission::{
    ADMISSION_OPTIONS, AdmissionConfig, admission_config, admit, dropped, origin_name,
};
use super::eviction::{simple_scenario, simulation};
use super::scheduling::{explanation, pod_schedule};
use crate::error::ApiResult;
use crate::read::{self, NodeText, Obj, VERSION_OPTIONS};
use crate::write::{self, J};

/// The two playground panes for text: each document goes to the Nodes pane when it holds
/// nodes, bare taints or `kubectl taint` lines, to the Pods pane when it holds pods or
/// bare tolerations.
fn panes(j: &mut J, text: &str, p: &Parsed) {
    let lines: Vec<&str> = text.lines().collect();
    let mut nodes: Vec<(String, Form)> = Vec::new();
    let mut pods: Vec<(String, Form)> = Vec::new();
    for d in &p.documents {
        let i = d.index;
        let is_node = p.nodes.iter().any(|n| n.location.document == i)
            || p.taint_lists.iter().any(|l| l.location.document == i)
            || p.taint_commands.iter().any(|c| c.location.document == i);
        let is_pod = p.workloads.iter().any(|w| w.location.document == i)
            || p.toleration_lists.iter().any(|l| l.location.document == i);
        let from = d.line.saturating_sub(1).min(lines.len());
        let to = d.end_line.min(lines.len()).max(from);
        let body = lines.get(from..to).unwrap_or_default().join("\n");
        if is_node {
            nodes.push((body, d.form));
        } else if is_pod {
            pods.push((body, d.form));
        }
    }
    j.open();
    for (key, docs) in [("nodes", nodes), ("pods", pods)] {
        // `kubectl taint` lines one after the other need no document separator.
        let mut s = String::new();
        let mut last: Option<Form> = None;
        for (body, form) in docs {
            match last {
                None => {}
                Some(Form::KubectlTaint) if form == Form::KubectlTaint => s.push('\n'),
                Some(_) => s.push_str("\n---\n"),
            }
            s.push_str(&body);
            last = Some(form);
        }
        if !s.is_empty() {
            s.push('\n');
        }
        j.s(key, &s);
    }
    j.close();
}

/// The NoExecute story of one pod on one node: the taints appear at 0, the pod is
/// already running there.
fn pair_eviction(j: &mut J, pod: &Pod, node: &Node, sem: Semantics) {
    if !node
        .taints
        .iter()
        .any(|t| t.effect == TaintEffect::NoExecute)
    {
        j.null();
        return;
    }
    let mut pod = pod.clone();
    let events = simple_scenario(node, &mut [&mut pod], 0);
    simulation(j, &simulate(events, i64::MAX, sem), None, 0);
}

/// A pod after the DaemonSet controller and admission.
struct Analyzed {
    /// Its tolerations (final when admitted), each with where it came from.
    tolerations: Vec<(Toleration, &'static str, Option<Location>)>,
    admitted: Result<Option<taintlab_core::admission::AdmittedPod>, AdmissionRejection>,
    /// Index among the admitted pods.
    scheduled: Option<usize>,
}

/// `analyze(input, options?)`.
pub fn analyze(input: &V, options: &V) -> ApiResult {
    let mut known: Vec<&str> = VERSION_OPTIONS.to_vec();
    known.extend(["admission", "daemonSet", "nodeName", "podName"]);
    let o = Obj::options(options, &known)?;
    let sem = read::semantics(&o)?;
    let v = sem.version;
    let node_name = o.str("nodeName")?.unwrap_or_else(|| "node".into());
    let pod_name = o.str("podName")?.unwrap_or_else(|| "pod".into());
    let admission: Option<AdmissionConfig> = match o.get("admission") {
        Some(V::Bool(false)) => None,
        None | Some(V::Bool(true)) => Some(admission_config(&Obj::options(&V::Null, &[])?, v)?),
        Some(a) => {
            let a = Obj::new(
                a,
                "options",
                &o.at("admission"),
                "true, false or admission options",
                &ADMISSION_OPTIONS,
                &[],
                false,
            )?;
            Some(admission_config(&a, v)?)
        }
    };
    let daemon_set = o.bool("daemonSet")?;

    let mut j = J::new();
    let (nodes, pods, diagnostics, parsed) = match input {
        V::Str(text) => {
            let p = read::parse_text(text, "input", Prefer::Taints, v, false)?;
            let nodes = read::nodes_from_text(
                &p,
                "input",
                NodeText {
                    default_name: &node_name,
                    version: v,
                },
            )?;
            let pods = read::pods_from_text(&p, "input", &pod_name);
            let d = p.diagnostics.clone();
            (nodes, pods, d, Some((text.as_str(), p)))
        }
        other => {
            let i = Obj::new(
                other,
                "input",
                "input",
                "text or {nodes, pods}",
                &["nodes", "pods"],
                &[],
                false,
            )?;
            let nodes = match i.get("nodes") {
                Some(n) => read::nodes(n, "input.nodes", v)?,
                None => Vec::new(),
            };
            let pods = match i.get("pods") {
                Some(p) => read::pods(p, "input.pods", v)?,
                None => Vec::new(),
            };
            (nodes, pods, Vec::new(), None)
        }
    };
    let core_nodes = read::core_nodes(&nodes);

    let mut analyzed = Vec::with_capacity(pods.len());
    let mut admitted_pods: Vec<Pod> = Vec::new();
    for p in &pods {
        // As written, with where each toleration is.
        let mut tols: Vec<(Toleration, &'static str, Option<Location>)> = p
            .pod
            .tolerations
            .iter()
            .enumerate()
            .map(|(i, t)| {
                (
                    t.clone(),
                    "pod",
                    p.toleration_locations.get(i).cloned().flatten(),
                )
            })
            .collect();
        // The DaemonSet controller adds its tolerations to the pods it creates.
        if daemon_set.unwrap_or(p.kind == "DaemonSet") {
            let mut list: Vec<Toleration> = tols.iter().map(|t| t.0.clone()).collect();
            add_or_update_daemon_pod_tolerations(&mut list, p.host_network);
            tols = list
                .into_iter()
                .map(|t| match tols.iter().find(|old| old.0 == t) {
                    Some(old) => old.clone(),
                    None => (t, "daemonset", None),
                })
                .collect();
        }
        let mut pod_in = p.clone();
        pod_in.pod.tolerations = tols.iter().map(|t| t.0.clone()).collect();
        let admitted = match &admission {
            None => Ok(None),
            Some(c) => admit(&pod_in, c).map(Some),
        };
        if let Ok(Some(a)) = &admitted {
            tols = a
                .tolerations
                .iter()
                .map(|at| match at.origin {
                    TolerationOrigin::Pod => tols
                        .iter()
                        .find(|t| t.0 == at.toleration)
                        .cloned()
                        .unwrap_or((at.toleration.clone(), "pod", None)),
                    other => (at.toleration.clone(), origin_name(other), None),
                })
                .collect();
        }
        let scheduled = admitted.is_ok().then(|| {
            pod_in.pod.tolerations = tols.iter().map(|t| t.0.clone()).collect();
            admitted_pods.push(pod_in.pod.clone());
            admitted_pods.len() - 1
        });
        analyzed.push(Analyzed {
            tolerations: tols,
            admitted,
            scheduled,
        });
    }

    let r = core_schedule(&admitted_pods, &core_nodes, sem);
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    j.open()
        .s("kubernetesVersion", &sem.version.to_string())
        .b("comparisonOperators", sem.comparison_operators)
        .b("admission", admission.is_some())
        .key("nodes")
        .arr();
    for n in &nodes {
        j.open();
        write::node_fields(&mut j, &n.node);
        j.key("location");
        write::opt_location(&mut j, n.location.as_ref());
        j.close();
    }
    j.end().key("pods").arr();
    for (p, a) in pods.iter().zip(&analyzed) {
        j.open()
            .s("name", &p.pod.name)
            .s("namespace", &p.pod.namespace)
            .s("kind", &p.kind)
            .key("location");
        write::opt_location(&mut j, p.location.as_ref());
        j.b("admitted", a.admitted.is_ok())
            .os(
                "rejection",
                a.admitted.as_ref().err().map(|e| e.to_string()).as_deref(),
            )
            .key("tolerations")
            .arr();
        for (t, origin, location) in &a.tolerations {
            j.open().key("toleration");
            write::toleration(&mut j, t);
            j.s("origin", origin).key("location");
            write::opt_location(&mut j, location.as_ref());
            j.close();
        }
        j.end().key("dropped");
        match &a.admitted {
            Ok(Some(ad)) => dropped(&mut j, ad),
            _ => {
                j.arr().end();
            }
        }
        j.key("schedule");
        match a
            .scheduled
            .and_then(|k| admitted_pods.get(k).map(|pod| (k, pod)))
        {
            Some((k, pod)) => {
                pod_schedule(&mut j, &r, k, pod, &core_nodes, sem);
                j.key("nodes").arr();
                for (ni, node) in core_nodes.iter().enumerate() {
                    j.open().c("node", ni).key("explanation");
                    explanation(&mut j, pod, node, sem);
                    j.key("eviction");
                    pair_eviction(&mut j, pod, node, sem);
                    j.close();
                }
                j.end();
            }
            None => {
                j.null().key("nodes").arr().end();
            }
        }
        j.close();
    }
    j.end().key("diagnostics");
    write::diagnostics(&mut j, &diagnostics);
    j.c("errors", errors).key("panes");
    match &parsed {
        Some((text, p)) => panes(&mut j, text, p),
        None => {
            j.null();
        }
    }
    j.close();
    Ok(j.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::{v, val};
    use serde_json::json;

    const GPU: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: gpu-1\nspec:\n  taints:\n  - key: nvidia.com/gpu\n    value: present\n    effect: NoSchedule\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: trainer\nspec:\n  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n    effect: NoSchedule\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n";

    #[test]
    fn analyze_text_schedules_explains_and_splits_panes() {
        let a = v(analyze(&val(json!(GPU)), &V::Null));
        assert_eq!(a["pods"][0]["schedule"]["scheduled"], true);
        assert_eq!(a["pods"][1]["schedule"]["scheduled"], false);
        // DefaultTolerationSeconds ran: two more tolerations, marked as such.
        let tols = a["pods"][0]["tolerations"].as_array().unwrap();
        assert_eq!(tols.len(), 3);
        assert_eq!(tols[0]["origin"], "pod");
        assert_eq!(tols[0]["location"]["line"], 17);
        assert_eq!(tols[1]["origin"], "default-toleration-seconds");
        assert_eq!(
            a["pods"][0]["nodes"][0]["explanation"]["verdict"],
            "schedulable"
        );
        assert_eq!(
            a["pods"][0]["nodes"][0]["eviction"],
            serde_json::Value::Null
        );
        let nodes = a["panes"]["nodes"].as_str().unwrap();
        assert!(
            nodes.contains("kind: Node") && !nodes.contains("kind: Pod"),
            "{nodes}"
        );
        assert!(
            a["panes"]["pods"]
                .as_str()
                .unwrap()
                .contains("name: trainer")
        );
    }

    #[test]
    fn daemonsets_and_eviction() {
        let text = "kubectl taint nodes n1 node.kubernetes.io/unreachable:NoExecute\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      containers: [{name: a, image: a}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\n";
        let a = v(analyze(&val(json!(text)), &V::Null));
        let agent = &a["pods"][0];
        assert_eq!(agent["kind"], "DaemonSet");
        assert!(
            agent["tolerations"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["origin"] == "daemonset")
        );
        assert_eq!(
            agent["nodes"][0]["explanation"]["eviction"]["kind"],
            "never"
        );
        let web = &a["pods"][1];
        assert_eq!(web["nodes"][0]["eviction"]["pods"][0]["evictedAt"], 300);
        let off = v(analyze(
            &val(json!(text)),
            &val(json!({"admission": false})),
        ));
        assert_eq!(
            off["pods"][1]["nodes"][0]["eviction"]["pods"][0]["evictedAt"],
            0
        );
    }

    #[test]
    fn objects_and_rejections() {
        let input = val(
            json!({"nodes": [{"name": "n", "taints": "a=b:NoSchedule"}], "pods": [{"name": "p", "tolerations": "[{key: a, operator: Exists}]"}]}),
        );
        let opts = val(
            json!({"admission": {"podTolerationRestriction": {"whitelist": "[{key: zone, operator: Exists}]"}}}),
        );
        let a = v(analyze(&input, &opts));
        assert_eq!(a["pods"][0]["admitted"], false);
        assert!(
            a["pods"][0]["rejection"]
                .as_str()
                .unwrap()
                .contains("whitelist")
        );
        assert_eq!(a["pods"][0]["schedule"], serde_json::Value::Null);
        let ok = v(analyze(&input, &V::Null));
        assert_eq!(ok["pods"][0]["schedule"]["bestNodes"], json!(["n"]));
        assert_eq!(ok["panes"], serde_json::Value::Null);
    }
}
