//! The placement check: `nodeSelector` and node affinity judged with the engine's
//! placement chain against the listed nodes and their labels, and the dedicated-nodes
//! mutation shown to confine the pod to its pool.

mod common;

use common::*;
use serde_json::{Value, json};
use taintlab_core::{KubeVersion, Semantics};
use taintlab_policy::placement::{feasible_nodes, pod_placement};
use taintlab_policy::request::{Kind, pod_spec_raw};
use taintlab_policy::{evaluate, node_list_request, parse_node_list, payload};

fn node_list(nodes: &[(&str, Value, Value)]) -> Vec<u8> {
    let items: Vec<Value> = nodes
        .iter()
        .map(|(name, labels, taints)| {
            json!({"metadata": {"name": name, "labels": labels}, "spec": {"taints": taints}})
        })
        .collect();
    serde_json::to_vec(&json!({"apiVersion": "v1", "kind": "NodeList", "items": items})).unwrap()
}

/// The cluster of issue 12: a dedicated payments node and a general one.
fn payments_cluster() -> Vec<u8> {
    node_list(&[
        (
            "payments-1",
            json!({"dedicated": "payments"}),
            json!([{"key": "dedicated", "value": "payments", "effect": "NoSchedule"}]),
        ),
        ("general-1", json!({}), json!([])),
    ])
}

/// A GPU pool (label `pool=gpu`, taint `dedicated=gpu:NoSchedule`), general nodes
/// (one of them with another pool label) and a control-plane node.
fn pool_cluster() -> Vec<u8> {
    let gpu_taint = json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]);
    node_list(&[
        (
            "cp-1",
            json!({"node-role.kubernetes.io/control-plane": ""}),
            json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]),
        ),
        ("gpu-1", json!({"pool": "gpu"}), gpu_taint.clone()),
        ("general-1", json!({"pool": "general"}), json!([])),
        ("gpu-2", json!({"pool": "gpu"}), gpu_taint),
        ("general-2", json!({}), json!([])),
    ])
}

fn deny() -> Value {
    json!({"nodeChecks": {"enabled": true, "unschedulable": "deny"}})
}

fn with_selector(kind: &str, selector: Value, tolerations: Value) -> Value {
    let mut s = spec(tolerations);
    s["nodeSelector"] = selector;
    request(kind, "CREATE", Some(object(kind, "api", "shop", s)), None)
}

const LOST: &str = "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";

#[test]
fn issue_twelve_pods_get_the_clusters_answers() {
    let nodes = parse_node_list(&payments_cluster()).unwrap();
    let s = settings(deny());
    let lost = with_selector("Pod", json!({"disktype": "ssd"}), Value::Null);
    let d = evaluate(&lost, &s, Some(&nodes));
    assert!(!d.accepted);
    assert_eq!(
        d.message.as_deref(),
        Some(format!("spec: no node accepts the pod: {LOST}").as_str())
    );
    let api = with_selector(
        "Pod",
        json!({"dedicated": "payments"}),
        json!([{"key": "dedicated", "operator": "Equal", "value": "payments", "effect": "NoSchedule"}]),
    );
    let d = evaluate(&api, &s, Some(&nodes));
    assert!(d.accepted, "{:?}", d.message);
    // And only payments-1 takes it.
    let spec = pod_spec_raw(
        &serde_json::to_vec(&api["object"]).unwrap(),
        Kind::Workload(taintlab_core::WorkloadKind::Pod),
        taintlab_policy::request::SpecNeeds {
            containers: false,
            affinity: true,
        },
    )
    .unwrap();
    let tolerations = taintlab_policy::request::tolerations(spec.as_ref(), "spec").unwrap();
    assert_eq!(
        feasible_nodes(
            &tolerations,
            &pod_placement(spec.as_ref()),
            &nodes,
            Semantics::at(KubeVersion::NEWEST)
        ),
        vec!["payments-1"]
    );
    // Without the selector the same pod fits both nodes.
    assert_eq!(
        feasible_nodes(
            &tolerations,
            &pod_placement(None),
            &nodes,
            Semantics::at(KubeVersion::NEWEST)
        ),
        vec!["payments-1", "general-1"]
    );
}

