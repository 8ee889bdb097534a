use super::*;
use serde_json::json;
use taintlab_core::KubeVersion;
use taintlab_core::admission::TolerationOrigin;
use taintlab_core::admission::pod_toleration_restriction::NamespaceAnnotation;

fn options() -> Options {
    Options {
        semantics: Semantics::newest(),
        admission: Some(AdmissionOptions::default()),
        daemon_set: None,
    }
}

fn pane(text: &str, kind: PaneKind) -> ParsedPane {
    ParsedPane::parse(text, kind, KubeVersion::NEWEST)
}

fn two(nodes: &str, pods: &str, o: &Options) -> Scenario {
    Scenario::build(
        &[&pane(nodes, PaneKind::Nodes), &pane(pods, PaneKind::Pods)],
        o,
    )
}

#[test]
fn taint_commands_make_a_cluster_and_pods_are_admitted() {
    let s = two(
        "kubectl taint nodes gpu-1 nvidia.com/gpu=present:NoSchedule\nkubectl taint nodes cpu-1 spot=true:PreferNoSchedule\n",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx}]\n",
        &options(),
    );
    assert_eq!(s.nodes.len(), 2);
    assert!(s.nodes.iter().all(NodeEntry::created));
    assert_eq!(s.nodes[0].node.taints.len(), 1);
    assert_eq!(s.nodes[0].source.location.line, 1);
    assert_eq!(s.commands[0].stdout, "node/gpu-1 tainted\n");
    assert_eq!(s.commands[0].created, vec!["gpu-1".to_string()]);
    // DefaultTolerationSeconds added not-ready and unreachable.
    assert_eq!(s.pods[0].pod.tolerations.len(), 2);
    assert_eq!(
        s.pods[0].tolerations[0].origin,
        Origin::Admission(TolerationOrigin::DefaultTolerationSeconds)
    );
    assert_eq!(
        s.pods[0].tolerations[0].origin.name(),
        "default-toleration-seconds"
    );
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Blocked));
    assert_eq!(s.cell(0, 1).map(|c| c.kind), Some(CellKind::Penalized));
    assert_eq!(s.cell(0, 2), None);
    assert_eq!(s.message(0), None);
    assert!(s.findings.is_empty(), "{:?}", s.findings);
}

#[test]
fn failed_scheduling_message_and_validation() {
    let s = two(
        "kubectl taint nodes n1 a=b:NoSchedule\n",
        "tolerations:\n- key: a\n  operator: Exists\n  value: b\n  effect: NoExecute\n",
        &options(),
    );
    let message = s.message(0).expect("fits nowhere");
    assert!(
        message.starts_with("0/1 nodes are available: 1 node(s) had untolerated taint(s)."),
        "{message}"
    );
    let p = &s.pods[0];
    assert_eq!(p.pod.name, "pod-1");
    assert_eq!(p.origin, PodOrigin::TolerationList);
    let status = p.status_message.as_deref().expect("invalid");
    assert!(
        status.starts_with("Pod \"pod-1\" is invalid: spec.tolerations[0].operator"),
        "{status}"
    );
    assert_eq!(p.submitted_locations[0].line, 2);
    // The written toleration keeps its location through admission.
    let written = p
        .tolerations
        .iter()
        .find(|t| t.origin == Origin::Pod)
        .expect("written");
    assert_eq!(written.location.as_ref().map(|l| l.line), Some(2));
    let f = s
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::Validation)
        .expect("a validation finding");
    assert_eq!(f.pane, Some(PaneKind::Pods));
    assert_eq!(f.location.line, 2);
    assert_eq!(f.location.path, "spec.tolerations[0].operator");
    assert_eq!(s.pods_with_message(s.message(0).unwrap_or("")), vec![0]);
}

#[test]
fn daemonset_pods_get_the_daemon_tolerations() {
    let nodes = "kubectl taint nodes n1 node.kubernetes.io/unschedulable:NoSchedule\n";
    let pods = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\n";
    let s = two(nodes, pods, &options());
    assert!(s.pods[0].daemon && !s.pods[1].daemon);
    assert!(
        s.pods[0]
            .tolerations
            .iter()
            .any(|t| t.origin == Origin::DaemonSet)
    );
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
    assert_eq!(s.cell(1, 0).map(|c| c.kind), Some(CellKind::Blocked));
    // The toggle: every pod, or none.
    let all = two(
        nodes,
        pods,
        &Options {
            daemon_set: Some(true),
            ..options()
        },
    );
    assert!(all.pods.iter().all(|p| p.daemon));
    let none = two(
        nodes,
        pods,
        &Options {
            daemon_set: Some(false),
            ..options()
        },
    );
    assert!(none.pods.iter().all(|p| !p.daemon));
}

