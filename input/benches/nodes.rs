//! `kubectl get nodes -o json` and `-o yaml` for 5,000 realistic nodes (about 15 KB each
//! as JSON), parsed and reduced to scheduling inputs. Throughput is reported in bytes of
//! input per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use taintlab_input::{Limits, Options, parse_with, sample};

fn bench(c: &mut Criterion) {
    let list = sample::nodes_list(5000);
    let json = sample::to_kubectl_json(&list);
    let yaml = sample::to_kubectl_yaml(&list);
    drop(list);
    // The JSON of 5,000 such nodes is larger than the default 64 MiB limit.
    let opts = Options {
        limits: Limits {
            max_input_bytes: 256 * 1024 * 1024,
            ..Limits::default()
        },
        ..Options::default()
    };
    let mut g = c.benchmark_group("kubectl_get_nodes_5000");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("json", |b| {
        b.iter(|| {
            let p = parse_with(&json, &opts);
            assert_eq!(p.nodes.len(), 5000);
            p
        })
    });
    g.throughput(Throughput::Bytes(yaml.len() as u64));
    g.bench_function("yaml", |b| {
        b.iter(|| {
            let p = parse_with(&yaml, &opts);
            assert_eq!(p.nodes.len(), 5000);
            p
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
