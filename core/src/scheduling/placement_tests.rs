//! Tests of the placement cycle: per-release texts, plugin order, the PreFilter result,
//! preemption with host ports, and grouped == naive on random clusters.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::placement::*;
use super::placement_cluster::{PlacementIndex, schedule_placement};
use crate::model::*;
use crate::version::{KubeVersion, Semantics};

fn at(minor: u16) -> PlacementOptions {
    PlacementOptions::new(Semantics::at(KubeVersion::new(minor, 0)))
}

fn node(name: &str, labels: &[(&str, &str)], taints: &[(&str, &str)], cordoned: bool) -> Node {
    Node {
        name: name.into(),
        labels: labels
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect(),
        taints: taints
            .iter()
            .map(|(k, v)| Taint::new(k, v, TaintEffect::NoSchedule))
            .collect(),
        unschedulable: cordoned,
        ..Node::default()
    }
}

fn pod(name: &str) -> SchedulingPod {
    SchedulingPod {
        pod: Pod {
            namespace: "default".into(),
            name: name.into(),
            ..Pod::default()
        },
        placement: PodPlacement::default(),
    }
}

fn with_selector(mut p: SchedulingPod, k: &str, v: &str) -> SchedulingPod {
    p.placement.node_selector.insert(k.into(), v.into());
    p
}

fn pinned(mut p: SchedulingPod, names: &[&str]) -> SchedulingPod {
    p.placement.affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_fields: vec![NodeSelectorRequirement::new("metadata.name", "In", names)],
                    ..Default::default()
                }],
            }),
            ..Default::default()
        }),
    });
    p
}

fn message(
    pod: &SchedulingPod,
    nodes: &[Node],
    bound: &[SchedulingPod],
    o: PlacementOptions,
) -> String {
    let naive = schedule_naive(core::slice::from_ref(pod), nodes, bound, o);
    let grouped = schedule_placement(core::slice::from_ref(pod), nodes, bound, o);
    let m = naive[0]
        .outcome
        .message()
        .map(String::from)
        .unwrap_or_default();
    assert_eq!(
        grouped.message(0).unwrap_or_default(),
        m,
        "grouped == naive"
    );
    m
}

