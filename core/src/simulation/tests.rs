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
