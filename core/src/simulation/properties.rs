//! Property tests over random clusters and actions: replicas are conserved, no pod is
//! placed where its taints or a cordon forbid, a drain never evicts past a budget, the
//! same input gives the same timeline, the fast scheduler path agrees with the naive
//! one, and telling the taint-eviction controller only about the pods of tainted nodes
//! agrees with telling it about every pod.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::tests::{node, pod_of, workload};
use super::*;
use crate::helpers::{TaintFilter, find_matching_untolerated_taint};
use crate::model::{Operator, Taint, TaintEffect, Toleration};
use crate::node_lifecycle::{DefaultTolerationSeconds, apply_default_toleration_seconds};
use crate::scheduling::filter::tolerates_unschedulable;

const TAINTS: [(&str, TaintEffect); 4] = [
    ("dedicated", TaintEffect::NoSchedule),
    ("dedicated", TaintEffect::NoExecute),
    ("gpu", TaintEffect::NoSchedule),
    ("maint", TaintEffect::NoExecute),
];

#[derive(Clone, Debug)]
struct Input {
    nodes: usize,
    start_taints: Vec<(usize, usize)>,
    workloads: Vec<(i32, Vec<usize>, i32)>,
    actions: Vec<(i64, u8, usize, usize)>,
}

fn input() -> impl Strategy<Value = Input> {
    (
        3usize..6,
        proptest::collection::vec((0usize..6, 0usize..4), 0..3),
        proptest::collection::vec(
            (1i32..4, proptest::collection::vec(0usize..4, 0..2), 0i32..2),
            1..3,
        ),
        proptest::collection::vec((0i64..150, 0u8..9, 0usize..6, 0usize..4), 1..7),
    )
        .prop_map(|(nodes, start_taints, workloads, actions)| Input {
            nodes,
            start_taints,
            workloads,
            actions,
        })
}

fn tolerations(idx: &[usize]) -> Vec<Toleration> {
    idx.iter()
        .filter_map(|&i| TAINTS.get(i))
        .map(|(k, e)| Toleration::new(k, Operator::Exists, "", e.clone()))
        .collect()
}

fn build(i: &Input) -> WhatIf {
    let mut c = Cluster::default();
    for n in 0..i.nodes {
        c.nodes.push(node(&format!("n{n}")));
    }
    for &(n, t) in &i.start_taints {
        if let (Some(node), Some((k, e))) = (c.nodes.get_mut(n), TAINTS.get(t)) {
            node.node.taints.push(Taint::new(k, "", e.clone()));
        }
    }
    for (wi, (replicas, tol, max_unavailable)) in i.workloads.iter().enumerate() {
        let mut w = workload(
            ControllerKind::ReplicaSet,
            &format!("w{wi}"),
            *replicas,
            "500m",
        );
        w.template.spec.pod.tolerations = tolerations(tol);
        for r in 0..*replicas {
            let n = (wi + r as usize) % i.nodes;
            c.pods
                .push(pod_of(&w, &format!("w{wi}-{r}"), &format!("n{n}")));
        }
        c.disruption_budgets.push(DisruptionBudget {
            namespace: "default".into(),
            name: format!("w{wi}"),
            selector: crate::labels::LabelSelector {
                match_labels: [("app".to_string(), format!("w{wi}"))].into(),
                ..Default::default()
            },
            min_available: None,
            max_unavailable: Some(IntOrPercent::Int(*max_unavailable)),
        });
        c.workloads.push(w);
    }
    let mut actions = Vec::new();
    for &(at, kind, n, t) in &i.actions {
        let node = format!("n{}", n % i.nodes);
        let (key, effect) = TAINTS
            .get(t)
            .cloned()
            .unwrap_or(("x", TaintEffect::NoSchedule));
        let kind = match kind {
            0 => ActionKind::AddTaint {
                node,
                taint: Taint::new(key, "", effect),
            },
            1 => ActionKind::RemoveTaint {
                node,
                key: key.into(),
                effect,
            },
            2 => ActionKind::Cordon { node },
            3 => ActionKind::Uncordon { node },
            4 => ActionKind::Drain {
                node,
                options: DrainOptions {
                    ignore_daemonsets: true,
                    timeout: (t % 2 == 0).then_some(60),
                    ..DrainOptions::default()
                },
            },
            5 => ActionKind::NodeStopsReporting { node },
            6 => ActionKind::NodeReturns { node },
            7 => ActionKind::Scale {
                kind: ControllerKind::ReplicaSet,
                namespace: "default".into(),
                name: format!("w{}", t % i.workloads.len()),
                replicas: (n % 4) as i32,
            },
            _ => ActionKind::DeleteNode { node },
        };
        actions.push(Action::new(at, kind));
    }
    // An action naming a node an earlier action deleted is refused as input (see
    // tests.rs); the properties are about runs the simulation accepts, so such actions
    // are left out, in the order the simulation takes them (second, then position).
    let mut order: Vec<usize> = (0..actions.len()).collect();
    order.sort_by_key(|&k| (actions[k].at, k));
    let mut deleted: Vec<String> = Vec::new();
    let mut keep = vec![true; actions.len()];
    for k in order {
        if let Some(n) = actions[k].node()
            && deleted.iter().any(|d| d == n)
        {
            keep[k] = false;
        } else if let ActionKind::DeleteNode { node } = &actions[k].kind {
            deleted.push(node.clone());
        }
    }
    let mut keep = keep.into_iter();
    actions.retain(|_| keep.next().unwrap_or(true));
    WhatIf::new(c, Semantics::newest(), actions, 500)
}