#[test]
fn the_issue_example() {
    let nodes = [
        node(
            "payments-1",
            &[("dedicated", "payments")],
            &[("dedicated", "payments")],
            false,
        ),
        node("general-1", &[], &[], false),
    ];
    let mut api = with_selector(pod("api"), "dedicated", "payments");
    api.pod.tolerations = vec![Toleration::new(
        "dedicated",
        Operator::Equal,
        "payments",
        TaintEffect::NoSchedule,
    )];
    let lost = with_selector(pod("lost"), "disktype", "ssd");
    let r = schedule_naive(&[api.clone(), lost.clone()], &nodes, &[], at(35));
    assert_eq!(r[0].outcome, PodOutcome::Feasible { nodes: 1 });
    assert!(r[0].nodes[0].is_feasible());
    assert_eq!(
        r[0].nodes[1].rejected_by(),
        Some(super::FilterPlugin::NodeAffinity)
    );
    assert_eq!(
        r[1].outcome.message(),
        Some(
            "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        )
    );
    assert_eq!(
        message(&lost, &nodes, &[], at(33)),
        "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: payments}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
    // 1.25 – 1.26 merge: payments-1 fails TaintToleration and NodeAffinity (checked
    // with the v1.26.0 scheduler).
    assert_eq!(
        message(&lost, &nodes, &[], at(26)),
        "0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: payments}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.."
    );
    // v1.26 – v1.28 end in "..", v1.25 does not.
    assert!(message(&lost, &nodes, &[], at(27)).ends_with("scheduling.."));
    assert!(message(&lost, &nodes, &[], at(25)).ends_with("for scheduling."));
}

#[test]
fn merged_failures_on_1_25_and_1_26_first_failure_later() {
    // Cordoned, tainted and without the label: three plugins fail.
    let nodes = [node("n1", &[], &[("k", "v")], true)];
    let p = with_selector(pod("p"), "disk", "ssd");
    assert_eq!(
        message(&p, &nodes, &[], at(26)),
        "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {k: v}, 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.."
    );
    assert_eq!(
        message(&p, &nodes, &[], at(27)),
        "0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.."
    );
    let r = schedule_naive(core::slice::from_ref(&p), &nodes, &[], at(25));
    match &r[0].nodes[0] {
        NodeOutcome::Rejected { plugins, .. } => assert_eq!(plugins.len(), 3),
        other => panic!("{other:?}"),
    }
}

fn daemon_cluster() -> (Vec<Node>, Vec<SchedulingPod>) {
    let nodes: Vec<Node> = (1..=4)
        .map(|i| node(&alloc::format!("n{i}"), &[], &[], false))
        .collect();
    let mut holder = pod("holder");
    holder.pod.node_name = "n4".into();
    holder.placement.host_ports = vec![HostPort::new(9100, "TCP", "")];
    (nodes, vec![holder])
}

#[test]
fn pre_filter_result_per_release() {
    let (nodes, bound) = daemon_cluster();
    let mut p = pinned(pod("exporter"), &["n4"]);
    p.placement.host_ports = vec![HostPort::new(9100, "", "")];
    // 1.25 – 1.29: the cut nodes are not recorded, but preemption treats them as
    // candidates and finds no victims there.
    assert_eq!(
        message(&p, &nodes, &bound, at(29)),
        "0/4 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod."
    );
    assert_eq!(
        message(&p, &nodes, &bound, at(30)),
        "0/4 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 3 node is filtered out by the prefilter result. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling."
    );
    assert_eq!(
        message(&p, &nodes, &bound, at(35)),
        "0/4 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling."
    );
    // A higher-priority pod can preempt the port holder: no post-filter text.
    p.placement.priority = 10;
    let r = schedule_naive(core::slice::from_ref(&p), &nodes, &bound, at(35));
    match &r[0].outcome {
        PodOutcome::Unschedulable {
            event,
            preemption_possible,
            nomination,
        } => {
            assert!(*preemption_possible);
            assert!(nomination.is_some());
            assert!(
                event.message.ends_with("[NodeAffinity]."),
                "{}",
                event.message
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn missing_pinned_node_per_release() {
    let (nodes, _) = daemon_cluster();
    let p = pinned(pod("ds"), &["gone"]);
    for minor in [25, 29] {
        let r = schedule_naive(core::slice::from_ref(&p), &nodes, &[], at(minor));
        assert_eq!(
            r[0].outcome,
            PodOutcome::SchedulerError {
                message: String::from("nodeinfo not found for node name \"gone\"")
            }
        );
    }
    assert!(matches!(
        schedule_naive(core::slice::from_ref(&p), &nodes, &[], at(30))[0].outcome,
        PodOutcome::SchedulerPanic { .. }
    ));
    assert_eq!(
        message(&p, &nodes, &[], at(33)),
        "0/4 nodes are available: 4 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."
    );
}

#[test]
fn conflicting_terms_per_release() {
    let nodes = [node("a", &[], &[], false), node("b", &[], &[], false)];
    let mut p = pinned(pod("p"), &["a"]);
    if let Some(ns) = p
        .placement
        .affinity
        .as_mut()
        .and_then(|a| a.node_affinity.as_mut())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_mut()
        })
    {
        ns.node_selector_terms[0]
            .match_fields
            .push(NodeSelectorRequirement::new("metadata.name", "In", &["b"]));
    }
    assert_eq!(
        message(&p, &nodes, &[], at(25)),
        "0/2 nodes are available: 2 pod affinity terms conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
    assert_eq!(
        message(&p, &nodes, &[], at(26)),
        "0/2 nodes are available: pod affinity terms conflict. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.."
    );
    assert_eq!(
        message(&p, &nodes, &[], at(29)),
        "0/2 nodes are available: pod affinity terms conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
}

#[test]
fn one_empty_term_conflicts_only_before_1_27() {
    let mut p = pod("p");
    let empty_term = NodeSelectorTerm {
        match_fields: vec![
            NodeSelectorRequirement::new("metadata.name", "In", &["a"]),
            NodeSelectorRequirement::new("metadata.name", "In", &["b"]),
        ],
        ..Default::default()
    };
    let good = NodeSelectorTerm {
        match_fields: vec![NodeSelectorRequirement::new("metadata.name", "In", &["a"])],
        ..Default::default()
    };
    p.placement.affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: vec![empty_term, good],
            }),
            ..Default::default()
        }),
    });
    assert_eq!(
        node_affinity_pre_filter(&p, at(26)),
        PreFilterResult::Conflict
    );
    assert_eq!(
        node_affinity_pre_filter(&p, at(27)),
        PreFilterResult::Nodes(["a".into()].into_iter().collect())
    );
}