#[test]
fn every_pod_bearing_kind_reads_its_selector_and_affinity() {
    let nodes = parse_node_list(&payments_cluster()).unwrap();
    let s = settings(deny());
    for kind in pod_kinds() {
        let d = evaluate(
            &with_selector(kind, json!({"disktype": "ssd"}), Value::Null),
            &s,
            Some(&nodes),
        );
        let text = d.message.unwrap_or_default();
        if kind == "DaemonSet" {
            // The DaemonSet controller's tolerations do not cover the payments taint.
            assert!(
                text.contains("no node runs this DaemonSet's pods"),
                "{text}"
            );
        }
        assert!(
            text.contains("1 node(s) didn't match Pod's node affinity/selector"),
            "{kind}: {text}"
        );
        // Required node affinity instead of a selector.
        let mut sp = spec(Value::Null);
        sp["affinity"] = json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
            {"nodeSelectorTerms": [{"matchExpressions": [{"key": "disktype", "operator": "Exists"}]}]}}});
        let d = evaluate(
            &request(kind, "CREATE", Some(object(kind, "a", "shop", sp)), None),
            &s,
            Some(&nodes),
        );
        assert!(
            d.message
                .unwrap_or_default()
                .contains("didn't match Pod's node affinity/selector"),
            "{kind}"
        );
    }
}

#[test]
fn messages_follow_the_release() {
    let nodes = parse_node_list(&payments_cluster()).unwrap();
    let lost = with_selector("Pod", json!({"disktype": "ssd"}), Value::Null);
    let at = |v: &str| {
        let mut s = deny();
        s["kubernetesVersion"] = json!(v);
        evaluate(&lost, &settings(s), Some(&nodes))
            .message
            .unwrap_or_default()
    };
    // No DynamicResources part before 1.34, and the taint is named before 1.34.3.
    assert_eq!(
        at("1.33"),
        "spec: no node accepts the pod: 0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: payments}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
    assert!(at("1.34").contains("no new claims to deallocate, preemption:"));
    // 1.25 – 1.26 run every filter on a node, so payments-1 counts under both reasons;
    // 1.26 – 1.28 end DefaultPreemption's part with a second period.
    assert_eq!(
        at("1.26"),
        "spec: no node accepts the pod: 0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: payments}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.."
    );
    // preemptionPolicy: Never.
    let mut never = lost.clone();
    never["object"]["spec"]["preemptionPolicy"] = json!("Never");
    let d = evaluate(&never, &settings(deny()), Some(&nodes));
    assert!(d.message.unwrap_or_default().ends_with(
        "no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
    ));
    // The preferred terms never make a node infeasible.
    let mut sp = spec(Value::Null);
    sp["affinity"] = json!({"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
        [{"weight": 10, "preference": {"matchExpressions": [{"key": "disktype", "operator": "In", "values": ["ssd"]}]}}]}});
    let d = evaluate(
        &request("Pod", "CREATE", Some(object("Pod", "p", "shop", sp)), None),
        &settings(deny()),
        Some(&nodes),
    );
    assert!(d.accepted, "{:?}", d.message);
}

