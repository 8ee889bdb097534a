//! Placement with resources at cluster scale: 1,000 pending pods × 5,000 nodes with
//! 50,000 bound pods; every filter including NodeResourcesFit, the four scores, the
//! FailedScheduling messages and DefaultPreemption's dry run for the pods that fit
//! nowhere. Grouped evaluation (node classes by state, pod classes by spec) against the
//! naive per-pair loop.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use taintlab_core::model::SchedulingPod;
use taintlab_core::resource::{ContainerResources, ResourceList, list};
use taintlab_core::scheduling::placement::{
    PlacementOptions, node_states_with_allocatable, schedule_naive_states,
};
use taintlab_core::scheduling::placement_cluster::{GroupingKeys, PlacementIndex};
use taintlab_core::{Node, Operator, Semantics, Taint, TaintEffect, Toleration};

const NODES: usize = 5_000;
const PODS: usize = 1_000;
const BOUND_PER_NODE: usize = 10;

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

/// Node shapes: (cpu, memory, gpus, tainted pool).
const SHAPES: [(&str, &str, u32, Option<&str>); 4] = [
    ("8", "32Gi", 0, None),
    ("16", "64Gi", 0, None),
    ("32", "128Gi", 0, Some("batch")),
    ("16", "64Gi", 4, Some("nvidia.com/gpu")),
];

/// Workload templates: (cpu, memory, gpus, priority).
const TEMPLATES: [(&str, &str, u32, i32); 8] = [
    ("100m", "128Mi", 0, 0),
    ("250m", "256Mi", 0, 0),
    ("500m", "1Gi", 0, 100),
    ("1", "2Gi", 0, 100),
    ("2", "4Gi", 0, 1000),
    ("", "", 0, 0),
    ("4", "16Gi", 1, 500),
    ("12", "40Gi", 0, -10),
];

fn pod_from(t: usize, name: String) -> SchedulingPod {
    let (cpu, mem, gpu, prio) = TEMPLATES[t % TEMPLATES.len()];
    let mut p = SchedulingPod::default();
    p.pod.namespace = "default".into();
    p.pod.name = name;
    p.placement.priority = prio;
    let mut reqs: Vec<(&str, String)> = Vec::new();
    if !cpu.is_empty() {
        reqs.push(("cpu", cpu.into()));
        reqs.push(("memory", mem.into()));
    }
    if gpu > 0 {
        reqs.push(("nvidia.com/gpu", gpu.to_string()));
        p.pod.tolerations.push(Toleration::new(
            "nvidia.com/gpu",
            Operator::Exists,
            "",
            TaintEffect::Empty,
        ));
    }
    let r: Vec<(&str, &str)> = reqs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    p.placement.containers = vec![ContainerResources::requesting(&r)];
    p
}

fn cluster(rng: &mut Rng) -> (Vec<Node>, Vec<Option<ResourceList>>, Vec<SchedulingPod>) {
    let mut nodes = Vec::with_capacity(NODES);
    let mut allocs = Vec::with_capacity(NODES);
    let mut bound = Vec::with_capacity(NODES * BOUND_PER_NODE);
    for i in 0..NODES {
        let (cpu, mem, gpu, pool) = SHAPES[rng.below(SHAPES.len())];
        let mut n = Node {
            name: format!("node-{i}"),
            ..Node::default()
        };
        n.labels
            .insert("kubernetes.io/hostname".into(), n.name.clone());
        if let Some(p) = pool {
            n.taints
                .push(Taint::new(p, "present", TaintEffect::NoSchedule));
        }
        let gpus = gpu.to_string();
        let mut a = vec![("cpu", cpu), ("memory", mem), ("pods", "110")];
        if gpu > 0 {
            a.push(("nvidia.com/gpu", &gpus));
        }
        allocs.push(Some(list(&a)));
        for j in 0..BOUND_PER_NODE {
            // Mostly small pods, so nodes fill to different levels.
            let t = [0, 1, 2, 3, 5][rng.below(5)];
            let mut p = pod_from(t, format!("b-{i}-{j}"));
            p.pod.node_name = n.name.clone();
            bound.push(p);
        }
        nodes.push(n);
    }
    (nodes, allocs, bound)
}

fn pending(rng: &mut Rng) -> Vec<SchedulingPod> {
    (0..PODS)
        .map(|i| pod_from(rng.below(TEMPLATES.len()), format!("p-{i}")))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (nodes, allocs, bound) = cluster(&mut rng);
    let pods = pending(&mut rng);
    let o = PlacementOptions::new(Semantics::newest());
    let states = node_states_with_allocatable(&nodes, &allocs, &bound, o);
    let index = PlacementIndex::with_states(&nodes, states.clone(), GroupingKeys::of(&pods, o), o);

    let mut g = c.benchmark_group("resources_full");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("index_reused", |b| {
        b.iter(|| black_box(index.schedule(black_box(&pods))))
    });
    g.bench_function("index_from_scratch", |b| {
        b.iter(|| {
            let states = node_states_with_allocatable(&nodes, &allocs, &bound, o);
            let index = PlacementIndex::with_states(&nodes, states, GroupingKeys::of(&pods, o), o);
            black_box(index.schedule(black_box(&pods)))
        })
    });
    g.bench_function("node_states", |b| {
        b.iter(|| black_box(node_states_with_allocatable(&nodes, &allocs, &bound, o)))
    });
    g.bench_function("group_states", |b| {
        b.iter(|| {
            black_box(PlacementIndex::with_states(
                &nodes,
                states.clone(),
                GroupingKeys::of(&pods, o),
                o,
            ))
        })
    });
    g.bench_function("naive_states_reused", |b| {
        b.iter(|| black_box(schedule_naive_states(black_box(&pods), &nodes, &states, o)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