#[test]
fn host_port_rules() {
    let mut used = UsedPorts::default();
    used.add(&HostPort::new(80, "", "10.0.0.1"));
    used.add(&HostPort::new(53, "UDP", ""));
    assert!(used.conflicts(&HostPort::new(80, "TCP", "0.0.0.0")));
    assert!(used.conflicts(&HostPort::new(80, "TCP", "10.0.0.1")));
    assert!(!used.conflicts(&HostPort::new(80, "TCP", "10.0.0.2")));
    assert!(!used.conflicts(&HostPort::new(80, "UDP", "")));
    assert!(used.conflicts(&HostPort::new(53, "UDP", "10.9.9.9")));
    assert!(!used.conflicts(&HostPort::new(53, "TCP", "")));
    assert!(!used.conflicts(&HostPort::new(0, "", "")));
    // `::` is not a wildcard.
    assert!(!used.conflicts(&HostPort::new(80, "TCP", "::")));
}

#[test]
fn sidecar_ports_count_from_1_34() {
    let nodes = [node("n", &[], &[], false)];
    let mut holder = pod("h");
    holder.pod.node_name = "n".into();
    let mut sidecar = HostPort::new(8080, "", "");
    sidecar.sidecar = true;
    holder.placement.host_ports = vec![sidecar];
    let mut p = pod("p");
    p.placement.host_ports = vec![HostPort::new(8080, "", "")];
    let fits = |minor| {
        schedule_naive(
            core::slice::from_ref(&p),
            &nodes,
            core::slice::from_ref(&holder),
            at(minor),
        )[0]
        .outcome
            == PodOutcome::Feasible { nodes: 1 }
    };
    assert!(fits(33));
    assert!(!fits(34));
}

#[test]
fn gates_other_schedulers_and_bound_pods_get_no_message() {
    let nodes = [node("n", &[], &[("k", "")], false)];
    let mut gated = pod("g");
    gated.placement.scheduling_gates = vec!["example.com/wait".into()];
    assert_eq!(
        schedule_naive(core::slice::from_ref(&gated), &nodes, &[], at(30))[0].outcome,
        PodOutcome::Gated
    );
    // 1.26 (gate alpha, off) and 1.25 (no field) schedule it as usual.
    assert!(
        schedule_naive(core::slice::from_ref(&gated), &nodes, &[], at(26))[0]
            .outcome
            .message()
            .is_some()
    );
    let mut other = pod("o");
    other.placement.scheduler_name = "my-scheduler".into();
    assert_eq!(
        schedule_naive(core::slice::from_ref(&other), &nodes, &[], at(30))[0].outcome,
        PodOutcome::OtherScheduler
    );
    other.placement.scheduler_name = DEFAULT_SCHEDULER_NAME.into();
    assert!(
        schedule_naive(core::slice::from_ref(&other), &nodes, &[], at(30))[0]
            .outcome
            .message()
            .is_some()
    );
}

#[test]
fn preferred_affinity_scores_and_weights() {
    let nodes = [
        node("a", &[("zone", "x"), ("ssd", "")], &[], false),
        node("b", &[("zone", "x")], &[], false),
        node("c", &[], &[], false),
    ];
    let mut p = pod("p");
    let term = |w, r: NodeSelectorRequirement| PreferredSchedulingTerm {
        weight: w,
        preference: NodeSelectorTerm {
            match_expressions: vec![r],
            ..Default::default()
        },
    };
    p.placement.affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            preferred_during_scheduling_ignored_during_execution: vec![
                term(30, NodeSelectorRequirement::new("zone", "In", &["x"])),
                term(10, NodeSelectorRequirement::new("ssd", "Exists", &[])),
            ],
            ..Default::default()
        }),
    });
    let r = schedule_naive(core::slice::from_ref(&p), &nodes, &[], at(35));
    let scores: Vec<Option<i64>> = r[0].nodes.iter().map(|n| n.combined_score()).collect();
    // Raw 40, 30, 0 → 100, 75, 0; ×2 plus TaintToleration 100 × 3.
    assert_eq!(scores, [Some(500), Some(450), Some(300)]);
    let g = schedule_placement(core::slice::from_ref(&p), &nodes, &[], at(35));
    let gs: Vec<Option<i64>> = g.row(0).unwrap().map(|n| n.combined_score()).collect();
    assert_eq!(gs, scores);
}

