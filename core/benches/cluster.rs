//! Cluster-scale scheduling: class-grouped evaluation against the naive per-pair
//! baseline, on a generated multi-tenant cluster of 5,000 nodes and 1,000 pods.
//!
//! * `one_pod/*`: one pod against every node. `schedule_on` uses a prebuilt
//!   [`NodeClasses`] (the scheduler's snapshot); `schedule` groups the nodes too.
//! * `full/*`: all 1,000 pods against all 5,000 nodes, with normalized scores and
//!   FailedScheduling messages. `schedule+scan` also reads every one of the 5 million
//!   cells through the row iterators.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use taintlab_core::model::keys;
use taintlab_core::scheduling::cluster::{NodeClasses, schedule, schedule_naive, schedule_on};
use taintlab_core::{
    Node, Operator, Pod, PreemptionPolicy, Semantics, Taint, TaintEffect, Toleration,
};

const NODES: usize = 5_000;
const PODS: usize = 1_000;

/// xorshift64: deterministic, dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const TEAMS: [&str; 8] = [
    "payments", "search", "ml", "batch", "web", "data", "infra", "edge",
];

/// The taint that makes a node part of a dedicated pool.
fn pool_taint(rng: &mut Rng) -> Taint {
    match rng.below(10) {
        0 => Taint::new("nvidia.com/gpu", "present", TaintEffect::NoSchedule),
        1 => Taint::new(keys::CONTROL_PLANE, "", TaintEffect::NoSchedule),
        _ => Taint::new(
            "dedicated",
            TEAMS[rng.below(TEAMS.len())],
            TaintEffect::NoSchedule,
        ),
    }
}

/// Taints a pool node may carry besides its pool taint.
fn extra_taints() -> [Taint; 5] {
    [
        Taint::new(
            "cloud.example.com/spot",
            "true",
            TaintEffect::PreferNoSchedule,
        ),
        Taint::new("example.com/maintenance", "", TaintEffect::PreferNoSchedule),
        Taint::new(keys::NOT_READY, "", TaintEffect::NoExecute),
        Taint::new(keys::DISK_PRESSURE, "", TaintEffect::NoSchedule),
        Taint::new("example.com/sla", "900", TaintEffect::NoSchedule),
    ]
}

fn extra_tolerations() -> [Toleration; 7] {
    [
        Toleration::new(
            "cloud.example.com/spot",
            Operator::Equal,
            "true",
            TaintEffect::Empty,
        ),
        Toleration::new(
            "example.com/maintenance",
            Operator::Exists,
            "",
            TaintEffect::PreferNoSchedule,
        ),
        Toleration::new(
            keys::DISK_PRESSURE,
            Operator::Exists,
            "",
            TaintEffect::NoSchedule,
        ),
        Toleration::new(
            keys::UNSCHEDULABLE,
            Operator::Exists,
            "",
            TaintEffect::NoSchedule,
        ),
        Toleration::new(
            "example.com/sla",
            Operator::Gt,
            "500",
            TaintEffect::NoSchedule,
        ),
        Toleration::new(
            "nvidia.com/gpu",
            Operator::Exists,
            "",
            TaintEffect::NoSchedule,
        ),
        Toleration::new(
            keys::CONTROL_PLANE,
            Operator::Exists,
            "",
            TaintEffect::NoSchedule,
        ),
    ]
}

/// The DefaultTolerationSeconds pair almost every pod carries.
fn default_tolerations() -> [Toleration; 2] {
    [
        Toleration::new(
            keys::NOT_READY,
            Operator::Exists,
            "",
            TaintEffect::NoExecute,
        )
        .with_seconds(Some(300)),
        Toleration::new(
            keys::UNREACHABLE,
            Operator::Exists,
            "",
            TaintEffect::NoExecute,
        )
        .with_seconds(Some(300)),
    ]
}

