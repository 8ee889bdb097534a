//! Taint-eviction simulator throughput: 10,000 pods on 100 nodes, then 1,000 node taint
//! updates that add and remove NoExecute taints, one per second so eviction timers fire
//! in between.
//!
//! Pod toleration mix (deterministic): 40 % the DefaultTolerationSeconds pair (300 s),
//! 15 % forever tolerations (DaemonSet-style), 10 % a 60 s `dedicated` toleration plus
//! the pair, 5 % tolerate everything, 30 % none.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use taintlab_core::eviction::{SimEvent, TimedEvent, simulate};
use taintlab_core::model::keys;
use taintlab_core::{Operator, Pod, Semantics, Taint, TaintEffect, Toleration};

const NODES: usize = 100;
const PODS: usize = 10_000;
const NODE_UPDATES: usize = 1_000;

/// xorshift64*: deterministic input without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn no_execute(key: &str, secs: Option<i64>) -> Toleration {
    Toleration::new(key, Operator::Exists, "", TaintEffect::NoExecute).with_seconds(secs)
}

fn tolerations(rng: &mut Rng) -> Vec<Toleration> {
    let pair = || {
        vec![
            no_execute(keys::NOT_READY, Some(300)),
            no_execute(keys::UNREACHABLE, Some(300)),
        ]
    };
    match rng.below(100) {
        0..40 => pair(),
        40..55 => vec![
            no_execute(keys::NOT_READY, None),
            no_execute(keys::UNREACHABLE, None),
        ],
        55..65 => {
            let mut t = vec![
                Toleration::new("dedicated", Operator::Equal, "gpu", TaintEffect::NoExecute)
                    .with_seconds(Some(60)),
            ];
            t.extend(pair());
            t
        }
        65..70 => vec![Toleration::new(
            "",
            Operator::Exists,
            "",
            TaintEffect::Empty,
        )],
        _ => vec![],
    }
}

fn node_taints(rng: &mut Rng) -> Vec<Taint> {
    let ne = |k: &str, v: &str| Taint::new(k, v, TaintEffect::NoExecute);
    let mut taints = vec![Taint::new("zone", "a", TaintEffect::NoSchedule)];
    match rng.below(6) {
        0 | 1 => {}
        2 => taints.push(ne(keys::UNREACHABLE, "")),
        3 => taints.push(ne(keys::NOT_READY, "")),
        4 => taints.push(ne("dedicated", "gpu")),
        _ => {
            taints.push(ne("dedicated", "gpu"));
            taints.push(ne(keys::UNREACHABLE, ""));
        }
    }
    taints
}

fn scenario() -> Vec<TimedEvent> {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let node = |i: usize| format!("node-{i:03}");
    let mut events = Vec::with_capacity(NODES + PODS + NODE_UPDATES);
    for i in 0..NODES {
        events.push(TimedEvent::new(
            0,
            SimEvent::CreateNode {
                name: node(i),
                taints: vec![],
            },
        ));
    }
    for i in 0..PODS {
        let pod = Pod {
            namespace: format!("ns-{}", i % 20),
            name: format!("pod-{i:05}"),
            node_name: node(i % NODES),
            tolerations: tolerations(&mut rng),
            ..Pod::default()
        };
        events.push(TimedEvent::new(1, SimEvent::CreatePod(pod)));
    }
    for i in 0..NODE_UPDATES {
        let n = rng.below(NODES as u64) as usize;
        events.push(TimedEvent::new(
            10 + i as i64,
            SimEvent::UpdateNode {
                name: node(n),
                taints: node_taints(&mut rng),
            },
        ));
    }
    events
}

fn bench(c: &mut Criterion) {
    let events = scenario();
    let until = 10 + NODE_UPDATES as i64 + 600;
    let sample = simulate(events.clone(), until, Semantics::newest());
    eprintln!(
        "eviction bench: {} events, {} actions, {} Kubernetes events, {} pods left, \
         {} timers pending",
        events.len(),
        sample.actions.len(),
        sample.events.len(),
        sample.remaining_pods.len(),
        sample.pending_evictions.len(),
    );
    c.bench_function(
        "simulate 10k pods / 100 nodes / 1k NoExecute node updates",
        |b| {
            b.iter_batched(
                || events.clone(),
                |evs| black_box(simulate(evs, black_box(until), Semantics::newest())),
                BatchSize::LargeInput,
            );
        },
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