#[test]
fn prefer_scoring_error_only_with_two_feasible_nodes() {
    let mut p = pod("p");
    p.placement.affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            preferred_during_scheduling_ignored_during_execution: vec![PreferredSchedulingTerm {
                weight: 1,
                preference: NodeSelectorTerm {
                    match_expressions: vec![NodeSelectorRequirement::new("a", "Bogus", &[])],
                    ..Default::default()
                },
            }],
            ..Default::default()
        }),
    });
    let two = [node("a", &[], &[], false), node("b", &[], &[], false)];
    assert_eq!(
        schedule_naive(core::slice::from_ref(&p), &two, &[], at(30))[0].outcome,
        PodOutcome::PreScoreError
    );
    assert_eq!(
        schedule_naive(core::slice::from_ref(&p), &two[..1], &[], at(30))[0].outcome,
        PodOutcome::Feasible { nodes: 1 }
    );
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

const KEYS: [&str; 3] = ["zone", "pool", "disk"];
const VALUES: [&str; 3] = ["a", "b", "7"];

fn arb_node() -> impl Strategy<Value = (u8, u8, u8, bool, bool)> {
    (0u8..4, 0u8..4, 0u8..4, any::<bool>(), any::<bool>())
}

fn build_nodes(spec: &[(u8, u8, u8, bool, bool)]) -> Vec<Node> {
    spec.iter()
        .enumerate()
        .map(|(i, &(z, p, d, tainted, cordoned))| {
            let mut labels = BTreeMap::new();
            labels.insert("kubernetes.io/hostname".into(), alloc::format!("n{i}"));
            for (k, v) in KEYS.iter().zip([z, p, d]) {
                if let Some(val) = VALUES.get(v as usize) {
                    labels.insert(String::from(*k), String::from(*val));
                }
            }
            Node {
                name: alloc::format!("n{i}"),
                labels,
                taints: if tainted {
                    vec![Taint::new("dedicated", "x", TaintEffect::NoSchedule)]
                } else {
                    vec![]
                },
                unschedulable: cordoned,
                ..Node::default()
            }
        })
        .collect()
}

fn arb_pod() -> impl Strategy<Value = SchedulingPod> {
    let ops = prop_oneof![
        Just("In"),
        Just("NotIn"),
        Just("Exists"),
        Just("DoesNotExist"),
        Just("Gt"),
        Just("Lt")
    ];
    (
        proptest::option::of((0usize..3, 0usize..3)),
        proptest::option::of((0usize..3, ops, 0usize..3)),
        proptest::option::of(0usize..6),
        proptest::option::of(80i32..82),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(sel, expr, pinned_to, port, tolerate, never)| {
            let mut p = pod("p");
            if let Some((k, v)) = sel {
                p.placement
                    .node_selector
                    .insert(KEYS[k].into(), VALUES[v].into());
            }
            let mut terms = Vec::new();
            if let Some((k, op, v)) = expr {
                let values: Vec<&str> = match op {
                    "Exists" | "DoesNotExist" => vec![],
                    _ => vec![VALUES[v]],
                };
                terms.push(NodeSelectorTerm {
                    match_expressions: vec![NodeSelectorRequirement::new(KEYS[k], op, &values)],
                    ..Default::default()
                });
            }
            if let Some(n) = pinned_to {
                let name = alloc::format!("n{n}");
                terms.push(NodeSelectorTerm {
                    match_fields: vec![NodeSelectorRequirement::new(
                        "metadata.name",
                        "In",
                        &[name.as_str()],
                    )],
                    ..Default::default()
                });
            }
            if !terms.is_empty() {
                p.placement.affinity = Some(Affinity {
                    node_affinity: Some(NodeAffinity {
                        required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                            node_selector_terms: terms,
                        }),
                        preferred_during_scheduling_ignored_during_execution: vec![
                            PreferredSchedulingTerm {
                                weight: 5,
                                preference: NodeSelectorTerm {
                                    match_expressions: vec![NodeSelectorRequirement::new(
                                        "zone",
                                        "In",
                                        &["a"],
                                    )],
                                    ..Default::default()
                                },
                            },
                        ],
                    }),
                });
            }
            if let Some(port) = port {
                p.placement.host_ports = vec![HostPort::new(port, "", "")];
            }
            if tolerate {
                p.pod.tolerations = vec![Toleration::new(
                    "dedicated",
                    Operator::Exists,
                    "",
                    TaintEffect::Empty,
                )];
            }
            if never {
                p.pod.preemption_policy = PreemptionPolicy::Never;
            }
            p
        })
}

