//! Unit tests per rule.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::model::{Node, SchedulingPod, Taint, TaintEffect};
use crate::resource::{ContainerResources, list};

pub(crate) fn node(name: &str) -> ClusterNode {
    ClusterNode {
        node: Node {
            name: name.to_string(),
            ..Node::default()
        },
        allocatable: Some(list(&[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")])),
    }
}

pub(crate) fn template(cpu: &str) -> PodTemplate {
    let mut spec = SchedulingPod::default();
    let mut c = ContainerResources::requesting(&[("cpu", cpu)]);
    c.name = "app".to_string();
    spec.placement.containers = vec![c];
    PodTemplate {
        spec,
        ..PodTemplate::default()
    }
}

pub(crate) fn workload(kind: ControllerKind, name: &str, replicas: i32, cpu: &str) -> Workload {
    let mut t = template(cpu);
    t.labels.insert("app".to_string(), name.to_string());
    Workload {
        kind,
        namespace: "default".to_string(),
        name: name.to_string(),
        replicas,
        template: t,
        pod_replacement_policy: None,
        replica_set: None,
    }
}

pub(crate) fn pod_of(w: &Workload, name: &str, node: &str) -> ClusterPod {
    let mut p = w.template.spec.clone();
    p.pod.namespace = w.namespace.clone();
    p.pod.name = name.to_string();
    p.pod.node_name = node.to_string();
    ClusterPod {
        pod: p,
        labels: w.template.labels.clone(),
        owner: Some(Owner {
            kind: w.kind,
            name: w.name.clone(),
        }),
        ..ClusterPod::default()
    }
}

fn run(cluster: Cluster, actions: Vec<Action>, until: i64) -> Timeline {
    simulate(&WhatIf::new(cluster, Semantics::newest(), actions, until)).unwrap()
}

fn lines(t: &Timeline) -> Vec<String> {
    t.events
        .iter()
        .map(|e| {
            alloc::format!(
                "{} {} {}/{} {}",
                e.at,
                e.reason,
                e.object.namespace,
                e.object.name,
                e.message
            )
        })
        .collect()
}

fn three_nodes_rs() -> Cluster {
    let w = workload(ControllerKind::ReplicaSet, "web", 3, "1");
    Cluster {
        nodes: vec![node("n1"), node("n2"), node("n3")],
        pods: vec![
            pod_of(&w, "web-a", "n1"),
            pod_of(&w, "web-b", "n2"),
            pod_of(&w, "web-c", "n3"),
        ],
        workloads: vec![w],
        disruption_budgets: vec![],
        daemon_sets_without_spec: vec![],
    }
}

#[test]
fn no_execute_taint_evicts_and_the_replica_set_replaces_at_once() {
    let t = run(
        three_nodes_rs(),
        vec![Action::new(
            10,
            ActionKind::AddTaint {
                node: "n1".into(),
                taint: Taint::new("dedicated", "infra", TaintEffect::NoExecute),
            },
        )],
        100,
    );
    let l = lines(&t);
    assert_eq!(
        l[0],
        "10 TaintManagerEviction default/web-a Marking for deletion Pod default/web-a"
    );
    assert_eq!(l[1], "10 Killing default/web-a Stopping container app");
    assert!(
        l[2].starts_with("10 SuccessfulCreate default/web Created pod: web-"),
        "{l:?}"
    );
    assert!(l[3].starts_with("10 Scheduled default/web-"), "{l:?}");
    assert!(
        l[3].ends_with(" to n2") || l[3].ends_with(" to n3"),
        "{l:?}"
    );
    // Gone after the 30 s default grace period.
    let a = t.pod_index("default", "web-a").unwrap();
    assert_eq!(t.pods[a].gone, Some(40));
    assert_eq!(t.summary.evicted, 1);
    assert_eq!(t.summary.replaced, 1);
    assert_eq!(t.summary.rescheduled, 1);
    assert!(t.summary.still_pending.is_empty());
}

fn pdb(
    name: &str,
    app: &str,
    max_unavailable: Option<i32>,
    min_available: Option<i32>,
) -> DisruptionBudget {
    DisruptionBudget {
        namespace: "default".into(),
        name: name.into(),
        selector: crate::labels::LabelSelector {
            match_labels: [("app".to_string(), app.to_string())].into(),
            ..Default::default()
        },
        min_available: min_available.map(IntOrPercent::Int),
        max_unavailable: max_unavailable.map(IntOrPercent::Int),
    }
}

fn drain(at: i64, node: &str, options: DrainOptions) -> Action {
    Action::new(
        at,
        ActionKind::Drain {
            node: node.into(),
            options,
        },
    )
}

fn drain_lines(t: &Timeline) -> Vec<String> {
    t.events
        .iter()
        .filter(|e| e.source != Source::Event)
        .map(|e| alloc::format!("{} {}", e.at, e.message))
        .collect()
}

#[test]
fn drain_blocked_by_a_budget_retries_every_five_seconds_until_the_timeout() {
    // controllers.md worked timeline (b): StatefulSet db (3), PDB maxUnavailable 0,
    // kube-proxy DaemonSet pod skipped with --ignore-daemonsets.
    let db = workload(ControllerKind::StatefulSet, "db", 3, "500m");
    let mut ds = workload(ControllerKind::DaemonSet, "kube-proxy", 0, "100m");
    ds.namespace = "kube-system".into();
    let mut cluster = Cluster {
        nodes: vec![node("n1"), node("n2"), node("n3")],
        pods: vec![
            pod_of(&db, "db-0", "n2"),
            pod_of(&db, "db-1", "n1"),
            pod_of(&db, "db-2", "n3"),
        ],
        workloads: vec![db, ds.clone()],
        disruption_budgets: vec![pdb("db-pdb", "db", Some(0), None)],
        daemon_sets_without_spec: vec![],
    };
    for n in ["n1", "n2", "n3"] {
        cluster
            .pods
            .push(pod_of(&ds, &alloc::format!("kube-proxy-{n}"), n));
    }
    let t = run(
        cluster,
        vec![drain(
            0,
            "n1",
            DrainOptions {
                ignore_daemonsets: true,
                timeout: Some(60),
                ..DrainOptions::default()
            },
        )],
        100,
    );
    let l = drain_lines(&t);
    assert_eq!(l[0], "0 node/n1 cordoned");
    assert_eq!(
        l[1],
        "0 Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-n1"
    );
    assert_eq!(l[2], "0 evicting pod default/db-1");
    assert_eq!(
        l[3],
        "0 error when evicting pods/\"db-1\" -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."
    );
    assert_eq!(l[4], "5 evicting pod default/db-1");
    assert!(
        l.iter().any(|x| x.contains("global timeout reached: 1m0s")),
        "{l:?}"
    );
    assert!(l.iter().any(|x| x == "60  n1"), "{l:?}");
    // The pod was never evicted; the drain failed.
    let db1 = t.pod_index("default", "db-1").unwrap();
    assert!(t.spans_of(db1).all(|s| s.state == PodState::Running));
    assert!(t.summary.drains_unfinished);
    assert_eq!(t.summary.evicted, 0);
}

#[test]
fn drain_within_the_budget_evicts_and_a_stateful_set_recreates_the_same_name_once_gone() {
    let db = workload(ControllerKind::StatefulSet, "db", 3, "500m");
    let cluster = Cluster {
        nodes: vec![node("n1"), node("n2"), node("n3")],
        pods: vec![
            pod_of(&db, "db-0", "n2"),
            pod_of(&db, "db-1", "n1"),
            pod_of(&db, "db-2", "n3"),
        ],
        workloads: vec![db],
        disruption_budgets: vec![pdb("db-pdb", "db", Some(1), None)],
        daemon_sets_without_spec: vec![],
    };
    let t = run(cluster, vec![drain(0, "n1", DrainOptions::default())], 100);
    let l = drain_lines(&t);
    assert_eq!(
        l[..2],
        [
            "0 node/n1 cordoned".to_string(),
            "0 evicting pod default/db-1".to_string()
        ]
    );
    assert!(l.contains(&"30 pod/db-1 evicted".to_string()), "{l:?}");
    assert!(l.contains(&"30 node/n1 drained".to_string()), "{l:?}");
    // At second 0: kubectl's lines, then the kubelet's Killing that the eviction causes.
    let at_0: Vec<&str> = t
        .events
        .iter()
        .filter(|e| e.at == 0)
        .map(|e| e.message.as_str())
        .collect();
    assert_eq!(
        at_0,
        [
            "node/n1 cordoned",
            "evicting pod default/db-1",
            "Stopping container app"
        ]
    );
    // Not replaced while terminating; the new db-1 comes at 30, on another node.
    let old = t.pods.iter().position(|p| p.name == "db-1").unwrap();
    let new = t.pod_index("default", "db-1").unwrap();
    assert_ne!(old, new);
    assert_eq!(t.pods[old].gone, Some(30));
    assert_eq!(t.pods[new].created, 30);
    assert_eq!(t.pods[new].replaces, Some(old));
    let placed = t.spans_of(new).find_map(|s| s.node).unwrap();
    assert_ne!(t.nodes[placed], "n1");
    let created: Vec<&Event> = t.events_with_reason(SUCCESSFUL_CREATE).collect();
    assert_eq!(created.len(), 1);
    assert_eq!(
        created[0].message,
        "create Pod db-1 in StatefulSet db successful"
    );
    assert_eq!(created[0].at, 30);
    assert!(!t.summary.drains_unfinished);
}

#[test]
fn node_failure_waits_for_grace_then_300_s_and_the_evicted_pod_stays_terminating() {
    let w = workload(ControllerKind::Deployment, "web", 3, "1");
    let mut cluster = three_nodes_rs();
    cluster.workloads = vec![w.clone()];
    for p in &mut cluster.pods {
        p.owner = Some(Owner {
            kind: ControllerKind::ReplicaSet,
            name: "web-7d9f8c6b5".into(),
        });
    }
    let t = run(
        cluster,
        vec![Action::new(
            0,
            ActionKind::NodeStopsReporting { node: "n1".into() },
        )],
        600,
    );
    let l = lines(&t);
    // 1.35 default grace 50 s: Unknown at the pass after 50 (55).
    assert_eq!(
        l[0],
        "55 NodeNotReady /n1 Node n1 status is now: NodeNotReady"
    );
    let a = t.pod_index("default", "web-a").unwrap();
    let marking = t
        .events
        .iter()
        .find(|e| e.reason == "TaintManagerEviction")
        .unwrap();
    assert_eq!(marking.at, 355);
    // The kubelet is gone: no Killing event, the pod stays terminating to the end.
    assert!(t.events_with_reason(KILLING).next().is_none());
    assert_eq!(t.pods[a].gone, None);
    // The replacement is made at once, named after the ReplicaSet.
    let created: Vec<&Event> = t.events_with_reason(SUCCESSFUL_CREATE).collect();
    assert_eq!(created.len(), 1);
    assert_eq!(created[0].at, 355);
    assert!(
        created[0]
            .message
            .starts_with("Created pod: web-7d9f8c6b5-")
    );
    let at_end = t.at(600);
    assert_eq!(
        at_end.nodes.iter().find(|n| n.node == 0).map(|n| n.ready),
        Some(false)
    );
    assert!(at_end.pods.iter().any(|p| p.pod == a
        && matches!(
            p.state,
            PodState::Terminating {
                cause: TerminationCause::TaintEviction
            }
        )));
    // Before: n1 tainted unreachable NoSchedule + NoExecute.
    let n1 = at_end.nodes.iter().find(|n| n.node == 0).unwrap();
    assert!(
        n1.taints.iter().any(
            |t| t.key == "node.kubernetes.io/unreachable" && t.effect == TaintEffect::NoExecute
        )
    );
    assert!(
        n1.taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/unreachable"
                && t.effect == TaintEffect::NoSchedule)
    );
}

#[test]
fn node_returning_removes_taints_and_finishes_terminating_pods() {
    let t = run(
        three_nodes_rs(),
        vec![
            Action::new(0, ActionKind::NodeStopsReporting { node: "n1".into() }),
            Action::new(400, ActionKind::NodeReturns { node: "n1".into() }),
        ],
        600,
    );
    let a = t.pod_index("default", "web-a").unwrap();
    assert_eq!(t.pods[a].gone, Some(400));
    let n1 = t.at(400).nodes.into_iter().find(|n| n.node == 0).unwrap();
    assert!(n1.ready);
    assert!(n1.taints.is_empty(), "{:?}", n1.taints);
}

#[test]
fn a_pod_tolerating_the_taint_for_a_while_is_evicted_when_its_seconds_run_out() {
    let mut c = three_nodes_rs();
    c.pods[0].pod.pod.tolerations.push(
        crate::model::Toleration::new(
            "k",
            crate::model::Operator::Exists,
            "",
            TaintEffect::NoExecute,
        )
        .with_seconds(Some(20)),
    );
    let t = run(
        c,
        vec![Action::new(
            5,
            ActionKind::AddTaint {
                node: "n1".into(),
                taint: Taint::new("k", "v", TaintEffect::NoExecute),
            },
        )],
        100,
    );
    let m: Vec<i64> = t
        .events_with_reason("TaintManagerEviction")
        .map(|e| e.at)
        .collect();
    assert_eq!(m, [25]);
}

#[test]
fn removing_the_taint_in_time_cancels_the_eviction() {
    let mut c = three_nodes_rs();
    c.pods[0].pod.pod.tolerations.push(
        crate::model::Toleration::new(
            "k",
            crate::model::Operator::Exists,
            "",
            TaintEffect::NoExecute,
        )
        .with_seconds(Some(20)),
    );
    let t = run(
        c,
        vec![
            Action::new(
                5,
                ActionKind::AddTaint {
                    node: "n1".into(),
                    taint: Taint::new("k", "v", TaintEffect::NoExecute),
                },
            ),
            Action::new(
                10,
                ActionKind::RemoveTaint {
                    node: "n1".into(),
                    key: "k".into(),
                    effect: TaintEffect::Empty,
                },
            ),
        ],
        100,
    );
    let m: Vec<String> = t
        .events_with_reason("TaintManagerEviction")
        .map(|e| alloc::format!("{} {}", e.at, e.message))
        .collect();
    assert_eq!(m, ["10 Cancelling deletion of Pod default/web-a"]);
    assert_eq!(t.summary.evicted, 0);
}

#[test]
fn cordon_keeps_running_pods_and_new_pods_avoid_the_node() {
    let t = run(
        three_nodes_rs(),
        vec![
            Action::new(0, ActionKind::Cordon { node: "n2".into() }),
            Action::new(0, ActionKind::Cordon { node: "n3".into() }),
            Action::new(
                1,
                ActionKind::Scale {
                    kind: ControllerKind::ReplicaSet,
                    namespace: "default".into(),
                    name: "web".into(),
                    replicas: 5,
                },
            ),
        ],
        10,
    );
    let sched: Vec<&Event> = t.events_with_reason(SCHEDULED).collect();
    assert_eq!(sched.len(), 2);
    assert!(sched.iter().all(|e| e.message.ends_with(" to n1")));
    // Cordon adds the unschedulable taint (TaintNodesByCondition).
    let n2 = t.at(0).nodes.into_iter().find(|n| n.node == 1).unwrap();
    assert!(n2.unschedulable);
    assert_eq!(
        n2.taints,
        [Taint::new(
            "node.kubernetes.io/unschedulable",
            "",
            TaintEffect::NoSchedule
        )]
    );
}

#[test]
fn when_nothing_fits_the_replacement_stays_pending_with_the_scheduler_text() {
    let t = run(
        three_nodes_rs(),
        vec![
            Action::new(0, ActionKind::Cordon { node: "n2".into() }),
            Action::new(
                0,
                ActionKind::AddTaint {
                    node: "n3".into(),
                    taint: Taint::new("gpu", "", TaintEffect::NoSchedule),
                },
            ),
            Action::new(
                1,
                ActionKind::AddTaint {
                    node: "n1".into(),
                    taint: Taint::new("gone", "", TaintEffect::NoExecute),
                },
            ),
        ],
        60,
    );
    assert_eq!(t.summary.still_pending.len(), 1);
    let msg = &t.summary.still_pending[0].message;
    assert!(msg.starts_with("0/3 nodes are available: "), "{msg}");
    assert!(msg.contains("1 node(s) were unschedulable"), "{msg}");
    let failed: Vec<&Event> = t.events_with_reason(FAILED_SCHEDULING).collect();
    // One event: later retries (the old pod gone at 31) give the same text.
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].at, 1);
}