/// The first example: two bare taint documents and two bare toleration
/// documents are two nodes and two pods, in two panes or in one combined text.
#[test]
fn each_bare_list_is_its_own_node_or_pod() {
    let nodes = "- {key: a, value: v1, effect: NoSchedule}\n---\n- {key: b, value: v2, effect: NoSchedule}\n";
    let pods = "- {key: a, operator: Exists}\n---\n- {key: b, operator: Exists}\n";
    let s = two(nodes, pods, &options());
    let names = |s: &Scenario| -> (Vec<String>, Vec<String>) {
        (
            s.nodes.iter().map(|n| n.node.name.clone()).collect(),
            s.pods.iter().map(|p| p.pod.name.clone()).collect(),
        )
    };
    assert_eq!(
        names(&s),
        (
            vec!["node-1".into(), "node-2".into()],
            vec!["pod-1".into(), "pod-2".into()]
        )
    );
    assert_eq!(s.nodes[1].source.location.line, 3);
    assert_eq!(s.nodes[1].node.taints[0].key, "b", "{:?}", s.nodes);
    assert_eq!(s.pods[0].pod.tolerations[0].key, "a", "{:?}", s.pods[0]);
    assert_eq!(s.nodes[1].origin, NodeOrigin::TaintList);
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
    assert_eq!(s.cell(0, 1).map(|c| c.kind), Some(CellKind::Blocked));
    assert_eq!(s.cell(1, 1).map(|c| c.kind), Some(CellKind::Schedulable));
    let combined = "taints:\n- {key: a, value: v1, effect: NoSchedule}\n---\ntaints:\n- {key: b, value: v2, effect: NoSchedule}\n---\ntolerations:\n- {key: a, operator: Exists}\n---\ntolerations:\n- {key: b, operator: Exists}\n";
    let c = Scenario::from_text(combined, &options());
    assert_eq!(names(&c), names(&s));
    assert_eq!(c.pods[1].source.pane, PaneKind::Combined);
    assert_eq!(c.cell(1, 1).map(|c| c.kind), Some(CellKind::Schedulable));
}

#[test]
fn objects_and_lists_keep_paste_order() {
    let nodes = "taints:\n- {key: a, value: v1, effect: NoSchedule}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: real}\n";
    let s = two(nodes, "", &options());
    let names: Vec<&str> = s.nodes.iter().map(|n| n.node.name.as_str()).collect();
    assert_eq!(names, ["node-1", "real"]);
}

/// The second example: a PodTemplate's tolerations are at
/// `template.spec.tolerations` (a PodTemplate has no `spec` of its own).
#[test]
fn pod_template_errors_are_at_template_spec_tolerations() {
    let pods = "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: tpl}\ntemplate:\n  spec:\n    containers: [{name: c, image: x}]\n    tolerations:\n    - key: a\n      operator: Exists\n      value: b\n";
    let s = two("", pods, &options());
    let p = &s.pods[0];
    assert_eq!(
        p.workload_kind,
        Some(taintlab_core::WorkloadKind::PodTemplate)
    );
    assert_eq!(
        p.validation[0].field,
        "template.spec.tolerations[0].operator"
    );
    let status = p.status_message.as_deref().expect("invalid");
    assert!(
        status.starts_with("PodTemplate \"tpl\" is invalid: template.spec.tolerations[0]"),
        "{status}"
    );
    let deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n      tolerations:\n      - {key: a, operator: Exists, value: b}\n";
    let d = two("", deploy, &options());
    let status = d.pods[0].status_message.as_deref().expect("invalid");
    assert!(
        status.starts_with(
            "Deployment.apps \"web\" is invalid: spec.template.spec.tolerations[0].operator"
        ),
        "{status}"
    );
}

/// The fourth example: a command kubectl rejects is marked and changes
/// nothing; the commands before and after it keep their effects.
#[test]
fn a_rejected_command_keeps_the_others_effects() {
    let nodes = "kubectl taint nodes n1 a=b:NoSchedule\nkubectl taint nodes n1 a=b:NoSchedul\nkubectl taint nodes n1 c=d:NoExecute\n";
    let s = two(nodes, "", &options());
    assert_eq!(s.commands.len(), 3);
    assert!(!s.commands[0].rejected && s.commands[1].rejected && !s.commands[2].rejected);
    assert!(!s.commands[1].stderr.is_empty());
    assert_eq!(s.commands[1].exit_code, 1);
    let mut keys: Vec<&str> = s.nodes[0]
        .node
        .taints
        .iter()
        .map(|t| t.key.as_str())
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["a", "c"]);
    let f = s
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::Kubectl)
        .expect("kubectl's error");
    assert_eq!(f.location.line, 2);
}