fn bound_pods(nodes: usize) -> Vec<SchedulingPod> {
    (0..nodes)
        .step_by(2)
        .map(|i| {
            let mut b = pod(&alloc::format!("b{i}"));
            b.pod.node_name = alloc::format!("n{i}");
            b.placement.priority = i32::try_from(i % 3).unwrap_or(0);
            b.placement.host_ports = vec![HostPort::new(80, "TCP", "")];
            b
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn grouped_equals_naive(
        spec in proptest::collection::vec(arb_node(), 0..10),
        pods in proptest::collection::vec(arb_pod(), 1..5),
        minor in 25u16..37,
    ) {
        let nodes = build_nodes(&spec);
        let bound = bound_pods(nodes.len());
        let o = at(minor);
        let naive = schedule_naive(&pods, &nodes, &bound, o);
        let grouped = schedule_placement(&pods, &nodes, &bound, o);
        // A reused index built for other pods gives the same answers too.
        let index = PlacementIndex::new(&nodes, &bound, &[], o);
        let reused = index.schedule(&pods);
        for (i, n) in naive.iter().enumerate() {
            prop_assert_eq!(Some(&n.outcome), grouped.outcome(i));
            prop_assert_eq!(Some(&n.outcome), reused.outcome(i));
            let row: Vec<NodeOutcome> = grouped.row(i).unwrap().cloned().collect();
            prop_assert_eq!(&row, &n.nodes);
        }
    }

    #[test]
    fn unsatisfiable_selector_never_fits(
        spec in proptest::collection::vec(arb_node(), 0..10),
        base in arb_pod(),
        minor in 25u16..37,
    ) {
        let nodes = build_nodes(&spec);
        // No node has this label value.
        let p = with_selector(base, "zone", "nowhere");
        let r = schedule_naive(core::slice::from_ref(&p), &nodes, &[], at(minor));
        prop_assert!(r[0].nodes.iter().all(|n| !n.is_feasible()));
        let feasible = matches!(r[0].outcome, PodOutcome::Feasible { .. });
        prop_assert!(!feasible);
    }

    #[test]
    fn adding_a_filter_never_makes_a_node_feasible(
        spec in proptest::collection::vec(arb_node(), 1..10),
        base in arb_pod(),
        k in 0usize..3, v in 0usize..3,
        minor in 25u16..37,
    ) {
        let nodes = build_nodes(&spec);
        let bound = bound_pods(nodes.len());
        let o = at(minor);
        let before = schedule_naive(core::slice::from_ref(&base), &nodes, &bound, o);
        let mut stricter = base.clone();
        // A new requirement only: an existing key keeps its value.
        stricter.placement.node_selector.entry(KEYS[k].into()).or_insert_with(|| VALUES[v].into());
        stricter.placement.host_ports.push(HostPort::new(81, "UDP", ""));
        let after = schedule_naive(core::slice::from_ref(&stricter), &nodes, &bound, o);
        for (b, a) in before[0].nodes.iter().zip(&after[0].nodes) {
            prop_assert!(!a.is_feasible() || b.is_feasible());
        }
    }
}
