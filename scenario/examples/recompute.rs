//! Times what the playground does after an edit of the Pods pane: re-read that pane and
//! rebuild the scenario of 50 nodes × 20 pods (the Nodes pane stays parsed).
//!
//! `cargo run --release -p taintlab-scenario --example recompute`

use std::fmt::Write;
use std::time::Instant;

use taintlab_core::KubeVersion;
use taintlab_scenario::{AdmissionOptions, Options, PaneKind, Panes};

fn main() {
    let mut nodes = String::new();
    for i in 0..50 {
        let _ = writeln!(
            nodes,
            "kubectl taint nodes node-{i} dedicated=group-{}:NoSchedule zone=z{}:PreferNoSchedule",
            i % 5,
            i % 3
        );
    }
    let pods = |edit: usize| {
        let mut s = String::new();
        for p in 0..20 {
            let _ = write!(
                s,
                "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: pod-{p}-{edit}}}\nspec:\n  containers: [{{name: c, image: x}}]\n  tolerations:\n  - {{key: dedicated, operator: Equal, value: group-{}, effect: NoSchedule}}\n  - {{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 60}}\n",
                p % 5
            );
        }
        s
    };
    let options = Options {
        admission: Some(AdmissionOptions::default()),
        ..Options::default()
    };
    let v = KubeVersion::NEWEST;
    let mut panes = Panes::new();
    panes.set(PaneKind::Nodes, &nodes, v);
    let rounds = 200;
    let started = Instant::now();
    let mut cells = 0;
    for edit in 0..rounds {
        panes.set(PaneKind::Pods, &pods(edit), v);
        let s = panes.scenario(&options);
        cells += s.nodes.len() * s.pods.len();
    }
    let per = started.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds as u32);
    println!(
        "50 nodes x 20 pods: {per:.3} ms per edit (re-read the Pods pane + build), {} cells",
        cells / rounds
    );
}
