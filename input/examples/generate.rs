//! Writes `kubectl get nodes -o json` and `-o yaml` for N realistic nodes (default
//! 5,000), and with PODS also `kubectl get pods -A -o json` for that many pods, for
//! benchmarks, profiling and memory measurements.
//!
//! `cargo run --release -p taintlab-input --example generate -- DIR [N] [PODS]`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().map(String::as_str).unwrap_or(".");
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5000);
    let list = taintlab_input::sample::nodes_list(n);
    let json = taintlab_input::sample::to_kubectl_json(&list);
    let yaml = taintlab_input::sample::to_kubectl_yaml(&list);
    std::fs::write(format!("{dir}/nodes.json"), &json).expect("writable directory");
    std::fs::write(format!("{dir}/nodes.yaml"), &yaml).expect("writable directory");
    println!(
        "{n} nodes: JSON {} bytes, YAML {} bytes",
        json.len(),
        yaml.len()
    );
    if let Some(pods) = args.get(2).and_then(|s| s.parse::<usize>().ok()) {
        let json =
            taintlab_input::sample::to_kubectl_json(&taintlab_input::sample::pods_list(pods));
        std::fs::write(format!("{dir}/pods.json"), &json).expect("writable directory");
        println!("{pods} pods: JSON {} bytes", json.len());
    }
}
