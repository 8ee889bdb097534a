//! `analyze`: what a documentation example needs in one call. It builds the
//! [`Scenario`] (the one pipeline the playground uses: nodes in any form with `kubectl
//! taint` lines applied, the DaemonSet controller's tolerations, the admission plugins,
//! API validation, the scheduling matrix) and writes it as JSON, with each pod ×
//! node pair explained and its NoExecute timeline simulated. It is the engine of the
//! `<taint-check>` element.
//!
//! Text never throws: what cannot be read, a `kubectl taint` line kubectl refuses (the
//! other lines keep their effects), an invalid toleration and an admission rejection
//! are `diagnostics` with their locations, as the playground shows them.

use crate::value::V;
use taintlab_core::WorkloadKind;
use taintlab_core::admission::DropReason;
use taintlab_input::{Form, InputNode, Location, Parsed, Severity, Workload};
use taintlab_scenario::{
    AdmissionOptions, Finding, FindingKind, NodeOrigin, Options, PaneKind, ParsedPane, PodOrigin,
    RestrictionOptions, Scenario, TolerationsInput, split_combined,
};

use super::admission::{ADMISSION_OPTIONS, AdmissionConfig, admission_config};
use super::eviction::simulation;
use super::scheduling::{explanation, node_resources, pod_schedule};
use crate::error::ApiResult;
use crate::read::{self, NodeIn, Obj, PodIn, VERSION_OPTIONS};
use crate::write::{self, J};

/// The scenario's admission options for the ones read from `options.admission`.
fn admission_options(c: AdmissionConfig) -> AdmissionOptions {
    AdmissionOptions {
        operation: c.operation,
        default_toleration_seconds: c.plugins.default_toleration_seconds,
        pod_toleration_restriction: c.plugins.pod_toleration_restriction.map(|r| {
            RestrictionOptions {
                default: TolerationsInput::List(r.default),
                whitelist: TolerationsInput::List(r.whitelist),
            }
        }),
        extended_resource_toleration: c.plugins.extended_resource_toleration,
        namespace_default: c.namespace.default_tolerations,
        namespace_whitelist: c.namespace.tolerations_whitelist,
        qos_class: c.qos_class,
        requested_resources: c.requested_resources,
    }
}

