//! A terminal transcript as people paste it (prompts, `kubectl taint` with its output,
//! node tables, describe Events tables, klog lines, prose), read by every recogniser.
//! Reading must stay linear: 1 MB and 10 MB are measured in the same run, beside a
//! baseline that only walks the lines (the least any reader must do).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use taintlab_input::{parse, sample};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("transcript");
    g.sample_size(10);
    for mb in [1, 10] {
        let (text, blocks) = sample::transcript(mb * 1024 * 1024);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("parse_{mb}mb"), |b| {
            b.iter(|| {
                let p = parse(&text);
                assert_eq!(p.taint_commands.len(), blocks);
                p
            })
        });
        g.bench_function(format!("baseline_lines_{mb}mb"), |b| {
            b.iter(|| text.lines().map(str::len).sum::<usize>())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
