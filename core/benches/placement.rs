//! Placement at cluster scale: every modelled filter (NodeUnschedulable, NodeName,
//! TaintToleration, NodeAffinity, NodePorts), both scores and the FailedScheduling
//! messages, grouped by the label keys the pods read, against the naive per-pair loop.
//! Nodes carry a unique `kubernetes.io/hostname` label plus zone, pool and disk labels.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use taintlab_core::model::{
    Affinity, HostPort, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
    PodPlacement, PreferredSchedulingTerm, SchedulingPod,
};
use taintlab_core::scheduling::placement::{
    PlacementOptions, node_states, schedule_naive, schedule_one,
};
use taintlab_core::scheduling::placement_cluster::{PlacementIndex, schedule_placement};
use taintlab_core::{Node, Operator, Pod, Semantics, Taint, TaintEffect, Toleration};

const NODES: usize = 5_000;
const PODS: usize = 1_000;
const POOLS: [&str; 6] = ["payments", "search", "ml", "batch", "web", "general"];
const ZONES: [&str; 3] = ["a", "b", "c"];

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x % n as u64) as usize
    }
}

fn nodes(rng: &mut Rng) -> Vec<Node> {
    (0..NODES)
        .map(|i| {
            let pool = POOLS[rng.below(POOLS.len())];
            let mut n = Node {
                name: format!("node-{i}"),
                ..Node::default()
            };
            n.labels
                .insert("kubernetes.io/hostname".into(), n.name.clone());
            n.labels.insert(
                "topology.kubernetes.io/zone".into(),
                ZONES[rng.below(3)].into(),
            );
            n.labels.insert("pool".into(), pool.into());
            if rng.below(2) == 0 {
                n.labels.insert("disktype".into(), "ssd".into());
            }
            if pool != "general" {
                n.taints
                    .push(Taint::new("dedicated", pool, TaintEffect::NoSchedule));
            }
            n.unschedulable = rng.below(50) == 0;
            n
        })
        .collect()
}

fn pods(rng: &mut Rng) -> Vec<SchedulingPod> {
    (0..PODS)
        .map(|i| {
            let pool = POOLS[rng.below(POOLS.len())];
            let mut placement = PodPlacement::default();
            if rng.below(2) == 0 {
                placement.node_selector.insert("pool".into(), pool.into());
            }
            placement.affinity = Some(Affinity {
                node_affinity: Some(NodeAffinity {
                    required_during_scheduling_ignored_during_execution: (rng.below(3) == 0).then(
                        || NodeSelector {
                            node_selector_terms: vec![NodeSelectorTerm {
                                match_expressions: vec![NodeSelectorRequirement::new(
                                    "topology.kubernetes.io/zone",
                                    "In",
                                    &[ZONES[rng.below(3)]],
                                )],
                                ..Default::default()
                            }],
                        },
                    ),
                    preferred_during_scheduling_ignored_during_execution: vec![
                        PreferredSchedulingTerm {
                            weight: 10,
                            preference: NodeSelectorTerm {
                                match_expressions: vec![NodeSelectorRequirement::new(
                                    "disktype",
                                    "Exists",
                                    &[],
                                )],
                                ..Default::default()
                            },
                        },
                    ],
                }),
            });
            if rng.below(10) == 0 {
                placement.host_ports = vec![HostPort::new(9100, "", "")];
            }
            let tolerations = if pool == "general" || rng.below(4) == 0 {
                vec![]
            } else {
                vec![Toleration::new(
                    "dedicated",
                    Operator::Equal,
                    pool,
                    TaintEffect::NoSchedule,
                )]
            };
            SchedulingPod {
                pod: Pod {
                    namespace: "default".into(),
                    name: format!("pod-{i}"),
                    tolerations,
                    ..Pod::default()
                },
                placement,
            }
        })
        .collect()
}

fn bound(nodes: &[Node]) -> Vec<SchedulingPod> {
    nodes
        .iter()
        .step_by(7)
        .map(|n| {
            let mut p = SchedulingPod::default();
            p.pod.name = format!("exporter-{}", n.name);
            p.pod.node_name = n.name.clone();
            p.placement.host_ports = vec![HostPort::new(9100, "", "")];
            p
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let nodes = nodes(&mut rng);
    let pods = pods(&mut rng);
    let bound = bound(&nodes);
    let o = PlacementOptions::new(Semantics::newest());
    let one = std::slice::from_ref(&pods[0]);

    let mut g = c.benchmark_group("placement_one_pod");
    g.measurement_time(Duration::from_secs(3));
    let index = PlacementIndex::new(&nodes, &bound, &pods, o);
    g.bench_function("index_reused", |b| {
        b.iter(|| black_box(index.schedule(black_box(one))))
    });
    g.bench_function("from_scratch", |b| {
        b.iter(|| black_box(schedule_placement(black_box(one), &nodes, &bound, o)))
    });
    let states = node_states(&nodes, &bound, o);
    g.bench_function("naive_states_reused", |b| {
        b.iter(|| black_box(schedule_one(black_box(&pods[0]), &nodes, &states, o)))
    });
    g.bench_function("naive", |b| {
        b.iter(|| black_box(schedule_naive(black_box(one), &nodes, &bound, o)))
    });
    g.finish();

    let mut g = c.benchmark_group("placement_full");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("grouped", |b| {
        b.iter(|| black_box(schedule_placement(black_box(&pods), &nodes, &bound, o)))
    });
    g.bench_function("index_reused", |b| {
        b.iter(|| black_box(index.schedule(black_box(&pods))))
    });
    g.bench_function("naive", |b| {
        b.iter(|| black_box(schedule_naive(black_box(&pods), &nodes, &bound, o)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