/// 5,000 nodes in 20 taint sets: 19 dedicated pools (team, GPU or control plane, plus
/// 0–3 of spot, maintenance, not-ready, disk-pressure, SLA taints) and an untainted
/// general pool that is being drained (all cordoned); 2% of the pool nodes are cordoned
/// too. Cordoned nodes also carry the unschedulable taint, as the node controller adds.
fn nodes(rng: &mut Rng) -> Vec<Node> {
    let extras = extra_taints();
    let mut sets: Vec<Vec<Taint>> = vec![Vec::new()];
    while sets.len() < 20 {
        let mut set = vec![pool_taint(rng)];
        for _ in 0..rng.below(4) {
            let t = &extras[rng.below(extras.len())];
            if !set.contains(t) {
                set.push(t.clone());
            }
        }
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    (0..NODES)
        .map(|i| {
            let set = if rng.chance(3) {
                0
            } else {
                1 + rng.below(sets.len() - 1)
            };
            let mut taints = sets[set].clone();
            let unschedulable = set == 0 || rng.chance(2);
            if unschedulable {
                taints.push(Taint::new(keys::UNSCHEDULABLE, "", TaintEffect::NoSchedule));
            }
            Node {
                name: format!("node-{i:05}"),
                taints,
                unschedulable,
                ..Node::default()
            }
        })
        .collect()
}

/// 1,000 pods from 50 workload templates of 0–8 tolerations: usually the two default
/// NoExecute ones, a team toleration (85% of templates; some teams have no pool) and
/// extras. 10% of templates use `preemptionPolicy: Never`; 1% of pods are bound with
/// `spec.nodeName`.
fn pods(rng: &mut Rng) -> Vec<Pod> {
    let extras = extra_tolerations();
    let mut templates: Vec<(Vec<Toleration>, PreemptionPolicy)> = Vec::new();
    while templates.len() < 50 {
        let mut set: Vec<Toleration> = Vec::new();
        if rng.chance(85) {
            set.extend(default_tolerations());
        }
        if rng.chance(85) {
            set.push(if rng.chance(10) {
                Toleration::new("dedicated", Operator::Exists, "", TaintEffect::Empty)
            } else {
                let team = TEAMS[rng.below(TEAMS.len())];
                Toleration::new("dedicated", Operator::Equal, team, TaintEffect::NoSchedule)
            });
        }
        for _ in 0..rng.below(9 - set.len()) {
            let t = &extras[rng.below(extras.len())];
            if !set.contains(t) {
                set.push(t.clone());
            }
        }
        let policy = if rng.chance(10) {
            PreemptionPolicy::Never
        } else {
            PreemptionPolicy::PreemptLowerPriority
        };
        if !templates.iter().any(|(s, _)| *s == set) {
            templates.push((set, policy));
        }
    }
    (0..PODS)
        .map(|i| {
            let (tolerations, preemption_policy) = templates[rng.below(templates.len())].clone();
            Pod {
                namespace: "default".into(),
                name: format!("pod-{i:04}"),
                node_name: if rng.chance(1) {
                    format!("node-{:05}", rng.below(NODES))
                } else {
                    String::new()
                },
                tolerations,
                preemption_policy,
            }
        })
        .collect()
}

fn cluster() -> (Vec<Pod>, Vec<Node>) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let nodes = nodes(&mut rng);
    let pods = pods(&mut rng);
    (pods, nodes)
}

fn semantics() -> Semantics {
    Semantics::newest().with_comparison_operators(true)
}

fn bench_one_pod(c: &mut Criterion) {
    let (pods, nodes) = cluster();
    let sem = semantics();
    let index = NodeClasses::new(&nodes);
    let r = schedule_on(&index, &pods, sem);
    let unschedulable = (0..r.num_pods())
        .filter(|&p| r.message(p).is_some())
        .count();
    let cordoned = nodes.iter().filter(|n| n.unschedulable).count();
    eprintln!(
        "cluster: {} nodes in {} classes ({cordoned} cordoned), {} pods in {} classes, \
         {unschedulable} pods fit nowhere",
        nodes.len(),
        index.classes().len(),
        pods.len(),
        r.pod_classes().len(),
    );
    // A pod whose workload fits nowhere, so the message path is measured too.
    let stuck = (0..r.num_pods())
        .find(|&p| r.message(p).is_some())
        .unwrap_or(0);
    let one = &pods[stuck..stuck + 1];
    let mut g = c.benchmark_group("one_pod");
    g.bench_function("grouped/schedule_on", |b| {
        b.iter(|| black_box(schedule_on(black_box(&index), black_box(one), sem)))
    });
    g.bench_function("grouped/schedule", |b| {
        b.iter(|| black_box(schedule(black_box(one), black_box(&nodes), sem)))
    });
    g.bench_function("naive", |b| {
        b.iter(|| black_box(schedule_naive(black_box(one), black_box(&nodes), sem)))
    });
    g.finish();
}

fn bench_full(c: &mut Criterion) {
    let (pods, nodes) = cluster();
    let sem = semantics();
    let mut g = c.benchmark_group("full");
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("grouped/schedule", |b| {
        b.iter(|| black_box(schedule(black_box(&pods), black_box(&nodes), sem)))
    });
    g.bench_function("grouped/schedule+scan", |b| {
        b.iter(|| {
            let r = schedule(black_box(&pods), black_box(&nodes), sem);
            let mut sum = 0i64;
            for p in 0..r.num_pods() {
                if let Some(row) = r.row(p) {
                    sum += row.map(|c| c.score.unwrap_or(-1)).sum::<i64>();
                }
            }
            black_box(sum)
        })
    });
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(12));
    g.bench_function("naive", |b| {
        b.iter(|| black_box(schedule_naive(black_box(&pods), black_box(&nodes), sem)))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = bench_one_pod, bench_full
}
criterion_main!(benches);