#[test]
fn admission_options_shape_the_pods() {
    let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  tolerations: [{key: a, operator: Exists}]\n";
    let off = two(
        "",
        pods,
        &Options {
            admission: None,
            ..options()
        },
    );
    assert_eq!(off.pods[0].tolerations.len(), 1);
    let restricted = two(
        "",
        pods,
        &Options {
            admission: Some(AdmissionOptions {
                pod_toleration_restriction: Some(RestrictionOptions {
                    default: TolerationsInput::Text(String::new()),
                    whitelist: TolerationsInput::Text("- {key: zone, operator: Exists}\n".into()),
                }),
                ..AdmissionOptions::default()
            }),
            ..options()
        },
    );
    let p = &restricted.pods[0];
    assert!(!p.admitted());
    assert!(
        p.rejection
            .as_deref()
            .is_some_and(|r| r.contains("whitelist")),
        "{:?}",
        p.rejection
    );
    assert!(
        restricted
            .errors()
            .any(|f| f.kind == FindingKind::Admission)
    );
    let ns = two(
        "",
        pods,
        &Options {
            admission: Some(AdmissionOptions {
                pod_toleration_restriction: Some(RestrictionOptions::default()),
                namespace_default: annotation_from_json(Some(
                    "[{\"key\": \"ns\", \"operator\": \"Exists\"}]",
                )),
                ..AdmissionOptions::default()
            }),
            ..options()
        },
    );
    assert!(
        ns.pods[0]
            .tolerations
            .iter()
            .any(|t| t.origin == Origin::Admission(TolerationOrigin::NamespaceDefault))
    );
    let bad = two(
        "",
        pods,
        &Options {
            admission: Some(AdmissionOptions {
                pod_toleration_restriction: Some(RestrictionOptions {
                    default: TolerationsInput::Text(
                        "tolerations: [{key: a, effect: Nope}]\n".into(),
                    ),
                    whitelist: TolerationsInput::default(),
                }),
                namespace_whitelist: NamespaceAnnotation::Absent,
                ..AdmissionOptions::default()
            }),
            ..options()
        },
    );
    assert_eq!(bad.config_errors.len(), 1, "{:?}", bad.config_errors);
    assert!(
        bad.findings
            .iter()
            .any(|f| f.kind == FindingKind::Configuration)
    );
}

#[test]
fn explanations_and_eviction_on_demand() {
    let nodes = "kubectl taint nodes n1 node.kubernetes.io/unreachable:NoExecute\nkubectl taint nodes n2 x=y:PreferNoSchedule\n";
    let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n";
    let s = two(nodes, pods, &options());
    let x = s.explain(0, 0).expect("a pair");
    assert_eq!(x.verdict, s.cell(0, 0).expect("cell").verdict);
    // DefaultTolerationSeconds: tolerated for 300 s, then evicted.
    let sim = s.eviction(0, 0).expect("a NoExecute taint");
    let key = taintlab_core::eviction::PodKey::new("default", "web");
    assert_eq!(sim.eviction_time(&key), Some(300));
    assert!(s.eviction(0, 1).is_none());
    assert!(s.cell(0, 0).is_some_and(|c| c.evicted()));
    let off = two(
        nodes,
        pods,
        &Options {
            admission: None,
            ..options()
        },
    );
    assert_eq!(
        off.eviction(0, 0).and_then(|r| r.eviction_time(&key)),
        Some(0)
    );
}

#[test]
fn events_are_read() {
    let pods = "Warning  FailedScheduling  default-scheduler  0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.\n";
    let s = two("kubectl taint nodes n1 a=b:NoSchedule\n", pods, &options());
    assert_eq!(s.events.len(), 1);
    assert_eq!(s.events[0].pane, PaneKind::Pods);
    assert!(s.events[0].event.fit.is_some());
}