#[test]
fn daemon_set_pods_keep_running_through_cordon_and_node_failure_and_fill_a_new_node() {
    let mut ds = workload(ControllerKind::DaemonSet, "agent", 0, "100m");
    ds.namespace = "kube-system".into();
    let cluster = Cluster {
        nodes: vec![node("n1"), node("n2")],
        pods: vec![],
        workloads: vec![ds],
        disruption_budgets: vec![],
        daemon_sets_without_spec: vec![],
    };
    let t = run(
        cluster,
        vec![
            Action::new(10, ActionKind::Cordon { node: "n1".into() }),
            Action::new(10, ActionKind::NodeStopsReporting { node: "n2".into() }),
            Action::new(20, ActionKind::AddNode { node: node("n3") }),
            Action::new(
                30,
                ActionKind::AddTaint {
                    node: "n3".into(),
                    taint: Taint::new("x", "", TaintEffect::NoExecute),
                },
            ),
        ],
        1000,
    );
    let created: Vec<i64> = t
        .events_with_reason(SUCCESSFUL_CREATE)
        .map(|e| e.at)
        .collect();
    assert_eq!(created, [0, 0, 20]);
    let sched: Vec<String> = t
        .events_with_reason(SCHEDULED)
        .map(|e| e.message.clone())
        .collect();
    assert!(sched[2].ends_with(" to n3"), "{sched:?}");
    // The untolerated NoExecute taint on n3: the taint manager deletes the pod first,
    // so the DaemonSet controller (which deletes only non-terminating pods) has nothing
    // left to delete, and does not recreate it.
    let n3_pod = t.pods.iter().position(|p| p.created == 20).unwrap();
    assert_eq!(t.pods[n3_pod].gone, Some(60));
    assert_eq!(t.events_with_reason(SUCCESSFUL_CREATE).count(), 3);
    assert_eq!(t.events_with_reason(SUCCESSFUL_DELETE).count(), 0);
    assert_eq!(t.events_with_reason("TaintManagerEviction").count(), 1);
}