#[test]
fn node_list_carries_labels_only_when_the_pod_selects_nodes() {
    let s = settings(deny());
    let masks = |req: &Value| {
        node_list_request(req, &s)
            .and_then(|r| r.field_masks)
            .unwrap_or_default()
    };
    assert_eq!(
        masks(&create("Deployment", Value::Null)),
        ["metadata.name", "spec.taints", "spec.unschedulable"]
    );
    assert_eq!(
        masks(&with_selector("Deployment", json!({"a": "b"}), Value::Null)),
        [
            "metadata.name",
            "metadata.labels",
            "spec.taints",
            "spec.unschedulable"
        ]
    );
    let dedicated = settings(
        json!({"nodeChecks": {"enabled": true, "unschedulable": "deny"},
        "namespaceRules": [{"namespaces": ["ml-*"], "dedicatedNodes": {
            "toleration": {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
            "nodeSelectorRequirement": {"key": "pool", "operator": "In", "values": ["gpu"]}}}]}),
    );
    let in_ml = request(
        "Deployment",
        "CREATE",
        Some(object("Deployment", "t", "ml-team", spec(Value::Null))),
        None,
    );
    let r = node_list_request(&in_ml, &dedicated).unwrap();
    assert!(
        r.field_masks
            .unwrap_or_default()
            .contains(&String::from("metadata.labels"))
    );
}

fn dedicated_settings(node_checks: Value) -> Value {
    json!({
        "nodeChecks": node_checks,
        "namespaceRules": [{"namespaces": ["ml-*"], "dedicatedNodes": {
            "toleration": {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
            "nodeSelectorRequirement": {"key": "pool", "operator": "In", "values": ["gpu"]}
        }}]
    })
}

#[test]
fn dedicated_nodes_mutation_lands_only_on_its_pool() {
    let nodes = parse_node_list(&pool_cluster()).unwrap();
    let s = settings(dedicated_settings(
        json!({"enabled": true, "unschedulable": "deny"}),
    ));
    for kind in pod_kinds() {
        let req = request(
            kind,
            "CREATE",
            Some(object(kind, "train", "ml-team", spec(Value::Null))),
            None,
        );
        let d = evaluate(&req, &s, Some(&nodes));
        assert!(d.accepted, "{kind}: {:?}", d.message);
        let mutated = d.mutated_object.expect("mutated");
        let wk = taintlab_core::WorkloadKind::from_name(kind).unwrap();
        let spec = pod_spec_raw(
            &serde_json::to_vec(&mutated).unwrap(),
            Kind::Workload(wk),
            taintlab_policy::request::SpecNeeds {
                containers: false,
                affinity: true,
            },
        )
        .unwrap();
        let tolerations =
            taintlab_policy::request::tolerations(spec.as_ref(), wk.pod_spec_path()).unwrap();
        let feasible = feasible_nodes(
            &tolerations,
            &pod_placement(spec.as_ref()),
            &nodes,
            Semantics::at(KubeVersion::NEWEST),
        );
        assert_eq!(feasible, vec!["gpu-1", "gpu-2"], "{kind}");
        // The toleration alone would let it onto the general nodes too.
        let feasible = feasible_nodes(
            &tolerations,
            &pod_placement(None),
            &nodes,
            Semantics::at(KubeVersion::NEWEST),
        );
        assert_eq!(
            feasible,
            vec!["gpu-1", "general-1", "gpu-2", "general-2"],
            "{kind}"
        );
    }
    // A cluster without the pool: the mutated pod would stay Pending, and the check says
    // so with the scheduler's text (judging the pod after the mutation).
    let no_pool = parse_node_list(&node_list(&[
        ("general-1", json!({"pool": "general"}), json!([])),
        (
            "gpu-x",
            json!({}),
            json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
        ),
    ]))
    .unwrap();
    let d = evaluate(
        &request(
            "Deployment",
            "CREATE",
            Some(object("Deployment", "t", "ml-team", spec(Value::Null))),
            None,
        ),
        &s,
        Some(&no_pool),
    );
    assert!(!d.accepted);
    assert_eq!(
        d.message.as_deref(),
        Some(
            "spec.template.spec: no node accepts the pod: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        )
    );
}

#[test]
fn payload_path_reads_labels_and_matches_evaluate() {
    let list = pool_cluster();
    let nodes = parse_node_list(&list).unwrap();
    let settings_json = dedicated_settings(json!({"enabled": true, "unschedulable": "deny"}));
    let s = settings(settings_json.clone());
    let cases = [
        request(
            "Deployment",
            "CREATE",
            Some(object("Deployment", "t", "ml-team", spec(Value::Null))),
            None,
        ),
        with_selector("Pod", json!({"pool": "tpu"}), Value::Null),
        with_selector("Job", json!({"pool": "general"}), Value::Null),
        create("Deployment", Value::Null),
    ];
    for req in &cases {
        let via_eval = payload::response_json(&evaluate(req, &s, Some(&nodes)));
        let text = format!("{{\"request\":{req},\"settings\":{settings_json}}}");
        let mut masks = Vec::new();
        let via_payload = payload::response_json(&payload::validate(text.as_bytes(), |r| {
            masks = r.field_masks.clone().unwrap_or_default();
            Ok(list.clone())
        }));
        assert_eq!(via_eval, via_payload, "{req}");
        let selects = req["object"].to_string().contains("nodeSelector")
            || req["namespace"] == json!("ml-team");
        assert_eq!(
            masks.contains(&String::from("metadata.labels")),
            selects,
            "{req}"
        );
    }
    assert_eq!(
        payload::response_json(&evaluate(&cases[1], &s, Some(&nodes)))["accepted"],
        json!(false)
    );
}

/// The policy's lean placement path against core's full placement chain
/// (`schedule_placement`, no pods running, allocatable unknown): the same message (or
/// none) and the same feasible nodes, on generated clusters and pods, for every release
/// and both preemption policies.
mod against_the_engine {
    use taintlab_core::model::{
        Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
        PodPlacement, SchedulingPod,
    };
    use taintlab_core::scheduling::placement::{PlacementOptions, PodOutcome};
    use taintlab_core::scheduling::placement_cluster::schedule_placement;
    use taintlab_core::{
        KubeVersion, Node, Operator, Pod, PreemptionPolicy, Semantics, Taint, TaintEffect,
        Toleration,
    };
    use taintlab_policy::placement::{Placement, failed_scheduling, feasible_nodes};

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
            xs[self.below(xs.len())]
        }
    }

    const KEYS: [&str; 3] = ["pool", "zone", "disktype"];
    const VALUES: [&str; 3] = ["a", "b", "7"];
    const NAMES: [&str; 6] = ["n0", "n1", "n2", "n3", "n4", "ghost"];

    fn node(rng: &mut Rng, i: usize) -> Node {
        let mut n = Node {
            name: format!("n{i}"),
            unschedulable: rng.below(5) == 0,
            ..Node::default()
        };
        for k in KEYS {
            if rng.below(2) == 0 {
                n.labels.insert(k.into(), rng.pick(&VALUES).into());
            }
        }
        if rng.below(3) == 0 {
            let effect = [
                TaintEffect::NoSchedule,
                TaintEffect::NoExecute,
                TaintEffect::PreferNoSchedule,
            ][rng.below(3)]
            .clone();
            n.taints
                .push(Taint::new("dedicated", rng.pick(&VALUES), effect));
        }
        n
    }

    fn requirement(rng: &mut Rng, field: bool) -> NodeSelectorRequirement {
        let (key, operator) = if field {
            ("metadata.name", rng.pick(&["In", "NotIn"]))
        } else {
            (
                rng.pick(&KEYS),
                rng.pick(&["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]),
            )
        };
        let values = match operator {
            "Exists" | "DoesNotExist" => Vec::new(),
            "Gt" | "Lt" => vec![String::from(rng.pick(&["5", "x"]))],
            _ if field => (0..=rng.below(2))
                .map(|_| String::from(rng.pick(&NAMES)))
                .collect(),
            _ => vec![String::from(rng.pick(&VALUES))],
        };
        NodeSelectorRequirement {
            key: key.into(),
            operator: operator.into(),
            values,
        }
    }

    fn placement(rng: &mut Rng) -> PodPlacement {
        let mut p = PodPlacement::default();
        if rng.below(2) == 0 {
            p.node_selector
                .insert(rng.pick(&KEYS).into(), rng.pick(&VALUES).into());
        }
        if rng.below(3) != 0 {
            let terms = (0..rng.below(3))
                .map(|_| NodeSelectorTerm {
                    match_expressions: (0..rng.below(3)).map(|_| requirement(rng, false)).collect(),
                    match_fields: (0..rng.below(2)).map(|_| requirement(rng, true)).collect(),
                })
                .collect();
            p.affinity = Some(Affinity {
                node_affinity: Some(NodeAffinity {
                    required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                        node_selector_terms: terms,
                    }),
                    preferred_during_scheduling_ignored_during_execution: Vec::new(),
                }),
            });
        }
        p
    }

    fn tolerations(rng: &mut Rng) -> Vec<Toleration> {
        match rng.below(4) {
            0 => vec![Toleration::new(
                "dedicated",
                Operator::Exists,
                "",
                TaintEffect::Empty,
            )],
            1 => vec![Toleration::new(
                "node.kubernetes.io/unschedulable",
                Operator::Exists,
                "",
                TaintEffect::NoSchedule,
            )],
            2 => vec![Toleration::new(
                "dedicated",
                Operator::Equal,
                "a",
                TaintEffect::NoSchedule,
            )],
            _ => Vec::new(),
        }
    }

    #[test]
    fn same_answers_as_the_engine() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut unschedulable = 0;
        for case in 0..600 {
            let nodes: Vec<Node> = (0..1 + rng.below(5)).map(|i| node(&mut rng, i)).collect();
            let placement = placement(&mut rng);
            let tols = tolerations(&mut rng);
            for minor in 25..=KubeVersion::NEWEST.minor {
                let semantics = Semantics::at(KubeVersion::new(minor, 0));
                for policy in [
                    PreemptionPolicy::PreemptLowerPriority,
                    PreemptionPolicy::Never,
                ] {
                    let pod = SchedulingPod {
                        pod: Pod {
                            tolerations: tols.clone(),
                            preemption_policy: policy.clone(),
                            ..Pod::default()
                        },
                        placement: placement.clone(),
                    };
                    let engine = schedule_placement(
                        std::slice::from_ref(&pod),
                        &nodes,
                        &[],
                        PlacementOptions::new(semantics),
                    );
                    let expected = match engine.outcome(0) {
                        Some(
                            o @ (PodOutcome::Unschedulable { .. }
                            | PodOutcome::SchedulerError { .. }),
                        ) => o.message().map(String::from),
                        _ => None,
                    };
                    let lean = Placement::from(&placement);
                    let ours = failed_scheduling(&tols, &policy, &lean, &nodes, semantics);
                    assert_eq!(
                        ours, expected,
                        "case {case}, 1.{minor}, {policy:?}\nnodes {nodes:?}\nplacement {placement:?}\ntolerations {tols:?}"
                    );
                    unschedulable += usize::from(ours.is_some());
                    let feasible: Vec<&str> = nodes
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| engine.cell(0, *i).is_some_and(|c| c.is_feasible()))
                        .map(|(_, n)| n.name.as_str())
                        .collect();
                    assert_eq!(
                        feasible_nodes(&tols, &lean, &nodes, semantics),
                        feasible,
                        "case {case}, 1.{minor}"
                    );
                }
            }
        }
        // The generator reaches both answers often.
        assert!(unschedulable > 2000, "{unschedulable}");
    }
}
