//! Round trips, YAML/JSON equivalence and the input limits.

use proptest::prelude::*;
use taintlab_core::{
    ConditionStatus, Node, NodeCondition, Operator, Taint, TaintEffect, Toleration,
};
use taintlab_input::{Code, Limits, Options, Workload, emit, parse, parse_with};

fn word() -> impl Strategy<Value = String> {
    // Includes YAML 1.1 traps (yes, on, 1.0, 0x1F, ~) that must survive as strings.
    prop_oneof![
        "[a-z][a-z0-9-]{0,8}",
        Just("yes".to_string()),
        Just("on".to_string()),
        Just("1.0".to_string()),
        Just("0x1F".to_string()),
        Just("010".to_string()),
        Just("~".to_string()),
        Just("true".to_string()),
        Just("a: b".to_string()),
        Just("#x".to_string()),
        Just("é".to_string()),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}(\\.example\\.com/[a-z]{1,6})?",
        Just("node.kubernetes.io/unreachable".to_string())
    ]
}

fn effect() -> impl Strategy<Value = TaintEffect> {
    prop_oneof![
        Just(TaintEffect::NoSchedule),
        Just(TaintEffect::PreferNoSchedule),
        Just(TaintEffect::NoExecute)
    ]
}

fn taint() -> impl Strategy<Value = Taint> {
    (
        key(),
        prop_oneof![Just(String::new()), word()],
        effect(),
        proptest::option::of(Just("2025-06-01T08:00:00Z".to_string())),
    )
        .prop_map(|(k, v, e, t)| Taint {
            key: k,
            value: v,
            effect: e,
            time_added: t,
        })
}

fn toleration() -> impl Strategy<Value = Toleration> {
    (
        prop_oneof![Just(String::new()), key()],
        prop_oneof![
            Just(Operator::Empty),
            Just(Operator::Equal),
            Just(Operator::Exists),
            Just(Operator::Lt),
            Just(Operator::Gt)
        ],
        prop_oneof![Just(String::new()), word()],
        prop_oneof![Just(TaintEffect::Empty), effect()],
        proptest::option::of(-5i64..100_000),
    )
        .prop_map(|(k, o, v, e, s)| Toleration::new(&k, o, &v, e).with_seconds(s))
}

fn node() -> impl Strategy<Value = Node> {
    (
        "[a-z][a-z0-9-]{0,10}",
        proptest::collection::btree_map(key(), word(), 0..4),
        proptest::collection::vec(taint(), 0..4),
        any::<bool>(),
        proptest::collection::vec(
            (
                "[A-Z][a-zA-Z]{2,8}",
                prop_oneof![Just("True"), Just("False"), Just("Unknown")],
            ),
            0..3,
        ),
    )
        .prop_map(|(name, labels, taints, unschedulable, conds)| Node {
            name,
            labels,
            taints,
            unschedulable,
            conditions: conds
                .into_iter()
                .map(|(t, s)| NodeCondition {
                    type_: t,
                    status: ConditionStatus::parse(s),
                })
                .collect(),
        })
}