#[test]
fn job_replacement_waits_for_the_failure_backoff() {
    let job = workload(ControllerKind::Job, "batch", 1, "1");
    let cluster = Cluster {
        nodes: vec![node("n1"), node("n2")],
        pods: vec![pod_of(&job, "batch-abcde", "n1")],
        workloads: vec![job],
        disruption_budgets: vec![],
        daemon_sets_without_spec: vec![],
    };
    let t = run(
        cluster,
        vec![Action::new(
            5,
            ActionKind::AddTaint {
                node: "n1".into(),
                taint: Taint::new("x", "", TaintEffect::NoExecute),
            },
        )],
        100,
    );
    let created: Vec<i64> = t
        .events_with_reason(SUCCESSFUL_CREATE)
        .map(|e| e.at)
        .collect();
    assert_eq!(created, [15]);
}

#[test]
fn preemption_evicts_a_lower_priority_pod_and_the_preemptor_lands_once_it_is_gone() {
    let mut n = node("n1");
    n.allocatable = Some(list(&[("cpu", "2"), ("memory", "8Gi"), ("pods", "110")]));
    let low = workload(ControllerKind::ReplicaSet, "low", 1, "2");
    let mut high_pod = pod_of(
        &workload(ControllerKind::ReplicaSet, "x", 0, "2"),
        "high",
        "",
    );
    high_pod.owner = None;
    high_pod.pod.placement.priority = 1000;
    let cluster = Cluster {
        nodes: vec![n],
        pods: vec![pod_of(&low, "low-a", "n1")],
        workloads: vec![low],
        disruption_budgets: vec![],
        daemon_sets_without_spec: vec![],
    };
    let t = run(
        cluster,
        vec![Action::new(3, ActionKind::CreatePod { pod: high_pod })],
        100,
    );
    let l = lines(&t);
    assert!(
        l.contains(
            &"3 Preempted default/low-a Preempted by pod default/high on node n1".to_string()
        ),
        "{l:?}"
    );
    let high = t.pod_index("default", "high").unwrap();
    let bound = t.spans_of(high).find(|s| s.node.is_some()).unwrap();
    assert_eq!(bound.from, 33);
    // The low pod's replacement finds no room.
    assert_eq!(t.summary.still_pending.len(), 1);
}

