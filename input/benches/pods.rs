//! `kubectl get pods -A -o json` for 50,000 realistic running pods (about 12.9 KB each,
//! 644 MB in all),
//! parsed and reduced to workloads with their placement, against a naive baseline in
//! the same run: `serde_json::from_str` into a `serde_json::Value` (no locations, no
//! reduction). Throughput is reported in bytes of input per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use taintlab_input::{Limits, Options, parse_with, sample};

fn bench(c: &mut Criterion) {
    let count = 50_000;
    let json = sample::to_kubectl_json(&sample::pods_list(count));
    let opts = Options {
        limits: Limits {
            max_input_bytes: 1024 * 1024 * 1024,
            ..Limits::default()
        },
        ..Options::default()
    };
    eprintln!("input: {} bytes ({} pods)", json.len(), count);
    let mut g = c.benchmark_group("kubectl_get_pods_50000");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("taintlab_input_parse", |b| {
        b.iter(|| {
            let p = parse_with(&json, &opts);
            assert_eq!(p.workloads.len(), count);
            p
        })
    });
    g.bench_function("naive_serde_json_value", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
            assert_eq!(v["items"].as_array().map(Vec::len), Some(count));
            v
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
