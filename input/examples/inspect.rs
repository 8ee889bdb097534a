//! Prints what `taintlab_input::parse` reads from a file (or stdin) as JSON, then the
//! diagnostics, then the peak memory of the process (`VmHWM`) against the input size.
//!
//! `cargo run --release -p taintlab-input --example inspect -- FILE [--quiet] [--json|--yaml]`

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
    let parsed = if args.iter().any(|a| a == "--json") {
        taintlab_input::parse_json(&text, &opts)
    } else if args.iter().any(|a| a == "--yaml") {
        taintlab_input::parse_yaml(&text, &opts)
    } else {
        taintlab_input::parse_with(&text, &opts)
    };
    let elapsed = start.elapsed();
    if !quiet {
        println!(
            "{}",
            serde_json::to_string_pretty(&parsed).expect("serializable")
        );
    }
    for d in &parsed.diagnostics {
        eprintln!("{d}");
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
        "input {} bytes, {} nodes, {} workloads, parsed in {:.3}s ({:.0} MB/s), peak memory {} KiB ({:.2}x input)",
        text.len(),
        parsed.nodes.len(),
        parsed.workloads.len(),
        elapsed.as_secs_f64(),
        text.len() as f64 / elapsed.as_secs_f64() / 1e6,
        hwm,
        (hwm * 1024) as f64 / text.len().max(1) as f64
    );
}