#[test]
fn scale_down_deletes_unassigned_then_newest_pods() {
    let t = run(
        three_nodes_rs(),
        vec![Action::new(
            2,
            ActionKind::Scale {
                kind: ControllerKind::ReplicaSet,
                namespace: "default".into(),
                name: "web".into(),
                replicas: 1,
            },
        )],
        100,
    );
    let deleted: Vec<String> = t
        .events_with_reason(SUCCESSFUL_DELETE)
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(deleted.len(), 2);
    assert_eq!(t.summary.replaced, 0);
}

#[test]
fn bad_input_is_an_error_naming_the_field() {
    let mut c = three_nodes_rs();
    c.pods[1].pod.pod.name = "web-a".into();
    let e = simulate(&WhatIf::new(c, Semantics::newest(), vec![], 10)).unwrap_err();
    assert_eq!(e.field, "cluster.pods[1].name");
    let mut c = three_nodes_rs();
    c.pods[0].pod.pod.node_name = "nope".into();
    let e = simulate(&WhatIf::new(c, Semantics::newest(), vec![], 10)).unwrap_err();
    assert_eq!(e.field, "cluster.pods[0].nodeName");
    let e = simulate(&WhatIf::new(
        three_nodes_rs(),
        Semantics::newest(),
        vec![Action::new(-1, ActionKind::Cordon { node: "n1".into() })],
        10,
    ))
    .unwrap_err();
    assert_eq!(e.field, "actions[0].at");
}