/// The scenario's options for `analyze`'s options (`extra`: further option names the
/// caller reads itself, such as `whatIf`'s `until`).
pub(crate) fn options(options: &V, extra: &[&str]) -> ApiResult<Options> {
    let mut known: Vec<&str> = VERSION_OPTIONS.to_vec();
    known.extend(extra);
    // `nodeName` and `podName` are accepted and ignored: anonymous nodes and pods are
    // named `node-1`, `pod-1`, ... as in the playground.
    known.extend(["admission", "daemonSet", "nodeName", "podName"]);
    let o = Obj::options(options, &known)?;
    o.str("nodeName")?;
    o.str("podName")?;
    let semantics = read::semantics(&o)?;
    let v = semantics.version;
    let admission = match o.get("admission") {
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
    Ok(Options {
        semantics,
        admission: admission.map(admission_options),
        daemon_set: o.bool("daemonSet")?,
    })
}

/// Where each value of a pane made of values was read (its location in its own text,
/// or none), by the position [`ordered`] gave it.
pub(crate) type Originals = Vec<Location>;

/// The scenario keeps paste order by position; values come from separate texts (or
/// none), so each gets position `k` (document `k`, no line) in argument order, and its
/// own location is kept in `originals`.
fn ordered(original: Option<Location>, originals: &mut Originals) -> Location {
    originals.push(original.unwrap_or_default());
    Location {
        document: originals.len(),
        ..Location::default()
    }
}

/// The location to show for a position [`ordered`] gave (`None` when the value was not
/// read from text); other locations as they are.
pub(crate) fn original<'a>(l: &'a Location, originals: &'a Originals) -> Option<&'a Location> {
    let l = if l.line == 0 && l.document > 0 {
        originals.get(l.document - 1)?
    } else {
        l
    };
    located(l)
}

/// A pane made of nodes read from plain objects (and Kubernetes objects or text within
/// an array), in order.
pub(crate) fn node_pane(nodes: Vec<NodeIn>, originals: &mut Originals) -> ParsedPane {
    let mut diagnostics = Vec::new();
    // A loop rather than `map(..).collect()`, as in [`pod_pane`].
    let mut input_nodes = Vec::with_capacity(nodes.len());
    for n in nodes {
        diagnostics.extend(n.diagnostics);
        input_nodes.push(InputNode {
            node: n.node,
            location: ordered(n.location, originals),
            taint_locations: n.taint_locations,
            unschedulable_location: None,
            kubelet_version: None,
            allocatable: n.allocatable,
            capacity: n.capacity,
            form: Form::Json,
        });
    }
    ParsedPane {
        kind: PaneKind::Nodes,
        parsed: Parsed {
            nodes: input_nodes,
            diagnostics,
            ..Parsed::default()
        },
        lines: 0,
        bytes: 0,
    }
}

/// A pane made of pods read from plain objects (and Kubernetes objects or text within
/// an array), in order. A plain pod becomes the workload of its kind, with its QoS class
/// and requested resources stated.
pub(crate) fn pod_pane(pods: Vec<PodIn>, originals: &mut Originals) -> ParsedPane {
    let mut diagnostics = Vec::new();
    // A loop rather than `map(..).collect()`: the in-place collect from `PodIn` to
    // `Workload` cost the engine module code of its own.
    let mut workloads = Vec::with_capacity(pods.len());
    for mut p in pods {
        diagnostics.append(&mut p.diagnostics);
        let mut w = p.workload.unwrap_or_else(|| {
            let kind = WorkloadKind::from_name(&p.kind);
            Workload {
                kind: p.kind.clone(),
                api_version: kind.map_or("v1", WorkloadKind::api_version).to_string(),
                name: p.pod.name.clone(),
                namespace: p.pod.namespace.clone(),
                host_network: p.host_network,
                stated_qos_class: Some(p.qos_class),
                containers: if p.requested_resources.is_empty() {
                    Vec::new()
                } else {
                    vec![taintlab_input::ContainerResources {
                        name: "main".into(),
                        requests: taintlab_core::sort::map_from(
                            p.requested_resources
                                .iter()
                                .map(|r| (r.clone(), "1".to_string())),
                        ),
                        ..Default::default()
                    }]
                },
                form: Form::Json,
                ..Workload::default()
            }
        });
        w.location = ordered(p.location.clone(), originals);
        w.toleration_locations = Vec::with_capacity(p.toleration_locations.len());
        for l in &p.toleration_locations {
            w.toleration_locations.push(l.clone().unwrap_or_default());
        }
        w.pod = p.pod;
        workloads.push(w);
    }
    ParsedPane {
        kind: PaneKind::Pods,
        parsed: Parsed {
            workloads,
            diagnostics,
            ..Parsed::default()
        },
        lines: 0,
        bytes: 0,
    }
}

/// The panes of `input`: one combined text; `{nodes, pods}` as the playground's two
/// panes when both are text; plain values otherwise.
/// The panes, and for panes made of values, where each value was read.
pub(crate) struct Panes {
    pub(crate) panes: Vec<ParsedPane>,
    nodes: Originals,
    pods: Originals,
}

pub(crate) fn panes(input: &V, o: &Options) -> ApiResult<Panes> {
    let v = o.semantics.version;
    let (mut node_originals, mut pod_originals) = (Vec::new(), Vec::new());
    if let V::Str(text) = input {
        return Ok(Panes {
            panes: vec![ParsedPane::parse(text, PaneKind::Combined, v)],
            nodes: node_originals,
            pods: pod_originals,
        });
    }
    let i = Obj::new(
        input,
        "input",
        "input",
        "text or {nodes, pods}",
        &["nodes", "pods"],
        &[],
        false,
    )?;
    let nodes = match i.get("nodes") {
        None => ParsedPane::empty(PaneKind::Nodes),
        Some(V::Str(t)) => ParsedPane::parse(t, PaneKind::Nodes, v),
        Some(n) => node_pane(read::nodes(n, "input.nodes", v)?, &mut node_originals),
    };
    let pods = match i.get("pods") {
        None => ParsedPane::empty(PaneKind::Pods),
        Some(V::Str(t)) => ParsedPane::parse(t, PaneKind::Pods, v),
        Some(p) => pod_pane(read::pods(p, "input.pods", v)?, &mut pod_originals),
    };
    Ok(Panes {
        panes: vec![nodes, pods],
        nodes: node_originals,
        pods: pod_originals,
    })
}

fn pane_name(p: PaneKind) -> &'static str {
    match p {
        PaneKind::Nodes => "nodes",
        PaneKind::Pods => "pods",
        PaneKind::Combined => "text",
    }
}

