//! `kubectl get pods -A -o json` for 50,000 realistic running pods (about 12.9 KB each,
//! 644 MB in all), parsed and reduced to workloads with their placement, against a
//! naive baseline in the same run: `serde_json::from_str` into a `serde_json::Value`
//! (no locations, no reduction). Throughput is reported in bytes of input per second.
//!
//! Both are measured twice: in wall-clock time, and in the CPU time of the benchmark
//! thread (`/proc/thread-self/schedstat`, nanoseconds on a CPU), which a shared machine's
//! load does not inflate. Where that file is missing, the second group measures wall
//! time too.

use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use taintlab_input::{Limits, Options, Parsed, parse_with, sample};

/// Time this thread has run on a CPU.
struct CpuTime;

fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

impl Measurement for CpuTime {
    type Intermediate = (Option<u64>, Instant);
    type Value = Duration;

    fn start(&self) -> Self::Intermediate {
        (thread_cpu_ns(), Instant::now())
    }
    fn end(&self, (cpu, wall): Self::Intermediate) -> Self::Value {
        match (cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
            _ => wall.elapsed(),
        }
    }
    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value {
        *v1 + *v2
    }
    fn zero(&self) -> Self::Value {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Self::Value) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, shown like wall time.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

const COUNT: usize = 50_000;

fn input() -> (String, Options) {
    let json = sample::to_kubectl_json(&sample::pods_list(COUNT));
    let opts = Options {
        limits: Limits {
            max_input_bytes: 1024 * 1024 * 1024,
            ..Limits::default()
        },
        ..Options::default()
    };
    (json, opts)
}

fn ours(json: &str, opts: &Options) -> Parsed {
    let p = parse_with(json, opts);
    assert_eq!(p.workloads.len(), COUNT);
    p
}

fn naive(json: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(json).expect("valid JSON");
    assert_eq!(v["items"].as_array().map(Vec::len), Some(COUNT));
    v
}

fn bench<M: Measurement>(c: &mut Criterion<M>, group: &str) {
    let (json, opts) = input();
    eprintln!("input: {} bytes ({COUNT} pods)", json.len());
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("taintlab_input_parse", |b| b.iter(|| ours(&json, &opts)));
    g.bench_function("naive_serde_json_value", |b| b.iter(|| naive(&json)));
    g.finish();
}

fn wall(c: &mut Criterion) {
    bench(c, "kubectl_get_pods_50000");
}

fn cpu(c: &mut Criterion<CpuTime>) {
    bench(c, "kubectl_get_pods_50000_cpu_time");
}

criterion_group!(wall_time, wall);
criterion_group! {
    name = cpu_time;
    config = Criterion::default().with_measurement(CpuTime);
    targets = cpu
}
criterion_main!(wall_time, cpu_time);