#[test]
fn a_daemon_set_without_its_spec_exists_for_drain_and_a_missing_one_does_not() {
    let ds = workload(ControllerKind::DaemonSet, "agent", 0, "100m");
    let with_spec_unknown = |known: bool| Cluster {
        nodes: vec![node("n1"), node("n2")],
        pods: vec![pod_of(&ds, "agent-n1", "n1")],
        daemon_sets_without_spec: if known {
            vec![("default".into(), "agent".into())]
        } else {
            vec![]
        },
        ..Cluster::default()
    };
    let options = DrainOptions {
        ignore_daemonsets: true,
        ..DrainOptions::default()
    };
    let t = run(
        with_spec_unknown(true),
        vec![drain(0, "n1", options.clone())],
        30,
    );
    assert_eq!(
        drain_lines(&t)[1],
        "0 Warning: ignoring DaemonSet-managed Pods: default/agent-n1"
    );
    assert!(!t.summary.drains_unfinished);
    // Nothing creates the DaemonSet's pod on n2: its spec is not known.
    assert_eq!(t.pods.len(), 1);
    // Gone (the owner reference names no DaemonSet there is): kubectl's Get fails.
    let t = run(with_spec_unknown(false), vec![drain(0, "n1", options)], 30);
    assert!(
        drain_lines(&t)
            .iter()
            .any(|l| l.contains("daemonsets.apps \"agent\" not found")),
        "{:?}",
        drain_lines(&t)
    );
}

