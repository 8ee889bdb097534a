//! Times what the playground does after an edit of the Pods pane: re-read that pane and
//! rebuild the scenario of 50 nodes × 20 pods (the Nodes pane stays parsed). Then a
//! pasted cluster with resources: 500 nodes with allocatable and labels, 5,000 running
//! pods, 50 pending pods with selectors and requests and two DaemonSets, read once and
//! built (the full filter chain, preemption and the daemon pods included).
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
    cluster();
}

fn cluster() {
    let mut text = String::from("apiVersion: v1\nkind: NodeList\nitems:\n");
    for i in 0..500 {
        let _ = write!(
            text,
            "- kind: Node\n  metadata:\n    name: node-{i}\n    labels: {{kubernetes.io/hostname: node-{i}, pool: p{}, zone: z{}}}\n  spec:\n    taints: [{{key: dedicated, value: group-{}, effect: NoSchedule}}]\n  status:\n    allocatable: {{cpu: '8', memory: 32Gi, pods: '110'}}\n",
            i % 4,
            i % 3,
            i % 5
        );
    }
    text.push_str("---\napiVersion: v1\nkind: PodList\nitems:\n");
    for i in 0..5000 {
        let _ = write!(
            text,
            "- kind: Pod\n  metadata: {{name: run-{i}, namespace: apps}}\n  spec:\n    nodeName: node-{}\n    priority: {}\n    containers: [{{name: c, image: x, resources: {{requests: {{cpu: 700m, memory: 2Gi}}}}}}]\n  status: {{phase: Running, startTime: '2024-05-01T10:00:00Z'}}\n",
            i % 500,
            i % 3
        );
    }
    for p in 0..50 {
        let _ = write!(
            text,
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: pending-{p}}}\nspec:\n  priority: {}\n  nodeSelector: {{pool: p{}}}\n  tolerations: [{{key: dedicated, operator: Equal, value: group-{}, effect: NoSchedule}}]\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: '{}', memory: 1Gi}}}}}}]\n",
            (p % 4) * 10,
            p % 4,
            p % 5,
            1 + p % 4
        );
    }
    for d in 0..2 {
        let _ = write!(
            text,
            "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: agent-{d}}}\nspec:\n  template:\n    spec:\n      tolerations: [{{operator: Exists}}]\n      containers: [{{name: c, image: x, resources: {{requests: {{cpu: 100m}}}}}}]\n"
        );
    }
    let options = Options {
        admission: Some(AdmissionOptions::default()),
        ..Options::default()
    };
    let v = KubeVersion::NEWEST;
    let pane = taintlab_scenario::ParsedPane::parse(&text, PaneKind::Combined, v);
    let rounds = 5;
    let started = Instant::now();
    let mut messages = 0;
    for _ in 0..rounds {
        let s = taintlab_scenario::Scenario::build(&[&pane], &options);
        messages = (0..s.pods.len())
            .filter(|&p| s.message(p).is_some())
            .count();
    }
    let per = started.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds);
    println!(
        "500 nodes, 5,000 running pods, 50 pending pods, 2 DaemonSets: {per:.1} ms per build ({} bytes read once), {messages} pods with a message",
        text.len()
    );
}