#[test]
fn policy_requests_and_decisions() {
    let pods = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: nginx}]\n      tolerations:\n      - operator: Exists\n---\napiVersion: v1\nkind: PodTemplate\nmetadata: {name: tpl}\ntemplate:\n  spec:\n    containers: [{name: c, image: x}]\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: '@daily'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers: [{name: c, image: x}]\n";
    let s = two("", pods, &options());
    let user = UserInfo::default();
    let req = s.admission_request(0, &user).expect("a pod");
    assert_eq!(req.pointer("/kind/group"), Some(&json!("apps")));
    assert_eq!(
        req.pointer("/resource/resource"),
        Some(&json!("deployments"))
    );
    assert_eq!(
        req.pointer("/object/spec/template/spec/tolerations/0/operator"),
        Some(&json!("Exists"))
    );
    let tpl = s.admission_request(1, &user).expect("a pod");
    assert!(
        tpl.pointer("/object/template/spec/containers").is_some(),
        "{tpl}"
    );
    assert_eq!(
        tpl.pointer("/resource/resource"),
        Some(&json!("podtemplates"))
    );
    let cj = s.admission_request(2, &user).expect("a pod");
    assert!(
        cj.pointer("/object/spec/jobTemplate/spec/template/spec/containers")
            .is_some(),
        "{cj}"
    );
    assert!(cj.pointer("/object/spec/schedule").is_some());
    assert!(s.admission_request(3, &user).is_none());
    let settings = read_settings("{}").expect("default settings");
    let answers = s.policy(&settings, &user);
    assert_eq!(answers.len(), 3);
    assert!(!answers[0].decision.accepted, "{:?}", answers[0].decision);
    assert!(read_settings("{\"noSuchField\": 1}").is_err());
    assert!(read_settings("not json").is_err());
}

#[test]
fn patch_adds_replaces_and_removes() {
    let a = json!({"spec": {"tolerations": [{"key": "a"}], "x/y": 1, "gone": true}});
    let b = json!({"spec": {"tolerations": [{"key": "a", "tolerationSeconds": 60}, {"key": "b"}], "x/y": 2}});
    assert_eq!(
        json_patch(&a, &b),
        json!([
            {"op": "remove", "path": "/spec/gone"},
            {"op": "add", "path": "/spec/tolerations/0/tolerationSeconds", "value": 60},
            {"op": "add", "path": "/spec/tolerations/1", "value": {"key": "b"}},
            {"op": "replace", "path": "/spec/x~1y", "value": 2}
        ])
    );
}

#[test]
fn broken_input_never_panics_and_keeps_the_good_parts() {
    let nodes = "kubectl taint nodes n1 a=b:NoSchedule\n---\n{ not yaml: [\n---\nkubectl taint\n";
    let pods = "apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\n---\nkind: Pod\nspec: [1, 2\n";
    let s = two(nodes, pods, &options());
    assert_eq!(s.nodes.len(), 1);
    assert!(s.pods.iter().any(|p| p.pod.name == "ok"));
    assert!(s.errors().count() >= 2, "{:?}", s.findings);
    assert!(s.errors().all(|f| f.pane.is_some()));
}

#[cfg(feature = "serde")]
#[test]
fn a_parsed_pane_crosses_a_worker_boundary() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        resources: {requests: {cpu: 100m}}\n      tolerations:\n      - {key: k, operator: Exists}\n---\nkubectl taint nodes n1 a=b:NoSchedule\n---\n0/3 nodes are available: 3 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.\n---\ntolerations:\n- {key: a, effect: NoSchedul}\n";
    let p = pane(text, PaneKind::Pods);
    let json = serde_json::to_string(&p).expect("serializes");
    let back: ParsedPane = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back.parsed.workloads, p.parsed.workloads);
    assert_eq!(back.parsed.taint_commands.len(), 1);
    assert_eq!(back.parsed.events, p.parsed.events);
    assert_eq!(back.parsed.diagnostics, p.parsed.diagnostics);
    assert_eq!(back.parsed.documents, p.parsed.documents);
    assert_eq!(
        (back.lines, back.bytes, back.kind),
        (p.lines, p.bytes, p.kind)
    );
    let o = options();
    let a = Scenario::build(&[&back], &o);
    let b = Scenario::build(&[&p], &o);
    assert_eq!(a.pods, b.pods);
    assert_eq!(a.findings, b.findings);
}