#[test]
fn kubectl_scale_targets_resolve_as_kubectl_does() {
    for (word, kind) in [
        ("deploy", ControllerKind::Deployment),
        ("Deployments", ControllerKind::Deployment),
        ("RS", ControllerKind::ReplicaSet),
        ("sts", ControllerKind::StatefulSet),
        ("jobs", ControllerKind::Job),
        ("rc", ControllerKind::ReplicationController),
    ] {
        assert_eq!(ControllerKind::scale_target(word), Some(kind), "{word}");
    }
    // No scale subresource, or not a workload.
    for word in ["daemonset", "ds", "pod", "cronjob", ""] {
        assert_eq!(ControllerKind::scale_target(word), None, "{word}");
    }
}

#[test]
fn scaling_a_workload_that_is_not_there_is_an_error() {
    let scale = |kind, namespace: &str, name: &str| {
        let action = Action::new(
            5,
            ActionKind::Scale {
                kind,
                namespace: namespace.into(),
                name: name.into(),
                replicas: 3,
            },
        );
        simulate(&WhatIf::new(
            three_nodes_rs(),
            Semantics::newest(),
            vec![action],
            60,
        ))
    };
    let e = scale(ControllerKind::Deployment, "default", "web").unwrap_err();
    assert_eq!(e.field, "actions[0].name");
    assert_eq!(
        e.message,
        "Deployment default/web does not exist (kubectl: Error from server (NotFound): deployments.apps \"web\" not found); the paste has no Deployment"
    );
    // The right name in another namespace: the ones there are listed.
    let e = scale(ControllerKind::ReplicaSet, "shop", "web").unwrap_err();
    assert!(
        e.message.ends_with("; the replicasets are: default/web"),
        "{e}"
    );
    assert!(scale(ControllerKind::ReplicaSet, "default", "web").is_ok());
}

#[test]
fn an_action_naming_a_node_that_is_not_there_is_an_error() {
    // Never there: kubectl answers NotFound, so no timeline is claimed.
    let e = simulate(&WhatIf::new(
        three_nodes_rs(),
        Semantics::newest(),
        vec![drain(5, "n9", DrainOptions::default())],
        60,
    ))
    .unwrap_err();
    assert_eq!(e.field, "actions[0].node");
    assert!(
        e.message.contains("\"n9\" does not exist at second 5"),
        "{e}"
    );
    // Deleted by an earlier action: the later one names a node that is gone. The
    // naive path agrees.
    let w = WhatIf::new(
        three_nodes_rs(),
        Semantics::newest(),
        vec![
            Action::new(0, ActionKind::DeleteNode { node: "n2".into() }),
            Action::new(30, ActionKind::Cordon { node: "n2".into() }),
        ],
        60,
    );
    let e = simulate(&w).unwrap_err();
    assert_eq!(e.field, "actions[1].node");
    assert!(e.message.contains("at second 30"), "{e}");
    assert_eq!(simulate_naive(&w).unwrap_err(), e);
    // A node that exists is still fine.
    assert!(
        simulate(&WhatIf::new(
            three_nodes_rs(),
            Semantics::newest(),
            vec![Action::new(0, ActionKind::Cordon { node: "n2".into() })],
            60,
        ))
        .is_ok()
    );
}

