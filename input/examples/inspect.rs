//! Prints what `taintlab_input::parse` reads from a file (or stdin) as JSON, then the
//! diagnostics, then the peak memory of the process (`VmHWM`) against the input size.
//!
//! With `--baseline`, also the time `serde_json::from_str` takes to read the same file
//! into a `serde_json::Value` (no locations, no reduction), measured the same way.
//!
//! `cargo run --release -p taintlab-input --example inspect -- FILE [--quiet] [--json|--yaml] [--baseline]`

use std::io::Read;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quiet = args.iter().any(|a| a == "--quiet");
    let path = args.iter().find(|a| !a.starts_with("--"));
    let mut text = String::new();
    match path {
        Some(p) => text = std::fs::read_to_string(p).expect("readable UTF-8 file"),
        None => {
            std::io::stdin()
                .read_to_string(&mut text)
                .expect("UTF-8 input");
        }
    }
    let opts = taintlab_input::Options {
        limits: taintlab_input::Limits {
            max_input_bytes: 1024 * 1024 * 1024,
            ..Default::default()
        },
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let cpu_start = cpu_seconds();
    let parsed = if args.iter().any(|a| a == "--json") {
        taintlab_input::parse_json(&text, &opts)
    } else if args.iter().any(|a| a == "--yaml") {
        taintlab_input::parse_yaml(&text, &opts)
    } else {
        taintlab_input::parse_with(&text, &opts)
    };
    let elapsed = start.elapsed();
    let cpu = cpu_seconds() - cpu_start;
    if !quiet {
        println!(
            "{}",
            serde_json::to_string_pretty(&parsed).expect("serializable")
        );
    }
    for d in &parsed.diagnostics {
        eprintln!("{d}");
    }
    if args.iter().any(|a| a == "--baseline") {
        let start = std::time::Instant::now();
        let cpu_start = cpu_seconds();
        let v: Result<serde_json::Value, _> = serde_json::from_str(&text);
        let elapsed = start.elapsed();
        let cpu = cpu_seconds() - cpu_start;
        eprintln!(
            "baseline serde_json::Value ({}): {:.3}s ({:.0} MB/s), CPU time {:.2}s ({:.0} MB/s of CPU)",
            if v.is_ok() { "read" } else { "not JSON" },
            elapsed.as_secs_f64(),
            text.len() as f64 / elapsed.as_secs_f64() / 1e6,
            cpu,
            text.len() as f64 / cpu.max(1e-9) / 1e6,
        );
    }
    let hwm = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|k| k.parse::<u64>().ok())
            })
        })
        .unwrap_or(0);
    eprintln!(
        "input {} bytes, {} nodes, {} workloads, parsed in {:.3}s ({:.0} MB/s), CPU time {:.2}s ({:.0} MB/s of CPU), peak memory {} KiB ({:.2}x input)",
        text.len(),
        parsed.nodes.len(),
        parsed.workloads.len(),
        elapsed.as_secs_f64(),
        text.len() as f64 / elapsed.as_secs_f64() / 1e6,
        cpu,
        text.len() as f64 / cpu.max(1e-9) / 1e6,
        hwm,
        (hwm * 1024) as f64 / text.len().max(1) as f64
    );
}

/// User and system CPU time of this thread so far (from `/proc/thread-self/stat`, in
/// clock ticks of 10 ms), so that a shared machine's load does not count.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // Fields after the command name in parentheses; utime and stime are fields 14, 15.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    (f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)) as f64 / 100.0
}
