//! One entry point for every project task: `cargo xtask <task>`.
//!
//! Tasks install what a fresh machine lacks before they need it (each install is guarded
//! so a machine that already has the tool skips it), so the README's commands work on a
//! new machine as they are.

mod npm;
mod web;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  test               everything CI runs: format check, clippy -D warnings, all tests
                     (including the Kubewarden policy through a real waPC host), the
                     no_std build, the conformance suite, the playground's component,
                     budget and end-to-end tests, the npm package's tests
  conformance [DIR]  run the conformance vectors (default: the shipped ones) or any
                     directory of vector files in the same format
  bench              run the criterion benchmarks
  serve              build and serve the playground on localhost
  policy             build the Kubewarden policy (policy.wasm, wasm32-wasip1)
  web                build the playground into dist/
  npm [setup|build|test]  the npm package: install its tools, build the tarball
                     (target/npm/), or build and test it
  setup              install the Rust targets and tools the tasks need
";

/// Rust targets: the no_std proof (wasm32v1-none has no std at all), the Kubewarden
/// policy (wasm32-wasip1), the playground and the npm package (wasm32-unknown-unknown).
const TARGETS: &[&str] = &["wasm32v1-none", "wasm32-wasip1", "wasm32-unknown-unknown"];

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("conformance") => conformance(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("serve") => web::serve(),
        Some("policy") => policy(),
        Some("web") => web::build(),
        Some("npm") => match args.get(1).map(String::as_str) {
            Some("setup") => npm::setup(),
            Some("test") => npm::test(),
            None | Some("build") => npm::build(),
            Some(other) => Err(format!("unknown npm task {other:?} (setup, build or test)")),
        },
        Some("setup") => setup()
            .and_then(|()| web::setup())
            .and_then(|()| npm::setup()),
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

    // The policy's end-to-end tests load the built policy.wasm.
    policy()?;
    let mut tests = cargo();
    tests
        .args(["test", "--workspace", "--locked"])
        .env("TAINTLAB_POLICY_WASM", policy_wasm());
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
    web::test()?;
    npm::test()?;
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
    c.args([
        "bench",
        "--locked",
        "-p",
        "taintlab-core",
        "-p",
        "taintlab-input",
    ]);
    if !extra.is_empty() {
        c.arg("--").args(extra);
    }
    step("benchmarks", c)
}

/// Builds the Kubewarden policy for wasm32-wasip1 with the `policy` profile, then
/// wasm-opt -O2 (npm binaryen 132) into `<target>/wasm32-wasip1/policy/policy.wasm`,
/// the module to ship and the one the end-to-end tests load.
fn policy() -> Result<(), String> {
    let mut c = cargo();
    c.args([
        "build",
        "--locked",
        "-p",
        "taintlab-kubewarden",
        "--target",
        "wasm32-wasip1",
        "--profile",
        "policy",
    ]);
    step("Kubewarden policy (wasm32-wasip1)", c)?;
    let wasm_opt = root().join("node_modules/.bin/wasm-opt");
    if !wasm_opt.exists() {
        let mut npm = Command::new("npm");
        npm.arg("ci").current_dir(root());
        step("npm ci (binaryen for wasm-opt)", npm)?;
    }
    let dir = target_dir().join("wasm32-wasip1").join("policy");
    let mut opt = Command::new(wasm_opt);
    opt.arg("-O2")
        .args([
            "--enable-bulk-memory",
            "--enable-bulk-memory-opt",
            "--enable-call-indirect-overlong",
            "--enable-extended-const",
            "--enable-multivalue",
            "--enable-mutable-globals",
            "--enable-nontrapping-float-to-int",
            "--enable-reference-types",
            "--enable-sign-ext",
        ])
        .arg(dir.join("taintlab_kubewarden.wasm"))
        .arg("-o")
        .arg(policy_wasm());
    step("wasm-opt -O2 (policy.wasm)", opt)
}

fn target_dir() -> PathBuf {
    env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// The shipped policy module.
fn policy_wasm() -> PathBuf {
    target_dir()
        .join("wasm32-wasip1")
        .join("policy")
        .join("policy.wasm")
}