fn pod() -> impl Strategy<Value = Workload> {
    (
        "[a-z][a-z0-9-]{0,10}",
        proptest::collection::vec(toleration(), 0..5),
        proptest::option::of(-10i32..1_000_000),
        any::<bool>(),
        prop_oneof![Just(String::new()), "[a-z]{1,8}"],
    )
        .prop_map(|(name, tolerations, priority, never, node_name)| {
            let mut w = Workload {
                kind: "Pod".into(),
                api_version: "v1".into(),
                name: name.clone(),
                priority,
                ..Default::default()
            };
            w.pod.name = name;
            w.pod.namespace = "default".into();
            w.pod.tolerations = tolerations;
            w.pod.node_name = node_name;
            if never {
                w.pod.preemption_policy = taintlab_core::PreemptionPolicy::Never;
            }
            w.containers.push(taintlab_input::ContainerResources {
                name: "app".into(),
                image: "app:1".into(),
                requests: [("cpu".to_string(), "100m".to_string())].into(),
                limits: Default::default(),
            });
            w
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn nodes_round_trip_through_yaml_and_json(n in node()) {
        let v = emit::node_json(&n);
        let y = parse(&emit::to_yaml(&v));
        let j = parse(&emit::to_json(&v));
        prop_assert!(y.diagnostics.is_empty(), "{:?}", y.diagnostics);
        prop_assert!(j.diagnostics.is_empty(), "{:?}", j.diagnostics);
        prop_assert_eq!(&y.nodes[0].node, &n);
        prop_assert_eq!(&j.nodes[0].node, &n);
    }

    #[test]
    fn pods_round_trip_through_yaml_and_json(w in pod()) {
        let v = emit::pod_json(&w);
        for text in [emit::to_yaml(&v), emit::to_json(&v)] {
            let p = parse(&text);
            prop_assert!(p.errors().next().is_none(), "{:?}\n{}", p.diagnostics, text);
            let back = &p.workloads[0];
            prop_assert_eq!(&back.pod, &w.pod);
            prop_assert_eq!(back.priority, w.priority);
            prop_assert_eq!(&back.containers, &w.containers);
        }
    }

    #[test]
    fn bare_lists_round_trip(t in proptest::collection::vec(taint(), 1..4), tol in proptest::collection::vec(toleration(), 1..4)) {
        let p = parse(&emit::to_yaml(&emit::taints_json(&t)));
        prop_assert_eq!(&p.taint_lists[0].taints, &t);
        let p = parse(&emit::to_json(&emit::tolerations_json(&tol)));
        prop_assert_eq!(&p.toleration_lists[0].tolerations, &tol);
    }

    #[test]
    fn never_panics_on_arbitrary_text(s in "\\PC{0,200}") {
        let _ = parse(&s);
    }

    /// A `kubectl get pods -o wide` header over rows that start with a name and a second
    /// cell, then table words in any order and spacing (cells missing, extra, run
    /// together): never a panic, never an error
    /// (a row that does not line up is a note), never more pods than rows.
    #[test]
    fn pod_tables_with_arbitrary_rows(
        header in prop_oneof![
            Just("NAME   READY   STATUS   RESTARTS   AGE   IP   NODE   NOMINATED NODE   READINESS GATES"),
            Just("NAMESPACE   NAME   READY   STATUS   RESTARTS   AGE   IP   NODE   NOMINATED NODE   READINESS GATES"),
            Just("NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES"),
            Just("NAME        READY     STATUS    RESTARTS   AGE       IP        NODE"),
        ],
        rows in proptest::collection::vec(
            proptest::collection::vec(
                (
                    prop_oneof![
                        Just("<none>".to_string()),
                        Just("Running".to_string()),
                        Just("Pending".to_string()),
                        Just("Init:0/1".to_string()),
                        Just("2 (3m ago)".to_string()),
                        Just("(".to_string()),
                        Just("1/1".to_string()),
                        word(),
                    ],
                    prop_oneof![Just(" "), Just("   "), Just("\t"), Just("")],
                ),
                0..12,
            ),
            1..6,
        ),
    ) {
        let body: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                // A name and a second cell: the row stays in the table.
                let cells: String = r.iter().map(|(w, sp)| format!("{w}{sp}")).collect();
                format!("pod-{i}   0/1   {cells}")
            })
            .collect();
        let text = format!("{header}\n{}\n", body.join("\n"));
        let p = parse(&text);
        prop_assert_eq!(p.errors().count(), 0, "{}", text);
        prop_assert!(p.workloads.len() <= rows.len());
    }

    /// go-template / jsonpath name-and-taints lines with arbitrary list text (maps and
    /// JSON cut anywhere, nested, unbalanced): never a panic, one node per line read.
    #[test]
    fn taint_rows_with_arbitrary_lists(
        rows in proptest::collection::vec(
            (
                word(),
                proptest::collection::vec(
                    prop_oneof![
                        Just("[map[".to_string()),
                        Just("]".to_string()),
                        Just("[{".to_string()),
                        Just("}]".to_string()),
                        Just("effect:".to_string()),
                        Just("key:".to_string()),
                        Just(" ".to_string()),
                        Just("\"effect\":".to_string()),
                        Just("<no value>".to_string()),
                        word(),
                    ],
                    0..10,
                ),
            ),
            1..6,
        ),
    ) {
        let text: String = rows
            .iter()
            .map(|(n, parts)| format!("{n}\t{}\n", parts.concat()))
            .collect();
        let p = parse(&text);
        prop_assert!(p.nodes.len() <= rows.len());
    }

    /// Tool error lines (Terraform's schema checks, old kubectl validation, API server
    /// rejections) built from their pieces in any order: never a panic, at most one
    /// explanation for the one line, and that a warning (the paste is not wrong).
    #[test]
    fn tool_error_pieces_in_any_order(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just("│ Error: expected "),
                Just(" to be one of "),
                Just(", got "),
                Just("spec.0.template.0.spec.0.toleration.0.effect"),
                Just("node_config.0.taint.0.effect"),
                Just("[\"NoSchedule\" \"NoExecute\"]"),
                Just("found invalid field "),
                Just(" for v1.PodSpec;"),
                Just("tolerations"),
                Just("Unsupported value: \""),
                Just("is invalid: spec.template.spec.tolerations[0].effect:"),
                Just("\""),
                Just(" "),
                Just("NoSchedul"),
            ],
            0..14,
        ),
    ) {
        let line = format!("│ Error: {}", pieces.concat());
        let p = parse(&line);
        let explained: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.code == taintlab_input::Code::ToolError)
            .collect();
        prop_assert!(explained.len() <= 1, "{}", line);
        prop_assert!(explained.iter().all(|d| d.severity == taintlab_input::Severity::Warning));
    }
}