/// The replicas each workload wants at the end of second `t`.
fn replicas_at(w: &WhatIf, name: &str, t: i64) -> i32 {
    let mut r = w
        .cluster
        .workloads
        .iter()
        .find(|x| x.name == name)
        .map_or(0, |x| x.replicas);
    let mut actions: Vec<&Action> = w.actions.iter().collect();
    actions.sort_by_key(|a| a.at);
    for a in actions {
        if a.at <= t
            && let ActionKind::Scale {
                name: n, replicas, ..
            } = &a.kind
            && n == name
        {
            r = *replicas;
        }
    }
    r
}

fn seconds(t: &Timeline) -> Vec<i64> {
    let mut s: Vec<i64> = t
        .spans
        .iter()
        .flat_map(|s| [Some(s.from), s.to])
        .flatten()
        .chain(t.events.iter().map(|e| e.at))
        .chain(t.node_changes.iter().map(|c| c.at))
        .filter(|&x| x <= t.until)
        .collect();
    s.sort_unstable();
    s.dedup();
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn replica_sets_keep_their_replicas_active_at_every_second(i in input()) {
        let w = build(&i);
        let t = simulate(&w).unwrap();
        for s in seconds(&t) {
            let at = t.at(s);
            for wl in &w.cluster.workloads {
                let active = at
                    .pods
                    .iter()
                    .filter(|p| matches!(p.state, PodState::Pending | PodState::Running))
                    .filter(|p| t.pods[p.pod].owner.as_ref().is_some_and(|o| o.name == wl.name))
                    .count();
                prop_assert_eq!(active as i32, replicas_at(&w, &wl.name, s), "{} at {}", wl.name, s);
            }
        }
    }

    #[test]
    fn no_pod_is_placed_on_a_node_its_taints_or_a_cordon_forbid(i in input()) {
        let w = build(&i);
        let t = simulate(&w).unwrap();
        let defaults = DefaultTolerationSeconds::default();
        for e in t.events_with_reason(SCHEDULED) {
            let node_name = e.message.rsplit(" to ").next().unwrap_or_default();
            let node = t.nodes.iter().position(|n| n == node_name).unwrap();
            let at = t.at(e.at);
            // Second 0 is the starting state: it settles before the actions of second 0
            // (engine.rs main_loop), so a pod placed then saw the node as pasted (an
            // action of second 0 may since have tainted, cordoned or deleted it).
            let pasted = w.cluster.nodes.iter().find(|c| c.node.name == node_name).filter(|_| e.at == 0);
            let (taints, unschedulable, ready) = match pasted {
                Some(c) => (c.node.taints.clone(), c.node.unschedulable, true),
                None => {
                    let n = at.nodes.iter().find(|n| n.node == node);
                    prop_assert!(n.is_some(), "{e:?}: no node {node_name} at {}", e.at);
                    let n = n.unwrap();
                    (n.taints.clone(), n.unschedulable, n.ready)
                }
            };
            let owner = t.pods[t.pod_index("default", &e.object.name).unwrap()].owner.clone().unwrap();
            let template = w.cluster.workloads.iter().find(|x| x.name == owner.name).unwrap();
            let tol = apply_default_toleration_seconds(&template.template.spec.pod.tolerations, defaults);
            prop_assert!(find_matching_untolerated_taint(&taints, &tol, TaintFilter::NoScheduleOrNoExecute, false).is_none(), "{e:?} {:?}", taints);
            prop_assert!(!unschedulable || tolerates_unschedulable(&tol, false));
            prop_assert!(ready);
        }
    }

    #[test]
    fn a_drain_never_evicts_past_a_budget(i in input()) {
        let w = build(&i);
        let t = simulate(&w).unwrap();
        for b in &w.cluster.disruption_budgets {
            let Some(IntOrPercent::Int(max)) = b.max_unavailable else { continue };
            let mine = |p: usize| t.pods[p].owner.as_ref().is_some_and(|o| o.name == b.name);
            let mut evictions: Vec<(i64, usize)> = t
                .spans
                .iter()
                .filter(|s| s.state == PodState::Terminating { cause: TerminationCause::DrainEviction } && mine(s.pod))
                .map(|s| (s.from, s.pod))
                .collect();
            evictions.sort_unstable();
            let mut k = 0;
            while k < evictions.len() {
                let now = evictions[k].0;
                let before = t.at(now - 1);
                // Ready as the API sees it: the node lifecycle controller marks the pods of a
                // node that is not Ready not Ready; on a deleted node nothing does.
                let not_ready: Vec<usize> = before.nodes.iter().filter(|n| !n.ready).map(|n| n.node).collect();
                let healthy: Vec<usize> = before
                    .pods
                    .iter()
                    .filter(|p| mine(p.pod) && p.state == PodState::Running && p.node.is_some_and(|n| !not_ready.contains(&n)))
                    .map(|p| p.pod)
                    .collect();
                let mut evicted_healthy = 0i32;
                while k < evictions.len() && evictions[k].0 == now {
                    if healthy.contains(&evictions[k].1) {
                        evicted_healthy += 1;
                    }
                    k += 1;
                }
                // The budget's expected count is the workload's scale when the eviction
                // is checked: actions of this second (a scale) come before the drain's
                // retries of the same second, and the controllers act after both.
                let desired = (replicas_at(&w, &b.name, now) - max).max(0);
                prop_assert!(healthy.len() as i32 - evicted_healthy >= desired || evicted_healthy == 0,
                    "{} at {}: healthy {} evicted {} desired {}", b.name, now, healthy.len(), evicted_healthy, desired);
            }
        }
    }

    #[test]
    fn the_same_actions_give_the_same_timeline_and_the_naive_scheduler_agrees(i in input()) {
        let w = build(&i);
        let a = simulate(&w).unwrap();
        let b = simulate(&w).unwrap();
        prop_assert_eq!(&a, &b);
        let n = simulate_naive(&w).unwrap();
        prop_assert_eq!(&a, &n);
        // The taint-eviction controller told about every pod, not only those of nodes
        // that had a NoExecute taint, decides the same.
        let e = super::engine::run_with(&w, false, false).unwrap();
        prop_assert_eq!(&a, &e);
    }
}

#[test]
fn properties_see_evictions_and_placements() {
    // The generator reaches the cases the properties are about.
    let i = Input {
        nodes: 3,
        start_taints: vec![],
        workloads: vec![(3, vec![], 1)],
        actions: vec![(10, 4, 0, 0), (20, 0, 1, 1)],
    };
    let w = build(&i);
    let t = simulate(&w).unwrap();
    assert!(
        t.events_with_reason(SCHEDULED).count() >= 2,
        "{:?}",
        t.events
    );
    assert!(t.spans.iter().any(|s| s.state
        == PodState::Terminating {
            cause: TerminationCause::DrainEviction
        }));
    let _ = String::new();
}
