//! Times reading a 5,000-node list and deciding against it (native reference figures;
//! minimum over repetitions, to see through a busy machine).
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn min_time(rounds: u32, mut f: impl FnMut()) -> Duration {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let n = 5000;
    let items: Vec<Value> = (0..n)
        .map(|i| {
            let taints = match i % 3 {
                0 => json!([]),
                1 => json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
                _ => json!([{"key": "spot", "effect": "NoExecute"}, {"key": "spot", "effect": "NoSchedule"}]),
            };
            json!({"metadata": {"name": format!("node-{i:05}"), "labels": {"pool": "p", "kubernetes.io/hostname": format!("node-{i:05}")}},
                   "spec": {"taints": taints}})
        })
        .collect();
    let bytes = serde_json::to_vec(&json!({"items": items})).unwrap_or_default();
    let settings = taintlab_policy::Settings::from_value(
        &json!({"nodeChecks": {"enabled": true, "unschedulable": "deny",
        "protectTaintsOfNodes": "node-role.kubernetes.io/control-plane"}}),
    )
    .unwrap_or_default();
    let request = json!({"kind": {"group": "apps", "version": "v1", "kind": "Deployment"}, "operation": "CREATE",
        "object": {"spec": {"template": {"spec": {"tolerations": [{"key": "dedicated", "operator": "Exists"}, {"key": "x", "operator": "Exists"}]}}}}});
    let sel = taintlab_core::labels::Selector::parse("node-role.kubernetes.io/control-plane").ok();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("{} bytes, {n} nodes", bytes.len());
    println!(
        "serde_json Value parse: {:.3} ms",
        ms(min_time(20, || {
            std::hint::black_box(serde_json::from_slice::<Value>(&bytes).ok());
        }))
    );
    println!(
        "nodelist::read (Vec<Node>, labels): {:.3} ms",
        ms(min_time(20, || {
            std::hint::black_box(taintlab_policy::nodelist::read(&bytes, true).ok());
        }))
    );
    println!(
        "nodelist::read_cluster (no labels): {:.3} ms",
        ms(min_time(20, || {
            std::hint::black_box(taintlab_policy::nodelist::read_cluster(&bytes, None).ok());
        }))
    );
    println!(
        "nodelist::read_cluster (labels + selector): {:.3} ms",
        ms(min_time(20, || {
            std::hint::black_box(
                taintlab_policy::nodelist::read_cluster(&bytes, sel.as_ref()).ok(),
            );
        }))
    );
    let cluster = taintlab_policy::nodelist::read_cluster(&bytes, sel.as_ref()).unwrap_or_default();
    let raw_request = serde_json::to_vec(&request).unwrap_or_default();
    println!(
        "decide on the grouped cluster: {:.3} ms",
        ms(min_time(20, || {
            std::hint::black_box(taintlab_policy::evaluate_raw(
                &raw_request,
                &settings,
                Some(&cluster),
            ));
        }))
    );
    let nodes = taintlab_policy::parse_node_list(&bytes).unwrap_or_default();
    println!(
        "decide from Vec<Node> (groups first): {:.3} ms",
        ms(min_time(20, || {
            std::hint::black_box(taintlab_policy::evaluate(&request, &settings, Some(&nodes)));
        }))
    );
}
