//! Every fixture in `fixtures/` parsed, with its result or its exact errors asserted.

use taintlab_core::{
    ConditionStatus, Operator, PreemptionPolicy, QosClass, Taint, TaintEffect, Toleration,
};
use taintlab_input::{Code, Form, Location, Parsed, ReasonKind, Severity, parse};

fn load(path: &str) -> Parsed {
    let text = std::fs::read_to_string(format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("fixture exists");
    parse(&text)
}

fn codes(p: &Parsed) -> Vec<(Severity, Code, usize, usize)> {
    p.diagnostics
        .iter()
        .map(|d| (d.severity, d.code, d.location.line, d.location.column))
        .collect()
}

fn tol(key: &str, op: Operator, value: &str, effect: TaintEffect, secs: Option<i64>) -> Toleration {
    Toleration::new(key, op, value, effect).with_seconds(secs)
}

#[test]
fn yaml_pod_with_anchors_and_merge_keys() {
    let p = load("yaml/pod-anchors.yaml");
    assert_eq!(
        codes(&p),
        vec![(Severity::Warning, Code::UnknownField, 9, 1)]
    );
    assert_eq!(
        p.diagnostics[0].message,
        "unknown field \"x-gpu-toleration\" in a Pod. The API server ignores it. kubectl apply (--validate=strict, the default) rejects it: strict decoding error: unknown field \"x-gpu-toleration\""
    );
    let w = &p.workloads[0];
    assert_eq!(
        (w.kind.as_str(), w.name.as_str(), w.namespace.as_str()),
        ("Pod", "trainer-0", "ml")
    );
    assert_eq!(
        w.pod.tolerations,
        vec![
            tol(
                "nvidia.com/gpu",
                Operator::Exists,
                "",
                TaintEffect::NoSchedule,
                None
            ),
            tol(
                "nvidia.com/gpu",
                Operator::Exists,
                "",
                TaintEffect::NoExecute,
                Some(600)
            ),
            tol(
                "dedicated",
                Operator::Equal,
                "ml",
                TaintEffect::NoSchedule,
                None
            ),
        ]
    );
    assert_eq!(
        w.toleration_locations[0],
        Location::at(1, 24, 5).with_path("spec.tolerations[0]")
    );
    assert_eq!(
        w.toleration_locations[1],
        Location::at(1, 25, 5).with_path("spec.tolerations[1]")
    );
    assert_eq!(w.priority, Some(100000));
    assert_eq!(w.priority_class_name, "batch-high");
    assert_eq!(w.pod.preemption_policy, PreemptionPolicy::Never);
    assert_eq!(w.qos_class(), QosClass::Guaranteed);
    assert!(
        w.requested_resources()
            .iter()
            .any(|r| r == "nvidia.com/gpu")
    );
}

#[test]
fn yaml_workload_kinds_in_one_stream() {
    let p = load("yaml/workloads.yaml");
    let kinds: Vec<(&str, &str, usize)> = p
        .workloads
        .iter()
        .map(|w| {
            (
                w.kind.as_str(),
                w.pod.name.as_str(),
                w.pod.tolerations.len(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("Deployment", "web", 1),
            ("DaemonSet", "node-exporter", 1),
            ("CronJob", "nightly-report", 1),
            ("PodTemplate", "runner", 1)
        ]
    );
    assert!(p.workloads[1].host_network);
    assert_eq!(p.workloads[0].qos_class(), QosClass::Burstable);
    assert_eq!(p.workloads[1].qos_class(), QosClass::BestEffort);
    assert_eq!(p.workloads[2].pod.tolerations[0].value, "true");
    assert_eq!(
        p.workloads[2].toleration_locations[0].path,
        "spec.jobTemplate.spec.template.spec.tolerations[0]"
    );
    assert_eq!(
        codes(&p),
        vec![(Severity::Warning, Code::IgnoredKind, 77, 1)]
    );
    assert_eq!(p.documents.len(), 5);
    assert_eq!(p.documents[4].form, Form::Yaml);
}

#[test]
fn yaml_node_with_crlf_line_ends() {
    let p = load("yaml/node-crlf.yaml");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let n = &p.nodes[0];
    assert_eq!(n.node.name, "worker-7");
    assert!(n.node.unschedulable);
    assert_eq!(
        n.node.taints[0].time_added.as_deref(),
        Some("2025-06-01T08:00:00Z")
    );
    // An unquoted timestamp stays a string, as with kubectl.
    assert_eq!(
        n.node.taints[1].time_added.as_deref(),
        Some("2025-06-01T08:05:00Z")
    );
    assert_eq!(n.node.conditions[0].status, ConditionStatus::Unknown);
    assert_eq!(
        n.taint_locations[1],
        Location::at(1, 13, 5).with_path("spec.taints[1]")
    );
}

#[test]
fn yaml_1_1_traps_are_explained() {
    let p = load("yaml/yaml11-traps.yaml");
    assert!(p.workloads.is_empty(), "the API server rejects the pod");
    let msgs: Vec<String> = p.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        msgs,
        vec![
            "error: document 1, line 12, column 12, at spec.tolerations[0].value: spec.tolerations[0].value must be a string, but `yes` is read as the boolean true (YAML 1.1, which kubectl uses); quote it: value: \"yes\". kubectl rejects the object: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field Toleration.spec.tolerations.value of type string",
            "error: document 1, line 14, column 10, at spec.tolerations[1].key: spec.tolerations[1].key must be a string, but `on` is read as the boolean true (YAML 1.1, which kubectl uses); quote it: key: \"on\". kubectl rejects the object: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field Toleration.spec.tolerations.key of type string",
            "error: document 1, line 17, column 12, at spec.tolerations[2].value: spec.tolerations[2].value must be a string, but `1.0` is read as the number 1 (YAML 1.1, which kubectl uses); quote it: value: \"1.0\". kubectl rejects the object: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Toleration.spec.tolerations.value of type string",
            "error: document 1, line 22, column 24, at spec.tolerations[3].tolerationSeconds: spec.tolerations[3].tolerationSeconds must be a whole number, but \"300\" is a string; remove the quotes: tolerationSeconds: 300. kubectl rejects the object: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Toleration.spec.tolerations.tolerationSeconds of type int64",
        ]
    );
}

#[test]
fn yaml_typos_are_warnings_and_bad_values_errors() {
    let p = load("yaml/typos.yaml");
    assert_eq!(
        codes(&p),
        vec![
            (Severity::Warning, Code::UnknownField, 13, 5),
            (Severity::Warning, Code::UnknownField, 17, 5),
            (Severity::Error, Code::InvalidValue, 19, 15),
            (Severity::Error, Code::InvalidValue, 20, 13),
        ]
    );
    assert_eq!(
        p.diagnostics[1].message,
        "unknown field \"tolerationSecond\" in a toleration; did you mean \"tolerationSeconds\"? The API server ignores it: the toleration has no tolerationSeconds, so on a NoExecute taint the pod stays forever. kubectl apply (--validate=strict, the default) rejects it: strict decoding error: unknown field \"spec.tolerations[1].tolerationSecond\""
    );
    assert_eq!(
        p.diagnostics[3].message,
        "effect \"NoSchedul\" is not one of NoSchedule, PreferNoSchedule, NoExecute (or empty, for every effect); did you mean \"NoSchedule\"? The API server rejects it: Unsupported value"
    );
    // The object decodes (validation rejects it later), so its tolerations are kept as
    // written: the typo'd effect is empty, the bad operator and effect are kept verbatim.
    let t = &p.workloads[0].pod.tolerations;
    assert_eq!(t[0].effect, TaintEffect::Empty);
    assert_eq!(t[1].toleration_seconds, None);
    assert_eq!(t[2].operator, Operator::Other("Exits".into()));
    assert_eq!(t[2].effect, TaintEffect::Other("NoSchedul".into()));
}

#[test]
fn yaml_truncated_document_does_not_hide_the_others() {
    let p = load("yaml/truncated.yaml");
    let names: Vec<&str> = p.nodes.iter().map(|n| n.node.name.as_str()).collect();
    assert_eq!(names, vec!["good-node", "another-good-node"]);
    assert_eq!(codes(&p), vec![(Severity::Error, Code::YamlSyntax, 18, 1)]);
    assert_eq!(p.diagnostics[0].location.document, 2);
    assert_eq!(p.nodes[1].location.document, 3);
}

#[test]
fn yaml_bare_lists_and_objects() {
    let p = load("yaml/bare-lists.yaml");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(p.toleration_lists.len(), 2);
    assert_eq!(
        p.toleration_lists[0].tolerations,
        vec![
            tol(
                "example-key",
                Operator::Exists,
                "",
                TaintEffect::NoSchedule,
                None
            ),
            tol(
                "dedicated",
                Operator::Empty,
                "gpu",
                TaintEffect::NoSchedule,
                None
            ),
        ]
    );
    assert_eq!(
        p.toleration_lists[1].tolerations,
        vec![tol(
            "team",
            Operator::Equal,
            "payments",
            TaintEffect::Empty,
            None
        )]
    );
    let taints: Vec<Vec<Taint>> = p.taint_lists.iter().map(|l| l.taints.clone()).collect();
    assert_eq!(
        taints,
        vec![
            vec![Taint::new("dedicated", "gpu", TaintEffect::NoSchedule)],
            vec![Taint::new(
                "nvidia.com/gpu",
                "present",
                TaintEffect::NoSchedule
            )],
            vec![Taint::new("dedicated", "gpu", TaintEffect::NoSchedule)],
            vec![Taint::new("spot", "", TaintEffect::PreferNoSchedule)],
        ]
    );
}

#[test]
fn yaml_list_with_kubectl_lines_mixed_in() {
    let p = load("yaml/list-with-warnings.yaml");
    assert_eq!(
        codes(&p),
        vec![(Severity::Warning, Code::SkippedLine, 2, 1)]
    );
    assert_eq!(p.workloads.len(), 2);
    let w = &p.workloads[0];
    assert_eq!(w.location.path, "items[0]");
    assert_eq!(w.pod.node_name, "worker-3");
    assert_eq!(w.stated_qos_class, Some(QosClass::Guaranteed));
    assert_eq!(
        w.computed_qos_class(),
        QosClass::Guaranteed,
        "limits default the requests"
    );
    assert_eq!(w.pod.tolerations[1].toleration_seconds, Some(300));
    // The pending pod's PodScheduled message is read as an event.
    let e = &p.events[0];
    assert_eq!(e.location.path, "items[1].status.conditions[0].message");
    assert_eq!(e.named_taints(), vec![("dedicated", "infra")]);
    assert_eq!(e.versions.to_string(), ">= 1.24.0, < 1.34.3");
}

#[test]
fn yaml_alias_bomb_fails_fast() {
    let p = load("yaml/alias-bomb.yaml");
    assert_eq!(codes(&p), vec![(Severity::Error, Code::AliasBomb, 6, 8)]);
}

#[test]
fn json_nodes_list() {
    let p = load("json/nodes-list.json");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(p.nodes.len(), 2);
    let cp = &p.nodes[0];
    assert_eq!(cp.form, Form::Json);
    assert_eq!(
        cp.node.taints,
        vec![Taint::new(
            "node-role.kubernetes.io/control-plane",
            "",
            TaintEffect::NoSchedule
        )]
    );
    assert_eq!(
        cp.node
            .labels
            .get("node-role.kubernetes.io/control-plane")
            .map(String::as_str),
        Some("")
    );
    assert_eq!(cp.kubelet_version.as_deref(), Some("v1.30.4"));
    assert_eq!(
        cp.taint_locations[0],
        Location::at(1, 21, 25).with_path("items[0].spec.taints[0]")
    );
    let w = &p.nodes[1];
    assert!(w.node.unschedulable);
    assert_eq!(
        w.unschedulable_location,
        Some(Location::at(1, 72, 34).with_path("items[1].spec.unschedulable"))
    );
}

#[test]
fn json_wrong_types() {
    let p = load("json/pod-wrong-types.json");
    assert!(p.workloads.is_empty());
    assert_eq!(
        p.diagnostics[1].to_string(),
        "error: document 1, line 8, column 58, at spec.tolerations[0].value: spec.tolerations[0].value must be a string, but 1 is a number; write \"value\": \"1\". kubectl rejects the object: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Toleration.spec.tolerations.value of type string"
    );
    assert_eq!(
        p.diagnostics[0].message,
        "metadata.labels.tier must be a string, but true is a boolean; write \"tier\": \"true\". kubectl rejects the object: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string"
    );
    assert_eq!(
        p.diagnostics[2].message,
        "spec.tolerations[1].tolerationSeconds must be a whole number, but 1.5 is a number. kubectl rejects the object: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go struct field Toleration.spec.tolerations.tolerationSeconds of type int64"
    );
}

#[test]
fn json_syntax_error_keeps_earlier_values() {
    let p = load("json/bad-syntax.json");
    assert_eq!(p.nodes.len(), 1);
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(
        p.diagnostics[0].to_string(),
        "error: document 2, line 2, column 126: this is not valid JSON: expected a string key, found '}'"
    );
}

#[test]
fn json_looking_yaml_flow_mapping() {
    let p = load("json/flow-yaml.json");
    assert!(p.diagnostics.is_empty());
    assert_eq!(
        p.toleration_lists[0].tolerations,
        vec![tol(
            "dedicated",
            Operator::Equal,
            "gpu",
            TaintEffect::NoSchedule,
            None
        )]
    );
    assert_eq!(p.documents[0].form, Form::Yaml);
}

#[test]
fn kubectl_command_lines() {
    let p = load("kubectl/commands.sh");
    // kubectl's `node/x tainted` lines are read as the first command's results.
    assert_eq!(codes(&p), vec![]);
    let results: Vec<(&str, taintlab_input::Outcome, usize)> = p.taint_commands[0]
        .results
        .iter()
        .map(|r| (r.node.as_str(), r.outcome.clone(), r.location.line))
        .collect();
    assert_eq!(
        results,
        vec![
            ("gpu-1", taintlab_input::Outcome::Tainted, 3),
            ("gpu-2", taintlab_input::Outcome::Tainted, 4)
        ]
    );
    let args: Vec<Vec<&str>> = p
        .taint_commands
        .iter()
        .map(|c| c.args.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        args,
        vec![
            vec![
                "nodes",
                "gpu-1",
                "gpu-2",
                "nvidia.com/gpu=present:NoSchedule"
            ],
            vec!["nodes", "gpu-1", "dedicated=ml:NoSchedule", "legacy-"],
            vec![
                "--context",
                "prod",
                "node",
                "-l",
                "pool=spot",
                "lifecycle=spot:PreferNoSchedule",
                "--overwrite"
            ],
            vec!["nodes", "--all", "maintenance:NoExecute-"],
            vec![
                "no",
                "worker-9",
                "team=payments:NoSchedule",
                "--dry-run=client"
            ],
        ]
    );
    assert!(p.taint_commands.iter().all(|c| c.error.is_none()));
    assert_eq!(p.taint_commands[1].location, Location::at(2, 5, 3));
    assert_eq!(p.taint_commands[1].arg_locations[3], Location::at(2, 7, 5));
    // Applying: the first command taints both GPU nodes.
    let nodes: Vec<taintlab_core::Node> = ["gpu-1", "gpu-2"]
        .iter()
        .map(|n| taintlab_core::Node {
            name: (*n).into(),
            ..Default::default()
        })
        .collect();
    let run = p.taint_commands[0].apply(&nodes);
    assert_eq!(run.stdout, "node/gpu-1 tainted\nnode/gpu-2 tainted\n");
    assert_eq!(
        run.nodes[1].taints,
        vec![Taint::new(
            "nvidia.com/gpu",
            "present",
            TaintEffect::NoSchedule
        )]
    );
}

#[test]
fn kubectl_invalid_commands() {
    let p = load("kubectl/invalid.sh");
    assert_eq!(p.taint_commands.len(), 2);
    let msgs: Vec<String> = p.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        msgs[0],
        "error: document 1, line 1, column 1: kubectl rejects this command: error: invalid taint effect: NoSchedul, unsupported taint effect / See 'kubectl taint -h' for help and examples"
    );
    assert!(msgs[1].starts_with("error: document 2, line 2, column 30: kubectl rejects this command: error: invalid taint spec: dedicated=gpu, name part must consist of"));
    assert_eq!(
        msgs[2],
        "error: document 3, line 3, column 30: this quote is never closed"
    );
    assert_eq!(
        p.taint_commands[0].error.as_deref(),
        Some(
            "error: invalid taint effect: NoSchedul, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n"
        )
    );
}

#[test]
fn bare_taint_specs() {
    let p = load("kubectl/specs.txt");
    assert_eq!(
        p.taint_lists[0].taints,
        vec![
            Taint::new("dedicated", "gpu", TaintEffect::NoSchedule),
            Taint::new("team", "payments", TaintEffect::NoExecute),
            Taint::new("spot", "", TaintEffect::PreferNoSchedule),
        ]
    );
    assert_eq!(p.taint_lists[0].locations[2], Location::at(1, 2, 27));
    assert_eq!(
        codes(&p),
        vec![(Severity::Warning, Code::KubectlCommand, 4, 1)]
    );
}

#[test]
fn describe_node() {
    let p = load("describe/node.txt");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let n = &p.nodes[0];
    assert_eq!(n.form, Form::DescribeNode);
    assert_eq!(n.node.name, "worker-2");
    assert_eq!(
        n.node.taints,
        vec![
            Taint::new("node.kubernetes.io/unreachable", "", TaintEffect::NoExecute),
            Taint::new("dedicated", "infra", TaintEffect::NoSchedule),
            Taint::new(
                "node.kubernetes.io/unreachable",
                "",
                TaintEffect::NoSchedule
            ),
        ]
    );
    assert!(!n.node.unschedulable);
    assert_eq!(n.node.labels.len(), 3);
    let conds: Vec<(&str, &ConditionStatus)> = n
        .node
        .conditions
        .iter()
        .map(|c| (c.type_.as_str(), &c.status))
        .collect();
    assert_eq!(
        conds,
        vec![
            ("MemoryPressure", &ConditionStatus::Unknown),
            ("Ready", &ConditionStatus::Unknown)
        ]
    );
    assert_eq!(n.kubelet_version.as_deref(), Some("v1.29.9"));
    assert_eq!(
        n.taint_locations[1],
        Location::at(1, 10, 21).with_path("Taints")
    );
}

#[test]
fn describe_nodes_with_tabs() {
    let p = load("describe/nodes-tabs.txt");
    assert!(p.diagnostics.is_empty());
    let got: Vec<(&str, usize, bool)> = p
        .nodes
        .iter()
        .map(|n| {
            (
                n.node.name.as_str(),
                n.node.taints.len(),
                n.node.unschedulable,
            )
        })
        .collect();
    assert_eq!(got, vec![("cp-1", 1, false), ("worker-3", 0, true)]);
    assert_eq!(p.nodes[1].location.document, 2);
}

#[test]
fn describe_pod_with_event() {
    let p = load("describe/pod.txt");
    let w = &p.workloads[0];
    assert_eq!(
        (w.name.as_str(), w.namespace.as_str()),
        ("web-5c7f9d8b6d-qv2lx", "shop")
    );
    assert_eq!(w.priority, Some(1000));
    assert_eq!(w.priority_class_name, "shop-critical");
    assert_eq!(w.stated_qos_class, Some(QosClass::Burstable));
    assert_eq!(
        w.pod.tolerations,
        vec![
            tol(
                "dedicated",
                Operator::Equal,
                "web",
                TaintEffect::NoSchedule,
                None
            ),
            tol(
                "node.kubernetes.io/not-ready",
                Operator::Exists,
                "",
                TaintEffect::NoExecute,
                Some(300)
            ),
            tol(
                "node.kubernetes.io/unreachable",
                Operator::Exists,
                "",
                TaintEffect::NoExecute,
                Some(300)
            ),
            tol("sla", Operator::Equal, "950", TaintEffect::NoSchedule, None),
        ]
    );
    assert_eq!(codes(&p), vec![(Severity::Warning, Code::Lossy, 19, 30)]);
    let e = &p.events[0];
    assert_eq!(e.location, Location::at(1, 23, 68));
    let f = e.fit.as_ref().unwrap();
    assert_eq!((f.total_nodes, f.reasons.len()), (5, 2));
    assert_eq!(f.reasons[0].kind, ReasonKind::UntoleratedTaints);
    assert_eq!(
        e.preemption
            .as_ref()
            .unwrap()
            .nodes
            .as_ref()
            .unwrap()
            .reasons[1]
            .kind,
        ReasonKind::NoPreemptionVictims
    );
}

#[test]
fn describe_bare_blocks() {
    let p = load("describe/blocks-only.txt");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(
        p.taint_lists[0].taints,
        vec![
            Taint::new("gpu", "true", TaintEffect::NoSchedule),
            Taint::new("spot", "", TaintEffect::PreferNoSchedule)
        ]
    );
    assert_eq!(
        p.toleration_lists[0].tolerations,
        vec![
            tol("", Operator::Exists, "", TaintEffect::Empty, None),
            tol("", Operator::Exists, "", TaintEffect::NoExecute, None),
        ]
    );
}

#[test]
fn event_messages_of_every_release() {
    let p = load("event/messages.txt");
    assert!(p.diagnostics.is_empty());
    let ranges: Vec<String> = p.events.iter().map(|e| e.versions.to_string()).collect();
    assert_eq!(
        ranges,
        vec![
            ">= 1.8.0, < 1.18.0",
            ">= 1.18.0, < 1.24.0",
            ">= 1.26.0, < 1.29.0",
            ">= 1.34.3",
            ">= 1.34.3",
            "any release"
        ]
    );
    assert_eq!(p.events[1].named_taints(), vec![("dedicated", "infra")]);
    assert!(p.events[2].double_period);
    assert!(p.events[4].preemption.as_ref().unwrap().not_eligible);
    assert!(p.events[5].no_nodes);
    assert_eq!(p.documents.len(), 6);
}

#[test]
fn event_in_get_events_table() {
    let p = load("event/get-events.txt");
    // The table is read, not skipped: nothing to report.
    assert_eq!(codes(&p), vec![]);
    assert_eq!(p.events.len(), 1);
    assert_eq!(p.events[0].object.as_deref(), Some("pod/trainer-0"));
    // The `Scheduled` row is for another pod.
    assert_eq!(p.events[0].scheduled_later, None);
    assert_eq!(p.events[0].location, Location::at(1, 3, 67));
    assert_eq!(
        p.events[0].named_taints(),
        vec![("nvidia.com/gpu", "present")]
    );
}

#[test]
fn mixed_terminal_session() {
    let p = load("mixed/session.txt");
    assert_eq!(
        p.nodes[0].node.taints,
        vec![Taint::new("dedicated", "db", TaintEffect::NoSchedule)]
    );
    assert_eq!(
        p.taint_commands[0].args,
        vec!["nodes", "worker-4", "dedicated=db:NoSchedule-"]
    );
    assert_eq!(p.workloads[0].pod.tolerations[0].value, "db");
    let forms: Vec<Form> = p.documents.iter().map(|d| d.form).collect();
    assert_eq!(
        forms,
        vec![Form::DescribeNode, Form::KubectlTaint, Form::Yaml]
    );
    // Applying the command to the described node removes the taint.
    let run = p.taint_commands[0].apply(&[taintlab_core::Node {
        name: "worker-4".into(),
        ..p.nodes[0].node.clone()
    }]);
    assert_eq!(run.stdout, "node/worker-4 untainted\n");
    assert!(run.nodes[0].taints.is_empty());
}