#[test]
fn zone_failure_taints_one_node_every_ten_seconds() {
    let mut nodes = Vec::new();
    for z in ["a", "b"] {
        for i in 0..4 {
            let mut n = node(&alloc::format!("{z}{i}"));
            n.node
                .labels
                .insert("topology.kubernetes.io/zone".into(), z.into());
            nodes.push(n);
        }
    }
    let cluster = Cluster {
        nodes,
        ..Cluster::default()
    };
    let actions = (0..4)
        .map(|i| {
            Action::new(
                0,
                ActionKind::NodeStopsReporting {
                    node: alloc::format!("a{i}"),
                },
            )
        })
        .collect();
    let t = run(cluster, actions, 200);
    let tainted: Vec<i64> = t
        .node_changes
        .iter()
        .filter(|c| c.taints.iter().any(|x| x.effect == TaintEffect::NoExecute))
        .map(|c| c.at)
        .collect();
    // Zone a is fully disrupted, zone b is not: 0.1 nodes/s.
    assert_eq!(tainted, [55, 65, 75, 85]);
}

/// A Deployment `web` (2 replicas) whose starting pods on n1 are owned by the
/// ReplicaSets `owners` (one per pod), with a budget of `maxUnavailable: 1`; n2 is the
/// only other node.
fn deployment_on_n1(replica_set: Option<&str>, owners: [&str; 2]) -> Cluster {
    let mut w = workload(ControllerKind::Deployment, "web", 2, "1");
    w.replica_set = replica_set.map(String::from);
    let mut pods = Vec::new();
    for (i, rs) in owners.into_iter().enumerate() {
        let mut p = pod_of(&w, &alloc::format!("{rs}-pod{i}"), "n1");
        p.owner = Some(Owner {
            kind: ControllerKind::ReplicaSet,
            name: rs.into(),
        });
        pods.push(p);
    }
    Cluster {
        nodes: vec![node("n1"), node("n2")],
        pods,
        workloads: vec![w],
        disruption_budgets: vec![pdb("web", "web", Some(1), None)],
        daemon_sets_without_spec: vec![],
    }
}

/// The names of the pods a drain of n1 at 0 and of n2 at 100 create, with every
/// `SuccessfulCreate` event's object and every drain line.
fn drain_n1_then_n2(cluster: Cluster) -> (Vec<String>, Vec<String>, Vec<String>) {
    let options = DrainOptions::default();
    let t = run(
        cluster,
        vec![drain(0, "n1", options.clone()), drain(100, "n2", options)],
        300,
    );
    let created: Vec<String> = t
        .pods
        .iter()
        .filter(|p| p.replaces.is_some())
        .map(|p| p.name.clone())
        .collect();
    let objects = t
        .events_with_reason(SUCCESSFUL_CREATE)
        .map(|e| alloc::format!("{}/{}", e.object.kind.as_str(), e.object.name))
        .collect();
    (created, objects, drain_lines(&t))
}

/// `<prefix>-` and 5 characters of the name generator's alphabet.
fn generated_from(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .and_then(|s| s.strip_prefix('-'))
        .is_some_and(|s| s.len() == 5 && s.bytes().all(|b| ALPHANUMS_FOR_TESTS.contains(&b)))
}

const ALPHANUMS_FOR_TESTS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

#[test]
fn a_deployment_names_its_pods_after_the_replica_set_it_is_given() {
    // The pods are owned by an older ReplicaSet; the Deployment's current one names the
    // replacements, the SuccessfulCreate events and the second drain's lines, and the
    // budget finds the Deployment through either ReplicaSet.
    let (created, objects, drain) = drain_n1_then_n2(deployment_on_n1(
        Some("web-7d9f8c6b5"),
        ["web-5c4d6f8b9"; 2],
    ));
    // Two replacements land on n2; the second drain evicts one of them (its replacement
    // stays Pending: both nodes are cordoned) and the budget holds the other.
    assert_eq!(created.len(), 3, "{created:?}");
    assert!(
        created.iter().all(|n| generated_from(n, "web-7d9f8c6b5")),
        "{created:?}"
    );
    assert!(
        objects.iter().all(|o| o == "ReplicaSet/web-7d9f8c6b5"),
        "{objects:?}"
    );
    assert!(
        drain.iter().all(|l| !l.contains("found no controllers")),
        "{drain:?}"
    );
    // The pods the second drain evicts are the first drain's replacements.
    let second: Vec<&String> = drain
        .iter()
        .filter(|l| l.starts_with("100 evicting pod "))
        .collect();
    assert!(!second.is_empty(), "{drain:?}");
    for l in second {
        let name = l.trim_start_matches("100 evicting pod default/");
        assert!(created[..2].iter().any(|c| c == name), "{l} of {created:?}");
    }
    assert!(
        drain
            .iter()
            .any(|l| l.starts_with("100 error when evicting pods/\"web-7d9f8c6b5-")),
        "{drain:?}"
    );
}

