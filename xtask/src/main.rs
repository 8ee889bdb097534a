//! One entry point for every project task: `cargo xtask <task>`.
//!
//! Tasks install what a fresh machine lacks before they need it (each install is guarded
//! so a machine that already has the tool skips it), so the README's commands work on a
//! new machine as they are.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  test               everything CI runs: format check, clippy -D warnings, all tests,
                     the no_std build, the conformance suite
  conformance [DIR]  run the conformance vectors (default: the shipped ones) or any
                     directory of vector files in the same format
  bench              run the criterion benchmarks
  serve              build and serve the playground on localhost
  setup              install the Rust targets and tools the tasks need
";

/// Rust targets: the no_std proof (wasm32v1-none has no std at all).
const TARGETS: &[&str] = &["wasm32v1-none"];

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("conformance") => conformance(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("serve") => serve(),
        Some("setup") => setup(),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown task {other:?}\n\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn cargo() -> Command {
    let mut c = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

/// Runs a step, printing its name and duration; fails with the step's name.
fn step(name: &str, mut cmd: Command) -> Result<(), String> {
    println!("==> {name}");
    let start = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("{name}: could not start {:?}: {e}", cmd.get_program()))?;
    println!("<== {name}: {:.1}s", start.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("{name} failed ({status})"))
    }
}

fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn setup() -> Result<(), String> {
    let installed = output(Command::new("rustup").args(["target", "list", "--installed"]))
        .ok_or("rustup is needed to add Rust targets")?;
    let missing: Vec<&str> = TARGETS
        .iter()
        .copied()
        .filter(|t| !installed.lines().any(|l| l.trim() == *t))
        .collect();
    if !missing.is_empty() {
        let mut c = Command::new("rustup");
        c.args(["target", "add"]).args(&missing);
        step(&format!("rustup target add {}", missing.join(" ")), c)?;
    }
    let components = output(Command::new("rustup").args(["component", "list", "--installed"]))
        .unwrap_or_default();
    for comp in ["rustfmt", "clippy"] {
        if !components.lines().any(|l| l.starts_with(comp)) {
            let mut c = Command::new("rustup");
            c.args(["component", "add", comp]);
            step(&format!("rustup component add {comp}"), c)?;
        }
    }
    Ok(())
}

fn test() -> Result<(), String> {
    setup()?;
    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--", "--check"]);
    step("format check", fmt)?;

    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ]);
    step("clippy", clippy)?;

    let mut tests = cargo();
    tests.args(["test", "--workspace", "--locked"]);
    step("tests", tests)?;

    let mut nostd = cargo();
    nostd.args([
        "build",
        "-p",
        "taintlab-core",
        "--no-default-features",
        "--features",
        "serde",
        "--target",
        "wasm32v1-none",
        "--locked",
    ]);
    step("no_std build (wasm32v1-none)", nostd)?;

    conformance(&[])?;
    println!("xtask test: all steps passed");
    Ok(())
}

fn conformance(dirs: &[String]) -> Result<(), String> {
    let mut c = cargo();
    c.args([
        "run",
        "--quiet",
        "--locked",
        "-p",
        "taintlab-conformance",
        "--",
    ]);
    for d in dirs {
        // Resolve relative to where the user ran the command, not the workspace root.
        let p = Path::new(d);
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            env::current_dir().map_err(|e| e.to_string())?.join(p)
        };
        c.arg(abs);
    }
    step("conformance vectors", c)
}

fn bench(extra: &[String]) -> Result<(), String> {
    let mut c = cargo();
    c.args(["bench", "--locked", "-p", "taintlab-core", "-p", "taintlab-input"]);
    if !extra.is_empty() {
        c.arg("--").args(extra);
    }
    step("benchmarks", c)
}

fn serve() -> Result<(), String> {
    if !root().join("web").join("Cargo.toml").exists() {
        return Err(
            "the playground is not built yet: web/ does not exist in this checkout. \
             Until it lands, use the core crate (see README) or run `cargo xtask test`."
                .into(),
        );
    }
    Err("web/ exists but `cargo xtask serve` does not know how to build it yet".into())
}