/// One combined text and its split into the two panes ("open in playground") give the
/// same cluster, pods and verdicts.
#[test]
fn a_combined_text_and_its_panes_agree() {
    let pastes = [
        "kubectl taint nodes gpu-1 nvidia.com/gpu=present:NoSchedule\nkubectl taint nodes gpu-2 nvidia.com/gpu=present:NoSchedule\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: trainer}\nspec:\n  tolerations:\n  - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\n",
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n  - {key: a, value: b, effect: NoExecute}\n---\ntolerations:\n- {key: a, operator: Exists, effect: NoExecute, tolerationSeconds: 30}\n",
        "taints:\n- {key: k, value: v1, effect: NoSchedule}\n---\ntaints:\n- {key: k, value: v2, effect: NoSchedule}\n---\ntolerations:\n- {key: k, operator: Equal, value: v1}\n---\ntolerations:\n- {key: k, operator: Equal, value: v2}\n",
        "kubectl taint nodes n1 a=b:NoSchedule\nkubectl taint nodes n1 a=b:Bogus\nkubectl taint nodes n1 c:PreferNoSchedule\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n",
        "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: tpl}\ntemplate:\n  spec:\n    containers: [{name: c, image: x}]\n    tolerations:\n    - {key: a, operator: Exists, value: b}\n---\nkubectl taint nodes n1 a=b:NoSchedule\n",
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n  spec: {unschedulable: true}\n- apiVersion: v1\n  kind: Node\n  metadata: {name: b}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: bound}\nspec:\n  nodeName: a\n",
        "not yaml: [\n---\nkubectl taint nodes x y=z:NoExecute\n",
    ];
    for text in pastes {
        let o = options();
        let combined = Scenario::from_text(text, &o);
        let whole = pane(text, PaneKind::Combined);
        let (nodes, pods) = split_combined(text, &whole.parsed);
        let split = two(&nodes, &pods, &o);
        let view = |s: &Scenario| {
            let nodes: Vec<_> = s.nodes.iter().map(|n| n.node.clone()).collect();
            let pods: Vec<_> = s
                .pods
                .iter()
                .map(|p| (p.pod.clone(), p.rejection.clone(), p.status_message.clone()))
                .collect();
            let cells: Vec<_> = (0..s.pods.len())
                .flat_map(|p| (0..s.nodes.len()).map(move |n| (p, n)))
                .map(|(p, n)| s.cell(p, n))
                .collect();
            let messages: Vec<_> = (0..s.pods.len()).map(|p| s.message(p)).collect();
            let commands: Vec<_> = s
                .commands
                .iter()
                .map(|c| (c.stdout.clone(), c.stderr.clone(), c.rejected))
                .collect();
            format!("{nodes:?}\n{pods:?}\n{cells:?}\n{messages:?}\n{commands:?}")
        };
        assert_eq!(view(&combined), view(&split), "{text}");
    }
}

#[test]
fn by_position_sorts_stably_by_document_line_and_column() {
    let at = |document, line, column| Location {
        document,
        line,
        column,
        path: String::new(),
    };
    // Several cycles, fixed points and equal positions (which keep their order).
    let mut items = vec![
        (at(2, 1, 1), 'a'),
        (at(1, 5, 2), 'b'),
        (at(1, 5, 1), 'c'),
        (at(3, 0, 0), 'd'),
        (at(1, 5, 2), 'e'),
        (at(0, 0, 0), 'f'),
        (at(2, 1, 1), 'g'),
    ];
    by_position(&mut items);
    let got: String = items.iter().map(|(_, c)| *c).collect();
    assert_eq!(got, "fcbeagd");
    let mut empty: Vec<(Location, u8)> = Vec::new();
    by_position(&mut empty);
    assert!(empty.is_empty());
    // Every permutation of four distinct positions comes out sorted.
    let base: Vec<(Location, usize)> = (0..4).map(|i| (at(1, i, 0), i)).collect();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let pick = [a, b, c, d];
                    if (0..4).any(|x| !pick.contains(&x)) {
                        continue;
                    }
                    let mut v: Vec<(Location, usize)> =
                        pick.iter().map(|&i| base[i].clone()).collect();
                    by_position(&mut v);
                    let got: Vec<usize> = v.iter().map(|(_, i)| *i).collect();
                    assert_eq!(got, vec![0, 1, 2, 3], "{pick:?}");
                }
            }
        }
    }
}

#[test]
fn requests_around_objects_follow_the_api_server() {
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}});
    let r = admission_request_around(node, &Envelope::default());
    assert_eq!(r["namespace"], "");
    assert_eq!(r["resource"]["resource"], "nodes");
    assert_eq!(r["options"]["kind"], "CreateOptions");
    let deploy =
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}});
    let update = Envelope {
        operation: taintlab_core::admission::Operation::Update,
        old_object: Some(json!({"kind": "Deployment"})),
        ..Envelope::default()
    };
    let r = admission_request_around(deploy, &update);
    assert_eq!(r["namespace"], "default");
    assert_eq!(r["operation"], "UPDATE");
    assert_eq!(r["resource"]["resource"], "deployments");
    assert_eq!(r["kind"]["group"], "apps");
    assert_eq!(r["options"]["kind"], "UpdateOptions");
    assert_eq!(r["oldObject"]["kind"], "Deployment");
    let crd = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "x"}});
    let r = admission_request_around(crd, &Envelope::default());
    assert_eq!(r["resource"]["resource"], "widgets");
    assert_eq!(r["namespace"], "x");
}