fn node_origin(o: NodeOrigin) -> &'static str {
    match o {
        NodeOrigin::Object => "object",
        NodeOrigin::TaintList => "taint-list",
        NodeOrigin::Command => "command",
    }
}

/// A finding as a diagnostic: the input layer's code, or what it is about.
/// `nodes` and `pods`: where the values of panes made of values were read (a finding
/// about such a node or pod is shown at that location).
pub(crate) fn finding(j: &mut J, f: &Finding, nodes: &Originals, pods: &Originals) {
    let table = match f.pane {
        Some(PaneKind::Nodes) => nodes,
        Some(PaneKind::Pods) => pods,
        _ => &Vec::new(),
    };
    let mut location = f.location.clone();
    if !matches!(f.kind, FindingKind::Input(_))
        && location.line == 0
        && location.document > 0
        && let Some(o) = table.get(location.document - 1)
    {
        location = Location {
            path: location.path,
            ..o.clone()
        };
    }
    let code = match f.kind {
        FindingKind::Input(c) => write::code_name(c),
        FindingKind::Kubectl => "kubectl".into(),
        FindingKind::Validation => "validation".into(),
        FindingKind::Admission => "admission".into(),
        FindingKind::Configuration => "configuration".into(),
        FindingKind::Scheduling => "scheduling".into(),
    };
    j.open()
        .s(
            "severity",
            match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
        )
        .s("code", &code)
        .s("message", &f.message)
        .key("location");
    write::location(j, &location);
    j.os("pane", f.pane.map(pane_name)).close();
}

/// `analyze(input, options?)`.
pub fn analyze(input: &V, options: &V) -> ApiResult {
    let o = self::options(options, &[])?;
    let Panes {
        panes,
        nodes: node_originals,
        pods: pod_originals,
    } = panes(input, &o)?;
    let refs: Vec<&ParsedPane> = panes.iter().collect();
    let s = Scenario::build(&refs, &o);
    let sem = s.semantics;
    let mut j = J::new();
    j.open()
        .s("kubernetesVersion", &sem.version.to_string())
        .b("comparisonOperators", sem.comparison_operators)
        .b("admission", o.admission.is_some())
        .key("nodes")
        .arr();
    for (ni, n) in s.nodes.iter().enumerate() {
        j.open();
        write::node_fields(&mut j, &n.node);
        j.key("location");
        write::opt_location(&mut j, original(&n.source.location, &node_originals));
        j.s("origin", node_origin(n.origin))
            .s("pane", pane_name(n.source.pane))
            .key("resources");
        node_resources(&mut j, &s, ni);
        j.close();
    }
    j.end().key("pods").arr();
    for (pi, p) in s.pods.iter().enumerate() {
        j.open()
            .s("name", &p.pod.name)
            .s("namespace", &p.pod.namespace)
            .s("kind", &p.kind)
            .key("location");
        write::opt_location(&mut j, original(&p.source.location, &pod_originals));
        j.s(
            "origin",
            match p.origin {
                PodOrigin::Object => "object",
                PodOrigin::TolerationList => "toleration-list",
            },
        )
        .s("pane", pane_name(p.source.pane))
        .b("admitted", p.admitted())
        .os("rejection", p.rejection.as_deref())
        .key("tolerations")
        .arr();
        for t in &p.tolerations {
            j.open().key("toleration");
            write::toleration(&mut j, &t.toleration);
            j.s("origin", t.origin.name()).key("location");
            write::opt_location(&mut j, t.location.as_ref());
            j.close();
        }
        j.end().key("dropped").arr();
        for d in &p.dropped {
            j.open().key("toleration");
            write::toleration(&mut j, &d.toleration);
            j.s("origin", d.origin.name())
                .s(
                    "reason",
                    match d.reason {
                        DropReason::Superseded => "superseded",
                        DropReason::Overwritten => "overwritten",
                    },
                )
                .close();
        }
        j.end().key("validation").arr();
        for e in &p.validation {
            j.open()
                .s("type", e.error_type.name())
                .s("field", &e.field)
                .s("message", &e.message())
                .close();
        }
        j.end()
            .os("statusMessage", p.status_message.as_deref())
            .key("schedule");
        pod_schedule(&mut j, &s, pi);
        j.key("nodes").arr();
        for ni in 0..s.nodes.len() {
            j.open().c("node", ni).key("explanation");
            explanation(&mut j, &s, pi, ni, None);
            j.key("eviction");
            match s.eviction(pi, ni) {
                Some(r) => simulation(&mut j, &r, None, 0),
                None => {
                    j.null();
                }
            }
            j.close();
        }
        j.end().close();
    }
    j.end().key("commands").arr();
    for c in &s.commands {
        j.open().s("command", &c.text).key("location");
        write::location(&mut j, &c.source.location);
        j.s("pane", pane_name(c.source.pane))
            .s("stdout", &c.stdout)
            .s("stderr", &c.stderr)
            .n("exitCode", i64::from(c.exit_code))
            .b("rejected", c.rejected)
            .strs("created", &c.created)
            .close();
    }
    j.end().key("diagnostics").arr();
    for f in &s.findings {
        finding(&mut j, f, &node_originals, &pod_originals);
    }
    j.end().c("errors", s.errors().count()).key("panes");
    match (input, panes.first()) {
        (V::Str(text), Some(pane)) => {
            let (nodes, pods) = split_combined(text, &pane.parsed);
            j.open().s("nodes", &nodes).s("pods", &pods).close();
        }
        _ => {
            j.null();
        }
    }
    j.key("blocks").arr();
    for p in &panes {
        super::text::blocks(&mut j, &p.blocks(), Some(pane_name(p.kind)));
    }
    j.end().close();
    Ok(j.finish())
}