#[test]
fn the_first_replica_set_a_starting_pod_names_is_the_deployments_when_none_is_given() {
    let (created, objects, _) =
        drain_n1_then_n2(deployment_on_n1(None, ["web-5c4d6f8b9", "web-7d9f8c6b5"]));
    assert!(
        created.iter().all(|n| generated_from(n, "web-5c4d6f8b9")),
        "{created:?}"
    );
    assert!(
        objects.iter().all(|o| o == "ReplicaSet/web-5c4d6f8b9"),
        "{objects:?}"
    );
}

#[test]
fn a_deployment_without_a_replica_set_gets_a_hash_shaped_like_upstreams() {
    let mut cluster = deployment_on_n1(None, ["x", "y"]);
    cluster.pods.clear();
    let t = run(cluster, vec![], 10);
    let created: Vec<&Event> = t.events_with_reason(SUCCESSFUL_CREATE).collect();
    assert_eq!(created.len(), 2);
    let rs = &created[0].object.name;
    // SafeEncodeString of a decimal uint32: 1 to 10 of 4-9, b, c, d, f.
    let hash = rs.strip_prefix("web-").expect("web-<hash>");
    assert!(
        (1..=10).contains(&hash.len()) && hash.bytes().all(|b| b"456789bcdf".contains(&b)),
        "{rs}"
    );
    for p in &t.pods {
        assert!(generated_from(&p.name, rs), "{} of {rs}", p.name);
    }
}

#[test]
fn a_long_replica_set_name_is_cut_to_58_bytes_before_the_suffix() {
    let rs = alloc::format!("{}-7d9f8c6b5", "w".repeat(50));
    let mut w = workload(ControllerKind::Deployment, &"w".repeat(50), 1, "1");
    w.replica_set = Some(rs.clone());
    let t = run(
        Cluster {
            nodes: vec![node("n1")],
            workloads: vec![w],
            ..Cluster::default()
        },
        vec![],
        10,
    );
    let name = &t.pods[0].name;
    // `<rs>-` is 61 bytes: GenerateName keeps 58 of them, then adds 5 characters.
    assert_eq!(name.len(), 63, "{name}");
    assert!(name.starts_with(&rs[..58]), "{name}");
    assert!(!name.starts_with(&alloc::format!("{rs}-")), "{name}");
}

#[test]
fn a_pod_name_used_again_gets_the_eviction_order_of_its_first_use() {
    // The taint-eviction controller numbers pod keys by their first appearance and walks
    // a node's pods in that order. `solo` is bound first (before `other`), deleted by a
    // drain, and created again on n1 with the same name: when n1 is tainted, `solo`
    // still comes first, as the controller knew its key before `other`'s.
    let w = workload(ControllerKind::ReplicaSet, "web", 0, "100m");
    let mut solo = pod_of(&w, "solo", "n0");
    solo.owner = None;
    let mut other = pod_of(&w, "other", "n1");
    other.owner = None;
    let mut again = solo.clone();
    again.pod.pod.node_name = "n1".to_string();
    let cluster = Cluster {
        nodes: vec![node("n0"), node("n1")],
        pods: vec![solo, other],
        ..Cluster::default()
    };
    let drain = DrainOptions {
        force: true,
        ..DrainOptions::default()
    };
    let actions = vec![
        Action::new(
            0,
            ActionKind::Drain {
                node: "n0".into(),
                options: drain,
            },
        ),
        Action::new(40, ActionKind::CreatePod { pod: again }),
        Action::new(
            50,
            ActionKind::AddTaint {
                node: "n1".into(),
                taint: Taint::new("maint", "", TaintEffect::NoExecute),
            },
        ),
    ];
    let what_if = WhatIf::new(cluster, Semantics::newest(), actions, 100);
    let t = simulate(&what_if).unwrap();
    let marked: Vec<String> = t
        .events
        .iter()
        .filter(|e| e.at == 50 && e.reason == "TaintManagerEviction")
        .map(|e| e.object.name.clone())
        .collect();
    assert_eq!(marked, ["solo", "other"], "{:#?}", lines(&t));
    // Telling the controller about every pod from the start gives the same timeline.
    assert_eq!(t, super::engine::run_with(&what_if, false, false).unwrap());
}
