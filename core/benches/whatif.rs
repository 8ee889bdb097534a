//! What-if simulation (`simulation::simulate`) against its naive baseline
//! (`simulate_naive`: every scheduling cycle evaluates every node in full).
//!
//! * `zone_failure`: 5,000 nodes in 10 zones of 500, 50,000 pods (900 Deployments of 50
//!   pods, 0.1 CPU and 256 MiB each, plus a DaemonSet with one pod per node); at t = 0
//!   every node of one zone stops reporting; 1,800 s simulated. The zone's nodes are
//!   tainted one every 10 s from t = 55, their pods evicted 300 s later and replaced on
//!   the other zones.
//! * `drain_110`: 500 nodes, one of them holding 110 pods of 110 Deployments (and a
//!   DaemonSet pod); `kubectl drain --ignore-daemonsets` at t = 0 with a
//!   PodDisruptionBudget (`maxUnavailable: 1`) per Deployment; 120 s simulated.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use taintlab_core::Semantics;
use taintlab_core::labels::LabelSelector;
use taintlab_core::model::{Node, SchedulingPod};
use taintlab_core::resource::{ContainerResources, list};
use taintlab_core::simulation::{
    Action, ActionKind, Cluster, ClusterNode, ClusterPod, ControllerKind, DisruptionBudget,
    DrainOptions, IntOrPercent, Owner, PodTemplate, WhatIf, Workload, simulate, simulate_naive,
};

fn node(name: &str, zone: usize) -> ClusterNode {
    let mut n = Node {
        name: name.into(),
        ..Node::default()
    };
    n.labels
        .insert("topology.kubernetes.io/zone".into(), format!("z{zone}"));
    n.labels
        .insert("kubernetes.io/hostname".into(), name.into());
    ClusterNode {
        node: n,
        allocatable: Some(list(&[("cpu", "16"), ("memory", "64Gi"), ("pods", "110")])),
    }
}

fn template(app: &str) -> PodTemplate {
    let mut spec = SchedulingPod::default();
    let mut c = ContainerResources::requesting(&[("cpu", "100m"), ("memory", "256Mi")]);
    c.name = "app".into();
    spec.placement.containers = vec![c];
    let mut t = PodTemplate {
        spec,
        ..PodTemplate::default()
    };
    t.labels.insert("app".into(), app.into());
    t
}

fn pod(w: &Workload, owner: Owner, name: String, node: &str) -> ClusterPod {
    let mut p = w.template.spec.clone();
    p.pod.namespace = w.namespace.clone();
    p.pod.name = name;
    p.pod.node_name = node.into();
    ClusterPod {
        pod: p,
        labels: w.template.labels.clone(),
        owner: Some(owner),
        ..ClusterPod::default()
    }
}

/// `nodes` nodes in zones of `zone_size`; `deployments` Deployments of `per` pods spread
/// round-robin (the first pod of each of the first `crowd` Deployments on node 0), and a
/// DaemonSet.
fn cluster(
    nodes: usize,
    zone_size: usize,
    deployments: usize,
    per: usize,
    crowd: usize,
) -> Cluster {
    let mut c = Cluster::default();
    for i in 0..nodes {
        c.nodes.push(node(&format!("node-{i:05}"), i / zone_size));
    }
    let ds = Workload {
        kind: ControllerKind::DaemonSet,
        namespace: "kube-system".into(),
        name: "agent".into(),
        replicas: 0,
        template: template("agent"),
        pod_replacement_policy: None,
    };
    for (i, n) in c.nodes.iter().enumerate() {
        let owner = Owner {
            kind: ControllerKind::DaemonSet,
            name: "agent".into(),
        };
        c.pods
            .push(pod(&ds, owner, format!("agent-{i:05}"), &n.node.name));
    }
    c.workloads.push(ds);
    let mut k = 0usize;
    let mut crowded = 0usize;
    for d in 0..deployments {
        let name = format!("app{d:04}");
        let w = Workload {
            kind: ControllerKind::Deployment,
            namespace: "default".into(),
            name: name.clone(),
            replicas: per as i32,
            template: template(&name),
            pod_replacement_policy: None,
        };
        let rs = format!("{name}-5d8f7c9b4");
        for j in 0..per {
            // One pod of each of the first `crowd` Deployments on node 0.
            let n = if j == 0 && crowded < crowd {
                crowded += 1;
                0
            } else {
                k += 1;
                1 + k % (nodes - 1)
            };
            let owner = Owner {
                kind: ControllerKind::ReplicaSet,
                name: rs.clone(),
            };
            let node = c.nodes[n].node.name.clone();
            c.pods.push(pod(&w, owner, format!("{rs}-{j:05}"), &node));
        }
        c.disruption_budgets.push(DisruptionBudget {
            namespace: "default".into(),
            name: name.clone(),
            selector: LabelSelector {
                match_labels: [("app".to_string(), name.clone())].into(),
                ..Default::default()
            },
            min_available: None,
            max_unavailable: Some(IntOrPercent::Int(1)),
        });
        c.workloads.push(w);
    }
    c
}

fn zone_failure() -> WhatIf {
    let c = cluster(5_000, 500, 900, 50, 0);
    let actions = c
        .nodes
        .iter()
        .filter(|n| {
            n.node
                .labels
                .get("topology.kubernetes.io/zone")
                .map(String::as_str)
                == Some("z0")
        })
        .map(|n| {
            Action::new(
                0,
                ActionKind::NodeStopsReporting {
                    node: n.node.name.clone(),
                },
            )
        })
        .collect();
    WhatIf::new(c, Semantics::newest(), actions, 1_800)
}

fn drain_110() -> WhatIf {
    let c = cluster(500, 500, 200, 20, 110);
    let actions = vec![Action::new(
        0,
        ActionKind::Drain {
            node: "node-00000".into(),
            options: DrainOptions {
                ignore_daemonsets: true,
                ..DrainOptions::default()
            },
        },
    )];
    WhatIf::new(c, Semantics::newest(), actions, 120)
}

fn bench(c: &mut Criterion) {
    let zone = zone_failure();
    let t = simulate(&zone).expect("zone failure runs");
    eprintln!(
        "zone_failure: {} events, evicted {}, replaced {}, pending {}",
        t.events.len(),
        t.summary.evicted,
        t.summary.replaced,
        t.summary.still_pending.len()
    );
    let drain = drain_110();
    let t = simulate(&drain).expect("drain runs");
    eprintln!(
        "drain_110: {} events, evicted {}, replaced {}, drain unfinished {}",
        t.events.len(),
        t.summary.evicted,
        t.summary.replaced,
        t.summary.drains_unfinished
    );
    let mut g = c.benchmark_group("whatif");
    g.sample_size(10);
    g.bench_function("zone_failure_5000_nodes_50000_pods_1800s", |b| {
        b.iter(|| simulate(black_box(&zone)))
    });
    g.bench_function("zone_failure_naive", |b| {
        b.iter(|| simulate_naive(black_box(&zone)))
    });
    g.bench_function("drain_110_pods", |b| b.iter(|| simulate(black_box(&drain))));
    g.bench_function("drain_110_pods_naive", |b| {
        b.iter(|| simulate_naive(black_box(&drain)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