/// A location read from text; `None` for objects given as values (no line).
fn located(l: &Location) -> Option<&Location> {
    (l.line > 0).then_some(l)
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
        // The blocks view: one per document, with the pane it was read in.
        let blocks = a["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), 3, "{blocks:?}");
        assert_eq!(blocks[0]["read"], json!({"nodes": 1}));
        assert_eq!(blocks[2]["summary"], "lines 20–24, YAML: 1 pod (1 pending)");
        assert_eq!(blocks[2]["pane"], "text");
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
        // A rejected pod is still in the matrix, as in the playground.
        assert_eq!(a["pods"][0]["schedule"]["bestNodes"], json!(["n"]));
        assert!(
            a["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["code"] == "admission")
        );
        let ok = v(analyze(&input, &V::Null));
        assert_eq!(ok["pods"][0]["schedule"]["bestNodes"], json!(["n"]));
        assert_eq!(ok["panes"], serde_json::Value::Null);
    }

    #[test]
    fn a_rejected_kubectl_line_is_reported_and_the_others_keep_their_effects() {
        let text = "kubectl taint nodes n1 a=b:NoSchedule\nkubectl taint nodes n1 c=d:Bogus\nkubectl taint nodes n2 e:NoExecute\n";
        let a = v(analyze(&val(json!(text)), &V::Null));
        let nodes = a["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0]["name"], "n1");
        assert_eq!(nodes[0]["taints"].as_array().unwrap().len(), 1);
        assert_eq!(nodes[1]["taints"][0]["key"], "e");
        assert_eq!(a["commands"][1]["rejected"], true);
        assert_eq!(a["commands"][0]["rejected"], false);
        let kubectl: Vec<&serde_json::Value> = a["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["location"]["line"] == 2)
            .collect();
        assert!(!kubectl.is_empty(), "{}", a["diagnostics"]);
        assert!(a["errors"].as_u64().unwrap() >= 1);
    }

    #[test]
    fn two_bare_taint_and_two_bare_toleration_documents_are_two_nodes_and_two_pods() {
        let input = val(json!({
            "nodes": "key: a\nvalue: b\neffect: NoSchedule\n---\nkey: c\nvalue: d\neffect: NoExecute\n",
            "pods": "key: a\nvalue: b\neffect: NoSchedule\n---\n- {key: c, operator: Exists}\n",
        }));
        let a = v(analyze(&input, &V::Null));
        let names = |k: &str| -> Vec<String> {
            a[k].as_array()
                .unwrap()
                .iter()
                .map(|x| x["name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(names("nodes"), ["node-1", "node-2"]);
        assert_eq!(names("pods"), ["pod-1", "pod-2"]);
        assert_eq!(
            a["pods"][0]["schedule"]["nodes"][0]["verdict"],
            "schedulable"
        );
        assert_eq!(a["pods"][0]["pane"], "pods");
        // The same documents in one text: the same cluster.
        let text = "key: a\nvalue: b\neffect: NoSchedule\n---\nkey: c\nvalue: d\neffect: NoExecute\n---\ntolerations:\n- {key: a, operator: Exists}\n---\n- {key: c, operator: Exists}\n";
        let c = v(analyze(&val(json!(text)), &V::Null));
        assert_eq!(c["nodes"].as_array().unwrap().len(), 2);
        assert_eq!(c["pods"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn a_pod_template_is_validated_at_its_own_path() {
        let text = "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: t}\ntemplate:\n  spec:\n    tolerations:\n    - key: a\n      operator: Exist\n";
        let a = v(analyze(&val(json!(text)), &V::Null));
        let d = a["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "validation")
            .unwrap_or_else(|| panic!("{}", a["diagnostics"]))
            .clone();
        assert_eq!(
            d["location"]["path"],
            "template.spec.tolerations[0].operator"
        );
        assert_eq!(d["location"]["line"], 7);
        assert_eq!(
            a["pods"][0]["validation"][0]["field"],
            "template.spec.tolerations[0].operator"
        );
        assert!(
            a["pods"][0]["statusMessage"]
                .as_str()
                .unwrap()
                .starts_with("PodTemplate \"t\" is invalid"),
            "{}",
            a["pods"][0]["statusMessage"]
        );
    }

    #[test]
    fn the_dedicated_nodes_example_lands_only_on_its_pool() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/parity/pastes/37-dedicated-nodes-selector.yaml"
        ))
        .unwrap();
        let a = v(analyze(&val(json!(text)), &V::Null));
        let api = &a["pods"][0];
        assert_eq!(api["schedule"]["bestNodes"], json!(["payments-1"]));
        assert_eq!(api["schedule"]["feasibleNodes"], 1);
        assert_eq!(api["schedule"]["nodes"][1]["rejectedBy"], "NodeAffinity");
        assert_eq!(
            api["nodes"][1]["explanation"]["placement"]["filters"][3]["state"],
            "failed"
        );
        let lost = &a["pods"][1];
        assert_eq!(
            lost["schedule"]["message"],
            "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        );
        assert_eq!(
            lost["schedule"]["nodes"][0]["rejectedBy"],
            "TaintToleration"
        );
        assert_eq!(
            lost["nodes"][1]["explanation"]["placement"]["nodeSelector"][0]["nodeValue"],
            serde_json::Value::Null
        );
        assert_eq!(a["nodes"][0]["resources"]["allocatableKnown"], false);
    }

    #[test]
    fn a_mixed_taint_and_cpu_event_is_reproduced_with_its_arithmetic() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/parity/pastes/39-mixed-taint-and-cpu-event.yaml"
        ))
        .unwrap();
        let a = v(analyze(&val(json!(text)), &V::Null));
        let web = a["pods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "web")
            .unwrap()
            .clone();
        assert_eq!(
            web["schedule"]["message"],
            "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
        );
        let small = &web["schedule"]["nodes"][1];
        assert_eq!(small["rejectedBy"], "NodeResourcesFit");
        assert_eq!(small["insufficient"][0]["shortfall"], 400);
        let lines = web["nodes"][1]["explanation"]["placement"]["resources"]
            .as_array()
            .unwrap()
            .clone();
        let cpu = lines.iter().find(|l| l["resource"] == "cpu").unwrap();
        assert_eq!(cpu["headroom"], -400);
        let bars = a["nodes"][1]["resources"]["bars"]
            .as_array()
            .unwrap()
            .clone();
        assert!(
            bars.iter()
                .any(|b| b["resource"] == "cpu" && b["requested"] == 900)
        );
    }
}
