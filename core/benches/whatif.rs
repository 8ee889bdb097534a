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
//!
//! Each runs twice: group `whatif` measures wall-clock time (criterion's default), group
//! `whatif_cpu` the CPU time of the benchmark thread (`/proc/thread-self/schedstat` on
//! Linux; the group is left out where that file cannot be read). On a shared machine the
//! wall clock includes the time other processes held the cores; the CPU time does not.
//!
//! The drain runs first, before the zone failure's input is built: see [`group`].
//!
//! Last measured (README "What-if simulation"), load average 2.0–2.2 on 2 shared cores:
//! drain 11.5 ms wall, 11.0 ms CPU (naive 14.5 ms, 13.1 ms CPU); zone failure 333 ms
//! wall, 326 ms CPU (naive 674 ms). Targets: 20 ms and 1 s.

use std::hint::black_box;

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
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
        replica_set: None,
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
            replica_set: None,
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

/// The CPU time the calling thread has run, from `/proc/thread-self/schedstat` (its
/// first field, nanoseconds on the CPU).
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = s.split_whitespace().next()?.parse::<u64>().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Criterion measurement: CPU time of the benchmark thread.
struct ThreadCpu;

struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (div, unit) = if typical >= 1e9 {
            (1e9, "s cpu")
        } else if typical >= 1e6 {
            (1e6, "ms cpu")
        } else {
            (1e3, "µs cpu")
        };
        for v in values.iter_mut() {
            *v /= div;
        }
        unit
    }

    fn scale_throughputs(&self, _: f64, _: &Throughput, _: &mut [f64]) -> &'static str {
        "(no throughput)"
    }

    fn scale_for_machines(&self, _: &mut [f64]) -> &'static str {
        "ns"
    }
}

impl Measurement for ThreadCpu {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu().unwrap_or_default()
    }

    fn end(&self, start: Duration) -> Duration {
        thread_cpu().unwrap_or_default().saturating_sub(start)
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// The drain's two benchmarks first, then the zone failure's: the zone failure's input
/// is built (and run once) only after the drain is measured, so the drain runs in a
/// process that has not held 50,000 pods, as one `taintlab what-if` would.
fn group<M: Measurement>(c: &mut Criterion<M>, name: &str) {
    let drain = input("drain_110", drain_110);
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.bench_function("drain_110_pods", |b| b.iter(|| simulate(black_box(&drain))));
    g.bench_function("drain_110_pods_naive", |b| {
        b.iter(|| simulate_naive(black_box(&drain)))
    });
    drop(drain);
    let zone = input("zone_failure", zone_failure);
    g.bench_function("zone_failure_5000_nodes_50000_pods_1800s", |b| {
        b.iter(|| simulate(black_box(&zone)))
    });
    g.bench_function("zone_failure_naive", |b| {
        b.iter(|| simulate_naive(black_box(&zone)))
    });
    g.finish();
}

/// Builds a benchmark's input and runs it once, printing what it does.
fn input(name: &str, build: fn() -> WhatIf) -> WhatIf {
    let w = build();
    let t = simulate(&w).expect("runs");
    eprintln!(
        "{name}: {} events, evicted {}, replaced {}, pending {}, drain unfinished {}",
        t.events.len(),
        t.summary.evicted,
        t.summary.replaced,
        t.summary.still_pending.len(),
        t.summary.drains_unfinished
    );
    w
}

fn bench(c: &mut Criterion) {
    group(c, "whatif");
}

fn bench_cpu(c: &mut Criterion<ThreadCpu>) {
    if thread_cpu().is_none() {
        eprintln!("whatif_cpu: /proc/thread-self/schedstat unreadable, CPU times skipped");
        return;
    }
    group(c, "whatif_cpu");
}

criterion_group!(benches, bench);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = bench_cpu
}
criterion_main!(benches, cpu);