#[test]
fn oversized_input_fails_fast() {
    let opts = Options {
        limits: Limits {
            max_input_bytes: 1000,
            ..Limits::default()
        },
        ..Options::default()
    };
    let p = parse_with(&"a".repeat(1001), &opts);
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].code, Code::InputTooLarge);
    assert_eq!(
        p.diagnostics[0].message,
        "the input is 1001 bytes, more than the limit of 1000 bytes (0 MiB); nothing was read"
    );
}

#[test]
fn input_at_the_size_limit_parses_and_one_byte_more_does_not() {
    let limit = Limits::default().max_input_bytes;
    let head = "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"big\", \"annotations\": {\"x\": \"";
    let tail = "\"}}, \"spec\": {\"taints\": [{\"key\": \"k\", \"effect\": \"NoSchedule\"}]}}";
    let mut text = String::with_capacity(limit + 1);
    text.push_str(head);
    text.push_str(&"x".repeat(limit - head.len() - tail.len()));
    text.push_str(tail);
    assert_eq!(text.len(), limit);
    let p = parse(&text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(p.nodes[0].node.taints.len(), 1);
    text.push(' ');
    let p = parse(&text);
    assert_eq!(p.diagnostics[0].code, Code::InputTooLarge);
}

#[test]
fn deep_nesting_fails_fast_in_every_reader() {
    for text in [
        format!("{}{}", "[".repeat(200_000), "]".repeat(200_000)),
        format!("spec: {}{}", "{a: ".repeat(50_000), "}".repeat(50_000)),
        format!("tolerations:\n{}x\n", "- ".repeat(20_000)),
    ] {
        let p = parse(&text);
        assert!(
            p.diagnostics.iter().any(|d| d.code == Code::TooDeep),
            "{:?}",
            p.diagnostics
        );
    }
}

#[test]
fn yaml_and_json_give_the_same_objects() {
    let list = taintlab_input::sample::nodes_list(50);
    let j = parse(&taintlab_input::sample::to_kubectl_json(&list));
    let y = parse(&taintlab_input::sample::to_kubectl_yaml(&list));
    let jn: Vec<_> = j
        .nodes
        .iter()
        .map(|n| (&n.node, &n.kubelet_version, n.location.path.as_str()))
        .collect();
    let yn: Vec<_> = y
        .nodes
        .iter()
        .map(|n| (&n.node, &n.kubelet_version, n.location.path.as_str()))
        .collect();
    assert_eq!(jn.len(), 50);
    assert_eq!(jn, yn);
}
